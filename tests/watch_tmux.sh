#!/bin/sh
# watch_tmux.sh -- `regionsim watch` on a real terminal: tmux.
#
#   sh tests/watch_tmux.sh REGIONSIM CLASSROOM.ini
#
# Starts a tmux server of its own (its own socket, no configuration, so
# the user's tmux is never touched; in the foreground, stopped on every
# exit path: nothing outlives the test), a shell in a detached session of
# a fixed size, types `regionsim watch --scheme monotonic --speed 8m` into
# it, and reads the screen with capture-pane:
#  - the hot server ("<- hot") is rs0 at first and another server once the
#    balancer has moved the tail region; splits are in the log by then;
#  - space pauses (two captures apart in time are equal, "[paused]");
#  - the right arrow steps (the clock moves on, still paused);
#  - q quits with status 0, the alternate screen gone (tmux's
#    alternate_on 0), the cursor visible, the shell's own screen back;
#  - ^Z gives the terminal back while the program is stopped, fg takes it
#    again;
#  - ^C (SIGINT) also restores the terminal, and the program dies of it
#    (status 130, "interrupted (SIGINT)");
#  - with TERM=dumb on the same terminal: plain lines, no screen.
# Every variable the program reads is set (TERM, NO_COLOR, LC_ALL, TZ).
# About 3 s. Without tmux it is skipped (exit 77, meson's skip code),
# except under CI (CI set and not "false"), where it fails: `sh setup.sh
# --tests` installs it. Registered in tests/meson.build (suite e2e).
set -eu

if [ $# -ne 2 ]; then
    echo "usage: sh watch_tmux.sh REGIONSIM CLASSROOM.ini" >&2
    exit 2
fi
regionsim=$1
case $regionsim in /*) ;; *) regionsim=$(pwd)/$regionsim ;; esac
classroom=$2 # 30 minutes, a window a minute (examples/classroom.ini)
case $classroom in /*) ;; *) classroom=$(pwd)/$classroom ;; esac

test_name=watch_tmux
. "$(dirname "$0")/lib.sh"
skip_in_package_build "this test starts a tmux server"
command -v tmux >/dev/null 2>&1 ||
    skip "tmux is not installed (Debian package tmux; sh setup.sh --tests installs it)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/regionsim-tmux.XXXXXX")
sock=$dir/tmux.sock
t() { tmux -S "$sock" -f /dev/null "$@"; }
# The server in the foreground (tmux -D) as the test's background job
# (lib.sh's private_start): in the test's process group, or in a PID
# namespace of its own (root), so that meson's SIGTERM, and its SIGKILL
# half a second later, reach it and what runs in its panes; the trap on
# EXIT, INT, TERM and HUP stops it on every other exit path.
cleanup() { t kill-server >/dev/null 2>&1 || true; private_stop; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
private_start "$dir/tmux.log" tmux -S "$sock" -f /dev/null -D
deadline=$(($(date +%s) + 5))
until [ -S "$sock" ]; do
    kill -0 "$private_job" 2>/dev/null || { cat "$dir/tmux.log" >&2; echo "watch_tmux: FAIL: tmux -D exited" >&2; exit 1; }
    [ "$(date +%s)" -lt "$deadline" ] || { echo "watch_tmux: FAIL: no tmux server socket in 5 s" >&2; exit 1; }
    sleep 0.05
done

fail() {
    echo "watch_tmux: FAIL: $*" >&2
    echo "--- the screen:" >&2
    t capture-pane -p -t w >&2 || true
    exit 1
}

# A plain sh with only what the test sets; tmux puts TMUX and TERM=screen
# into the pane, so TERM is set again in the shell's environment.
t new-session -d -s w -x 100 -y 36 \
    "env -i PATH=/usr/bin:/bin HOME=$dir TERM=xterm-256color LC_ALL=C.UTF-8 TZ=UTC PS1='$ ' sh"
t set-option -t w status off >/dev/null

screen() { t capture-pane -p -t w; }
hot_of() { printf '%s\n' "$1" | sed -n 's/^\(rs[0-9]*\) .*<- hot.*/\1/p'; }
clock_of() { printf '%s\n' "$1" | sed -n 's/^time \([0-9:]*\) .*/\1/p'; }

# Waits (up to $1 tenths of a second, 0.05 s apart) until the screen
# matches the extended regex $2; leaves it in $cap. Returns 1 if it never did.
wait_for() {
    n=$(($1 * 2))
    while [ "$n" -gt 0 ]; do
        cap=$(screen)
        if printf '%s\n' "$cap" | grep -qE -- "$2"; then return 0; fi
        sleep 0.05
        n=$((n - 1))
    done
    return 1
}

start=$(date +%s%N)
wait_for 20 '^\$' || fail "no shell prompt"
t send-keys -t w "unset NO_COLOR; '$regionsim' watch '$classroom' --scheme monotonic --speed 8m; echo watch-exit=\$?" Enter

# 1. the hot server at first: rs0, which holds the only region
wait_for 30 '<- hot' || fail "no frame with a hot server within 3 s"
first=$(hot_of "$cap")
[ "$first" = rs0 ] || fail "the first hot server is '$first', expected rs0 (the table's only region)"
# 2. later: the balancer moved the tail region; splits are in the log
wait_for 30 "^rs[1-9][0-9]* .*<- hot" || fail "the hot server never left rs0"
second=$(hot_of "$cap")
printf '%s\n' "$cap" | grep -qE '^  [0-9:]+  split ' || fail "no split in the log"
printf '%s\n' "$cap" | grep -qE '^  [0-9:]+  move +rs0 -> ' || fail "no move from rs0 in the log"
echo "watch_tmux: hot $first, then $second ($(clock_of "$cap"))"

# 3. space: paused, the screen stands still
t send-keys -t w Space
wait_for 10 '\[paused\]' || fail "space did not pause"
sleep 0.15
a=$(screen)
sleep 0.25
b=$(screen)
[ "$a" = "$b" ] || fail "the screen changed while paused"

# 4. right arrow: one step on, still paused
t send-keys -t w Right
n=20
while [ "$n" -gt 0 ] && [ "$(screen)" = "$b" ]; do sleep 0.05; n=$((n - 1)); done
c=$(screen)
[ "$c" != "$b" ] || fail "the right arrow did not step"
printf '%s\n' "$c" | grep -q '\[paused\]' || fail "stepping unpaused"
[ "$(clock_of "$c")" \> "$(clock_of "$b")" ] || fail "the clock did not move on: $(clock_of "$b") -> $(clock_of "$c")"
echo "watch_tmux: paused at $(clock_of "$b"), stepped to $(clock_of "$c")"

# 5. q: exit 0, the terminal restored
t send-keys -t w q
wait_for 20 'watch-exit=[0-9]' || fail "q did not end it"
printf '%s\n' "$cap" | grep -q 'watch-exit=0' || fail "q: exit status $(printf '%s\n' "$cap" | grep -o 'watch-exit=[0-9]*')"
[ "$(t display-message -p -t w '#{alternate_on}')" = 0 ] || fail "the alternate screen is still on"
[ "$(t display-message -p -t w '#{cursor_flag}')" = 1 ] || fail "the cursor is still hidden"
printf '%s\n' "$cap" | grep -q 'scenario classroom' && fail "the watch screen is still shown"
printf '%s\n' "$cap" | grep -q "scheme monotonic --speed 8m" || fail "the shell's screen is not back"
printf '%s\n' "$cap" | grep -qE '^\$ ?$' || fail "no shell prompt after it"

# 6. ^C: dies of SIGINT, the terminal restored
t send-keys -t w clear Enter
t send-keys -t w "'$regionsim' watch '$classroom' --scheme monotonic --duration 10m --speed 1m" Enter
wait_for 30 '<- hot' || fail "no frame for the ^Z and ^C run"
# ^Z: the terminal given back while stopped, taken again by fg
t send-keys -t w C-z
wait_for 20 'Stopped' || fail "^Z did not stop it"
[ "$(t display-message -p -t w '#{alternate_on} #{cursor_flag}')" = "0 1" ] ||
    fail "^Z: the terminal was not restored"
t send-keys -t w fg Enter
wait_for 20 '<- hot' || fail "fg: the screen did not come back"
[ "$(t display-message -p -t w '#{alternate_on}')" = 1 ] || fail "fg: not on the alternate screen"
t send-keys -t w C-c
# the shell drops the rest of a line whose command died of SIGINT: $? asked after
wait_for 20 'interrupted \(SIGINT\)' || fail "^C did not end it"
t send-keys -t w "echo int-exit=\$?" Enter
wait_for 20 'int-exit=[0-9]' || fail "^C: the shell did not come back"
printf '%s\n' "$cap" | grep -q 'int-exit=130' || fail "^C: $(printf '%s\n' "$cap" | grep -o 'int-exit=[0-9]*'), expected 130"
printf '%s\n' "$cap" | grep -q 'interrupted (SIGINT)' || fail "^C: no 'interrupted' message"
[ "$(t display-message -p -t w '#{alternate_on}')" = 0 ] || fail "^C: the alternate screen is still on"
[ "$(t display-message -p -t w '#{cursor_flag}')" = 1 ] || fail "^C: the cursor is still hidden"

# 7. TERM=dumb: plain lines on the terminal
t send-keys -t w clear Enter
t send-keys -t w "TERM=dumb '$regionsim' watch '$classroom' --scheme monotonic --duration 3m; echo dumb-exit=\$?" Enter
wait_for 30 'dumb-exit=[0-9]' || fail "TERM=dumb: it did not end"
printf '%s\n' "$cap" | grep -q 'dumb-exit=0' || fail "TERM=dumb: exit status"
printf '%s\n' "$cap" | grep -q '^00:03:00 hot rs0 ' || fail "TERM=dumb: no plain line for 00:03:00"
[ "$(t display-message -p -t w '#{alternate_on}')" = 0 ] || fail "TERM=dumb: the alternate screen is on"

echo "watch_tmux: ok in $(( ($(date +%s%N) - start) / 1000000 )) ms"
