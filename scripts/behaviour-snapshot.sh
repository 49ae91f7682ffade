#!/usr/bin/env bash
# Prints one line per result file of every shipped topology (run) and of both thesis matrices
# (sweep): "<sha256>  <scenario>/<file>". Wall-clock fields are removed from metadata.json
# first, so two builds with the same behaviour print the same lines (event fingerprints
# included). Used to show that a refactor is byte-identical:
#   scripts/behaviour-snapshot.sh BINARY > before.txt   (old build)
#   scripts/behaviour-snapshot.sh BINARY > after.txt    (new build); diff before.txt after.txt
# The heavy mesh benchmarks (mesh-500/1000/2000, mesh-city-*, mesh-forest-*) are left out: minutes each.
set -euo pipefail
BIN=${1:?usage: scripts/behaviour-snapshot.sh path/to/adhocsim}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
digest() { # folder label
  [ -d "$1" ] || { echo "no result folder  $2"; return; }
  (cd "$1" && find . -type f ! -path './plots/*' | LC_ALL=C sort | while read -r f; do
     if [ "$(basename "$f")" = metadata.json ]; then
       grep -v '"wall_time_s"' "$f" | sha256sum | sed "s|-\$|$2/${f#./}|"
     else
       sha256sum "$f" | sed "s|  \./|  $2/|"
     fi
   done)
}
for f in topologies/*.json topologies/*/*.json; do
  case "$f" in
    topologies/thesis-*.json|topologies/mesh-compare.json|topologies/scenario.schema.json) continue ;;
    */mesh-500.json|*/mesh-1000.json|*/mesh-2000.json|*/mesh-city-*.json|*/mesh-forest-*.json) continue ;;
  esac
  label=${f#topologies/}; label=${label%.json}
  "$BIN" run "$f" --quiet --pcap --out "$WORK/run" >/dev/null 2>&1 || true
  digest "$WORK/run" "$label"
  rm -rf "$WORK/run"
done
for f in topologies/thesis-plan.json topologies/thesis-2025.json topologies/thesis-2025-solo.json topologies/mesh-compare.json; do
  label=${f#topologies/}; label=${label%.json}
  "$BIN" sweep "$f" -j 2 --quiet --out "$WORK/sweep" >/dev/null 2>&1
  digest "$WORK/sweep" "$label"
  rm -rf "$WORK/sweep"
done
