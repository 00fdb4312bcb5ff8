#!/usr/bin/env python3
"""reference.py -- regionsim(1) and its bash completion, made at build time
from what the built program itself prints, so neither can drift from it.

    reference.py REGIONSIM man OUT.1 DOCDIR
    reference.py REGIONSIM completion OUT

The sources, all the program's own output:
  - `regionsim --help`: the commands and their one-line summaries;
  - `regionsim CMD --help` for each: its usage line, its text and its
    options (the settings' part of compare's, run's, keys' and watch's help
    is generated from the settings table, scenario/scenario.c, and the
    --scheme entry names the presets from workloads/keyscheme.c);
  - `regionsim figures --format json`: the figure names --assert takes;
  - `regionsim CMD OPTION <probe> --regionsim-probe 1`, the parser itself:
    an option the command refuses ("not used by", "not with", "only with",
    "unknown option 'OPTION'") is not offered for it; an option whose value
    is one of a list ("expected a, b or c, found ...") offers that list.
    The probe value is no valid value and the trailing option is unknown,
    so no probe runs a simulation or writes a file. What a command checks
    only once it has read its whole line (keys' -o and --format, watch's
    --format and -o, the CI checks of keys and watch) is not seen: the
    completion offers those options, and the command refuses them with
    its own message.

The man page has a section per command (its help, options as tagged
paragraphs; a command whose options and settings are word for word an
earlier command's refers to it), then FILES (DOCDIR: the examples and the
docs the help names as docs/X.md), ENVIRONMENT and EXIT STATUS. The
completion completes commands, each command's options, the values of
choice options, preset and [scheme NAME] names for --scheme, figure names
for --assert and --baseline-figures, and file or directory names where the
help names a FILE, PATH, DIR, OLD.json or SCENARIO.ini.

Needs only the Python standard library. Cross builds, where the program
cannot run on the build machine, are refused (dist/meson.build).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

PROBE_VALUE = "regionsim-probe-value\x7f"
PROBE_TAIL = "--regionsim-probe"


def run(regionsim, *args):
    """stdout, stderr and status of regionsim ARGS, in a plain
    environment (no colour, no terminal, C locale)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC",
           "NO_COLOR": "1", "TERM": "dumb"}
    p = subprocess.run([regionsim] + list(args), stdin=subprocess.DEVNULL,
                       capture_output=True, env=env, timeout=60)
    return p.stdout.decode(), p.stderr.decode(), p.returncode


def fail(msg):
    sys.stderr.write("reference.py: %s\n" % msg)
    sys.exit(1)


# ---- the help text's shape ----

OPTION_LINE = re.compile(r"^  (-[^ ].*?)(?:  +(\S.*))?$")


class Entry:
    """One option of a help text: its spec ("-o PATH", "-h, --help") and
    its text, continuation lines joined."""

    def __init__(self, spec, text):
        self.spec, self.text = spec.strip(), text.strip()

    def names(self):
        """The option names the spec gives: "-h, --help" gives both; a
        placeholder such as --KEY gives none."""
        out = []
        for part in self.spec.split(", "):
            name = part.split(" ")[0]
            if re.fullmatch(r"--?[a-z][a-z0-9-]*", name):
                out.append(name)
        return out

    def arg(self):
        """The value's placeholder ("PATH", "LIST"), or None."""
        first = self.spec.split(", ")[-1].split(" ", 1)
        return first[1] if len(first) > 1 else None


def parse_help(text):
    """The help as blocks: ("usage", line), ("para", text),
    ("heading", text) or ("options", [Entry])."""
    blocks = []
    lines = text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        m = OPTION_LINE.match(line)
        if m:
            entries = []
            while i < len(lines) and OPTION_LINE.match(lines[i]):
                m = OPTION_LINE.match(lines[i])
                spec, text = m.group(1), m.group(2) or ""
                i += 1
                while i < len(lines) and lines[i].startswith("    ") and lines[i].strip():
                    text += " " + lines[i].strip()
                    i += 1
                entries.append(Entry(spec, text))
            blocks.append(("options", entries))
            continue
        if line.startswith("usage: "):
            blocks.append(("usage", line[len("usage: "):]))
            i += 1
            continue
        # prose: a line at column 0, and the lines indented by two that
        # continue it (a wrapped heading)
        para = line.strip()
        i += 1
        while i < len(lines) and lines[i].strip() and not OPTION_LINE.match(lines[i]):
            para += " " + lines[i].strip()
            i += 1
        if para.endswith(":") and i < len(lines) and OPTION_LINE.match(lines[i]):
            blocks.append(("heading", para[:-1]))
        else:
            blocks.append(("para", para))
    return blocks


def option_entries(blocks):
    return [e for kind, b in blocks if kind == "options" for e in b]


# ---- what the program says ----

def commands(regionsim):
    """The main help's blocks, and its commands: (name, summary), from
    its "Commands:" lines (two spaces, the name, its summary)."""
    out, _, status = run(regionsim, "--help")
    if status != 0:
        fail("regionsim --help exited %d" % status)
    cmds = []
    for line in out.split("\n"):
        m = re.match(r"^  ([a-z]+)   +(\S.*)$", line)
        if m:
            cmds.append((m.group(1), m.group(2)))
    if len(cmds) < 2:
        fail("regionsim --help lists no commands")
    return parse_help(out), cmds


def command_help(regionsim, cmd):
    out, err, status = run(regionsim, cmd, "--help")
    if status != 0:
        fail("regionsim %s --help exited %d: %s" % (cmd, status, err))
    return out


def figures(regionsim):
    out, err, status = run(regionsim, "figures", "--format", "json")
    if status != 0:
        fail("regionsim figures --format json exited %d: %s" % (status, err))
    return [f["name"] for f in json.loads(out)["figures"]]


def presets(compare_help):
    m = re.search(r"Presets:((?: [a-z0-9-]+)+) \(", " ".join(compare_help.split()))
    if not m:
        fail("regionsim compare --help names no presets ('Presets: ... (')")
    return m.group(1).split()


REFUSED = ("not used by", "not with", "only with")
CHOICES = re.compile(r": expected ((?:[a-z0-9_-]+, )*[a-z0-9_-]+ or [a-z0-9_-]+)(?:, found| after)")


def probe(regionsim, cmd, name, takes_value, sweep_file):
    """(taken, choices): whether cmd takes option name, and the list of
    values it takes when they are a closed list (else None). sweep checks
    a setting's value once it has read its file: its probes name
    sweep_file, a sweep of two seeds."""
    args = [cmd] + ([sweep_file] if cmd == "sweep" else []) + [name] + \
        ([PROBE_VALUE] if takes_value else []) + [PROBE_TAIL, "1"]
    out, err, status = run(regionsim, *args)
    if status != 2 or out:
        fail("probe %s: expected a usage error (exit 2, nothing on stdout), found exit %d"
             % (" ".join(args), status))
    first = err.split("\n")[0]
    if any(("%s: %s" % (name, r)) in first for r in REFUSED) or "unknown option '%s'" % name in first:
        return False, None
    m = CHOICES.search(first)
    if m and ("%s:" % name) in first:
        return True, re.split(r", | or ", m.group(1))
    return True, None


class Command:
    def __init__(self, name, summary, text):
        self.name, self.summary, self.text = name, summary, text
        self.blocks = parse_help(text)
        self.usage = next((b for k, b in self.blocks if k == "usage"), None)
        if not self.usage:
            fail("regionsim %s --help has no usage line" % name)


def gather(regionsim):
    main_blocks, cmd_list = commands(regionsim)
    cmds = [Command(n, s, command_help(regionsim, n)) for n, s in cmd_list]
    by_name = {c.name: c for c in cmds}
    if "compare" not in by_name:
        fail("no compare command")
    # every setting's option, as compare's help lists them (after its
    # own "Options:")
    settings = []
    seen_options = False
    for kind, b in by_name["compare"].blocks:
        if kind == "options":
            if seen_options:
                settings.extend(b)
            seen_options = True
    if not settings:
        fail("regionsim compare --help lists no settings")
    return main_blocks, cmds, settings


# ---- the man page ----

def roff_text(s):
    """s as roff text: backslashes escaped, hyphens as \\- (options copy
    as typed), no line starting with a control character."""
    s = s.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", s)


def roff_line(s):
    return roff_text(s) + "\n"


def man_usage(usage):
    """A usage line, the program and command in bold."""
    words = usage.split(" ")
    out = "\\fB%s %s\\fR" % (roff_text(words[0]), roff_text(words[1])) if len(words) > 1 \
        else "\\fB%s\\fR" % roff_text(words[0])
    rest = " ".join(words[2:])
    return out + (" " + roff_text(rest) if rest else "")


def man_spec(spec):
    """An option's spec: the option names bold, the placeholders italic."""
    out = []
    for word in spec.split(" "):
        comma = "," if word.endswith(",") else ""
        word = word.rstrip(",")
        font = "B" if word.startswith("-") else "I"
        out.append("\\f%s%s\\fR%s" % (font, roff_text(word), comma))
    return " ".join(out)


def man_blocks(blocks):
    """Help blocks as roff (the usage line left out: each section opens
    with it, in bold)."""
    out = []
    for kind, b in blocks:
        if kind == "para":
            out.append(".PP\n" + roff_line(b))
        elif kind == "heading":
            out.append(".SS %s\n" % roff_text(b))
        elif kind == "options":
            for e in b:
                out.append(".TP\n%s\n%s" % (man_spec(e.spec), roff_line(e.text)))
    return "".join(out)


def man_page(regionsim, docdir):
    main_blocks, cmds, _ = gather(regionsim)
    version, _, _ = run(regionsim, "--version")
    version = version.strip()
    # the main help's description: its first paragraph (then come the
    # commands, listed below from the same help, and a pointer to --help)
    intro = [b for k, b in main_blocks if k == "para"][:1]
    out = []
    out.append('.\\" regionsim(1): made by dist/reference.py from the program\'s own --help;\n'
               '.\\" edit the help texts (cli/, planners/, scenario/), not this file.\n')
    # the date: the build's SOURCE_DATE_EPOCH (a Debian build sets it from
    # debian/changelog), else none, so that a build is reproducible
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    date = time.strftime("%Y-%m-%d", time.gmtime(int(epoch))) if epoch.isdigit() else ""
    out.append('.TH REGIONSIM 1 "%s" "%s" "User Commands"\n' % (date, roff_text(version)))
    out.append(".SH NAME\nregionsim \\- %s\n" % roff_text(
        "simulate an HBase table's regions and where row-key schemes put the load"))
    out.append(".SH SYNOPSIS\n")
    for i, c in enumerate(cmds):
        out.append((".br\n" if i else "") + man_usage(c.usage) + "\n")
    out.append(".SH DESCRIPTION\n")
    for p in intro:
        out.append(".PP\n" + roff_line(p))
    out.append(".PP\nThe commands:\n")
    for c in cmds:
        out.append(".TP\n.B %s\n%s" % (roff_text(c.name), roff_line(c.summary)))
    out.append(".PP\nEach command's section below is its \\fB\\-\\-help\\fR.\n")
    done = {}
    for c in cmds:
        out.append(".SH %s\n" % roff_text(("regionsim " + c.name).upper()))
        out.append(man_usage(c.usage) + "\n")
        # the options (from the first option list on): an earlier
        # command's, word for word, are referred to rather than repeated
        first = next((i for i, (k, _) in enumerate(c.blocks) if k in ("options", "heading")),
                     len(c.blocks))
        key = repr([(k, [(e.spec, e.text) for e in b] if k == "options" else b)
                    for k, b in c.blocks[first:]])
        out.append(man_blocks(c.blocks[:first]))
        if key in done and first < len(c.blocks):
            out.append(".PP\nThe options and settings are those of \\fBregionsim %s\\fR, above.\n"
                       % roff_text(done[key]))
        else:
            done.setdefault(key, c.name)
            out.append(man_blocks(c.blocks[first:]))
    out.append(".SH FILES\n")
    out.append(".TP\n.I %s\n%s" % (roff_text(os.path.join(docdir, "examples")),
                                   roff_line("Example scenario files (regionsim compare FILE.ini).")))
    out.append(".TP\n.I %s\n%s" % (roff_text(os.path.join(docdir, "docs")),
                                   roff_line("The reference the help names as docs/NAME.md: "
                                             "scenarios, key schemes, figures, CI checks.")))
    out.append(".SH ENVIRONMENT\n")
    out.append(".TP\n.B NO_COLOR\n%s" % roff_line(
        "Set and not empty: with --color auto, text reports and watch draw without "
        "colour."))
    out.append(".TP\n.B TERM\n%s" % roff_line(
        "dumb: text reports have no colour (--color auto); dumb or unset: watch prints a "
        "plain line a window instead of drawing, as it does when stdout is not a terminal."))
    out.append(".SH EXIT STATUS\n")
    out.append(".TP\n.B 0\n%s.TP\n.B 1\n%s.TP\n.B 2\n%s" % (
        roff_line("The command ran, and every --assert and --baseline check held."),
        roff_line("An --assert or --baseline check failed (compare, run, sweep, merge)."),
        roff_line("Bad usage or input: the message names the option or file:line, "
                  "what was found and what was expected; nothing is written.")))
    return "".join(out)


# ---- the bash completion ----

FILE_ARGS = {"FILE", "PATH", "OLD.json"}


def completion(regionsim):
    _, cmds, settings = gather(regionsim)
    compare = next(c for c in cmds if c.name == "compare")
    preset_names = presets(compare.text)
    figure_names = figures(regionsim)
    setting_names = [n for e in settings for n in e.names()]
    setting_args = {n: e.arg() for e in settings for n in e.names()}
    lines = []
    lines.append("# bash completion for regionsim(1): made by dist/reference.py from the\n"
                 "# program's own --help and option checks; edit those, not this file.\n")
    lines.append("_regionsim_commands='%s'\n" % " ".join(c.name for c in cmds))
    lines.append("_regionsim_presets='%s'\n" % " ".join(preset_names))
    lines.append("_regionsim_figures='%s'\n" % " ".join(figure_names))
    options = {}
    kinds = {}
    with tempfile.TemporaryDirectory(prefix="regionsim-reference.") as tmp:
        sweep_file = os.path.join(tmp, "probe.ini")
        with open(sweep_file, "w") as f:
            f.write("[sweep]\nseed = 1, 2\n")
        probe_all(regionsim, cmds, setting_names, setting_args, sweep_file, options, kinds)
    lines.append(completion_tables(cmds, options, kinds))
    lines.append(COMPLETION_FUNCTION)
    return "".join(lines)


def probe_all(regionsim, cmds, setting_names, setting_args, sweep_file, options, kinds):
    """Fills options (command: the options it takes) and kinds ((command,
    option): what its value is; (command, ""): its positional argument)."""
    for c in cmds:
        entries = option_entries(c.blocks)
        # generic "--KEY VALUE" / "--SETTING VALUE" entries stand for
        # every setting's option
        generic = any(re.match(r"--[A-Z]+ ", e.spec) for e in entries)
        cand = {}
        for e in entries:
            for n in e.names():
                cand[n] = e.arg()
        if generic:
            for n in setting_names:
                cand.setdefault(n, setting_args[n])
        taken = []
        for n, arg in cand.items():
            ok, choices = (True, None) if n in ("-h", "--help") else \
                probe(regionsim, c.name, n, arg is not None, sweep_file)
            if not ok:
                continue
            taken.append(n)
            if arg is None:
                kinds[(c.name, n)] = "flag"
            elif choices:
                kinds[(c.name, n)] = "words " + " ".join(choices)
            elif n == "--scheme":
                kinds[(c.name, n)] = "scheme"
            elif n == "--assert":
                kinds[(c.name, n)] = "figure"
            elif n == "--baseline-figures":
                kinds[(c.name, n)] = "figures"
            elif arg == "DIR":
                kinds[(c.name, n)] = "dir"
            elif arg in FILE_ARGS or arg.endswith(".ini"):
                kinds[(c.name, n)] = "file"
            else:
                kinds[(c.name, n)] = "value"
        options[c.name] = taken
        usage = c.usage.split(" ")[2:]
        positional = next((w.strip("[]") for w in usage if not w.startswith(("-", "[-"))), None)
        kinds[(c.name, "")] = ("ini" if positional and positional.endswith(".ini")
                               else "dir" if positional == "DIR" else "none")
    # a setting's values are the same for every command, but sweep checks
    # them only once it has read its whole line (after the probe's unknown
    # option): its settings take the kinds the other commands' probes found
    for (cmd, opt), kind in list(kinds.items()):
        if kind == "value" and opt in setting_args:
            kinds[(cmd, opt)] = next((k for (c2, o2), k in kinds.items()
                                      if o2 == opt and k != "value"), "value")


def completion_tables(cmds, options, kinds):
    """The shell functions that answer from the probes' tables: the
    options a command takes, and what an option's value is (an option
    whose value is the same kind in every command that takes it is
    listed once, for any command)."""
    out = ["\n# _regionsim_options CMD: the options CMD takes\n_regionsim_options()\n{\n"
           "    case $1 in\n"]
    for c in cmds:
        out.append("    %s) echo '%s' ;;\n" % (c.name, " ".join(options[c.name])))
    out.append("    esac\n}\n")
    by_option = {}
    for (cmd, opt), kind in kinds.items():
        by_option.setdefault(opt, {})[cmd] = kind
    by_kind = {}
    for opt, per_cmd in by_option.items():
        if opt and len(set(per_cmd.values())) == 1:
            by_kind.setdefault(next(iter(per_cmd.values())), []).append("*' %s'" % opt)
        else:
            for cmd, kind in per_cmd.items():
                by_kind.setdefault(kind, []).append("'%s %s'" % (cmd, opt))
    out.append("\n# _regionsim_kind CMD OPTION: what OPTION's value is (flag: none; words\n"
               "# LIST; scheme; figure: one; figures: a list; file; dir; anything else:\n"
               "# free); OPTION empty: the command's positional argument (ini, dir)\n"
               "_regionsim_kind()\n{\n    case \"$1 $2\" in\n")
    for kind in sorted(by_kind):
        if kind in ("value", "none"):
            continue
        out.append("    %s)\n        echo '%s' ;;\n" % ("|".join(sorted(by_kind[kind])), kind))
    out.append("    *) echo value ;;\n    esac\n}\n")
    return "".join(out)


COMPLETION_FUNCTION = r'''
# _regionsim_file_schemes: the [scheme NAME] names of the scenario file
# on the line, if any
_regionsim_file_schemes()
{
    local w
    for w in "${COMP_WORDS[@]:2}"; do
        case $w in
        *.ini)
            [ -f "$w" ] && [ -r "$w" ] &&
                sed -n 's/^[[:space:]]*\[scheme[[:space:]][[:space:]]*\([^]]*\)\].*/\1/p' "$w" \
                    2>/dev/null | head -n 64
            ;;
        esac
    done
}

_regionsim()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd=${COMP_WORDS[1]} opt= kind
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$_regionsim_commands --help --version" -- "$cur"))
        return
    fi
    # --option=value: bash splits the word at '=' (COMP_WORDBREAKS)
    if [ "$cur" = "=" ]; then
        opt=$prev
        cur=
    elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 2 ]; then
        opt=${COMP_WORDS[COMP_CWORD-2]}
    elif [ "${prev#-}" != "$prev" ]; then
        opt=$prev
    fi
    if [ -n "$opt" ]; then
        kind=$(_regionsim_kind "$cmd" "$opt")
        case $kind in
        flag) ;;
        words\ *)
            COMPREPLY=($(compgen -W "${kind#words }" -- "$cur"))
            return ;;
        scheme)
            COMPREPLY=($(compgen -W "$_regionsim_presets $(_regionsim_file_schemes)" -- "$cur"))
            return ;;
        figure)
            # an assertion starts with its figure: 'write_max_mean <= 1.2'
            COMPREPLY=($(compgen -W "$_regionsim_figures" -- "$cur"))
            return ;;
        figures)
            # a comma-separated list: complete its last item
            local done=
            case $cur in *,*) done=${cur%,*}, cur=${cur##*,} ;; esac
            COMPREPLY=($(compgen -P "$done" -W "headline all $_regionsim_figures" -- "$cur"))
            return ;;
        file)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        dir)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -d -- "$cur"))
            return ;;
        value) return ;;
        esac
    fi
    case $cur in
    -*)
        COMPREPLY=($(compgen -W "$(_regionsim_options "$cmd")" -- "$cur"))
        return ;;
    esac
    case $(_regionsim_kind "$cmd" "") in
    ini)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.ini' -- "$cur")) ;;
    dir)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur")) ;;
    esac
}
complete -F _regionsim regionsim
'''


def main():
    if len(sys.argv) < 4 or sys.argv[2] not in ("man", "completion") or \
            (sys.argv[2] == "man" and len(sys.argv) != 5):
        sys.stderr.write("usage: reference.py REGIONSIM man OUT.1 DOCDIR\n"
                         "       reference.py REGIONSIM completion OUT\n")
        return 2
    regionsim, what, out = os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3])
    # the program runs in an empty directory of its own, which must stay
    # empty: no probe may write a file
    with tempfile.TemporaryDirectory(prefix="regionsim-reference.") as here:
        os.chdir(here)
        text = man_page(regionsim, sys.argv[4]) if what == "man" else completion(regionsim)
        if os.listdir(here):
            fail("running regionsim left files: %s" % ", ".join(sorted(os.listdir(here))))
        os.chdir("/")
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
