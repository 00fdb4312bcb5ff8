/* interrupts.h -- SIGINT, SIGTERM and SIGHUP, polled instead of handled.
 *
 * The program installs no signal handler, which would need state shared
 * with the handler outside any value. Instead, while it has something to
 * undo (a temporary file of its own: the trace during a run with
 * --write-trace, the report while -o is written; the terminal while
 * `watch` draws on it), it blocks the three with sigprocmask and polls
 * sigpending() between operations; when one is pending it undoes what it
 * must (removes its temporaries, never the user's PATH; restores the
 * terminal), says "interrupted" and dies of that signal by its default
 * action, so the shell sees the conventional status (128 + the signal).
 * Otherwise they are not blocked and end the program at once: nothing is
 * left behind then. A signal that was ignored when the program started
 * (nohup, a background job) stays ignored and is not watched.
 * (Moved here from cli/main.c, unchanged, for cli/watch.c.)
 */
#ifndef REGIONSIM_INTERRUPTS_H
#define REGIONSIM_INTERRUPTS_H

#include <signal.h>

typedef struct interrupts {
    sigset_t set;   /* the signals watched */
    sigset_t saved; /* the signal mask before interrupts_hold */
    int held;       /* set is blocked */
} interrupts;

/* Watches the three signals that are not ignored now; nothing is blocked yet. */
void interrupts_init(interrupts *in);

/* Blocks the watched signals (they wait, pending, for interrupts_pending). */
void interrupts_hold(interrupts *in);

/* Restores the mask: a signal pending now ends the program. */
void interrupts_release(interrupts *in);

/* The watched signal waiting to be delivered, or 0 (always 0 unless held). */
int interrupts_pending(const interrupts *in);

/* Says "regionsim CMD: interrupted (SIGxxx)" on stderr and dies of signal
 * signo by its default action (128 + signo if it somehow survives). The
 * caller has undone what it must first. */
_Noreturn void die_interrupted(interrupts *in, const char *cmd_name, int signo);

#endif
