/* watch.h -- `regionsim watch`: a run replayed live in the terminal.
 *
 * Part of the program (linked into regionsim with main.c, not into the sim
 * library): it joins the simulation (engine/engine.h) and the frame drawer
 * (reports/watchview.h). cli/watch.c says how it works and why.
 */
#ifndef REGIONSIM_WATCH_H
#define REGIONSIM_WATCH_H

#include "scenario/scenario.h"

/* The speeds --speed takes and + and - reach, in simulated seconds a
 * wall second. */
#define WATCH_SPEED_MIN 0.001
#define WATCH_SPEED_MAX 1e6

typedef struct watch_options {
    const char *cmd_name;   /* "watch", for messages */
    double speed;           /* --speed: simulated seconds a wall second */
    int speed_given;        /* --speed was given: plain lines are paced too; if not,
                             * the live screen runs a report window a second */
    int color;              /* -1 auto (a terminal, NO_COLOR unset), 0 never, 1 always */
} watch_options;

/* Parses a --speed value: simulated seconds a wall second ("60", "0.5")
 * or a simulated duration a wall second with a unit ("1m", "500ms", "2h";
 * scenario/units.h's durations), from WATCH_SPEED_MIN to WATCH_SPEED_MAX.
 * Returns 0 and sets *speed, or -1 for anything else (the caller says
 * what was expected and exits 2). */
int watch_parse_speed(const char *text, double *speed);

/* Runs scheme 0 of sc (which must pass scenario_validate and have its
 * window counters kept: window_digest 0) and replays it: on a terminal
 * (stdout a tty, TERM set and not "dumb") as a live screen with keys,
 * else as plain progress lines on stdout. Returns the exit status: 0, or
 * 2 after a message on stderr (the run failed, the screen could not be
 * written). Dies of SIGINT, SIGTERM or SIGHUP after restoring the
 * terminal. */
int watch_run(const scenario *sc, const watch_options *wo);

#endif
