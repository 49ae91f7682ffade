#!/usr/bin/env python3
"""Medians of the thesis metrics by place and by protocol for one or more sweep results.

Usage: fidelity-table.py LABEL=DIR/cells.csv [LABEL=DIR/cells.csv ...]
Prints Markdown tables: probe RTT mean, RTT SD (the thesis's jitter), data rate (server,
as the app), and UDP loss, medians over the sweep's rows, by place and by protocol.
"""
import csv
import statistics
import sys

runs = [arg.split("=", 1) for arg in sys.argv[1:]]
data = {label: list(csv.DictReader(open(path))) for label, path in runs}
metrics = [("rtt_mean_ms", "RTT ms", None), ("rtt_sd_ms", "jitter (SD) ms", None),
           ("data_rate_mbps", "data rate Mbit/s", None), ("loss_pct", "UDP loss %", "udp")]


def median(rows, col, key, value, proto):
    vals = [float(r[col]) for r in rows
            if r[key] == value and r[col] != "" and (proto is None or r["protocol"] == proto)]
    return f"{statistics.median(vals):.1f}" if vals else "—"


for key, title in [("environment", "place"), ("protocol", "protocol")]:
    values = sorted({r[key] for rows in data.values() for r in rows})
    print(f"\nMedians by {title}:\n")
    print("| run | metric | " + " | ".join(values) + " |")
    print("|---|---|" + "---|" * len(values))
    for col, name, proto in metrics:
        for label, rows in data.items():
            cells = [median(rows, col, key, v, proto) for v in values]
            print(f"| {label} | {name} | " + " | ".join(cells) + " |")
