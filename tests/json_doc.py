#!/usr/bin/env python3
"""json_doc.py -- every field of the JSON report is in its schema reference.

Runs regionsim on scenarios that fill most of the JSON report (reads of
every kind, the stochastic balancer, a failure and its reassignments, the
sampled store, two samples, an assertion) and checks that every object
key the reports hold is named in docs/reports.md's "JSON schema" section,
as "KEY" (in the shape) or `KEY` (in the prose). The keys of `figures` and
`spread` objects are figure names, which docs/figures.md lists (and
tests/test_figures.c checks), so they are left out here.

It fails, naming each field and a path where it occurs, when a report
gains a field the reference does not describe.

Usage: json_doc.py REGIONSIM SOURCE_ROOT
The environment of the runs is fixed (TERM, NO_COLOR, LC_ALL, TZ).
"""
import json
import os
import subprocess
import sys

RUNS = [
    ["compare", "examples/reads.ini", "--duration", "6m", "--balancer", "stochastic"],
    ["compare", "examples/failure.ini", "--read-fraction", "0.01", "--store", "sampled",
     "--samples", "2", "--assert", "write_max_mean <= 1.2"],
]


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: json_doc.py REGIONSIM SOURCE_ROOT")
    binary, root = os.path.abspath(argv[0]), argv[1]
    with open(os.path.join(root, "docs", "reports.md"), encoding="utf-8") as f:
        doc = f.read()
    start = doc.find("\n## JSON schema")
    if start < 0:
        sys.exit("docs/reports.md has no '## JSON schema' section")
    end = doc.find("\n## ", start + 1)
    section = doc[start:end if end > 0 else len(doc)]
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", LC_ALL="C", TZ="UTC")
    where = {}

    def walk(o, path):
        if isinstance(o, dict):
            for k, v in o.items():
                if path and path[-1] in ("figures", "spread"):
                    walk(v, path + ["<figure>"])
                    continue
                where.setdefault(k, ".".join(path + [k]))
                walk(v, path + [k])
        elif isinstance(o, list):
            for v in o:
                walk(v, path + ["[]"] if path else ["[]"])

    for args in RUNS:
        p = subprocess.run([binary] + args + ["--format", "json"], cwd=root, env=env,
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):  # 1: the assertion failed, which is fine
            sys.exit("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
        walk(json.loads(p.stdout), [])
    missing = sorted(k for k in where if '"%s"' % k not in section and "`%s`" % k not in section)
    for k in missing:
        sys.stderr.write("docs/reports.md#json-schema does not describe the field %s (at %s)\n"
                         % (k, where[k]))
    if missing:
        return 1
    print("%d fields of the JSON report, each described in docs/reports.md#json-schema"
          % len(where))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
