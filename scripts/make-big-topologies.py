#!/usr/bin/env python3
"""Writes the three big topologies of docs/decisions/2026-11-24-fuzzer.md into the folder given
(default /tmp): 200 000 keys in one object, 100 000 unknown keys on one minified line, and
20 000 nodes with 5 000 flows naming unknown nodes. Time them with `adhocsim validate`."""
import json, os, sys

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp"
os.makedirs(out, exist_ok=True)
nodes = [{"id": "A", "position": [0, 0, 1.2]}, {"id": "B", "position": [10, 0, 1.2]}]
base = {"name": "big", "seed": 1, "duration_s": 10, "environment": {"preset": "city"}, "nodes": nodes, "flows": []}

keys = dict(base, x={f"key{i:07d}xx": i for i in range(200_000)})
errors = dict(base, **{f"an_unknown_key_number_{i:07d}": 1234567 for i in range(100_000)})
many = [{"id": f"n{i}", "position": [i % 100 * 10, i // 100 * 10, 1.2]} for i in range(20_000)]
flows = [{"id": f"f{i}", "from": f"q{i}", "to": "n1", "protocol": "udp",
          "workload": {"kind": "cbr", "rateMbps": 1, "size": 100}} for i in range(5_000)]
refs = dict(base, nodes=many, flows=flows)
for name, doc in [("big4-keys", keys), ("big4-errors", errors), ("big-refs", refs)]:
    with open(os.path.join(out, name + ".json"), "w") as f:
        f.write(json.dumps(doc, separators=(",", ":")))
