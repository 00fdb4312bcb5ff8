#!/usr/bin/env python3
"""million_regions.py -- a full run that grows about 1.2 million regions.

Runs the regionsim binary as a user does (issue 30):

  regionsim run --scheme md5 --region-size 1KiB --split-limit 0 --duration 5h

(1,000 writes a second of 16-byte md5 keys into regions of 1 KiB: about
18 million rows, some 1.2 million regions per seed, three seeds, two at a
time on two cores) and checks that

  - it exits 0;
  - nothing at all is printed on stderr: before issue 30 each region's row
    store held arrays of its own, jemalloc unmapped the pages it freed
    piece by piece, and past vm.max_map_count (65,530 mappings) every
    munmap failed with "<jemalloc>: Error in munmap(): Cannot allocate
    memory", tens of thousands of times;
  - the run (seed 42's, the one the text report shows server by server)
    ends with between 1.0 and 1.5 million regions, the sum of the servers'
    "N regions" (1,288,239 when this test was written): a run that grew
    far fewer regions would not test what it says.

The program estimates each seed's run at about 6 GiB (its memory
estimate, engine/budget.c, counts generously) and runs two at once when that fits; on a
machine of less than 16 GiB it would run them one by one and say so on
stderr, so there the test is skipped (exit 77).

Speed and memory are not checked here (bench/bench_splits times this run:
docs/performance.md); only that a run this size completes cleanly. The
environment of the run is fixed (TERM, NO_COLOR, LC_ALL, TZ).

Usage: million_regions.py REGIONSIM [DURATION]  (DURATION 5h by default; a
shorter one for trying the script: the region bounds then scale with it).
"""
import os
import re
import subprocess
import sys


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    regionsim = sys.argv[1]
    duration = sys.argv[2] if len(sys.argv) == 3 else "5h"
    hours = {"h": 1.0, "m": 1 / 60.0}[duration[-1]] * float(duration[:-1])
    with open("/proc/meminfo") as f:
        kib = int(re.search(r"^MemTotal:\s+(\d+) kB", f.read(), re.M).group(1))
    if kib < 16 * 1024 * 1024:
        print("skipped: %.1f GiB of memory, less than the 16 GiB this run needs" % (kib / 1048576))
        sys.exit(77)
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", LC_ALL="C", TZ="UTC")
    cmd = [regionsim, "run", "--scheme", "md5", "--region-size", "1KiB",
           "--split-limit", "0", "--duration", duration]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    problems = []
    if p.returncode != 0:
        problems.append("exit status %d, not 0" % p.returncode)
    if err:
        lines = err.splitlines()
        problems.append("%d lines on stderr, the first: %r" % (len(lines), lines[0] if lines else err))
    # The run's server lines: "  rs0 <bar> 17815769 100.0%  1288239 regions  busy ..."
    counts = [int(m.group(1)) for m in re.finditer(r"^  rs\d+ .* (\d+) regions  busy", out, re.M)]
    regions = sum(counts)
    low, high = 1.0e6 * hours / 5, 1.5e6 * hours / 5
    if not counts:
        problems.append("no server lines with a region count in the report")
    elif not low <= regions <= high:
        problems.append("%d regions at the end, not within %.0f..%.0f" % (regions, low, high))
    print("%s: exit %d, %d bytes on stderr, %d regions on %d servers"
          % (" ".join(cmd[1:]), p.returncode, len(err), regions, len(counts)))
    for problem in problems:
        print("FAIL: " + problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
