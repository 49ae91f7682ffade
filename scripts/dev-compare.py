#!/usr/bin/env python3
"""Compare a thesis-2025 sweep with the development set of real iPhone tests.

Usage: dev-compare.py SWEEP_DIR/cells.csv [FIELD_DATA_CSV] [--places Field,Forest] [--cells]

FIELD_DATA_CSV defaults to topologies/field-data/dev-tests.csv (MatthiasBart/
evaluation_notebook, Field and Forest of 1 May 2025 and the Home/Forest pilot; see that
folder's README). Prints the development set's figures, computed as its text defines them:

- probe medians: median over tests of the mean probe RTT and of the app's SD (sample SD,
  n - 1), per place x protocol; "within 1.5x" when max(sim/real, real/sim) <= 1.5;
- rate medians: median data rate (server, as the app computes it) per place x protocol x S x N,
  over the cells that have at least 2 real tests; "within 2x";
- UDP-loss medians per S x N (both places together); "within 10 percentage points";
- the RMS of ln(sim/real) over the probe and rate medians.

The simulated medians are over every run of the sweep in the cell (distances and repeats
together), as the real medians are over every test at 1, 5 and 10 m. Only study rows (and
pilot rows of the same places) with N and S inside the matrix count.
"""
import csv
import math
import os
import statistics
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
flags = [a for a in sys.argv[1:] if a.startswith("--")]
places = ["Field", "Forest"]
for f in flags:
    if f.startswith("--places="):
        places = f.split("=", 1)[1].split(",")
show_cells = "--cells" in flags
if not args:
    sys.exit(__doc__)
sim_path = args[0]
here = os.path.dirname(os.path.abspath(__file__))
real_path = args[1] if len(args) > 1 else os.path.join(here, "../topologies/field-data/dev-tests.csv")

real = list(csv.DictReader(open(real_path)))
sim = list(csv.DictReader(open(sim_path)))
PROTOS = ["TCP", "UDP", "QUIC"]
SIZES = ["128", "4096", "9216"]
COUNTS = ["100", "1000", "10000"]


def med(xs):
    return statistics.median(xs) if xs else None


def sim_rows(place, proto):
    return [r for r in sim if r["environment"] == place.lower() and r["protocol"] == proto.lower()]


def ratio_ok(s, r, k):
    return s is not None and r is not None and s > 0 and r > 0 and max(s / r, r / s) <= k


def header(*columns):
    """A Markdown table's header and rule."""
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))


logs = []
print("Probe medians (mean RTT ms and app SD ms; real: median over tests; sim: over runs)")
header("place", "protocol", "real RTT", "sim RTT", "real SD", "sim SD", "within 1.5x")
probe_ok = probe_n = 0
for place in places:
    for proto in PROTOS:
        rr = [r for r in real if r["side"] == "client" and r["dataset"] == "study" and r["place"] == place and r["protocol"] == proto]
        if not rr:
            continue
        real_rtt = med([float(r["rtt_mean_ms"]) for r in rr])
        real_sd = med([float(r["rtt_sd_sample_ms"]) for r in rr])
        ss = [r for r in sim_rows(place, proto) if r["rtt_mean_ms"] not in ("", "nan")]
        sd_col = "rtt_sd_sample_ms" if ss and "rtt_sd_sample_ms" in ss[0] else "rtt_sd_ms"
        sim_rtt = med([float(r["rtt_mean_ms"]) for r in ss])
        sim_sd = med([float(r[sd_col]) for r in ss if r[sd_col] not in ("", "nan")])
        oks = [ratio_ok(sim_rtt, real_rtt, 1.5), ratio_ok(sim_sd, real_sd, 1.5)]
        probe_ok += sum(oks)
        probe_n += 2
        for s, r in [(sim_rtt, real_rtt), (sim_sd, real_sd)]:
            if s and r:
                logs.append(math.log(s / r))
        fmt = lambda v: "—" if v is None else f"{v:.1f}"
        print(f"| {place} | {proto} | {fmt(real_rtt)} | {fmt(sim_rtt)} | {fmt(real_sd)} | {fmt(sim_sd)} | {sum(oks)}/2 |")

print()
rate_ok = rate_n = 0
rate_lines = []
for place in places:
    for proto in PROTOS:
        for size in SIZES:
            for count in COUNTS:
                rr = [float(r["rate_mbps"]) for r in real if r["side"] == "server" and r["place"] == place
                      and r["protocol"] == proto and r["S"] == size and r["N"] == count
                      and r["failed"] != "1" and r["rate_mbps"] != ""]
                if len(rr) < 2:
                    continue
                ss = [float(r["data_rate_mbps"]) for r in sim_rows(place, proto)
                      if r["size_bytes"] == size and r["packets"] == count and r["data_rate_mbps"] not in ("", "nan")]
                real_m, sim_m = med(rr), med(ss)
                ok = ratio_ok(sim_m, real_m, 2.0)
                rate_ok += ok
                rate_n += 1
                if sim_m and real_m:
                    logs.append(math.log(sim_m / real_m))
                rate_lines.append(f"| {place} | {proto} | {size} | {count} | {real_m:.1f} | "
                                  + ("—" if sim_m is None else f"{sim_m:.1f}") + f" | {'yes' if ok else 'no'} |")
if show_cells:
    print("Rate medians (Mbit/s, server as the app)")
    header("place", "protocol", "S", "N", "real", "sim", "within 2x")
    print("\n".join(rate_lines))
    print()

print("UDP loss medians by S x N (percent; both places)")
header("S", "N", "real", "sim", "within 10 pp")
loss_ok = loss_n = 0
for size in SIZES:
    for count in COUNTS:
        rr = [float(r["loss_pct"]) for r in real if r["side"] == "server" and r["place"] in places
              and r["protocol"] == "UDP" and r["S"] == size and r["N"] == count
              and r["failed"] != "1" and r["loss_pct"] != ""]
        ss = [float(r["loss_pct"]) for r in sim if r["environment"] in [p.lower() for p in places]
              and r["protocol"] == "udp" and r["size_bytes"] == size and r["packets"] == count
              and r["loss_pct"] not in ("", "nan")]
        real_m, sim_m = med(rr), med(ss)
        ok = real_m is not None and sim_m is not None and abs(sim_m - real_m) <= 10
        loss_ok += ok
        loss_n += 1
        print(f"| {size} | {count} | " + ("—" if real_m is None else f"{real_m:.1f}") + " | "
              + ("—" if sim_m is None else f"{sim_m:.1f}") + f" | {'yes' if ok else 'no'} |")

rms = math.exp(math.sqrt(sum(x * x for x in logs) / len(logs))) if logs else float("nan")
print()
print(f"probe medians within 1.5x: {probe_ok}/{probe_n}")
print(f"rate medians within 2x:    {rate_ok}/{rate_n}")
print(f"UDP-loss medians within 10 pp: {loss_ok}/{loss_n}")
print(f"RMS log error: x{rms:.2f}")
