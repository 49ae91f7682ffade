#!/usr/bin/env python3
"""The speed check of a refactor step: two release builds run alternately on the same
scenarios, best of N wall times each (and the hold model's events/s), so the machine's drift
hits both alike.
  python3 scripts/speed-check.py BEFORE_BINARY AFTER_BINARY [--rounds 5] [--core] [--also FILE...]
Prints one line per benchmark: best before, best after, change in percent."""
import subprocess, sys, tempfile, time, argparse, re, shutil

p = argparse.ArgumentParser()
p.add_argument("before"); p.add_argument("after")
p.add_argument("--rounds", type=int, default=5)
p.add_argument("--core", action="store_true", help="also the hold model (bench core, P = 1 000)")
p.add_argument("--also", nargs="*", default=[], help="more scenario files (for instance topologies/bench/mesh-1000.json)")
a = p.parse_args()
benches = ["topologies/bench/saturated-wifi.json", "topologies/bench/broadcast-1000.json",
           "topologies/bench/thesis-cell-tcp.json", "topologies/bench/mesh-200.json"] + a.also
best = {}
def run(binary, scenario):
    out = tempfile.mkdtemp()
    t = time.perf_counter()
    subprocess.run([binary, "run", scenario, "--quiet", "--out", out], check=True, stdout=subprocess.DEVNULL)
    dt = time.perf_counter() - t
    shutil.rmtree(out)
    return dt
def core(binary):
    text = subprocess.run([binary, "bench", "core", "--population", "1000", "--events", "20000000", "--no-baseline"],
                          check=True, capture_output=True, text=True).stdout
    m = re.search(r"^events_per_s=(\d+)", text, re.M)
    return float(m.group(1)) if m else float("nan")
for r in range(a.rounds):
    for label, binary in (("before", a.before), ("after", a.after)) if r % 2 == 0 else (("after", a.after), ("before", a.before)):
        for s in benches:
            dt = run(binary, s)
            best[(s, label)] = min(best.get((s, label), 1e9), dt)
        if a.core:
            ev = core(binary)
            best[("core", label)] = max(best.get(("core", label), 0), ev)
for s in benches:
    b, f = best[(s, "before")], best[(s, "after")]
    print(f"{s.split('/')[-1][:-5]:20s} before {b:.3f} s  after {f:.3f} s  change {100 * (f / b - 1):+.1f} %")
if a.core:
    b, f = best[("core", "before")], best[("core", "after")]
    print(f"{'hold model P=1000':20s} before {b:,.0f} ev/s  after {f:,.0f} ev/s  change {100 * (f / b - 1):+.1f} %")
