#!/usr/bin/env python3
"""Prints the interaction cutoff's error against the exact model from a sweep.

The sweep runs one bench over seeds and margins, the exact model among them:
  adhocsim sweep topologies/bench/mesh-1000.json -j 2 --out DIR \\
    --matrix '{"seed": [1, 2, 3, 4, 5], "radio.interactionMarginDb": [null, 3, 5]}'
  python3 scripts/cutoff-error.py DIR [DIR ...]

For each bench and margin: the mean over the seeds of every mesh figure the sweep reports,
as a difference from the exact model's mean (percent; delivery ratio in percentage points),
and the largest of them. The issue's budget is 2 % (or 2 percentage points).
"""
import csv
import os
import sys

FIGURES = [
    ("mesh_pairs_routed", "pairs routed", "pct"),
    ("mesh_establishment_mean_s", "establishment mean", "pct"),
    ("mesh_establishment_p50_s", "establishment p50", "pct"),
    ("mesh_establishment_p95_s", "establishment p95", "pct"),
    ("mesh_control_bytes_per_node_per_s", "control bytes per phone", "pct"),
    ("mesh_delivery_ratio", "delivery ratio", "pp"),
    ("mesh_repaired_pairs", "repaired pairs", "pct"),
    ("mesh_repair_mean_s", "repair mean", "pct"),
    ("link_frames_sent", "frames sent", "pct"),
    ("link_received_per_frame", "receptions per frame", "pct"),
    ("link_failed_per_frame", "failures per frame", "pct"),
]


def load(folder):
    with open(os.path.join(folder, "cells.csv")) as f:
        rows = list(csv.DictReader(f))
    name = os.path.basename(os.path.normpath(folder))
    with open(os.path.join(folder, "metadata.json")) as f:
        text = f.read()
    marker = '"scenario": "'
    if marker in text:
        name = text.split(marker, 1)[1].split('"', 1)[0]
    # The mesh's rows of a run: one network row without message workloads, else one per
    # workload with the network's figures repeated; the delivery ratio is then the mean over
    # the run's workloads.
    runs = {}
    for r in rows:
        if r.get("mesh_nodes", "") == "":
            continue
        margin = r.get("param.radio.interactionMarginDb", "")
        key = (margin if margin not in ("", "null") else "exact", r["seed"])
        runs.setdefault(key, []).append(r)
    by_margin = {}
    for (margin, seed), group in runs.items():
        row = dict(group[0])
        ratios = [float(g["mesh_delivery_ratio"]) for g in group if g.get("mesh_delivery_ratio", "") != ""]
        row["mesh_delivery_ratio"] = str(sum(ratios) / len(ratios)) if ratios else ""
        by_margin.setdefault(margin, {})[seed] = row
    return name, by_margin


def mean(values):
    return sum(values) / len(values) if values else None


def main(folders):
    for folder in folders:
        name, by_margin = load(folder)
        exact = by_margin.get("exact")
        if not exact:
            print(f"{folder}: no exact runs")
            continue
        print(f"## {name} ({len(exact)} seeds)")
        header = ["margin"] + [label for _, label, _ in FIGURES] + ["largest"]
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        cells = ["exact"]
        for column, _, _ in FIGURES:
            v = [float(r[column]) for r in exact.values() if r.get(column, "") != ""]
            m = mean(v)
            if m is None:
                cells.append("")
            elif abs(m) >= 1000:
                cells.append(f"{m:,.0f}".replace(",", " "))
            else:
                cells.append(f"{m:.4g}")
        print("| " + " | ".join(cells + [""]) + " |")
        for margin in sorted((m for m in by_margin if m != "exact"), key=float):
            runs = by_margin[margin]
            seeds = sorted(set(runs) & set(exact))
            cells, worst = [f"{margin} dB"], 0.0
            for column, _, kind in FIGURES:
                a = [float(runs[s][column]) for s in seeds if runs[s].get(column, "") != ""]
                e = [float(exact[s][column]) for s in seeds if exact[s].get(column, "") != ""]
                ma, me = mean(a), mean(e)
                if ma is None or me is None or (kind == "pct" and me == 0):
                    cells.append("")
                    continue
                d = (ma - me) * 100 if kind == "pp" else (ma / me - 1) * 100
                if column in ("link_received_per_frame", "link_failed_per_frame", "link_frames_sent"):
                    pass  # the link's figures are shown, the budget is the mesh's
                else:
                    worst = max(worst, abs(d))
                cells.append(f"{d:+.2f} {'pp' if kind == 'pp' else '%'}")
            print("| " + " | ".join(cells + [f"{worst:.2f}"]) + " |")
        print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
