#!/usr/bin/env python3
"""sigterm_cleanup.py -- a test that starts a daemon leaves nothing running
when it is killed the way meson kills a test that times out.

    python3 tests/sigterm_cleanup.py SOURCE_ROOT REGIONSIM WORKDIR

meson runs each test in a session of its own and, on a timeout, sends
SIGTERM to the test's process group, then SIGKILL half a second later if
the test has not exited (mesonbuild/mtest.py, _kill). The tests that start
daemons (tests/sweep_slurm.sh: munged, slurmctld, slurmd and job steps;
tests/sweep_sshd.sh: sshd and its logins; tests/watch_tmux.sh: a tmux
server and what runs in it) must stop them on that signal, since a daemon
leaves the process group (setsid) and meson's signals never reach it.

Each case starts the test script as meson does (a new session, TMPDIR and
the work directory private to the case), waits (60 s at most, wall clock)
until the daemons are up, or jobs are running, then either
  - sends SIGTERM to the process group, as meson does first: the script
    must exit within 5 s (meson would SIGKILL it after 0.5 s; the margin is
    for a loaded machine), nothing it started may be running 3 s later,
    and its files (its work directory, its /tmp directories) must be gone;
  - or sends SIGKILL to the process group at once (meson's second signal;
    no trap runs): nothing it started may be running 3 s later (the PID
    namespace the daemons run in dies with it).
"What it started" is every process that descended from the script when
the signal was sent (matched by pid and start time afterwards, so a
reused pid is not mistaken for one), and every process whose command line
or working directory names the case's work directory or one of the
private /tmp directories the descendants' command lines name (a daemon
that forked itself away from the script is found this way).

Cases needing root (Slurm, sshd) are skipped without it; a case whose
script skips (exit 77, a tool missing) is skipped; the test exits 77 when
every case was skipped. Under CI (CI set, not "false"/"0") a skipped case
fails it, as a missing tool fails the tests themselves. Processes the test
finds left over are killed by it after it reports them. Registered in
tests/meson.build, suite 'slow' (about 40 s).
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time


def in_ci():
    v = os.environ.get("CI", "")
    return v not in ("", "false", "0")


def proc_stat_field(pid, n):
    """Field n of /proc/PID/stat counted after the command's name (0: the
    state), as an int, or None if the process is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return None
    # comm may hold spaces and parentheses: the fields after the last ')'
    return int(stat[stat.rfind(")") + 2:].split()[n])


def proc_start(pid):
    """The process's start time (clock ticks after boot), or None if gone."""
    return proc_stat_field(pid, 19)


def proc_ppid(pid):
    return proc_stat_field(pid, 1)


def proc_cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return ""


def proc_cwd(pid):
    try:
        return os.readlink("/proc/%d/cwd" % pid)
    except OSError:
        return ""


def proc_environ(pid):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def mentions(pid, marks):
    """Whether the process's command line, working directory or
    environment names one of marks."""
    text = " ".join((proc_cmdline(pid), proc_cwd(pid), proc_environ(pid)))
    return any(m in text for m in marks)


def all_pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def descendants(root):
    """{pid: start time} of root and every process below it."""
    children = {}
    for pid in all_pids():
        ppid = proc_ppid(pid)
        if ppid is not None:
            children.setdefault(ppid, []).append(pid)
    out, todo = {}, [root]
    while todo:
        pid = todo.pop()
        start = proc_start(pid)
        if start is None:
            continue
        out[pid] = start
        todo.extend(children.get(pid, []))
    return out


PRIVATE_TMP = re.compile(r"/tmp/regionsim-[A-Za-z0-9_.-]+")


def markers(work, procs):
    """The paths that name what the case started: its work directory, and
    the private /tmp directories its processes' command lines name."""
    found = {work}
    for pid in procs:
        found.update(PRIVATE_TMP.findall(proc_cmdline(pid)))
    return found


def survivors(snapshot, marks, me):
    """Processes still running that the case started."""
    left = {}
    for pid, start in snapshot.items():
        if proc_start(pid) == start:
            left[pid] = proc_cmdline(pid)
    for pid in all_pids():
        if pid != me and pid not in left and mentions(pid, marks):
            left[pid] = proc_cmdline(pid)
    return left


def wait_until(cond, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.1)
    return False


def related(root, work):
    """The processes below root, and those that name work (a daemon that
    left root's tree)."""
    procs = set(descendants(root))
    me = os.getpid()
    procs.update(pid for pid in all_pids() if pid != me and mentions(pid, {work}))
    return procs


def running(procs, word):
    """A process among procs whose command line has word."""
    return any(word in proc_cmdline(pid) for pid in procs)


def run_case(name, argv, work, ready, sig, extra_env):
    """Starts argv as meson would, waits until ready(pid, work), sends sig
    to its process group; returns (status, message): status 'ok', 'skip'
    or 'fail'."""
    os.makedirs(work)
    env = dict(os.environ, TMPDIR=work, **extra_env)
    log = open(os.path.join(os.path.dirname(os.path.dirname(work)), "sigterm-cleanup-%s.log" % name), "wb")
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                         env=env, start_new_session=True)
    t0 = time.monotonic()
    up = wait_until(lambda: p.poll() is not None or ready(related(p.pid, work), work), 60)
    if p.poll() is not None:
        if p.returncode == 77:
            return "skip", "the script skipped (exit 77)"
        return "fail", "the script ended (status %d) before it was ready" % p.returncode
    if not up:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return "fail", "not ready within 60 s"
    time.sleep(0.3)
    snapshot = {pid: proc_start(pid) for pid in related(p.pid, work)}
    snapshot = {pid: start for pid, start in snapshot.items() if start is not None}
    marks = markers(work, snapshot)
    files = [m for m in marks if m != work]
    print("%s: ready after %.1f s, %d processes; sending %s to the process group"
          % (name, time.monotonic() - t0, len(snapshot), signal.Signals(sig).name))
    os.killpg(p.pid, sig)
    problems = []
    try:
        status = p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        problems.append("the script did not exit within 5 s of SIGTERM")
        os.killpg(p.pid, signal.SIGKILL)
        status = p.wait()
    time.sleep(3)
    left = survivors(snapshot, marks, os.getpid())
    if left:
        problems.append("still running: " + "; ".join("%d %s" % kv for kv in sorted(left.items())))
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    if sig == signal.SIGTERM and not problems:
        kept = [f for f in files if os.path.exists(f)]
        kept += [os.path.join(work, e) for e in os.listdir(work)
                 if e.startswith(("sweep-slurm.", "sweep-sshd.", "regionsim-"))]
        if kept:
            problems.append("files left: " + ", ".join(kept))
    for f in files:  # (after a SIGKILL, no trap removed them)
        shutil.rmtree(f, ignore_errors=True)
    if problems:
        return "fail", "; ".join(problems) + " (exit status %s; log %s)" % (status, log.name)
    return "ok", "exited with status %d; nothing left running%s" % (
        status, ", no files left" if sig == signal.SIGTERM else "")


def main():
    if len(sys.argv) < 4:
        print("usage: sigterm_cleanup.py SOURCE_ROOT REGIONSIM WORKDIR [CASE...]", file=sys.stderr)
        return 2
    src, regionsim, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
    only = sys.argv[4:]
    os.environ.update(TZ="UTC", LC_ALL="C", NO_COLOR="1", TERM="dumb")
    base = os.path.join(workdir, "sigterm-cleanup.%d" % os.getpid())
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    root = os.geteuid() == 0
    tests = os.path.join(src, "tests")

    def script(name, work):
        if name == "watch_tmux.sh":
            return ["sh", os.path.join(tests, name), regionsim,
                    os.path.join(src, "examples", "classroom.ini")]
        return ["sh", os.path.join(tests, name), regionsim, src, work]

    def slurm_up(procs, work):
        return all(running(procs, d) for d in ("munged", "slurmctld", "slurmd"))

    def job_running(procs, work):
        # a job's regionsim (its --result is in the work directory)
        return running(procs, "regionsim sweep") and running(procs, "--result")

    def sshd_job(procs, work):
        # GNU parallel running the plan's jobs over ssh
        return running(procs, "sshd") and running(procs, "parallel --will-cite")

    def tmux_up(procs, work):
        return running(procs, "tmux") and running(procs, "regionsim watch")

    # A job of the default sweep lives some 20 ms, less than one look at
    # /proc: the job case asks for day-long points (seconds a job).
    longer = {"SWEEP_SLURM_DURATION": "1d"}
    cases = [
        ("slurm-term-up", "sweep_slurm.sh", slurm_up, signal.SIGTERM, True, {}),
        ("slurm-kill-job", "sweep_slurm.sh", job_running, signal.SIGKILL, True, longer),
        ("sshd-term-job", "sweep_sshd.sh", sshd_job, signal.SIGTERM, True, {}),
        ("sshd-kill-job", "sweep_sshd.sh", sshd_job, signal.SIGKILL, True, {}),
        ("tmux-term", "watch_tmux.sh", tmux_up, signal.SIGTERM, False, {}),
        ("tmux-kill", "watch_tmux.sh", tmux_up, signal.SIGKILL, False, {}),
    ]
    results = []
    for name, test, ready, sig, needs_root, extra_env in cases:
        if only and name not in only:
            continue
        if needs_root and not root:
            results.append((name, "skip", "needs root"))
            continue
        work = os.path.join(base, name)
        status, msg = run_case(name, script(test, work), work, ready, sig, extra_env)
        results.append((name, status, msg))
        print("%s: %s: %s" % (name, status.upper(), msg))
        sys.stdout.flush()
    shutil.rmtree(base, ignore_errors=True)
    failed = [r for r in results if r[1] == "fail"]
    skipped = [r for r in results if r[1] == "skip"]
    for name, _, msg in skipped:
        print("%s: SKIP: %s" % (name, msg))
    if failed:
        return 1
    if skipped and in_ci():
        print("FAIL: CI must run every case (as root, after sh setup.sh --tests)")
        return 1
    if len(skipped) == len(results):
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
