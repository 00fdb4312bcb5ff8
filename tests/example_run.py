"""example_run.py -- one `regionsim compare FILE --format json` run of an
example, as store_error.py and weighted_error.py both make them: a fixed
environment (TERM, NO_COLOR, LC_ALL, TZ), one job a process (the scripts
run one process a core), the report parsed.
"""
import json
import os
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
