#!/usr/bin/env python3
"""The hop table of docs/mesh.md from a mesh-hops sweep's cells.csv: per hop count, the median
over the runs of each transport's goodput and mean RTT, the runs whose datagrams waited for a
route, and the medians over the row's runs of the mean join time and route establishment.

    python3 scripts/mesh-hops-table.py results/mesh-hops/cells.csv
"""
import csv, statistics, sys, collections

rows = list(csv.DictReader(open(sys.argv[1])))
# Each run writes its flow's row and the mesh's own row (no flow); join them by run.
mesh = {(r["cell_id"], r["repeat"]): r for r in rows if r["flow"] == ""}
by = collections.defaultdict(list)
for r in rows:
    if r["flow"] != "":
        by[int(r["mesh_flow_hops"])].append(r)
med = lambda xs: statistics.median([float(x) for x in xs if x != ""]) if any(x != "" for x in xs) else float("nan")
for h in sorted(by):
    rs = by[h]
    cells = []
    for p in ["tcp", "udp", "quic"]:
        mine = [r for r in rs if r["protocol"] == p]
        cells += [f"{med([r['goodput_mbps'] for r in mine]):.1f} Mbit/s", f"{med([r['rtt_p50_ms'] for r in mine]):.0f} ms"]
    waited = sum(1 for r in rs if r["mesh_flow_waited_for_route"] not in ("", "0"))
    join = med([mesh[(r["cell_id"], r["repeat"])]["mesh_join_time_mean_s"] for r in rs])
    est = med([mesh[(r["cell_id"], r["repeat"])]["mesh_establishment_mean_s"] for r in rs])
    print(f"| {h} | " + " | ".join(cells) + f" | {waited} of {len(rs)} | {join:.3f} s | {est:.2f} s |")
