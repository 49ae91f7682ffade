#!/usr/bin/env python3
"""Prints the tables of docs/mesh.md that come from topologies/examples/mesh-chat.json and
topologies/regression/crowd-30.json: the MAdHoc / classic DSR comparison, the ablation of the
mesh's mechanisms (one switch at a time), and next-hop against path-broadcast forwarding.

    python3 scripts/mesh-chat-tables.py .build/release/adhocsim

Every figure is read from the run's result files; nothing is typed in."""
import csv, json, os, subprocess, sys, tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/adhocsim"
CHAT = "topologies/examples/mesh-chat.json"
CROWD = "topologies/regression/crowd-30.json"
WORK = tempfile.mkdtemp(prefix="mesh-chat-")
DURATION = json.load(open(CHAT))["duration_s"]


def run(sets, name):
    out = os.path.join(WORK, name)
    args = [BIN, "run", CHAT, "--out", out, "--quiet"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True)
    summary = json.load(open(os.path.join(out, "mesh_summary.json")))
    rows = lambda f: list(csv.DictReader(open(os.path.join(out, f))))
    return summary, rows("mesh_messages.csv"), rows("mesh_repairs.csv"), rows("mesh_nodes.csv")


def crowd(sets):
    args = [BIN, "check", CROWD]
    for s in sets:
        args += ["--set", s]
    text = subprocess.run(args, capture_output=True, text=True).stdout
    for line in text.splitlines():
        if "routes after joining" in line:
            obs = line.split("within 10.000 s", 1)[1].strip()
            obs = obs.rsplit(" ", 1)[0].strip()  # drop pass/FAIL
            if obs.startswith("870 of 870 pairs, the last "):
                return "last " + obs.split("the last ")[1].split(" after")[0]
            return obs
    return "?"


def repairs(rep):
    parts = []
    for r in rep:
        if r["broken_pairs"] == "0":
            parts.append("none broken")
        else:
            parts.append(f"{r['repaired_pairs']}/{r['broken_pairs']} in {float(r['repair_mean_s']):.2f} s")
    return ", ".join(parts)


STARTS = [m.get("start_s", 0) for m in json.load(open(CHAT))["mesh"]["messages"]]


def ms(v):
    return f"{float(v):.0f} ms"


def comparison():
    a = run([], "madhoc")
    d = run(["mesh.routing=dsr", "mesh.keyPaths=null"], "dsr")
    def col(r, dsr):
        s, msgs, rep, _ = r
        chat, reply = msgs[0], msgs[1]
        jt = s["join_time"]
        def first(m, k):
            if not m["route_established_s"]:
                return "never"
            t = float(m["route_established_s"])
            if t >= STARTS[k]:
                return f"{(t - STARTS[k]) * 1000:.0f} ms after the first message"
            return f"{t:.2f} s after start"
        return [
            f"{jt['mean_s']:.3f} s after start" if jt else "at once",
            f"{chat['delivered']}/{chat['created']}, {reply['delivered']}/{reply['created']}",
            f"{ms(chat['latency_mean_ms'])} ({ms(chat['latency_p95_ms'])})",
            f"{ms(reply['latency_mean_ms'])} ({ms(reply['latency_p95_ms'])})",
            f"{s['control_bytes_per_node_per_s']:.1f} B/s",
            f"{s['pairs_routed']} of {s['pairs']}",
            first(chat, 0), first(reply, 1), repairs(rep) or "none",
        ]
    names = ["joined a session (mean of the phones that joined)", "delivery (chat / reply)",
             "latency mean (p95), chat", "latency mean (p95), reply", "routing control per node",
             "pairs that ever held a route", "first route, chat", "first route, reply",
             "repairs after the failures (p11, p22)"]
    ca, cd = col(a, False), col(d, True)
    print("| | DSR with heartbeats (MAdHoc) | classic DSR |")
    print("|---|---|---|")
    for n, x, y in zip(names, ca, cd):
        print(f"| {n} | {x} | {y} |")
    print()


SWITCHES = [
    ("all on", []),
    ("mesh.sessionSetup=\"instant\"", ["mesh.sessionSetup=instant"]),
    ("mesh.handshakeRetransmission=false", ["mesh.handshakeRetransmission=false"]),
    ("mesh.encryption=\"none\"", ["mesh.encryption=none"]),
    ("mesh.floodSend=\"broadcast\"", ["mesh.floodSend=broadcast"]),
    ("mesh.heartbeatOnStart=false", ["mesh.heartbeatOnStart=false"]),
    ("mesh.heartbeatOnNewSession=false", ["mesh.heartbeatOnNewSession=false"]),
    ("mesh.routeCache=false", ["mesh.routeCache=false"]),
    ("mesh.sessionsPerPhone=1", ["mesh.sessionsPerPhone=1"]),
    ("mesh.messages[*].reliable=false", ["mesh.messages[0].reliable=false", "mesh.messages[1].reliable=false"]),
    ("mesh.keyPaths=null", ["mesh.keyPaths=null"]),
    ("mesh.forwarding=\"next-hop\"", ["mesh.forwarding=next-hop"]),
    ("mesh.dropSeenHeartbeats=false", ["mesh.dropSeenHeartbeats=false"]),
    ("mesh.bonjourTtlS=null", ["mesh.bonjourTtlS=null"]),
    ("mesh.sessionLayout=\"pairwise\"", ["mesh.sessionLayout=pairwise"]),
]


def ablation():
    print("| switch | repairs (p11, p22) | chat latency | control | crowd |")
    print("|---|---|---|---|---|")
    for k, (label, sets) in enumerate(SWITCHES):
        s, msgs, rep, _ = run(sets, f"ab{k}")
        crowd_sets = [x for x in sets if not x.startswith("mesh.messages") and not x.startswith("mesh.keyPaths")]
        c = crowd(crowd_sets) if (crowd_sets or not sets) else "—"
        print(f"| `{label}` | {repairs(rep)} | {ms(msgs[0]['latency_mean_ms'])} | "
              f"{s['control_bytes_per_node_per_s']:.0f} B/s | {c} |")
    print()


def forwarding():
    print("| forwarding | delivery (chat / reply) | latency mean, chat / reply | message frames per phone | message bytes per phone per s | relayed per phone | copies dropped off the path per phone | control bytes per phone per s |")
    print("|---|---|---|---|---|---|---|---|")
    for f in ["next-hop", "path-broadcast"]:
        s, msgs, rep, nodes = run([f"mesh.forwarding={f}"], "fw-" + f)
        n = len(nodes)
        mean = lambda key: sum(float(r[key]) for r in nodes) / n
        print(f"| `{f}` | {msgs[0]['delivered']}/{msgs[0]['created']}, {msgs[1]['delivered']}/{msgs[1]['created']} | "
              f"{ms(msgs[0]['latency_mean_ms'])} / {ms(msgs[1]['latency_mean_ms'])} | "
              f"{mean('message_frames_sent'):.1f} | {mean('message_bytes') / DURATION:.1f} | {mean('message_frames_relayed'):.1f} | "
              f"{mean('message_frames_not_on_path'):.1f} | {s['control_bytes_per_node_per_s']:.1f} |")
    print()


def variants():
    """The earlier models the prose of docs/mesh.md names, each as its switches."""
    for label, sets in [
        ("instant sessions, broadcast floods, periodic heartbeats only, no cache, no encryption, one session a phone",
         ["mesh.sessionSetup=instant", "mesh.floodSend=broadcast", "mesh.heartbeatOnStart=false",
          "mesh.heartbeatOnNewSession=false", "mesh.routeCache=false", "mesh.encryption=none",
          "mesh.sessionsPerPhone=1"]),
        ("instant sessions, unicast floods, periodic heartbeats only, no cache, no encryption",
         ["mesh.sessionSetup=instant", "mesh.heartbeatOnStart=false", "mesh.heartbeatOnNewSession=false",
          "mesh.routeCache=false", "mesh.encryption=none"]),
        ("instant sessions, broadcast floods with the start and new-session heartbeats, no cache, no encryption",
         ["mesh.sessionSetup=instant", "mesh.floodSend=broadcast", "mesh.routeCache=false", "mesh.encryption=none"]),
    ]:
        s, msgs, rep, _ = run(sets, "v" + str(abs(hash(label)) % 1000))
        print(f"- {label}: repairs {repairs(rep)}; delivered {msgs[0]['delivered']} and {msgs[1]['delivered']} of "
              f"{msgs[0]['created']}; latency chat {ms(msgs[0]['latency_mean_ms'])}, reply {ms(msgs[1]['latency_mean_ms'])}; "
              f"control {s['control_bytes_per_node_per_s']:.0f} B/s")
    print()


def keys():
    """The key report of the default run (`mesh_keys.csv`): pairs with a key, and how many other
    phones observed every path of it."""
    run([], "keys")
    rows = list(csv.DictReader(open(os.path.join(WORK, "keys", "mesh_keys.csv"))))
    keyed = [r for r in rows if r["key"] == "yes"]
    exposed = [int(r["exposed_count"]) for r in keyed]
    print(f"keys: {len(keyed)} of {len(rows)} pairs sharing relayed paths; "
          f"{sum(exposed) / max(1, len(exposed)):.1f} other phones observed every path of a key on average")
    print()


comparison()
keys()
ablation()
forwarding()
variants()
