#!/usr/bin/env bash
# Opens view.html of the mesh-chat example and of a two-phone thesis test in headless Chromium
# (issue #15): the page loads with no errors (uncaught exceptions and console.error calls are
# counted on <body data-errors>), the DOM holds one element per phone, and a screenshot after
# seeking to the failure time (85 s, after p11 and p22 fail at 80 s) differs from one at t = 0.
set -euo pipefail
BIN=${1:-.build/debug/adhocsim}
OUT=$(mktemp -d)
CHROMIUM=$(command -v chromium || command -v chromium-browser)
browse() { timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,760 "$@" 2>/dev/null; }
check() { # DIR NODES
  local dom
  dom=$(browse --dump-dom "file://$1/view.html")
  grep -q 'data-ready="yes"' <<<"$dom" || { echo "view-check: $1/view.html did not finish loading"; exit 1; }
  grep -q 'data-errors="0"' <<<"$dom" || { echo "view-check: $1/view.html reported errors: $(grep -o 'data-errors="[0-9]*"' <<<"$dom")"; exit 1; }
  local nodes
  nodes=$(grep -o 'class="node"' <<<"$dom" | wc -l)
  [ "$nodes" -eq "$2" ] || { echo "view-check: $1/view.html has $nodes phone elements, expected $2"; exit 1; }
}
"$BIN" run topologies/examples/mesh-chat.json --view --quiet --out "$OUT/chat"
check "$OUT/chat" 16
browse --screenshot="$OUT/chat-0.png" "file://$OUT/chat/view.html#t=0" >/dev/null
browse --screenshot="$OUT/chat-85.png" "file://$OUT/chat/view.html#t=85" >/dev/null
[ -s "$OUT/chat-0.png" ] && [ -s "$OUT/chat-85.png" ] || { echo "view-check: no screenshot"; exit 1; }
if cmp -s "$OUT/chat-0.png" "$OUT/chat-85.png"; then echo "view-check: the view at 85 s looks the same as at 0 s"; exit 1; fi
"$BIN" run topologies/two-phones.json --view --quiet --out "$OUT/thesis"
check "$OUT/thesis" 2
echo "view-check: mesh-chat and two-phones views load without errors, one element per phone, time moves the picture"
rm -rf "$OUT"
