/* proc.c -- a command timed as a whole process (proc.h). */
#define _DEFAULT_SOURCE /* wait4 (one child's rusage), getloadavg */
#include "bench/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

double proc_load1(void)
{
    double l;
    return getloadavg(&l, 1) == 1 ? l : -1;
}

static void say_failed(char *const argv[], const char *why)
{
    fprintf(stderr, "bench: failed (%s):", why);
    for (int i = 0; argv[i]; i++)
        fprintf(stderr, " %s", argv[i]);
    fprintf(stderr, "\n");
}

typedef struct line_cutter line_cutter;
static void cut_lines(line_cutter *lc, const char *buf, size_t n);

/* Reads what is ready on fd into buf; counts it, keeps the first bytes of
 * stderr, hands stdout's lines to lc (if any). Returns 0 at end of file, 1
 * otherwise. */
static int drain(int fd, char *buf, size_t cap, unsigned long long *count, char *head,
                 size_t headcap, line_cutter *lc)
{
    ssize_t got = read(fd, buf, cap);
    if (got < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : 0;
    if (got == 0)
        return 0;
    if (lc)
        cut_lines(lc, buf, (size_t)got);
    if (head) {
        size_t have = strlen(head);
        size_t take = (size_t)got < headcap - 1 - have ? (size_t)got : headcap - 1 - have;
        memcpy(head + have, buf, take);
        head[have + take] = '\0';
    }
    *count += (unsigned long long)got;
    return 1;
}

/* stdout cut into lines for proc_run_lines' callback. */
typedef struct line_cutter {
    void (*on_line)(void *ctx, const char *line);
    void *ctx;
    char line[4096];
    size_t len;
} line_cutter;

static void cut_lines(line_cutter *lc, const char *buf, size_t n)
{
    for (size_t i = 0; lc->on_line && i < n; i++) {
        if (buf[i] == '\n') {
            lc->line[lc->len] = '\0';
            lc->on_line(lc->ctx, lc->line);
            lc->len = 0;
        } else if (lc->len + 1 < sizeof lc->line) {
            lc->line[lc->len++] = buf[i];
        }
    }
}

int proc_run(char *const argv[], proc_measure *m)
{
    return proc_run_lines(argv, m, NULL, NULL);
}

int proc_run_lines(char *const argv[], proc_measure *m,
                   void (*on_line)(void *ctx, const char *line), void *ctx)
{
    static line_cutter lc;
    lc.on_line = on_line;
    lc.ctx = ctx;
    lc.len = 0;
    enum { BUF = 1 << 16 };
    memset(m, 0, sizeof *m);
    char *buf = malloc(BUF);
    int out[2], err[2];
    if (!buf || pipe(out) < 0) {
        free(buf);
        say_failed(argv, "no memory or pipe");
        return -1;
    }
    if (pipe(err) < 0) {
        free(buf);
        close(out[0]);
        close(out[1]);
        say_failed(argv, "pipe");
        return -1;
    }
    double t0 = wall_now();
    pid_t pid = fork();
    if (pid < 0) {
        free(buf);
        close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        say_failed(argv, "fork");
        return -1;
    }
    if (pid == 0) {
        if (dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
            _exit(127);
        close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    struct pollfd p[2] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 } };
    int open_fds = 2;
    while (open_fds > 0) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            int more = i == 0 ? drain(p[i].fd, buf, BUF, &m->out_bytes, NULL, 0, &lc)
                              : drain(p[i].fd, buf, BUF, &m->err_bytes, m->err_head,
                                      sizeof m->err_head, NULL);
            if (!more) {
                close(p[i].fd);
                p[i].fd = -1;
                open_fds--;
            }
        }
    }
    free(buf);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        say_failed(argv, "wait4");
        return -1;
    }
    m->wall = wall_now() - t0;
    m->user = tv_seconds(ru.ru_utime);
    m->sys = tv_seconds(ru.ru_stime);
    m->rss_kib = ru.ru_maxrss;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        say_failed(argv, "exit status not 0");
        if (m->err_head[0])
            fprintf(stderr, "%s\n", m->err_head);
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

proc_measure proc_median(const proc_measure *m, int n)
{
    double w[PROC_MAX_REPS];
    for (int i = 0; i < n; i++)
        w[i] = m[i].wall;
    qsort(w, (size_t)n, sizeof *w, cmp_double);
    for (int i = 0; i < n; i++)
        if (m[i].wall == w[n / 2])
            return m[i];
    return m[0];
}

void proc_print_header(void)
{
    printf("%-52s %8s %8s %8s %9s %12s\n", "run", "wall s", "user s", "sys s", "peak MiB",
           "output B");
}

void proc_print_line(const char *what, const proc_measure *m)
{
    printf("%-52s %8.2f %8.2f %8.2f %9.1f %12llu\n", what, m->wall, m->user, m->sys,
           (double)m->rss_kib / 1024.0, m->out_bytes);
    fflush(stdout);
}
