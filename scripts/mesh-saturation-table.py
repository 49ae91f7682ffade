#!/usr/bin/env python3
"""The mesh-saturation table of docs/mesh.md from a sweep's cells.csv: means per phone count over the runs
(link and mesh-wide columns once per run, message delivery over every workload row).

    python3 scripts/mesh-saturation-table.py results/mesh-saturation/cells.csv
"""
import csv,sys,collections
rows=list(csv.DictReader(open(sys.argv[1])))
by=collections.defaultdict(list)
for r in rows: by[int(r['param.nodes.count'])].append(r)
def mean(xs): xs=[float(x) for x in xs if x!='']; return sum(xs)/len(xs) if xs else float('nan')
for n in sorted(by):
    rs=by[n]
    # one row per workload; the link/mesh-wide columns repeat per unit: take per unit (cell,repeat) unique
    units={}
    for r in rs: units.setdefault((r['cell_id'],r['repeat']),[]).append(r)
    u=[v[0] for v in units.values()]
    frames=mean([x['link_frames_sent'] for x in u]); dec=mean([x['link_received_per_frame'] for x in u]); lost=mean([x['link_failed_per_frame'] for x in u])
    ref=mean([x['link_queue_refusals'] for x in u]); routed=mean([float(x['mesh_pairs_routed'])/float(x['mesh_pairs'])*100 for x in u])
    est=mean([x['mesh_establishment_mean_s'] for x in u]); join=mean([x['mesh_join_time_mean_s'] for x in u])
    deliv=mean([x['mesh_delivery_ratio'] for x in rs])*100; ctrl=mean([x['mesh_control_bytes_per_node_per_s'] for x in u])
    print(f"| {n} | {frames:,.0f} | {dec:.1f} | {lost:.1f} | {ref:,.0f} | {routed:.1f} % | {est:.1f} s | {join:.2f} s | {deliv:.0f} % | {ctrl:,.0f} |".replace(',', ' '))
