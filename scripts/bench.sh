#!/bin/bash
# Current figures for BENCHMARKS.md: best of 3 wall seconds per benchmark, each beside the
# yardstick (the bare 4-ary heap hold loop, P = 1000) measured in the same session.
cd "$(dirname "$0")/.."
B=.build/release/adhocsim
best() { local b=999; for k in 1 2 3; do rm -rf /tmp/bo; /usr/bin/time -o "${TMPDIR:-/tmp}/adhocsim-bench-time.txt" -f "%e %M" "$@" >/dev/null 2>/dev/null; s=$(tail -1 "${TMPDIR:-/tmp}/adhocsim-bench-time.txt"); w=${s% *}; m=${s#* }; if (( $(echo "$w < $b" | bc) )); then b=$w; bm=$m; fi; done; echo "$b $bm"; }
yard=$($B bench core --population 1000 --events 20000000 --compare 2>&1 | tail -1 | sed 's/.*baseline_events_per_s=\([0-9]*\).*/\1/')
echo "yardstick bare-4ary-heap events/s: $yard"
for spec in "saturated-wifi|run topologies/bench/saturated-wifi.json --quiet --out /tmp/bo" \
            "broadcast-1000|run topologies/bench/broadcast-1000.json --quiet --out /tmp/bo" \
            "thesis-cell-tcp|run topologies/bench/thesis-cell-tcp.json --quiet --out /tmp/bo" \
            "two-phones|run topologies/two-phones.json --quiet --out /tmp/bo" \
            "mesh-200|run topologies/bench/mesh-200.json --quiet --out /tmp/bo" \
            "thesis-2025 -j2|sweep topologies/thesis-2025.json -j 2 --quiet --out /tmp/bo" \
            "thesis-plan -j2|sweep topologies/thesis-plan.json -j 2 --quiet --out /tmp/bo" \
            "ble-station-scan|run topologies/ble/station-scan.json --quiet --out /tmp/bo" \
            "ble-identifier-persistence|run topologies/ble/identifier-persistence.json --quiet --out /tmp/bo" \
            "ble-gatt-throughput -j2|sweep topologies/ble/gatt-throughput.json -j 2 --quiet --out /tmp/bo" \
            "mesh-1000|run topologies/bench/mesh-1000.json --quiet --out /tmp/bo"; do
  name=${spec%%|*}; cmd=${spec#*|}
  r=$(best $B $cmd)
  echo "$name: $r"
done
