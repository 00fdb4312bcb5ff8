"""example_run.py -- one `regionsim compare FILE --format json` run of an
example, as store_error.py and weighted_error.py both make them: a fixed
environment (TERM, NO_COLOR, LC_ALL, TZ), one job a process (the scripts
run one process a core), the report parsed.
"""
import json
import os
import re
import subprocess
import sys


def compare_json(binary, path, options, refused=None):
    """The JSON report of `binary compare path --format json --jobs 1
    OPTIONS`; exit 1 (an example's assertion failed) counts as a run. When
    `refused` is given, an exit 2 whose stderr holds it returns None; any
    other failure ends the script with the command and its message."""
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", LC_ALL="C", TZ="UTC")
    cmd = [binary, "compare", path, "--format", "json", "--jobs", "1"] + options
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if refused and p.returncode == 2 and refused in p.stderr:
        return None
    if p.returncode not in (0, 1) or not p.stdout:
        sys.exit("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


UNIT_US = {"us": 1, "ms": 1000, "s": 10**6, "m": 60 * 10**6, "h": 3600 * 10**6,
           "d": 86400 * 10**6}


def micros(text):
    """A duration of the form the scenario files use (10m, 90s) in us."""
    m = re.fullmatch(r"(\d+)(us|ms|s|m|h|d)", text.strip())
    if not m:
        sys.exit("example_run.py: expected a duration such as 5m, found %r" % text)
    return int(m.group(1)) * UNIT_US[m.group(2)]


def last_event_us(path):
    """The latest `at = D` of the example's events (0 if none)."""
    last = 0
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*at\s*=\s*([0-9a-z]+)", line)
            if m:
                last = max(last, micros(m.group(1)))
    return last


def measure_from_us(path):
    """The example's `measure_from = D` (0 if none, or `auto`: each run from
    its own warm-up's end, which a run too short to leave it measures
    whole, so it never leaves nothing measured)."""
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*measure_from\s*=\s*([0-9a-z]+)", line)
            if m:
                return 0 if m.group(1) == "auto" else micros(m.group(1))
    return 0


def extra_for(path, extra, cap):
    """extra, and --duration cap unless an event of the example comes at cap
    or later (then the example's own duration: its events are its point)."""
    if cap is None or last_event_us(path) >= micros(cap):
        return extra
    # a warm-up as long as the cap would leave nothing measured: measure all
    warm = ["--measure-from", "0s"] if measure_from_us(path) >= micros(cap) else []
    return extra + ["--duration", cap] + warm


def planned_us(path):
    """The example's length: its `duration = D` lines added up (a [workload]
    and its phases' own), or the built-in default's 30 days without one."""
    total = 0
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*duration\s*=\s*([0-9a-z]+)", line)
            if m:
                total += micros(m.group(1))
    return total or 30 * UNIT_US["d"]


def extra_at_most(path, extra, longest):
    """extra, and --duration longest when the example runs longer than that
    (per-op mode's reach: a month of the default is 2.6e9 operations)."""
    if longest is None or planned_us(path) <= micros(longest):
        return extra
    return extra_for(path, extra, longest)


def is_sweep(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return any(line.strip().replace(" ", "") == "[sweep]" for line in f)
