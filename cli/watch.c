/* watch.c -- `regionsim watch`: a run replayed live in the terminal.
 *
 * Design: run, then replay. The scenario runs to its end first (a second
 * or less for anything a class watches; the progress bar shows on stderr
 * when longer), and the screen then replays the finished run_result in
 * wall time. The alternative, drawing from an engine_observer while the
 * run goes, would let a long run start showing sooner, but it would have
 * to pace the engine itself (blocking inside on_op), could not step
 * exactly to the next event nor show a window's writes before the window
 * is over, and would draw from the live cluster, which the reports never
 * see. Replay is deterministic (the frame at time t is a pure function of
 * the result and t: reports/watchview.c), so pause, step and the speed
 * keys are only changes to a clock, and what the screen shows at the end
 * is what `regionsim run` reports.
 *
 * The screen: stdout a terminal and TERM set and not "dumb". It switches
 * to the alternate screen and hides the cursor, puts stdin (when it is a
 * terminal) in non-canonical mode without echo (signals stay on: ^C is
 * SIGINT), and redraws about ten times a second: cursor home, each line
 * followed by erase-to-end-of-line, erase below, never a newline after
 * the last line (that would scroll). A frame equal to the last one is not
 * written again. Between frames it waits in poll() on stdin for keys:
 * space pauses and resumes, right arrow pauses and steps to the next
 * thing that happens (an event of the timeline or a window's end), + and
 * - double and halve the speed, q quits. At the end of the run the last
 * frame stays, marked, until q (when there are no keys, it returns). The
 * terminal is restored (cursor, main screen, the saved termios) on q, at
 * the end, on a write error, and before dying of SIGINT, SIGTERM or SIGHUP,
 * which are blocked while the screen is ours and polled between frames
 * (cli/interrupts.h: no handler, no global state). ^Z (SIGTSTP) is polled
 * too: the terminal is restored, the process stops, and on SIGCONT the
 * screen comes back.
 *
 * Not a terminal, or TERM dumb or unset: plain progress lines, one per
 * report window at its end (reports/watchview.h's watchview_line), no
 * escapes. They are written at once unless --speed is given, when they
 * are paced like the screen (for a projector behind a pipe); so a script
 * or test gets the whole run at once and deterministically.
 *
 * The wall clock (CLOCK_MONOTONIC) decides only when to draw, never what
 * the simulation does.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "reports/watchview.h"
#include "engine/engine.h"
#include "cli/interrupts.h"
#include "cli/progress.h"
#include "scenario/units.h"
#include "cli/watch.h"

#define EXIT_USAGE 2
#define FRAME_MS 100 /* wall milliseconds between two redraws */

int watch_parse_speed(const char *text, double *speed)
{
    double v;
    uint64_t us;
    char *end;
    if (!text || !(text[0] >= '0' && text[0] <= '9'))
        return -1;
    if (units_parse_duration(text, &us) == 0) {
        v = (double)us / 1e6;
    } else {
        errno = 0;
        v = strtod(text, &end);
        if (*end || errno || strchr(text, 'e') || strchr(text, 'E') || strchr(text, 'x') ||
            strchr(text, 'X'))
            return -1;
    }
    if (!(v >= WATCH_SPEED_MIN && v <= WATCH_SPEED_MAX))
        return -1;
    *speed = v;
    return 0;
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleeps until wall time `until` (wall_seconds' clock). */
static void sleep_until(double until)
{
    for (;;) {
        double left = until - wall_seconds();
        if (left <= 0)
            return;
        struct timespec ts = { (time_t)left, (long)((left - floor(left)) * 1e9) };
        nanosleep(&ts, NULL);
    }
}

/* Whether the screen can be drawn on stdout: a terminal whose TERM can
 * move the cursor (set, not "dumb"). */
static int screen_possible(void)
{
    const char *term = getenv("TERM");
    return isatty(STDOUT_FILENO) && term && term[0] && strcmp(term, "dumb") != 0;
}

/* Colour on the screen: --color always or never decide; auto: unless
 * NO_COLOR is set to anything (no-color.org). */
static int screen_color(const watch_options *wo)
{
    if (wo->color >= 0)
        return wo->color;
    const char *no_color = getenv("NO_COLOR");
    return !(no_color && no_color[0]);
}

/* Plain progress lines: one per window, at its end; paced when --speed
 * was given. Returns the exit status. */
static int plain_lines(const run_result *run, const watch_options *wo)
{
    double start = wall_seconds();
    for (uint32_t w = 0; w < run->nwindows; w++) {
        uint64_t t = (uint64_t)(w + 1) * run->window_us;
        if (t > run->duration_us || w + 1 == run->nwindows)
            t = run->duration_us;
        if (wo->speed_given)
            sleep_until(start + (double)t / 1e6 / wo->speed);
        if (watchview_line(stdout, run, t) < 0 || fflush(stdout) != 0) {
            fprintf(stderr, "regionsim %s: writing the progress lines failed\n", wo->cmd_name);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* The screen while it is ours. */
typedef struct screen {
    const sim_results *res;
    const run_result *run;
    const watch_options *wo;
    interrupts ints;
    sigset_t tstp;          /* SIGTSTP, blocked while the screen is ours */
    int keys;               /* stdin is a terminal: keys are read */
    struct termios saved;   /* stdin's modes before */
    int raw;                /* stdin's modes are changed */
    int on;                 /* the alternate screen is up */
    char *last;             /* the last frame written (to skip equal ones) */
    size_t last_len;
    double t_us;            /* the clock, simulated */
    double base_t_us, base_wall; /* while running: t = base_t + (wall - base_wall) * speed */
    double speed;
    int paused, finished, quit;
} screen;

/* Writes all of s to the terminal. Returns 0, or -1 when it cannot. */
static int write_all(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t k = write(STDOUT_FILENO, s, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Takes the terminal: raw keys, alternate screen, no cursor. Returns 0 or -1. */
static int screen_enter(screen *sc)
{
    if (sc->keys) {
        struct termios raw = sc->saved;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        raw.c_cc[VMIN] = 0;
        raw.c_cc[VTIME] = 0;
        if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) < 0)
            return -1;
        sc->raw = 1;
    }
    static const char enter[] = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J";
    sc->on = 1;
    if (write_all(enter, sizeof enter - 1) < 0)
        return -1;
    free(sc->last);
    sc->last = NULL; /* draw the next frame whatever the last was */
    return 0;
}

/* Gives the terminal back as it was. Safe to call twice. */
static void screen_leave(screen *sc)
{
    if (sc->on) {
        static const char leave[] = "\x1b[0m\x1b[?25h\x1b[?1049l";
        (void)write_all(leave, sizeof leave - 1); /* a terminal gone needs nothing back */
        sc->on = 0;
    }
    if (sc->raw) {
        tcsetattr(STDIN_FILENO, TCSANOW, &sc->saved);
        sc->raw = 0;
    }
}

/* The terminal's size, 80x24 when it does not say. */
static void screen_size(int *width, int *height)
{
    struct winsize ws;
    *width = 80;
    *height = 24;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        *width = ws.ws_col;
        *height = ws.ws_row;
    }
}

/* Draws the frame for the clock, unless it equals the last one. Returns
 * 0, -1 when memory ran out, or -2 when the terminal could not be written. */
static int screen_draw(screen *sc)
{
    int width, height;
    screen_size(&width, &height);
    watchview v = { sc->run, sc->res->scenario, sc->res->seed, (uint64_t)sc->t_us, sc->speed,
                    sc->paused, sc->finished, screen_color(sc->wo), sc->keys, width, height };
    char *text = NULL, *framed = NULL;
    size_t len = 0, flen = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return -1;
    int bad = watchview_frame(m, &v);
    if (fclose(m) != 0 || bad < 0) {
        free(text);
        return -1;
    }
    m = open_memstream(&framed, &flen);
    if (!m) {
        free(text);
        return -1;
    }
    fputs("\x1b[H", m);
    int lines = 0; /* a screen smaller than the frame gets its top */
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\n') {
            fputc(text[i], m);
            continue;
        }
        fputs("\x1b[K", m);
        if (++lines >= height || i + 1 >= len)
            break; /* no newline after the last line: it would scroll */
        fputs("\r\n", m);
    }
    fputs("\x1b[J", m);
    bad = fclose(m) != 0;
    free(text);
    if (bad) {
        free(framed);
        return -1;
    }
    if (sc->last && sc->last_len == flen && !memcmp(sc->last, framed, flen)) {
        free(framed);
        return 0;
    }
    if (write_all(framed, flen) < 0) {
        free(framed);
        return -2;
    }
    free(sc->last);
    sc->last = framed;
    sc->last_len = flen;
    return 0;
}

/* The clock restarts from where it is (after a pause, a step, a new speed). */
static void rebase(screen *sc)
{
    sc->base_t_us = sc->t_us;
    sc->base_wall = wall_seconds();
}

/* Right arrow: the next thing that happens after the clock: an event of
 * the timeline or a report window's end, whichever is first. */
static void step(screen *sc)
{
    const run_result *run = sc->run;
    uint64_t t = (uint64_t)sc->t_us, next = run->duration_us;
    if (run->window_us) {
        uint64_t w_end = (t / run->window_us + 1) * run->window_us;
        if (w_end < next)
            next = w_end;
    }
    for (size_t i = 0; i < run->nevents; i++)
        if (run->events[i].t_us > t) {
            if (run->events[i].t_us < next)
                next = run->events[i].t_us;
            break;
        }
    sc->t_us = (double)next;
    sc->paused = 1;
}

static void change_speed(screen *sc, double factor)
{
    double s = sc->speed * factor;
    sc->speed = s < WATCH_SPEED_MIN ? WATCH_SPEED_MIN : s > WATCH_SPEED_MAX ? WATCH_SPEED_MAX : s;
    rebase(sc);
}

/* Reads the keys waiting on stdin and acts on them. */
static void read_keys(screen *sc)
{
    unsigned char buf[64];
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    for (ssize_t i = 0; i < n; i++) {
        unsigned char c = buf[i];
        if (c == 0x1b) { /* an escape sequence: ESC [ params final, or ESC O final */
            if (i + 2 < n && (buf[i + 1] == '[' || buf[i + 1] == 'O')) {
                ssize_t j = i + 2;
                while (j < n && buf[j] >= 0x30 && buf[j] <= 0x3f)
                    j++; /* parameters */
                if (j < n && buf[j] == 'C' && !sc->finished)
                    step(sc);
                i = j;
            }
            continue;
        }
        if (c == 'q' || c == 'Q') {
            sc->quit = 1;
        } else if (c == ' ' && !sc->finished) {
            sc->paused = !sc->paused;
            rebase(sc);
        } else if (c == '+' || c == '=') {
            change_speed(sc, 2);
        } else if (c == '-' || c == '_') {
            change_speed(sc, 0.5);
        }
    }
}

/* Gives the terminal back and stops (^Z); takes it again when continued. */
static int suspend(screen *sc)
{
    screen_leave(sc);
    sigprocmask(SIG_UNBLOCK, &sc->tstp, NULL); /* the pending SIGTSTP stops us here */
    sigprocmask(SIG_BLOCK, &sc->tstp, NULL);
    if (sc->keys && tcgetattr(STDIN_FILENO, &sc->saved) < 0)
        sc->keys = 0;
    rebase(sc); /* the time it was stopped does not count */
    return screen_enter(sc);
}

/* The screen's loop. Returns the exit status. */
static int screen_loop(screen *sc)
{
    const run_result *run = sc->run;
    rebase(sc);
    while (!sc->quit) {
        if (!sc->paused && !sc->finished) {
            sc->t_us = sc->base_t_us + (wall_seconds() - sc->base_wall) * sc->speed * 1e6;
        }
        if (sc->t_us >= (double)run->duration_us) {
            sc->t_us = (double)run->duration_us;
            sc->finished = 1;
        }
        int drawn = screen_draw(sc);
        if (drawn < 0) {
            int e = errno;
            screen_leave(sc);
            if (drawn == -1)
                fprintf(stderr, "regionsim %s: out of memory drawing the screen\n",
                        sc->wo->cmd_name);
            else
                fprintf(stderr, "regionsim %s: writing to the terminal failed: %s\n",
                        sc->wo->cmd_name, strerror(e ? e : EIO));
            return EXIT_USAGE;
        }
        if (sc->finished && !sc->keys)
            break;
        struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
        int ready = poll(&p, sc->keys ? 1 : 0, FRAME_MS);
        if (ready > 0 && (p.revents & POLLIN))
            read_keys(sc);
        else if (ready > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)))
            sc->keys = 0; /* the terminal went away: no more keys; SIGHUP follows */
        int signo = interrupts_pending(&sc->ints);
        if (signo) {
            screen_leave(sc);
            free(sc->last);
            sc->last = NULL;
            die_interrupted(&sc->ints, sc->wo->cmd_name, signo);
        }
        sigset_t pending;
        if (sigpending(&pending) == 0 && sigismember(&pending, SIGTSTP) && suspend(sc) < 0) {
            screen_leave(sc);
            fprintf(stderr, "regionsim %s: the terminal could not be set up again\n",
                    sc->wo->cmd_name);
            return EXIT_USAGE;
        }
    }
    screen_leave(sc);
    return 0;
}

/* The live screen. Returns the exit status. */
static int live_screen(const sim_results *res, const watch_options *wo)
{
    screen sc;
    memset(&sc, 0, sizeof sc);
    sc.res = res;
    sc.run = &res->runs[0];
    sc.wo = wo;
    /* unless given: a report window a second (a simulated minute for a run
     * of minutes, an hour for a month's 1-hour windows) */
    sc.speed = wo->speed_given ? wo->speed : (double)res->runs[0].window_us / 1e6;
    if (sc.speed < WATCH_SPEED_MIN)
        sc.speed = WATCH_SPEED_MIN;
    if (sc.speed > WATCH_SPEED_MAX)
        sc.speed = WATCH_SPEED_MAX;
    interrupts_init(&sc.ints);
    sigemptyset(&sc.tstp);
    struct sigaction now;
    if (sigaction(SIGTSTP, NULL, &now) == 0 && now.sa_handler == SIG_DFL)
        sigaddset(&sc.tstp, SIGTSTP); /* ignored (no job control): stays so */
    interrupts_hold(&sc.ints);
    sigprocmask(SIG_BLOCK, &sc.tstp, NULL);
    sc.keys = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &sc.saved) == 0;
    int rc;
    if (screen_enter(&sc) < 0) {
        fprintf(stderr, "regionsim %s: the terminal could not be set up: %s\n", wo->cmd_name,
                strerror(errno));
        rc = EXIT_USAGE;
    } else {
        rc = screen_loop(&sc);
    }
    screen_leave(&sc);
    free(sc.last);
    sigprocmask(SIG_UNBLOCK, &sc.tstp, NULL);
    interrupts_release(&sc.ints);
    return rc;
}

int watch_run(const scenario *sc, const watch_options *wo)
{
    progress bar;
    progress_init(&bar, stderr, sc);
    engine_observer obs = { NULL, progress_update, &bar };
    sim_results res;
    char err[1280];
    int rc = engine_run_all(sc, &obs, &res, err, sizeof err);
    progress_done(&bar);
    if (rc < 0) {
        fprintf(stderr, "regionsim %s: %s\n", wo->cmd_name, err);
        return EXIT_USAGE;
    }
    rc = screen_possible() ? live_screen(&res, wo) : plain_lines(&res.runs[0], wo);
    sim_results_free(&res);
    return rc;
}
