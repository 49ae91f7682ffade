#!/usr/bin/env python3
"""Writes topologies/ble/station-scan.json: one iPhone scanning a station crowd.

Seed 004 (Table 5.4) scanned about 1000 BLE devices in each of three visits to Zurich main
station's hall and lower level, 56-59 % of them connectable. This script builds that crowd;
everything the thesis does not report is an assumption, listed here:

- every antenna 1.2 m above the floor (a phone in hand; tags carried or on a table), as in the
  Wi-Fi topologies;
- 1000 advertisers spread uniformly over a 120 m x 40 m underground hall, the scanner in the
  middle (the lower level's size is an assumption; every device is within BLE range there, as
  the thesis's counts suggest);
- 58 % ADV_IND (the thesis's connectable share), 30 % ADV_NONCONN_IND, 12 % ADV_SCAN_IND;
- advertising interval: 2 % at 20 ms (Apple asks accessories for 20 ms only during their
  first 30 s, so few devices of a standing crowd are in that phase), the rest uniform over
  iBeacon's 100 ms and Apple's longer intervals (152.5, 211.25, 318.75, 417.5, 546.25, 760,
  852.5, 1022.5, 1285 ms; radio.md);
- address types: 80 % resolvable, 5 % non-resolvable, 10 % random static, 5 % public;
- TX power uniform on -8...+8 dBm, 20 % advertise it; AdvData 8-31 bytes; scannable devices
  answer with 0-31 bytes of scan response;
- 10 phones in the crowd doing AWDL (load 0.3 of slot 8 on channel 6) and 6 Wi-Fi hotspots
  on channels 1, 6, 11 (load 0.2), each at the phone's 16 dBm.
The generator is seeded, so the file is reproducible byte for byte.
"""
import json
import random

rng = random.Random(4)
INTERVALS = [100, 152.5, 211.25, 318.75, 417.5, 546.25, 760, 852.5, 1022.5, 1285]
W, H = 120.0, 40.0

nodes = [{"id": "scanner", "position": [W / 2, H / 2, 1.2]}]
advertisers = []
for i in range(1000):
    nid = f"d{i:04d}"
    nodes.append({"id": nid, "position": [round(rng.uniform(0, W), 2), round(rng.uniform(0, H), 2), 1.2]})
    u = rng.random()
    pdu = "ADV_IND" if u < 0.58 else ("ADV_NONCONN_IND" if u < 0.88 else "ADV_SCAN_IND")
    v = rng.random()
    address = "resolvable" if v < 0.80 else ("non-resolvable" if v < 0.85 else ("random-static" if v < 0.95 else "public"))
    a = {
        "node": nid,
        "pdu": pdu,
        "intervalMs": 20 if rng.random() < 0.02 else rng.choice(INTERVALS),
        "payloadBytes": rng.randint(8, 31),
        "txPowerDbm": rng.randint(-8, 8),
        "address": address,
    }
    if rng.random() < 0.2:
        a["advertisesTxPower"] = True
    if pdu != "ADV_NONCONN_IND":
        a["scanResponseBytes"] = rng.randint(0, 31)
    advertisers.append(a)

wifi = []
for i in range(10):
    nid = f"awdl{i}"
    nodes.append({"id": nid, "position": [round(rng.uniform(0, W), 2), round(rng.uniform(0, H), 2), 1.2]})
    wifi.append({"node": nid, "pattern": "awdl", "load": 0.3})
for i, ch in enumerate([1, 6, 11, 1, 6, 11]):
    nid = f"hotspot{i}"
    nodes.append({"id": nid, "position": [round(rng.uniform(0, W), 2), round(rng.uniform(0, H), 2), 1.2]})
    wifi.append({"node": nid, "pattern": "continuous", "channel": ch, "load": 0.2})

scenario = {
    "name": "ble-station-scan",
    "seed": 1,
    "duration_s": 60,
    "environment": {"preset": "underground"},
    "nodes": nodes,
    "ble": {
        "advertisers": advertisers,
        "scanners": [{"node": "scanner", "profile": "ios-foreground"}],
        "wifi": wifi,
    },
}
with open("topologies/ble/station-scan.json", "w") as f:
    json.dump(scenario, f, indent=1)
    f.write("\n")
