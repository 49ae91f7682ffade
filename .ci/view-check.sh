#!/usr/bin/env bash
# Opens view.html of the mesh-chat example and of a two-phone thesis test in headless Chromium and
# checks that the page loads with no errors (uncaught exceptions and console.error calls are
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
# A tampered timeline: a message's id and a phone's id carry markup and an inline
# event handler. They are well-typed strings, so `view` accepts the file; the page must show
# them as text: no element they describe exists, and the handler never runs (the page's
# Content-Security-Policy forbids inline handlers in any case).
python3 - "$OUT/chat/timeline.jsonl" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
payload = '<b id=\\"pwned\\">x</b><img src=x onerror=\\"document.body.dataset.pwned=1\\">'
for old in ('"id":"chat"', '"id":"p00"'):
    text = text.replace(old, '"id":"' + payload + '"', 1)
open(path, "w", encoding="utf-8").write(text)
PY
grep -q 'pwned' "$OUT/chat/timeline.jsonl" || { echo "view-check: the tampering did not apply"; exit 1; }
"$BIN" view "$OUT/chat" >/dev/null
dom=$(browse --dump-dom "file://$OUT/chat/view.html#t=30&msg=0")
grep -q 'data-ready="yes"' <<<"$dom" || { echo "view-check: the tampered view did not finish loading"; exit 1; }
if grep -q '<b id="pwned">\|data-pwned="1"' <<<"$dom"; then echo "view-check: tampered timeline values became markup"; exit 1; fi
grep -q '&lt;b id="pwned"&gt;\|&lt;b id=&quot;pwned&quot;&gt;' <<<"$dom" || { echo "view-check: the tampered value is not shown as text"; exit 1; }
# A timeline cut short is refused (exit 2) and no page is written.
head -c 2000 "$OUT/thesis/timeline.jsonl" > "$OUT/thesis/cut" && mv "$OUT/thesis/cut" "$OUT/thesis/timeline.jsonl"
rm -f "$OUT/thesis/view.html"
set +e; "$BIN" view "$OUT/thesis" 2>/dev/null; status=$?; set -e
[ "$status" -eq 2 ] && [ ! -e "$OUT/thesis/view.html" ] || { echo "view-check: a cut timeline gave exit $status"; exit 1; }
# The chart pages of a sweep and of its comparison with field data: each loads in Chromium with
# one image per chart written, each image a file there.
mkdir -p "$OUT/sweep"
cp results/thesis-2025/cells.csv "$OUT/sweep/cells.csv"
"$BIN" plot "$OUT/sweep" >/dev/null
"$BIN" compare "$OUT/sweep" --measured topologies/field-data/dev-tests.csv --quiet
for page in plots compare; do
  dom=$(browse --dump-dom "file://$OUT/sweep/$page/index.html")
  images=$(grep -o '<img src="[^"]*"' <<<"$dom" | wc -l)
  charts=$(ls "$OUT/sweep/$page" | grep -c '\.svg$')
  [ "$images" -eq "$charts" ] && [ "$charts" -gt 0 ] || { echo "view-check: $page/index.html shows $images of $charts charts"; exit 1; }
  for f in $(grep -o '<img src="[^"]*"' <<<"$dom" | sed 's/<img src="//; s/"$//'); do
    [ -s "$OUT/sweep/$page/$f" ] || { echo "view-check: $page/index.html names a missing $f"; exit 1; }
  done
  browse --screenshot="$OUT/$page.png" "file://$OUT/sweep/$page/index.html" >/dev/null
  [ -s "$OUT/$page.png" ] || { echo "view-check: no screenshot of $page/index.html"; exit 1; }
done
echo "view-check: mesh-chat and two-phones views load without errors, one element per phone, time moves the picture; tampered values show as text; a cut timeline is refused; the chart pages show every chart"
rm -rf "$OUT"
