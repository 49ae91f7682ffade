#!/usr/bin/env python3
"""Writes topologies/ble/station-scan.json: one iPhone scanning a station crowd whose devices
advertise what they really carry.

Seed 004 (Table 5.4) scanned about 1000 BLE devices in each of three visits to Zurich main
station (January 2023): 29-42 of them showed the app manufacturer data, 15-19 a local name,
31-49 service data, 561-587 were connectable. None of those counts is typed in here. The
script draws *people* and what they carry, each device kind advertising as its maker's public
notes say (or as a labelled assumption); the simulator then decides what the scanning app is
shown: which devices it discovers, whether a scan response arrives in the crowd, which
devices are silent because they are connected to their phone, and that iOS withholds Apple's
own manufacturer data (seed 004, section 4.1.1).

Sources: ../shared/reference/ble-population.md, with its strength (A a specification, vendor
text or first-party log; B captures or research code; C community reports); what it does not
settle is labelled an assumption. The choices were made from it before the run and are not
moved after it.

Who carries what (per person in the hall):
- a phone: iPhone 48 %, Samsung 35 %, other Android 17 % (Comparis' representative Swiss
  surveys: iPhone 44.3 % in 2020 and 49.4 % in 2024, Samsung "just under 35 %" in 2024, as
  swissinfo.ch reported them; 2023 taken between). Idle Android phones are silent unless an app
  advertises (ESPresense's device table, C). Samsung's offline-finding FD69 beacon comes "mostly
  from smartphones", but how often an online phone sends it is not established (AirGuard, B):
  off by default (`--samsung-fd69`).
- a watch or band: 23 % of people (Destatis ICT survey, German internet users, 2020 and 2022;
  the Swiss 29 % "use one" counts occasional use): an Apple Watch for 25 % of iPhone owners,
  a smartwatch for 10 % of Android owners, a fitness band for 6 % of everyone (half Fitbit, half
  Xiaomi Mi Band), 23.2 % together.
- wireless headphones in use: 27 % of people (Kantar Media TGI: 45 % use headphones, about 60 %
  of them Bluetooth; carried and in use taken as owned, an upper bound): AirPods for three
  quarters of the iPhone owners' ones (assumption), Galaxy Buds for half the Samsung owners'.
- an item tracker: 6 % of people (Bitkom 2024: 6 % locate everyday items): an AirTag for iPhone
  owners, a SmartTag for Samsung owners, a Tile or a Chipolo (half each) for the others.
- an open Windows laptop: 3 % (assumption).
- connected to its phone while carried (so silent unless it advertises when connected): a
  smartwatch, Galaxy Buds and other non-Fast-Pair headphones always (fitness bands and watches
  "only work when not connected", many earbuds go quiet once connected: ESPresense, C), a
  fitness band 90 % of the time (kept connected for notifications; assumption).

How each kind advertises (AD structures checked by the simulator against the 31-octet PDU):
- iPhone: Continuity Nearby Info (type 0x10, 5-octet body: 7 octets after the company id
  0x004C) in ADV_IND with Flags 0x1A (LE General Discoverable, no "BR/EDR not supported") every
  270 ms (an iOS bluetoothd advertising-parameter dump, A: "02 01 1A 0A FF 4C 00 10 05 ...";
  ~270 ms on the 0.625 ms grid), sent continuously whatever the user does (furiousMAC/continuity,
  B); resolvable address. iOS's second advertising set (a separate non-connectable address in
  the same dump) carries something undocumented: not modelled.
- Apple Watch: the same Nearby Info, connectable, advertising whatever the user does and while
  connected to its phone (smashteevee/bluey, ESPresense #209, C); its interval is not known
  (Apple's recommended list, assumption).
- AirPods: Continuity Proximity Pairing (type 0x07, 25-octet body: 27 octets;
  furiousMAC/continuity, messages/proximity_pairing.md), broadcast while in use and connected
  (mstroecker/LinuxPods, docs/ble-proximity-pairing.md); ADV_NONCONN_IND (assumption).
- AirTag near its owner: Find My (type 0x12, furiousMAC/continuity, messages/findmy.md, whose
  full lost-mode message takes 27 octets); the near-owner form's body is assumed 2 octets (4
  after the company id); connectable, ADV_IND ("the LE advertisement needs to be connectable",
  IETF DULT accessory draft, A; one public btmon log of the short frame shows ADV_IND, B); every
  2 s (≤ 2 s recommended by DULT, A).
- Fast Pair headphones (half of the non-Apple, non-Galaxy headphones; assumption): when not in
  pairing mode they advertise Fast Pair account data as service data FE2C, no more than 250 ms
  apart (Google's Fast Pair provider specification: flags octet, account key filter of
  1.2n + 3 = 4 octets for one key with its length octet, salt with its length octet: 9 octets);
  ADV_IND (a Fast Pair provider is a GAP peripheral); while connected too ("the spec does not
  exempt a connected headset", A). A third of them are Sony's, whose scan seed 004 shows
  (Figure 6.1: manufacturer data of Sony, 0x012D, 19 octets, and service UUID FD2A), also
  advertised while connected (assumption), with its local name "LE_WH-1000XM4" (Sony headphones
  put "LE_WH-..." names in the air, ESPresense and public scan logs, B/C; the 31 octets are full,
  so the name goes in the scan response: assumption).
- Galaxy Buds, smartwatches: Samsung manufacturer data 0x0075 (as advertising-content.json), a
  watch's name in its scan response; silent while connected (assumption).
- Fitbit: a 128-bit service UUID and service data 180A (seed 004, Table 5.3); Mi Band: service
  data FE95 (Xiaomi's member UUID, as seed 004's Mi monitor, Table 5.3) and its name in the
  advertising data (assumption).
- Tile: service UUID FEED and service data FEED, 10 octets (seed 004, Table 5.3, Figure 6.2);
  SmartTag: FD59 (Table 5.3); Chipolo: service data FE33 (AirGuard's filters, B; 10 octets,
  assumption); all ADV_IND (connectable, AirGuard, B), random static, 1022.5 ms (as
  identifier-persistence.json).
- Windows laptop: the Connected Devices Platform beacon, Microsoft 0x0006 manufacturer data of
  27 octets ([MS-CDP] 2.2.2.2.2, "Bluetooth advertising beacon"), ADV_NONCONN_IND (assumption).
- intervals no source gives: drawn from Apple's recommended list (152.5 ... 1285 ms; radio.md),
  an assumption as before.

Place: 120 m x 40 m underground hall, the scanner in the middle, people uniform; devices on the
person (phone and tags 1.2 m, watch and band 1.0 m, earbuds 1.6 m, laptop 1.0 m: assumptions).
People are drawn until 1000 devices advertise; the silent ones are in the file too, with their
connection, so the simulator decides what is discovered. 10 phones doing AWDL and 6 hotspots
as before. Seeded: the file is reproducible byte for byte.

Each assumption that decides a Table 5.4 row can be changed on the command line, to see what
it is worth (the shipped file uses none of these):
  --out FILE                   write FILE instead of topologies/ble/station-scan.json
  --watch-pdu PDU              the Apple Watch's PDU (default ADV_IND)
  --iphone-pdu PDU             the iPhone's PDU (default ADV_IND)
  --fast-pair-when-connected B Fast Pair headphones advertise while connected (default yes)
  --band-connected P           share of the time a band is connected to its phone (default 0.9)
  --sony-when-connected B      Sony's headphones advertise while connected (default yes)
  --watch-when-connected B     the Apple Watch advertises while connected to its iPhone (default yes)
  --samsung-fd69 B             Samsung phones send the offline-finding FD69 service data (default no)
  --airtag-pdu PDU             the AirTag's PDU near its owner (default ADV_IND)
  --airpods-share P            AirPods' share of the iPhone owners' headphones (default 0.75)
  --fast-pair-share P          Fast Pair's share of the other non-Galaxy headphones (default 0.5)
  --laptop-share P             people with an open Windows laptop (default 0.03)
The assumptions left without a switch decide no Table 5.4 row: positions, heights and the
intervals no source gives (they move discovery times, not what an app is shown).
"""
import argparse
import json
import random

ap = argparse.ArgumentParser(description="the station crowd of seed 004's Table 5.4")
ap.add_argument("--out", default="topologies/ble/station-scan.json")
ap.add_argument("--watch-pdu", default="ADV_IND")
ap.add_argument("--iphone-pdu", default="ADV_IND")
ap.add_argument("--fast-pair-when-connected", default="yes", choices=["yes", "no"])
ap.add_argument("--band-connected", type=float, default=0.9)
ap.add_argument("--sony-when-connected", default="yes", choices=["yes", "no"])
ap.add_argument("--watch-when-connected", default="yes", choices=["yes", "no"])
ap.add_argument("--samsung-fd69", default="no", choices=["yes", "no"])
ap.add_argument("--airtag-pdu", default="ADV_IND")
ap.add_argument("--airpods-share", type=float, default=0.75)
ap.add_argument("--fast-pair-share", type=float, default=0.5)
ap.add_argument("--laptop-share", type=float, default=0.03)
args = ap.parse_args()

rng = random.Random(4)
APPLE_INTERVALS = [152.5, 211.25, 318.75, 417.5, 546.25, 760, 852.5, 1022.5, 1285]
W, H = 120.0, 40.0
DURATION = 60
FLAGS = {"flags": ["le-general-discoverable", "br-edr-not-supported"]}


def apple(body):
    return {"manufacturer": {"company": "0x004C", "bytes": body}}


def kind(name, pdu, interval, address, data, height, response=None, when_connected=False, connected=False):
    return dict(name=name, pdu=pdu, interval=interval, address=address, data=data, height=height,
                response=response, when_connected=when_connected, connected=connected)


IPHONE_FLAGS = {"flags": ["le-general-discoverable"]}


def iphone():
    return kind("iphone", args.iphone_pdu, 270, "resolvable", [IPHONE_FLAGS, apple(7)], 1.2)


def samsung_phone():
    # Samsung's offline finding (AirGuard `SamsungFindMyMobile.kt`): FD69 service data,
    # connectable; its length is not documented (assumption: 20 octets).
    return kind("samsung-phone", "ADV_IND", rng.choice(APPLE_INTERVALS), "resolvable",
                [FLAGS, {"serviceData16": {"uuid": "FD69", "bytes": 20}}], 1.2)


def apple_watch():
    return kind("apple-watch", args.watch_pdu, rng.choice(APPLE_INTERVALS), "resolvable", [FLAGS, apple(7)], 1.0,
                when_connected=args.watch_when_connected == "yes", connected=True)


def airpods():
    return kind("airpods", "ADV_NONCONN_IND", rng.choice(APPLE_INTERVALS), "resolvable", [apple(27)], 1.6,
                when_connected=True, connected=True)


def airtag():
    return kind("airtag", args.airtag_pdu, 2000, "resolvable", [apple(4)], 1.2)


def chipolo():
    return kind("chipolo", "ADV_IND", 1022.5, "random-static",
                [FLAGS, {"serviceData16": {"uuid": "FE33", "bytes": 10}}], 1.2)


def headphones(samsung_owner):
    u = rng.random()
    if samsung_owner and u < 0.5:
        return kind("galaxy-buds", "ADV_IND", rng.choice(APPLE_INTERVALS), "resolvable",
                    [FLAGS, {"manufacturer": {"company": "0x0075", "bytes": 20}}], 1.6, connected=True)
    if rng.random() < args.fast_pair_share:
        if rng.random() < 1 / 3:
            return kind("sony-headphones", "ADV_IND", 250, "resolvable",
                        [FLAGS, {"manufacturer": {"company": "0x012D", "bytes": 19}}, {"uuids16": ["FD2A"]}], 1.6,
                        response=[{"name": "LE_WH-1000XM4"}],
                        when_connected=args.sony_when_connected == "yes", connected=True)
        return kind("fast-pair-headphones", "ADV_IND", 250, "resolvable",
                    [FLAGS, {"serviceData16": {"uuid": "FE2C", "bytes": 9}}], 1.6,
                    when_connected=args.fast_pair_when_connected == "yes", connected=True)
    return kind("headphones", "ADV_IND", rng.choice(APPLE_INTERVALS), "resolvable", [FLAGS], 1.6, connected=True)


def smartwatch():
    return kind("smartwatch", "ADV_IND", rng.choice(APPLE_INTERVALS), "resolvable",
                [FLAGS, {"manufacturer": {"company": "0x0075", "bytes": 20}}], 1.0,
                response=[{"name": "Galaxy Watch"}], connected=True)


def band():
    connected = rng.random() < args.band_connected
    if rng.random() < 0.5:
        return kind("fitbit", "ADV_IND", 211.25, "random-static",
                    [FLAGS, {"uuids128": ["ADABFB00-6E7D-4601-BDA2-BFFAA68956BA"]},
                     {"serviceData16": {"uuid": "180A", "bytes": 4}}], 1.0, connected=connected)
    return kind("mi-band", "ADV_IND", rng.choice(APPLE_INTERVALS), "random-static",
                [FLAGS, {"serviceData16": {"uuid": "FE95", "bytes": 12}}, {"name": "Mi Band"}], 1.0, connected=connected)


def tile():
    return kind("tile", "ADV_IND", 1022.5, "random-static",
                [FLAGS, {"uuids16": ["FEED"]}, {"serviceData16": {"uuid": "FEED", "bytes": 10}}], 1.2)


def smarttag():
    return kind("smarttag", "ADV_IND", 1022.5, "random-static",
                [FLAGS, {"uuids16": ["FD59"]}, {"serviceData16": {"uuid": "FD59", "bytes": 18}}], 1.2)


def laptop():
    return kind("windows-laptop", "ADV_NONCONN_IND", rng.choice(APPLE_INTERVALS), "non-resolvable",
                [{"manufacturer": {"company": "0x0006", "bytes": 27}}], 1.0)


def person():
    u = rng.random()
    phone = "iphone" if u < 0.48 else ("samsung" if u < 0.83 else "android")
    things = []
    if phone == "iphone":
        things.append(iphone())
        if rng.random() < 0.25:
            things.append(apple_watch())
        if rng.random() < 0.27:
            things.append(airpods() if rng.random() < args.airpods_share else headphones(False))
    else:
        if phone == "samsung" and args.samsung_fd69 == "yes":
            things.append(samsung_phone())
        if rng.random() < 0.27:
            things.append(headphones(phone == "samsung"))
        if rng.random() < 0.10:
            things.append(smartwatch())
    if rng.random() < 0.06:
        things.append(band())
    if rng.random() < 0.06:
        if phone == "iphone":
            things.append(airtag())
        elif phone == "samsung":
            things.append(smarttag())
        else:
            things.append(tile() if rng.random() < 0.5 else chipolo())
    if rng.random() < args.laptop_share:
        things.append(laptop())
    return things


def advertises(k):
    return k["when_connected"] or not k["connected"]


nodes = [{"id": "scanner", "position": [W / 2, H / 2, 1.2]}]
advertisers = []
people = 0
active = 0
while active < 1000:
    people += 1
    x, y = round(rng.uniform(0, W), 2), round(rng.uniform(0, H), 2)
    for k in person():
        nid = f"p{people:04d}-{k['name']}"
        nodes.append({"id": nid, "position": [x, y, k["height"]]})
        a = {"node": nid, "pdu": k["pdu"], "intervalMs": k["interval"], "txPowerDbm": rng.randint(-8, 8),
             "address": k["address"], "data": k["data"]}
        if k["response"] is not None:
            a["scanResponseData"] = k["response"]
        if k["connected"]:
            a["connected"] = [[0, DURATION]]
        if k["when_connected"]:
            a["advertisesWhenConnected"] = True
        advertisers.append(a)
        active += advertises(k)
        if active == 1000:
            break

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
    "$schema": "../scenario.schema.json",
    "name": "ble-station-scan",
    "seed": 1,
    "duration_s": DURATION,
    "environment": {"preset": "underground"},
    "nodes": nodes,
    "ble": {
        "advertisers": advertisers,
        "scanners": [{"node": "scanner", "profile": "ios-foreground"}],
        "wifi": wifi,
    },
}
with open(args.out, "w") as f:
    json.dump(scenario, f, indent=1)
    f.write("\n")
counts = {}
for a in advertisers:
    kname = a["node"].split("-", 1)[1]
    counts[kname] = counts.get(kname, 0) + 1
print(f"{people} people, {len(advertisers)} devices ({active} advertising):",
      ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
