#!/usr/bin/env python3
"""readme_samples.py -- the sample outputs in README.md and docs/*.md stay true.

Every sample of regionsim's output in the Markdown files is run with the
built binary and compared with what it prints now, so a change to a
report that makes a sample wrong fails `meson test` instead of leaving the
documentation stale.

Which fenced blocks are samples (the convention; docs/development.md#samples-in-the-docs):

  1. A block whose first line is `$ regionsim ARGS` or
     `$ build/regionsim ARGS`: the rest of the block is what ARGS print on
     stdout.
  2. A block right after the line `<!-- sample: regionsim ARGS -->` (the
     comment, invisible on GitHub, on the line before the opening fence):
     the whole block is what ARGS print.

Before either, `<!-- sample slow -->` (form 1) or `<!-- sample slow:
regionsim ARGS -->` (form 2) marks a sample checked only with --slow (the
test suite 'slow': a command that takes more than about a second);
`<!-- sample unchecked: REASON -->` marks a `$ regionsim` block that is not
checked (its output depends on the machine, say), with the reason. Other
blocks, and `$` blocks of other programs (the benchmarks), are not samples.

A sample matches when its lines are the output's lines, in order, except
that a line `...` (blanks around it allowed) stands for any number of
omitted lines, none included: a sample that does not begin with `...`
begins at the output's first line, one that does not end with `...` ends
at its last. Trailing blanks are ignored. ARGS are split as the shell splits words
(no pipes, no redirections, no variables) and run from the source root,
so `examples/...` paths work, in a fixed environment: TZ=UTC, LC_ALL=C,
NO_COLOR=1, TERM=dumb, COLUMNS=100 (and the sanitizers' *SAN_OPTIONS
when set). The command must exit with status 0.

Usage:
  readme_samples.py REGIONSIM SOURCE_ROOT [--slow] [--update] [FILE.md ...]

Without FILEs it reads README.md and docs/*.md. For each failing sample
it names the file, the block's line and command, and the first line that
differs (its line in the file, the line wanted and the line printed),
then the command that regenerates them; it exits
1 when a sample fails, 2 on a usage or convention error (a marker without
its block, a command that fails to run). --update rewrites every checked
sample from the real output instead: each piece between `...` lines is
replaced by as many output lines, taken where the piece matches the
output best, and a first or last piece that matches better inside the
output than at its start or end gets a `...` before or after it (review
the result with git diff); a sample without `...` is replaced by the
whole output.
"""
import concurrent.futures
import glob
import os
import re
import shlex
import subprocess
import sys

ENV = {"TZ": "UTC", "LC_ALL": "C", "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100",
       "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
ENV.update({k: v for k, v in os.environ.items()
            if k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")})
MARKER = re.compile(r"^<!--\s*sample(?P<slow>\s+slow)?(?:\s*:\s*(?P<cmd>.*?))?\s*-->\s*$")
UNCHECKED = re.compile(r"^<!--\s*sample\s+unchecked\s*:\s*(?P<reason>.+?)\s*-->\s*$")
DOLLAR = re.compile(r"^\$ (?:build/)?regionsim(?:\s|$)")


class Sample:
    def __init__(self, path, fence, cmd, first, end, slow):
        self.path = path      # the Markdown file
        self.fence = fence    # 0-based index of the opening fence line
        self.cmd = cmd        # the command as written, "regionsim ARGS"
        self.first = first    # index of the sample's first expected line
        self.end = end        # index of the closing fence
        self.slow = slow


def fail_usage(msg):
    sys.stderr.write("readme_samples: %s\n" % msg)
    sys.exit(2)


def find_samples(path, lines):
    """The samples of one file, in order; convention errors exit 2."""
    samples, unchecked = [], 0
    i = 0
    while i < len(lines):
        line = lines[i]
        m, u = MARKER.match(line), UNCHECKED.match(line)
        if re.match(r"^<!--\s*sample\b", line) and not (m or u):
            fail_usage("%s:%d: not a sample marker: %s" % (path, i + 1, line))
        if not line.startswith("```"):
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if end == len(lines):
            fail_usage("%s:%d: the block has no closing fence" % (path, i + 1))
        prev = lines[i - 1] if i > 0 else ""
        pm, pu = MARKER.match(prev), UNCHECKED.match(prev)
        dollar = i + 1 < end and DOLLAR.match(lines[i + 1])
        if pu:
            unchecked += 1
        elif dollar:
            if pm and pm.group("cmd"):
                fail_usage("%s:%d: a `$ regionsim` block's marker names no command "
                           "(`<!-- sample slow -->`)" % (path, i))
            samples.append(Sample(path, i, lines[i + 1][2:].strip(), i + 2, end,
                                  bool(pm and pm.group("slow"))))
        elif pm:
            if not pm.group("cmd"):
                fail_usage("%s:%d: the marker names no command and the block does not "
                           "start with `$ regionsim`" % (path, i))
            samples.append(Sample(path, i, pm.group("cmd"), i + 1, end, bool(pm.group("slow"))))
        i = end + 1
    for k, line in enumerate(lines):  # a marker must be right before a fence
        if (MARKER.match(line) or UNCHECKED.match(line)) and \
                (k + 1 >= len(lines) or not lines[k + 1].startswith("```")):
            fail_usage("%s:%d: a sample marker must be on the line before a ``` block"
                       % (path, k + 1))
    return samples, unchecked


def argv_of(binary, cmd):
    words = shlex.split(cmd)
    if not words or words[0] not in ("regionsim", "build/regionsim"):
        fail_usage("not a regionsim command: %s" % cmd)
    if any(w in ("|", ">", "<", "&&", ";") or w.startswith(">") for w in words[1:]):
        fail_usage("pipes and redirections are not supported: %s" % cmd)
    return [binary] + words[1:]


def run(binary, root, cmd):
    p = subprocess.run(argv_of(binary, cmd), cwd=root, env=ENV, capture_output=True,
                       text=True, timeout=600)
    if p.returncode != 0:
        return None, "exit status %d: %s" % (p.returncode, p.stderr.strip()[:500])
    lines = p.stdout.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines], None


def pieces(expected):
    """The sample cut at its `...` lines: [(offset in sample, lines)], and
    whether the output's start and end are anchored."""
    out, cur, start = [], [], 0
    for k, line in enumerate(expected):
        if line.strip() == "...":
            out.append((start, cur))
            cur, start = [], k + 1
        else:
            cur.append(line)
    out.append((start, cur))
    return out


def score(piece, got, at):
    return sum(1 for k, line in enumerate(piece) if at + k < len(got) and got[at + k] == line)


def best_at(piece, got, lo, hi):
    """The start in got[lo:hi] where piece matches most lines (the first such)."""
    best, best_s = lo, -1
    for at in range(lo, max(lo, hi - len(piece)) + 1):
        s = score(piece, got, at)
        if s > best_s:
            best, best_s = at, s
    return best


def match(expected, got):
    """None when expected matches got, else (index in expected, expected
    line, got line or None, index in got or None) of the first difference."""
    ps = pieces(expected)
    pos = 0
    for n, (off, piece) in enumerate(ps):
        first, last = n == 0, n == len(ps) - 1
        if not piece:
            continue
        if first and last:      # no `...`: the whole output
            at = 0
        elif first:
            at = 0
        elif last:
            at = len(got) - len(piece)
            if at < pos:
                at = pos
        else:
            at = next((a for a in range(pos, len(got) - len(piece) + 1)
                       if got[a:a + len(piece)] == piece), None)
            if at is None:  # report against where it matches best
                at = best_at(piece, got, pos, len(got))
        if last and not first and got[at:at + len(piece)] != piece:
            # Found earlier than the end: the output goes on after it.
            early = next((a for a in range(pos, len(got) - len(piece) + 1)
                          if got[a:a + len(piece)] == piece), None)
            if early is not None:
                return off + len(piece), None, got[early + len(piece)], early + len(piece)
            at = best_at(piece, got, pos, len(got))  # report against its best place
        for k, line in enumerate(piece):
            g = got[at + k] if 0 <= at + k < len(got) else None
            if g != line:
                return off + k, line, g, (at + k if g is not None else None)
        if first and last and len(got) > len(piece):
            return len(piece), None, got[len(piece)], len(piece)
        pos = at + len(piece)
    return None


def regenerate(expected, got):
    """The sample rewritten from got, keeping its `...` cuts."""
    ps = pieces(expected)
    if len(ps) == 1:
        return list(got)
    cuts = [line for line in expected if line.strip() == "..."]  # kept as written
    out, pos, tail = [], 0, []
    for n, (off, piece) in enumerate(ps):
        if n:
            out.append(cuts[n - 1])
        if not piece:
            continue
        best = best_at(piece, got, pos, len(got))
        if n == 0:
            at = 0
        elif n == len(ps) - 1:
            at = max(pos, len(got) - len(piece))
        else:
            at = best
        # A piece anchored at the start or end that matches better inside
        # the output was meant as a cut: it gets its `...`.
        if at != best and score(piece, got, best) > score(piece, got, at):
            if n == 0:
                out.append("...")
            else:
                tail = ["..."]
            at = best
        out.extend(got[at:at + len(piece)])
        pos = at + len(piece)
    return out + tail


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    flags = {a for a in argv if a.startswith("--")}
    unknown = flags - {"--slow", "--update"}
    if len(args) < 2 or unknown:
        fail_usage("usage: readme_samples.py REGIONSIM SOURCE_ROOT [--slow] [--update] [FILE.md ...]")
    binary, root = os.path.abspath(args[0]), args[1]
    files = args[2:] or ["README.md"] + sorted(os.path.relpath(p, root) for p in
                                               glob.glob(os.path.join(root, "docs", "*.md")))
    slow, update = "--slow" in flags, "--update" in flags
    texts, todo, skipped, unchecked = {}, [], 0, 0
    for f in files:
        full = f if os.path.isabs(f) else os.path.join(root, f)
        with open(full, encoding="utf-8") as fh:
            texts[f] = fh.read().split("\n")
        s, u = find_samples(f, texts[f])
        unchecked += u
        for x in s:
            if x.slow and not slow:
                skipped += 1
            else:
                todo.append(x)
    cmds = sorted({x.cmd for x in todo})
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = dict(zip(cmds, ex.map(lambda c: run(binary, root, c), cmds)))
    failed, messages = 0, []
    # Back to front, so that rewriting a sample (--update) leaves the line
    # numbers of the file's earlier samples as they were.
    for x in reversed(todo):
        got, err = results[x.cmd]
        where = "%s:%d (`%s`)" % (x.path, x.fence + 1, x.cmd)
        if err:
            sys.stderr.write("%s: the command failed: %s\n" % (where, err))
            return 2
        expected = [l.rstrip() for l in texts[x.path][x.first:x.end]]
        if update:
            texts[x.path][x.first:x.end] = regenerate(expected, got)
            continue
        d = match(expected, got)
        if d is None:
            continue
        failed += 1
        k, exp, g, gi = d
        line = x.first + k + 1
        if exp is None:
            what = "the output goes on after its last line (line %d; add a `...` line or " \
                   "the rest):\n    got  (output line %d): %s" % (line - 1, gi + 1, g)
        elif g is None:
            what = "line %d: the output ends before it:\n    want: %s" % (line, exp)
        else:
            what = "line %d differs:\n    want: %s\n    got  (output line %d): %s" % (
                line, exp, gi + 1, g)
        messages.insert(0, "%s: sample does not match the output; %s\n" % (where, what))
    if update:
        for f in files:
            full = f if os.path.isabs(f) else os.path.join(root, f)
            with open(full, "w", encoding="utf-8") as fh:
                fh.write("\n".join(texts[f]))
        print("%d samples rewritten from the output (%d commands); review them with git diff"
              % (len(todo), len(cmds)))
        return 0
    if failed:
        sys.stderr.write("".join(messages))
        sys.stderr.write("%d sample(s) out of date; to regenerate them from the current "
                         "binary: tests/readme_samples.py build/regionsim . --update%s "
                         "(then review git diff)\n" % (failed, " --slow" if slow else ""))
        return 1
    print("%d samples checked (%d commands)%s%s" % (
        len(todo), len(cmds),
        ", %d slow ones left for --slow" % skipped if skipped else "",
        ", %d marked unchecked" % unchecked if unchecked else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
