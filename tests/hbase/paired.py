#!/usr/bin/env python3
"""Paired runs of regionsim and a real HBase, and the distance between them.

    paired.py record NAME --balancer B [--out DIR] [--speed X]
        run regionsim on workload NAME (tests/hbase/validation.ini with the
        workload's options), write its trace, replay the trace on an HBase
        mini cluster (tests/hbase/harness.sh) with the same settings and
        balancer times, and write the reference DIR/NAME-B.json: both
        commands and HBase's records.
    paired.py compare [--check] [--json] REF.json ...
        re-run regionsim as each reference's command says, compute the
        distances of docs/validation.md against HBase's records, print
        them, and with --check exit 1 when one is outside its range.
    paired.py recheck REF.json ...
        run each reference's pair again on a new mini cluster and check that
        the new HBase run is within the ranges of the committed one and of
        regionsim (the slow suite's test).
    paired.py list
        the workloads.

Design. The workloads and the ranges are tables here, one place each; a
reference file carries everything a comparison needs (regionsim's
arguments, the harness's command, HBase's counters), so that the default
test suite can compare without Maven or a cluster. Both sides' records are
first reduced to the same view (per-window per-server counts, the table's
final regions, its split keys, the regions each balancer run moved), and
every distance is computed from two views by one function, so no distance
is computed one way for HBase and another for regionsim.

Servers are compared by rank (busiest first), not by name: which server
HBase opens a new table or a moved region on is its own choice.
"""

import argparse
import bisect
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCENARIO = os.path.join("tests", "hbase", "validation.ini")

# The workloads of docs/validation.md: regionsim options over
# validation.ini, whether the scheme's load is even (which range applies),
# and the replay speed (simulated seconds per wall second) the mini
# cluster keeps up with.
WORKLOADS = {
    "monotonic": {"args": ["--scheme", "monotonic"], "even": False, "speed": 6},
    # (every time-series workload: a series' row written again adds a cell,
    # as OpenTSDB's qualifiers (the point's offset in the hour) do: the
    # harness's --qualifiers row; YCSB's updates overwrite a field: index)
    "salted": {"args": ["--scheme", "salted"], "even": True, "speed": 6},
    "hashed": {"args": ["--scheme", "hashed"], "even": True, "speed": 6},
    "md5": {"args": ["--scheme", "md5"], "even": True, "speed": 6},
    "opentsdb": {"args": ["--scheme", "opentsdb"], "even": False, "speed": 6},
    "opentsdb-salted": {"args": ["--scheme", "opentsdb-salted"], "even": True, "speed": 6},
    "ycsb-a": {
        "args": ["--ycsb", "a", "-p", "recordcount=20000", "-p", "operationcount=100000",
                 "-p", "target=1000", "--duration", "2m", "--scheme", "key"],
        "even": True, "speed": 2, "reads": True,
    },
}
BALANCERS = ("simple", "stochastic")

# The ranges of docs/validation.md. FIRST: "written before the first
# comparison", kept as they were; every comparison says which distances
# fall outside them. HOLDS: what the model holds to after the findings
# (docs/validation.md "What the differences mean" gives each reason);
# `compare --check` (the test suite) and `recheck` fail outside these.
# Each: name -> (limit for even workloads, limit for hot-tail ones), plus
# the moves' relative difference and least overlap by balancer (None: not
# judged). A regions difference of one region is never judged.
FIRST = {
    "ranges": {
        "share_pp": (3.0, 10.0),
        "window_pp": (5.0, 15.0),
        "window_max_mean_pct": (10.0, 10.0),
        "regions_pct": (10.0, 10.0),
        "split_rank_pct": (1.0, 1.0),
        "read_pp": (3.0, 3.0),
    },
    "moves_pct": {"simple": 25.0, "stochastic": 50.0},
    "overlap_min": {"simple": 0.5, "stochastic": None},
}
HOLDS = {
    "ranges": {
        "share_pp": (6.0, 35.0),
        "window_pp": (5.0, 15.0),
        "window_max_mean_pct": (10.0, 10.0),
        "regions_pct": (25.0, 25.0),
        "split_rank_pct": (2.0, 2.0),
        "read_pp": (4.0, 4.0),
    },
    "moves_pct": {"simple": 60.0, "stochastic": None},
    "overlap_min": {"simple": None, "stochastic": None},
}
# Per workload and balancer, a distance's own bound where a documented
# gap exceeds HOLDS (docs/validation.md "What remains"): YCSB's updates
# overwrite a field, which HBase's one version keeps once while regionsim
# counts every write; HBase 2.6's hbase:namespace region, which the simple
# balancer counts and regionsim (HBase 3's layout) has not, moves one
# salted OpenTSDB bucket's region onto a busy server.
HOLDS_WORKLOAD = {
    ("ycsb-a", "simple"): {"regions_pct": 40.0},
    ("ycsb-a", "stochastic"): {"regions_pct": 40.0},
    ("opentsdb-salted", "simple"): {"share_pp": 12.0, "window_pp": 12.0,
                                    "window_max_mean_pct": 30.0},
}


def die(msg):
    print("paired.py: " + msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- keys

def key_bytes(shell):
    """HBase shell form (Bytes.toStringBinary) to bytes, as
    Bytes.toBytesBinary reads it: \\xNN is a byte, everything else itself."""
    out = bytearray()
    i = 0
    while i < len(shell):
        c = shell[i]
        if c == "\\" and shell[i + 1:i + 2] == "x" and i + 4 <= len(shell):
            try:
                out.append(int(shell[i + 2:i + 4], 16))
                i += 4
                continue
            except ValueError:
                pass
        out.extend(c.encode("utf-8"))
        i += 1
    return bytes(out)


# ---------------------------------------------------------------- regionsim

def regionsim_args(name, balancer):
    w = WORKLOADS[name]
    return ["run", SCENARIO] + w["args"] + ["--balancer", balancer, "--samples", "1"]


def run_regionsim(binary, args, tmp):
    """Run regionsim from the tree's root with ARGS; returns its JSON report
    and the path of the trace it wrote."""
    report = os.path.join(tmp, "regionsim.json")
    tr = os.path.join(tmp, "trace.csv")
    cmd = [binary] + args + ["--format", "json", "-o", report, "--write-trace", tr]
    env = dict(os.environ, LC_ALL="C", TZ="UTC", NO_COLOR="1", TERM="dumb")
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        die("regionsim failed (%d): %s\n%s" % (p.returncode, shlex.join(cmd), p.stderr))
    with open(report) as f:
        return json.load(f), tr


def regionsim_view(report):
    """The comparison's view of a regionsim JSON report's one run."""
    run = report["runs"][0]
    windows = [{"writes": w["writes"], "reads": w["reads"]} for w in run["windows"]]
    live = [r for r in run["region_log"] if r["state"] == "live"]
    splits = [e["key"] for e in run["timeline"] if e["kind"] == "split"]
    runs = []
    cur = None
    for e in run["timeline"]:
        if e["kind"] == "move":
            if cur is None or cur["t_us"] != e["t_us"]:
                cur = {"t_us": e["t_us"], "moved": set()}
                runs.append(cur)
            cur["moved"].add(e["key"])
        elif e["kind"] == "balancer":
            if cur is None or cur["t_us"] != e["t_us"]:
                runs.append({"t_us": e["t_us"], "moved": set()})
            cur = None
    return {"windows": windows, "regions": len(live), "splits": splits,
            "balancer_runs": runs}


def initial_split_keys(report):
    """The table's pre-split keys: the starts of the regions it was created
    with (id 0), but the first."""
    run = report["runs"][0]
    keys = [r["start"] for r in run["region_log"] if r["id"] == 0 and r["start"] != ""]
    return sorted(set(keys), key=key_bytes)


def balancer_times(report):
    return [e["t_us"] for e in report["runs"][0]["timeline"] if e["kind"] == "balancer"]


# ---------------------------------------------------------------- HBase

def hbase_view(h):
    """The comparison's view of the harness's record (tests/hbase/README.md):
    the table's request count deltas per window and server, its regions in
    the last snapshot, the split keys of its splits, and per balancer run
    the start keys of its regions that moved (hbase:meta and
    hbase:namespace, which the balancer also moves, left out: regionsim's
    timeline names the table's moves)."""
    table = h["options"]["table"]
    windows = []
    for w in h["windows"]:
        by = sorted(w["servers"], key=lambda s: s["server"])
        windows.append({"writes": [s["write_requests"] for s in by],
                        "reads": [s["read_requests"] for s in by]})
    final = h["snapshots"][-1]["regions"]
    regions = [r for r in final if r["table"] == table]
    splits = [k for s in h["splits"] if s["table"] == table for k in s["split_keys"]]
    runs = []
    for b in h["balancer_runs"]:
        moved = {m["start"] for m in b["moves"] if m["table"] == table}
        runs.append({"t_us": b["trace_us"], "moved": moved})
    return {"windows": windows, "regions": len(regions), "splits": splits,
            "balancer_runs": runs}


# ---------------------------------------------------------------- distances

def shares(counts):
    total = sum(counts)
    if total == 0:
        return None
    return sorted((100.0 * c / total for c in counts), reverse=True)


def rank_pp(a, b):
    """Largest difference of two count vectors' sorted shares, in points."""
    sa, sb = shares(a), shares(b)
    if sa is None or sb is None:
        return None
    n = max(len(sa), len(sb))
    sa += [0.0] * (n - len(sa))
    sb += [0.0] * (n - len(sb))
    return max(abs(x - y) for x, y in zip(sa, sb))


def totals(windows, what):
    n = max(len(w[what]) for w in windows)
    out = [0] * n
    for w in windows:
        for i, c in enumerate(w[what]):
            out[i] += c
    return out


def window_max_mean(windows):
    vals = []
    for w in windows:
        c = w["writes"]
        if sum(c) > 0:
            vals.append(max(c) / (sum(c) / len(c)))
    return statistics.mean(vals) if vals else None


def split_rank_pct(rows, hb_splits, rs_splits):
    """Median over HBase's split keys of the distance, in % of the rows, to
    the nearest of regionsim's: a key's rank is how many rows sort before it."""
    if not hb_splits and not rs_splits:
        return 0.0
    if not hb_splits or not rs_splits:
        return 100.0
    rank = lambda k: 100.0 * bisect.bisect_left(rows, key_bytes(k)) / len(rows)
    rs = sorted(rank(k) for k in rs_splits)
    d = []
    for k in hb_splits:
        r = rank(k)
        i = bisect.bisect_left(rs, r)
        near = [abs(rs[j] - r) for j in (i - 1, i) if 0 <= j < len(rs)]
        d.append(min(near))
    return statistics.median(d)


def moves(hb, rs):
    mh = sum(len(r["moved"]) for r in hb["balancer_runs"])
    mr = sum(len(r["moved"]) for r in rs["balancer_runs"])
    pct = 0.0 if mh == mr else 100.0 * abs(mr - mh) / max(mh, 1)
    overlaps = []
    for a, b in zip(hb["balancer_runs"], rs["balancer_runs"]):
        either = a["moved"] | b["moved"]
        if either:
            overlaps.append(len(a["moved"] & b["moved"]) / len(either))
    return mh, mr, pct, (statistics.mean(overlaps) if overlaps else None)


def trace_rows(trace):
    rows = set()
    with open(trace) as f:
        next(f)
        for line in f:
            parts = line.rstrip("\n").split(",")
            if len(parts) >= 3 and parts[1] in ("put", "readmodifywrite", "delete"):
                rows.add(key_bytes(parts[2]))
    return sorted(rows)


def distances(hb, rs, rows):
    n = min(len(hb["windows"]), len(rs["windows"]))
    hw, rw = hb["windows"][:n], rs["windows"][:n]
    per_window = [rank_pp(a["writes"], b["writes"]) for a, b in zip(hw, rw)]
    per_window = [x for x in per_window if x is not None]
    wh, wr = window_max_mean(hw), window_max_mean(rw)
    mh, mr, mpct, overlap = moves(hb, rs)
    d = {
        "share_pp": rank_pp(totals(hw, "writes"), totals(rw, "writes")),
        "window_pp": statistics.mean(per_window) if per_window else None,
        "window_max_mean": [wh, wr],
        "window_max_mean_pct": (100.0 * abs(wr - wh) / wh) if wh and wr else None,
        "regions": [hb["regions"], rs["regions"]],
        "regions_pct": 100.0 * abs(rs["regions"] - hb["regions"]) / max(hb["regions"], 1),
        "splits": [len(hb["splits"]), len(rs["splits"])],
        "split_rank_pct": split_rank_pct(rows, hb["splits"], rs["splits"]),
        "moves": [mh, mr],
        "moves_pct": mpct,
        "overlap": overlap,
        "read_pp": rank_pp(totals(hw, "reads"), totals(rw, "reads")),
        "windows": n,
    }
    return d


def judge(d, workload, balancer, table):
    """The distances outside TABLE's ranges (FIRST or HOLDS), as messages."""
    even = WORKLOADS[workload]["even"]
    bad = []
    own = HOLDS_WORKLOAD.get((workload, balancer), {}) if table is HOLDS else {}
    for name, (lim_even, lim_hot) in table["ranges"].items():
        lim = own.get(name, lim_even if even else lim_hot)
        v = d.get(name)
        if name == "read_pp" and not WORKLOADS[workload].get("reads"):
            continue
        if name == "regions_pct" and abs(d["regions"][0] - d["regions"][1]) <= 1:
            continue
        if v is not None and v > lim:
            bad.append("%s %.2f > %.2f" % (name, v, lim))
    lim = table["moves_pct"][balancer]
    if lim is not None and d["moves_pct"] > lim and abs(d["moves"][0] - d["moves"][1]) > 2:
        bad.append("moves_pct %.1f > %.1f" % (d["moves_pct"], lim))
    lo = table["overlap_min"][balancer]
    if lo is not None and d["overlap"] is not None and d["overlap"] < lo:
        bad.append("overlap %.2f < %.2f" % (d["overlap"], lo))
    return bad


# ---------------------------------------------------------------- commands

def scaled_chores(speed, cluster):
    """HBase's wall-clock chores, run SPEED times as often, so that in the
    trace's time they keep HBase's periods: the region servers' reports
    (hbase.regionserver.msginterval, 3 s, HConstants), the master's load
    refresh for the balancer (hbase.balancer.statusPeriod, 60 s,
    ClusterStatusChore) and the compacted-file discharger that lets a
    split's daughter split again (hbase.hfile.compaction.discharger.interval,
    2 min, HRegionServer; regionsim's discharge_interval)."""
    ms = lambda period_ms: str(max(1, int(round(period_ms / speed))))
    return ["--status-interval-ms", ms(3000),
            "--conf", "hbase.balancer.statusPeriod=" + ms(60000),
            "--conf", "hbase.hfile.compaction.discharger.interval="
            + ms(cluster["discharge_us"] / 1000)]


def record(binary, name, balancer, speed, path):
    """Run the pair for workload NAME under BALANCER; write the reference
    to PATH (through a temporary file beside it: a failed run leaves none)."""
    args = regionsim_args(name, balancer)
    with tempfile.TemporaryDirectory(prefix="paired.") as tmp:
        report, trace = run_regionsim(binary, args, tmp)
        c = report["cluster"]
        splits = initial_split_keys(report)
        keys_file = os.path.join(tmp, "split-keys.txt")
        with open(keys_file, "w") as f:
            f.write("".join(k + "\n" for k in splits))
        times = balancer_times(report)
        out = os.path.join(tmp, "hbase.json")
        harness = [
            "--trace", trace, "--servers", str(c["servers"]),
            "--region-size", str(c["region_max_bytes"]),
            "--flush-size", str(c["flush_bytes"]),
            "--split-jitter", str(c["split_jitter"]),
            "--split-policy", c["split_policy"], "--balancer", balancer,
            "--balancer-times-us", ",".join(str(t) for t in times),
            "--window-us", str(c["window_us"]), "--speed", str(speed),
            "--qualifiers", "index" if "--ycsb" in WORKLOADS[name]["args"] else "row",
            "--out", out,
        ] + scaled_chores(speed, c)
        if splits:
            harness += ["--split-keys-file", keys_file]
        cmd = ["sh", os.path.join(HERE, "harness.sh")] + harness
        print("paired.py: " + shlex.join(cmd), file=sys.stderr)
        p = subprocess.run(cmd, cwd=ROOT)
        if p.returncode != 0:
            die("the harness failed (%d)" % p.returncode)
        with open(out) as f:
            hbase = json.load(f)
    ref = {
        "workload": name,
        "balancer": balancer,
        "made_by": "python3 tests/hbase/paired.py record %s --balancer %s --speed %g"
                   % (name, balancer, speed),
        "regionsim_args": args,
        "split_keys": splits,
        "balancer_times_us": times,
        "harness_args": [x if x not in (trace, out, keys_file) else os.path.basename(x)
                         for x in harness],
        "hbase": hbase,
    }
    tmp_path = path + ".tmp"
    with open(tmp_path, "w") as f:
        json.dump(ref, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp_path, path)
    return ref


def cmd_record(a):
    if a.name not in WORKLOADS:
        die("record: no workload '%s' (paired.py list)" % a.name)
    speed = a.speed or WORKLOADS[a.name]["speed"]
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "%s-%s.json" % (a.name, a.balancer))
    record(os.path.abspath(a.regionsim), a.name, a.balancer, speed, path)
    print(path)


def cmd_recheck(a):
    """Run HBase again for each reference and check, within the ranges,
    that the new run is as far from the committed one and from regionsim
    as the ranges allow: HBase is not deterministic, so not byte for byte."""
    binary = os.path.abspath(a.regionsim)
    failed = 0
    lines = []
    with tempfile.TemporaryDirectory(prefix="paired-recheck.") as tmp:
        for path in a.refs:
            with open(path) as f:
                old = json.load(f)
            speed = float(old["made_by"].rsplit(" ", 1)[1])
            fresh_path = os.path.join(tmp, os.path.basename(path))
            fresh = record(binary, old["workload"], old["balancer"], speed, fresh_path)
            rs, rows = regionsim_side(binary, old["regionsim_args"])
            d_sim = distances(hbase_view(fresh["hbase"]), rs, rows)
            bad_sim = judge(d_sim, old["workload"], old["balancer"], HOLDS)
            d_hb = distances(hbase_view(old["hbase"]), hbase_view(fresh["hbase"]), rows)
            bad_hb = judge(d_hb, old["workload"], old["balancer"], HOLDS)
            for what, d, bad in (("HBase again vs the committed HBase", d_hb, bad_hb),
                                 ("HBase again vs regionsim", d_sim, bad_sim)):
                lines.append("%s %s: %s: share %s pp, window %s pp, regions %d:%d, split rank %s%%%s"
                             % (old["workload"], old["balancer"], what, fmt(d["share_pp"], "%.1f"),
                                fmt(d["window_pp"], "%.1f"), d["regions"][0], d["regions"][1],
                                fmt(d["split_rank_pct"]), "" if not bad else
                                " OUTSIDE: " + "; ".join(bad)))
                print(lines[-1], flush=True)
                failed += bool(bad)
    # Again at the end, on stderr after HBase's own shutdown logging: a
    # test log shows its last lines only (meson: 100), and the verdict
    # printed between the runs was lost under the second run's logging.
    sys.stdout.flush()
    print("recheck: %d of %d comparisons outside the ranges:" % (failed, len(lines)),
          file=sys.stderr)
    for line in lines:
        print("  " + line, file=sys.stderr)
    if failed:
        sys.exit(1)


def regionsim_side(binary, args):
    """regionsim's view of a run of ARGS and the table's rows, sorted."""
    with tempfile.TemporaryDirectory(prefix="paired.") as tmp:
        report, trace = run_regionsim(binary, args, tmp)
        return regionsim_view(report), trace_rows(trace)


def compare_one(binary, path):
    with open(path) as f:
        ref = json.load(f)
    rs, rows = regionsim_side(binary, ref["regionsim_args"])
    d = distances(hbase_view(ref["hbase"]), rs, rows)
    return ref, d, judge(d, ref["workload"], ref["balancer"], HOLDS), \
        judge(d, ref["workload"], ref["balancer"], FIRST)


def fmt(v, spec="%.2f"):
    return "-" if v is None else spec % v


def markdown(results):
    """The Measured table of docs/validation.md."""
    print("| workload | balancer | share pp | window pp | window max/mean H : R | "
          "regions H : R | split rank % | moves H : R | overlap | read pp | "
          "outside the first ranges |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        d = r["distances"]
        first = ", ".join(b.split(" ")[0] for b in r["outside_first"]) or "none"
        print("| %s | %s | %s | %s | %s : %s | %d : %d | %s | %d : %d | %s | %s | %s |" % (
            r["workload"], r["balancer"], fmt(d["share_pp"], "%.1f"),
            fmt(d["window_pp"], "%.1f"), fmt(d["window_max_mean"][0]),
            fmt(d["window_max_mean"][1]), d["regions"][0], d["regions"][1],
            fmt(d["split_rank_pct"]), d["moves"][0], d["moves"][1], fmt(d["overlap"]),
            fmt(d["read_pp"], "%.1f"), first))


def cmd_compare(a):
    binary = os.path.abspath(a.regionsim)
    results = []
    failed = 0
    refs = []
    for path in a.refs:
        if os.path.isdir(path):
            found = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".json"))
            if not found:
                die("compare: no reference (*.json) in %s" % path)
            refs += found
        else:
            refs.append(path)
    for path in refs:
        ref, d, bad, first = compare_one(binary, path)
        results.append({"file": path, "workload": ref["workload"],
                        "balancer": ref["balancer"], "distances": d, "outside": bad,
                        "outside_first": first})
        failed += bool(bad)
    if a.markdown:
        markdown(results)
    elif a.json:
        json.dump(results, sys.stdout, indent=1, sort_keys=True, default=list)
        print()
    else:
        print("distances of regionsim from HBase (docs/validation.md); H:R = HBase's : regionsim's")
        print("%-16s %-10s %6s %6s %13s %9s %9s %9s %9s %7s %6s" % (
            "workload", "balancer", "share", "window", "max/mean H:R", "regions",
            "split rk%", "moves", "overlap", "reads", "holds"))
        for r in results:
            d = r["distances"]
            print("%-16s %-10s %6s %6s %13s %9s %9s %9s %9s %7s %6s" % (
                r["workload"], r["balancer"], fmt(d["share_pp"], "%.1f"),
                fmt(d["window_pp"], "%.1f"),
                "%s:%s" % (fmt(d["window_max_mean"][0]), fmt(d["window_max_mean"][1])),
                "%d:%d" % tuple(d["regions"]), fmt(d["split_rank_pct"]),
                "%d:%d" % tuple(d["moves"]), fmt(d["overlap"]),
                fmt(d["read_pp"], "%.1f"), "ok" if not r["outside"] else "OUT"))
            for b in r["outside"]:
                print("    outside what the model holds to: " + b)
            if r["outside_first"]:
                print("    outside the ranges written first: " + "; ".join(r["outside_first"]))
    if a.check and failed:
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser(prog="paired.py")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("name")
    r.add_argument("--balancer", choices=BALANCERS, required=True)
    r.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "hbase"))
    r.add_argument("--speed", type=float)
    r.add_argument("--regionsim", default=os.path.join(ROOT, "build", "regionsim"))
    c = sub.add_parser("compare")
    c.add_argument("refs", nargs="+")
    c.add_argument("--check", action="store_true")
    c.add_argument("--json", action="store_true")
    c.add_argument("--markdown", action="store_true")
    c.add_argument("--regionsim", default=os.path.join(ROOT, "build", "regionsim"))
    k = sub.add_parser("recheck")
    k.add_argument("refs", nargs="+")
    k.add_argument("--regionsim", default=os.path.join(ROOT, "build", "regionsim"))
    sub.add_parser("list")
    a = ap.parse_args()
    if a.cmd == "record":
        cmd_record(a)
    elif a.cmd == "compare":
        cmd_compare(a)
    elif a.cmd == "recheck":
        cmd_recheck(a)
    else:
        for n, w in WORKLOADS.items():
            print("%-16s %s" % (n, " ".join(w["args"])))


if __name__ == "__main__":
    main()
