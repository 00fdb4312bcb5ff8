/* interrupts.c -- polled SIGINT, SIGTERM and SIGHUP (see interrupts.h for
 * why no handler is installed). */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/interrupts.h"

static const int watched_signals[] = { SIGINT, SIGTERM, SIGHUP };
static const char *const watched_names[] = { "SIGINT", "SIGTERM", "SIGHUP" };
#define NWATCHED (sizeof watched_signals / sizeof watched_signals[0])

void interrupts_init(interrupts *in)
{
    sigemptyset(&in->set);
    sigemptyset(&in->saved);
    in->held = 0;
    for (size_t i = 0; i < NWATCHED; i++) {
        struct sigaction now;
        if (sigaction(watched_signals[i], NULL, &now) == 0 && now.sa_handler != SIG_IGN)
            sigaddset(&in->set, watched_signals[i]);
    }
}

/* Blocks the watched signals (they wait, pending, for interrupts_pending). */
void interrupts_hold(interrupts *in)
{
    if (!in->held && sigprocmask(SIG_BLOCK, &in->set, &in->saved) == 0)
        in->held = 1;
}

/* Restores the mask: a signal pending now ends the program. */
void interrupts_release(interrupts *in)
{
    if (in->held) {
        in->held = 0;
        sigprocmask(SIG_SETMASK, &in->saved, NULL);
    }
}

/* The watched signal waiting to be delivered, or 0. */
int interrupts_pending(const interrupts *in)
{
    sigset_t pending;
    if (!in->held || sigpending(&pending) != 0)
        return 0;
    for (size_t i = 0; i < NWATCHED; i++)
        if (sigismember(&in->set, watched_signals[i]) && sigismember(&pending, watched_signals[i]))
            return watched_signals[i];
    return 0;
}

/* Says so and dies of signal signo by its default action (128 + signo if
 * it somehow survives). The caller has removed its temporaries. */
_Noreturn void die_interrupted(interrupts *in, const char *cmd_name, int signo)
{
    const char *name = "a signal";
    for (size_t i = 0; i < NWATCHED; i++)
        if (watched_signals[i] == signo)
            name = watched_names[i];
    fprintf(stderr, "regionsim %s: interrupted (%s)\n", cmd_name, name);
    signal(signo, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, signo);
    in->held = 0;
    sigprocmask(SIG_UNBLOCK, &one, NULL); /* the pending signal is delivered here */
    raise(signo);
    _exit(128 + signo);
}
