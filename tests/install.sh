#!/bin/sh
# install.sh -- what `meson install` installs (dist/meson.build), checked
# from a DESTDIR install of this build:
#   - every file lands under the build's prefix: bin/regionsim,
#     MANDIR/man1/regionsim.1, DATADIR/bash-completion/completions/regionsim,
#     DATADIR/doc/regionsim/examples/ (every examples/*.ini, the same bytes)
#     and docs/; the man page's FILES section names that prefix's paths
#     (tests/deb_install.sh checks another prefix, /usr, in a package);
#   - the man page renders without a groff warning, has a section per
#     command the program lists, and names every option each command's
#     --help lists;
#   - the bash completion, sourced into a plain bash and its function
#     called as bash calls it: `regionsim com<TAB>` offers compare; every
#     command's options (and not those the command refuses: compare has no
#     -n, only watch --speed); --scheme every preset the default compare
#     runs, and the [scheme NAME]s of the scenario file on the line;
#     --assert every figure `regionsim figures` lists; the values of choice
#     options, each of which the program then accepts; files for -o and
#     --junit, scenario files for the positional argument, directories for
#     merge; --opt=value.
#
#   sh tests/install.sh REGIONSIM BUILDDIR SOURCE_ROOT WORKDIR MESON
#
# groff (groff-base, which man-db needs) and python3 are tools the test
# needs: without them it skips, except under CI (sh setup.sh --tests
# installs them). Registered in tests/meson.build, suite 'e2e' (about 3 s).
set -eu
test_name=install
. "$(dirname "$0")/lib.sh"
if [ $# -ne 5 ]; then
    echo "usage: sh install.sh REGIONSIM BUILDDIR SOURCE_ROOT WORKDIR MESON" >&2
    exit 2
fi
regionsim=$1 build=$2 root=$3 meson=$5
for p in groff python3 bash; do
    command -v "$p" >/dev/null 2>&1 || skip "$p is not installed (apt-get install groff-base python3 bash)"
done
mkdir -p "$4"
work=$(cd "$4" && pwd -P)/install.$$
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---- the files, under the prefix ----
dest=$work/dest
"$meson" install -C "$build" --no-rebuild --destdir "$dest" >"$work/install.log" 2>&1 ||
    fail "meson install --destdir: $(tail -n 20 "$work/install.log")"
option() { # option NAME: the build's value of meson option NAME
    "$meson" introspect "$build" --buildoptions |
        python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"
}
prefix=$(option prefix)
mandir=$(option mandir)
datadir=$(option datadir)
case $mandir in /*) ;; *) mandir=$prefix/$mandir ;; esac
case $datadir in /*) ;; *) datadir=$prefix/$datadir ;; esac
bin=$dest$prefix/bin/regionsim
man=$dest$mandir/man1/regionsim.1
comp=$dest$datadir/bash-completion/completions/regionsim
doc=$datadir/doc/regionsim
for f in "$bin" "$man" "$comp" "$dest$doc/docs/scenarios.md"; do
    [ -f "$f" ] || fail "not installed: ${f#"$dest"}"
done
[ -x "$bin" ] || fail "${bin#"$dest"} is not executable"
"$bin" --version | grep -q '^regionsim ' || fail "the installed regionsim does not run"
for f in "$root"/examples/*.ini; do
    cmp -s "$f" "$dest$doc/examples/${f##*/}" || fail "examples/${f##*/} not installed as is under $doc/examples"
done
outside=$(cd "$dest" && find . -type f | sed 's/^\.//' | grep -v "^$prefix/" || true)
[ -z "$outside" ] || fail "installed outside the prefix $prefix: $outside"
echo "ok: meson install puts the binary, regionsim(1), the completion, the examples and docs under $prefix"

# ---- the man page ----
groff -man -Tutf8 -ww -z "$man" 2>"$work/groff.err" || fail "groff could not render the man page"
[ ! -s "$work/groff.err" ] || fail "groff warns about the man page: $(head -n 5 "$work/groff.err")"
# one line per paragraph (a very long line), hyphens as typed
groff -man -Tascii -P-cbou -rLL=10000n "$man" 2>/dev/null | sed 's/  */ /g' >"$work/man.txt"
commands=$("$regionsim" --help | sed -n 's/^  \([a-z][a-z]*\)   *.*/\1/p')
[ "$(echo "$commands" | wc -w)" -ge 8 ] || fail "regionsim --help lists fewer than 8 commands: $commands"
for c in $commands; do
    up=$(echo "$c" | tr a-z A-Z)
    grep -q "^REGIONSIM $up\$" "$work/man.txt" || fail "the man page has no section REGIONSIM $up"
    "$regionsim" "$c" --help | sed -n 's/^  \(-[a-z-]*\).*/\1/p' | sort -u >"$work/opts"
    [ -s "$work/opts" ] || fail "regionsim $c --help lists no options"
    while read -r o; do
        grep -q -- "$o" "$work/man.txt" || fail "the man page does not name $c's option $o"
    done <"$work/opts"
done
grep -q "$doc/examples" "$work/man.txt" || fail "the man page's FILES does not name $doc/examples"
echo "ok: the man page renders without warnings, a section per command, every option named"

# ---- the bash completion ----
# complete LINE: what the completion offers at the end of LINE, one a line
# (the line split as bash splits it: at blanks, and at '=')
cat >"$work/complete.bash" <<'EOF'
. "$1"
shift
line=$1
COMP_LINE=$line
COMP_POINT=${#line}
read -r -a COMP_WORDS <<<"${line//=/ = }"
case $line in *' '|*=) COMP_WORDS+=("") ;; esac
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_regionsim regionsim "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]:-}"
[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}"
EOF
complete_line() {
    (cd "$work" && env -i PATH="$PATH" HOME="$work" LC_ALL=C bash --norc --noprofile \
        "$work/complete.bash" "$comp" "$1")
}
offers() { # offers LINE WORD: the completion of LINE offers WORD
    complete_line "$1" | grep -qx -- "$2" || fail "'$1<TAB>' does not offer '$2' (offers: $(complete_line "$1" | tr '\n' ' '))"
}
lacks() {
    ! complete_line "$1" | grep -qx -- "$2" || fail "'$1<TAB>' offers '$2', which the command refuses"
}
[ "$(complete_line "regionsim com")" = compare ] || fail "'regionsim com<TAB>' offers '$(complete_line "regionsim com")', not compare"
for c in $commands; do offers "regionsim " "$c"; done
offers "regionsim compare --sch" --scheme
offers "regionsim keys -" -n
lacks "regionsim compare -" -n
offers "regionsim watch --sp" --speed
lacks "regionsim run --sp" --speed
offers "regionsim sweep --pl" --plan
offers "regionsim compare --region-" --region-size
# the presets: those the default compare runs, in order
want=$("$regionsim" compare --duration 10m --samples 1 --format json |
    python3 -c 'import json, sys; print(" ".join(r["scheme"] for r in json.load(sys.stdin)["runs"]))')
got=$(complete_line "regionsim run --scheme " | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] || fail "--scheme offers '$got', the default compare runs '$want'"
cp "$root/examples/salting.ini" "$work/mine.ini"
for s in $(sed -n 's/^\[scheme \(.*\)\]$/\1/p' "$work/mine.ini"); do
    offers "regionsim compare mine.ini --scheme " "$s"
done
# the figures --assert takes
"$regionsim" figures | awk 'NR > 1 && !NF { exit } NR > 1 { print $1 }' >"$work/figures"
complete_line "regionsim compare --assert " >"$work/offered"
cmp -s "$work/figures" "$work/offered" || fail "--assert does not offer the figures 'regionsim figures' lists"
offers "regionsim compare --baseline-figures headline,p99_l" headline,p99_latency_us
# choice values: each one offered, the program takes
offers "regionsim compare --format " csv
offers "regionsim compare --format=j" json
offers "regionsim advise --format " json
lacks "regionsim advise --format " csv
kind_of() { # kind_of CMD OPTION: what the completion takes OPTION's value to be
    env -i PATH="$PATH" bash --norc --noprofile -c '. "$1"; _regionsim_kind "$2" "$3"' sh "$comp" "$1" "$2"
}
n=0
for o in $(complete_line "regionsim keys --"); do
    case $o in --format | --json-windows) continue ;; esac # keys prints text alone
    kind=$(kind_of keys "$o")
    case $kind in words\ *) ;; *) continue ;; esac
    for v in ${kind#words }; do
        offers "regionsim keys $o " "$v"
        "$regionsim" keys --scheme md5 -n 1 "$o" "$v" >/dev/null 2>"$work/err" || true
        ! grep -q -- "$o: expected" "$work/err" ||
            fail "$o offers '$v', which regionsim keys refuses: $(cat "$work/err")"
        n=$((n + 1))
    done
done
[ "$n" -ge 40 ] || fail "only $n choice values offered for keys' options"
# files and directories
mkdir -p "$work/plans/p1"
: >"$work/plans/result.json"
offers "regionsim compare -o plans/r" plans/result.json
offers "regionsim run --junit plans/" plans/result.json
offers "regionsim compare mi" mine.ini
lacks "regionsim compare plans/re" plans/result.json
offers "regionsim merge plans/" plans/p1
lacks "regionsim merge plans/" plans/result.json
echo "ok: the completion offers commands, options, presets, file schemes, figures, $n choice values and files"
