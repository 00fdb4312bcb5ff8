#!/usr/bin/env python3
"""store_error.py -- the sampled store's error against the exact store.

Runs every examples/*.ini with `--store exact` and with `--store sampled`
(same seed, JSON) and compares, run by run (one run per scheme); a file
with a [sweep] section is for `regionsim sweep` (compare refuses it) and
is left out:

  regions    |sampled - exact| / exact of the region count at the end
             (every split point moves the next ones, so this is the
             error of the split points' effect: how the table was cut)
  share      the largest |sampled - exact| between the servers' shares of
             the run's writes, both sorted (the k-th busiest server's
             share against the k-th busiest's, in points of 1.0: which
             server holds a hot region is a matter of timing -- the
             balancer's moves follow the splits -- and swaps whole shares
             between servers without changing the spread)
  read cost  |sampled - exact| / exact of rows_scanned_per_row (runs that
             read only)

Usage:
  store_error.py REGIONSIM EXAMPLES_DIR [--duration D | --cap D] [--sample-keys N]
                 [--table] [--max-regions F --max-share F --max-read F]
--duration D runs every example for D; --cap D runs each for D unless an
event of the example comes at D or later (then at its own duration): the
quick form the test runs.
With --table it prints a Markdown table (one line per example: the worst
run of each column, and the median over its runs); with the --max-* bounds
it exits 1 if any run's error is above them (tests/meson.build runs it so).
The environment of the runs is fixed (TERM, NO_COLOR, LC_ALL, TZ).
"""
import concurrent.futures
import os
import statistics
import sys

from example_run import compare_json, extra_for, is_sweep, micros


def run(binary, path, store, extra):
    return compare_json(binary, path, ["--store", store] + extra)


def shares(run_):
    servers = run_.get("servers") or []
    total = sum(s.get("writes", 0) for s in servers)
    return {s["name"]: s.get("writes", 0) / total for s in servers} if total else {}


def compare(exact, sampled):
    out = []
    for e, s in zip(exact["runs"], sampled["runs"]):
        er, sr = e["regions"]["count"], s["regions"]["count"]
        a, b = sorted(shares(e).values()), sorted(shares(s).values())
        share = max([abs(x - y) for x, y in zip(a, b)] or [0])
        read = None
        ec, sc = e.get("read_cost"), s.get("read_cost")
        if ec and sc and ec.get("rows_scanned_per_row") and sc.get("rows_scanned_per_row"):
            x, y = ec["rows_scanned_per_row"], sc["rows_scanned_per_row"]
            read = abs(y - x) / x
        out.append((e.get("scheme", "?"), abs(sr - er) / er, share, read))
    return out


def main(argv):
    binary, examples = argv[1], argv[2]
    extra, table, bounds, cap = [], False, {}, None
    i = 3
    while i < len(argv):
        a = argv[i]
        if a in ("--duration", "--sample-keys"):
            extra += [a, argv[i + 1]]
            i += 2
        elif a == "--cap":
            cap = argv[i + 1]
            micros(cap)
            i += 2
        elif a == "--table":
            table = True
            i += 1
        elif a in ("--max-regions", "--max-share", "--max-read"):
            bounds[a[6:]] = float(argv[i + 1])
            i += 2
        else:
            sys.exit("store_error.py: unknown argument %r" % a)
    failed = 0
    if table:
        print("| example | runs | regions: worst (median) | write share: worst (median) "
              "| read cost: worst (median) |")
        print("|---|---|---|---|---|")
    names = sorted(n for n in os.listdir(examples)
                   if n.endswith(".ini") and not is_sweep(os.path.join(examples, n)))
    # Every run is its own process: run them side by side, one a core.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        runs = {(n, store): pool.submit(run, binary, os.path.join(examples, n), store,
                                        extra_for(os.path.join(examples, n), extra, cap))
                for n in names for store in ("exact", "sampled")}
        results = {k: f.result() for k, f in runs.items()}
    for name in names:
        rows = compare(results[(name, "exact")], results[(name, "sampled")])
        for scheme, reg, share, read in rows:
            bad = [k for k, v in (("regions", reg), ("share", share), ("read", read))
                   if k in bounds and v is not None and v > bounds[k]]
            if bad:
                failed += 1
                print("%s %s: %s above the bound (regions %.3f, share %.4f, read %s)"
                      % (name, scheme, ", ".join(bad), reg, share,
                         "-" if read is None else "%.3f" % read))
        if table:
            def cell(vals, pct):
                vals = [v for v in vals if v is not None]
                if not vals:
                    return "-"
                f = (lambda v: "%.1f%%" % (100 * v)) if pct else (lambda v: "%.3f" % v)
                return "%s (%s)" % (f(max(vals)), f(statistics.median(vals)))
            print("| %s | %d | %s | %s | %s |" % (
                name[:-4], len(rows), cell([r[1] for r in rows], True),
                cell([r[2] for r in rows], False), cell([r[3] for r in rows], True)))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv)
