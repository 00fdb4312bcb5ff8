#!/usr/bin/env python3
"""weighted_error.py -- the weighted engine's error against per-op mode.

Runs every examples/*.ini with `--engine per-op` and with `--engine
weighted --weight W` (same seed, one sample, JSON) and compares run by run
(one run per scheme). An example the weighted engine cannot run (a trace,
a YCSB phase, a closed loop, a jittered time series: regionsim refuses it)
is listed as per-op only; a [sweep] file is left out (compare refuses it).

  share    the largest |weighted - per-op| between the servers' shares of
           the run's writes, both sorted (the k-th busiest against the
           k-th busiest), in points (1 point = 0.01)
  window   |weighted - per-op| / per-op of write_window_max_mean (the mean
           over measured windows of the busiest server's writes over the
           mean server's)
  regions  |weighted - per-op| / per-op of the region count at the end
  splits   where the table is cut: for each live region's start key of one
           run, the distance to the nearest start key of the other, as a
           position in the key space (the key's first 8 bytes as a
           fraction of 2^64); the larger of the two directions' means, in
           points of the key space
  rpcs     |weighted - per-op| / per-op of RPCs per read (runs that read)
  p50 p99  |weighted - per-op| / per-op of the latency percentiles (the
           fluid model against the FIFO queues)

Usage:
  weighted_error.py REGIONSIM EXAMPLES_DIR [--weight W] [--duration D] [--table]
                    [--max-share F --max-window F --max-regions F --max-rpcs F]
With --table it prints a Markdown table (one line per example: the worst
run of each column and the median over its runs); with the --max-* bounds
it exits 1 if any run is above one (tests/meson.build runs it so). The
latency columns are reported, not bounded (docs/weighted.md says why).
"""
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys


def run(binary, path, mode, extra):
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", LC_ALL="C", TZ="UTC")
    cmd = [binary, "compare", path, "--format", "json", "--samples", "1", "--jobs", "1"]
    cmd += (["--engine", "per-op"] if mode is None else ["--engine", "weighted", "--weight", mode])
    cmd += extra
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode == 2 and "engine = weighted:" in p.stderr:
        return None  # the weighted engine cannot run it
    if p.returncode not in (0, 1) or not p.stdout:  # 1: an example's assertion failed
        sys.exit("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def shares(run_):
    servers = run_.get("servers") or []
    total = sum(s.get("writes", 0) for s in servers)
    return sorted(s.get("writes", 0) / total for s in servers) if total else []


def key_position(text):
    """A key as the reports print it (shell form: \\xNN escapes) as a
    fraction of the key space, from its first 8 bytes."""
    out = bytearray()
    i = 0
    while i < len(text) and len(out) < 8:
        if text.startswith("\\x", i):
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out.append(ord(text[i]) & 0xFF)
            i += 1
    out += bytes(8 - len(out))
    return int.from_bytes(out, "big") / 2.0**64


def starts(run_):
    return sorted(key_position(r["start"]) for r in run_.get("region_log") or []
                  if r.get("state") == "live")


def nearest_mean(a, b):
    if not a or not b:
        return 0.0
    return statistics.mean(min(abs(x - y) for y in b) for x in a)


def rel(a, b):
    if a is None or b is None:
        return None
    if a == 0:
        return 0.0 if b == 0 else None
    return abs(b - a) / abs(a)


def compare(per_op, weighted):
    out = []
    for e, w in zip(per_op["runs"], weighted["runs"]):
        fe, fw = e["figures"], w["figures"]
        a, b = shares(e), shares(w)
        share = max([abs(x - y) for x, y in zip(a, b)] or [0]) * 100
        se, sw = starts(e), starts(w)
        splits = max(nearest_mean(se, sw), nearest_mean(sw, se)) * 100
        reads = fe.get("reads") and fw.get("reads")
        out.append({
            "scheme": e.get("scheme", "?"), "share": share,
            "window": rel(fe.get("write_window_max_mean"), fw.get("write_window_max_mean")),
            "regions": rel(fe.get("regions"), fw.get("regions")), "splits": splits,
            "rpcs": rel(fe.get("rpcs_per_read"), fw.get("rpcs_per_read")) if reads else None,
            "p50": rel(fe.get("p50_latency_us"), fw.get("p50_latency_us")),
            "p99": rel(fe.get("p99_latency_us"), fw.get("p99_latency_us")),
        })
    return out


def is_sweep(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return any(line.strip().replace(" ", "") == "[sweep]" for line in f)


COLUMNS = (("share", False), ("window", True), ("regions", True), ("splits", False),
           ("rpcs", True), ("p50", True), ("p99", True))


def main(argv):
    binary, examples = argv[1], argv[2]
    extra, table, bounds, weight = [], False, {}, "20"
    i = 3
    while i < len(argv):
        a = argv[i]
        if a == "--duration":
            extra += [a, argv[i + 1]]
            i += 2
        elif a == "--weight":
            weight = argv[i + 1]
            i += 2
        elif a == "--table":
            table = True
            i += 1
        elif a in ("--max-share", "--max-window", "--max-regions", "--max-rpcs"):
            bounds[a[6:]] = float(argv[i + 1])
            i += 2
        else:
            sys.exit("weighted_error.py: unknown argument %r" % a)
    names = sorted(n for n in os.listdir(examples)
                   if n.endswith(".ini") and not is_sweep(os.path.join(examples, n)))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        futures = {(n, m): pool.submit(run, binary, os.path.join(examples, n), m, extra)
                   for n in names for m in (None, weight)}
        results = {k: f.result() for k, f in futures.items()}
    failed = 0
    if table:
        print("| example | runs | share (points) | window max/mean | regions | split keys "
              "(points) | RPCs per read | p50 latency | p99 latency |")
        print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        if results[(name, weight)] is None:
            if table:
                print("| %s | per-op only | | | | | | | |" % name[:-4])
            continue
        rows = compare(results[(name, None)], results[(name, weight)])
        for r in rows:
            bad = [k for k in bounds if r.get(k) is not None and r[k] > bounds[k]]
            if bad:
                failed += 1
                print("%s %s: %s above the bound: %s" % (
                    name, r["scheme"], ", ".join(bad),
                    ", ".join("%s %s" % (k, "-" if r[k] is None else "%.4g" % r[k])
                              for k, _ in COLUMNS)))
        if table:
            def cell(key, pct):
                vals = [r[key] for r in rows if r[key] is not None]
                if not vals:
                    return "-"
                f = (lambda v: "%.1f%%" % (100 * v)) if pct else (lambda v: "%.2f" % v)
                return "%s (%s)" % (f(max(vals)), f(statistics.median(vals)))
            print("| %s | %d | %s |" % (name[:-4], len(rows),
                                        " | ".join(cell(k, p) for k, p in COLUMNS)))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv)
