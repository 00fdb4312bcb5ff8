/* output_set.c -- everything one command writes, written as a set.
 *
 * A compare with -o and --junit (and --write-trace), a sweep or merge with
 * -o and --junit, csv's eight files: the earlier code wrote one, then the
 * other, so a failure or ^C between the two left a new report beside an
 * old JUnit file, or none (1 in 60 interrupted trials), and a path that
 * could not be written was found only after the simulation (61-88 s of a
 * long compare lost before "cannot write").
 *
 * Now every path is checked before the work starts (output_check_set,
 * cli/output.c's output_check on each), and once everything is rendered
 * output_save_set writes in an order that keeps the set whole as far as a
 * file system allows: open every output (a refusal writes nothing), fill
 * and sync every temporary, then write the outputs that can only be
 * written in place (stdout, a device, a FIFO, a file through a link: they
 * cannot be taken back, so they go last before the renames), then rename
 * the temporaries one after the other. Interrupts are held throughout and
 * looked at before the in-place writes: a ^C up to there leaves nothing
 * new; after that the set is finished first. SIGPIPE is blocked too, so a
 * closed pipe is a write error that abandons the temporaries, and the
 * signal is delivered (ending the program as before) once they are gone.
 *
 * What remains: the renames are separate system calls. A crash or a
 * SIGKILL between two of them, or a rename that fails (in one directory,
 * after the files were written, practically only if someone removes the
 * directory meanwhile), leaves the first ones new and the rest old; a
 * failure writing the second of two in-place outputs leaves the first
 * one written. Both are reported (exit 2).
 */
#include "cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define COPY_BLOCK (1 << 16) /* bytes copied at a time from an item's stream */

/* "OPTION msg" into err; returns -1. */
static int item_fail(char *err, size_t errcap, const output_item *it, const char *msg)
{
    if (err && errcap)
        snprintf(err, errcap, "%s%s%s", it && it->option ? it->option : "",
                 it && it->option ? " " : "", msg);
    return -1;
}

/* "PATH: strerror(e)" into msg; returns -1. */
static int say(char *msg, size_t cap, const char *path, int e)
{
    snprintf(msg, cap, "%s: %s", path, strerror(e));
    return -1;
}

/* dir's parent ("." when it has none), trailing slashes ignored. */
static char *parent_of(const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    while (n > 0 && dir[n - 1] != '/')
        n--;
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n == 0)
        return strdup(".");
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, dir, n);
        p[n] = '\0';
    }
    return p;
}

/* dir is a directory the user may write into (*exists = 1), or is missing
 * and its parent is one (*exists = 0). 0, or -1 with "DIR: why" in msg. */
static int check_dir(const char *dir, int *exists, char *msg, size_t cap)
{
    struct stat st;
    *exists = stat(dir, &st) == 0;
    if (*exists && !S_ISDIR(st.st_mode))
        return say(msg, cap, dir, ENOTDIR);
    if (*exists)
        return faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) == 0 ? 0 : say(msg, cap, dir, errno);
    if (errno != ENOENT)
        return say(msg, cap, dir, errno);
    char *parent = parent_of(dir);
    int rc = !parent ? say(msg, cap, dir, ENOMEM)
             : faccessat(AT_FDCWD, parent, W_OK | X_OK, AT_EACCESS) == 0 ? 0
             : say(msg, cap, dir, errno);
    free(parent);
    return rc;
}

int output_check_set(const output_item *items, size_t n, const char *dir, char *err,
                     size_t errcap)
{
    char msg[1024];
    int dir_exists = 1;
    if (dir && check_dir(dir, &dir_exists, msg, sizeof msg) < 0)
        return item_fail(err, errcap, n ? &items[0] : NULL, msg);
    for (size_t i = 0; i < n && dir_exists; i++)
        if (items[i].path && !items[i].opened &&
            output_check(items[i].path, items[i].flags, msg, sizeof msg) < 0)
            return item_fail(err, errcap, &items[i], msg);
    return 0;
}

/* Creates dir if it is missing (*made = 1); an existing directory is used. */
static int make_dir(const char *dir, int *made, char *msg, size_t cap)
{
    *made = 0;
    if (mkdir(dir, 0777) == 0) {
        *made = 1;
        return 0;
    }
    int e = errno;
    struct stat st;
    if (e == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    return say(msg, cap, dir, e == EEXIST ? ENOTDIR : e);
}

/* Every item's output given up (temporaries removed); dir removed if the
 * set made it (rmdir: only when empty, so nothing else goes with it). */
static void abandon_all(output_item *items, size_t n, const char *dir, int made)
{
    for (size_t i = 0; i < n; i++) {
        output_abandon(items[i].opened);
        items[i].opened = NULL;
    }
    if (made)
        rmdir(dir);
}

/* The item's content into out (an output, or stdout when NULL). 0, or -1
 * with "why" in msg for a failure to read the content back; a write error
 * is the output's (output_finish) or stdout's to report. */
static int fill(const output_item *it, output_file *out, char *msg, size_t cap)
{
    if (it->data && it->len) {
        if (out)
            output_write(out, it->data, it->len);
        else
            fwrite(it->data, 1, it->len, stdout);
    }
    if (!it->from)
        return 0;
    char *block = malloc(COPY_BLOCK);
    if (!block || fseek(it->from, 0, SEEK_SET) != 0) {
        free(block);
        return say(msg, cap, "reading the rendered output back", block ? errno : ENOMEM);
    }
    size_t got;
    while ((got = fread(block, 1, COPY_BLOCK, it->from)) > 0) {
        if (out)
            output_write(out, block, got);
        else
            fwrite(block, 1, got, stdout);
    }
    free(block);
    return ferror(it->from) ? say(msg, cap, "reading the rendered output back", EIO) : 0;
}

/* An item written in place: stdout, or an output without a temporary
 * (filled unless it came open), then closed. */
static int write_in_place(output_item *it, char *msg, size_t cap)
{
    if (!it->path) {
        errno = 0;
        if (fill(it, NULL, msg, cap) < 0)
            return -1;
        if (fflush(stdout) != 0 || ferror(stdout))
            return say(msg, cap, "stdout: write failed", errno ? errno : EIO);
        return 0;
    }
    output_file *o = it->opened;
    it->opened = NULL;
    if (fill(it, o, msg, cap) < 0) {
        output_abandon(o);
        return -1;
    }
    return output_commit(o, msg, cap);
}

/* Dies of a pending interrupt after abandoning everything, if one is. */
static void settle_interrupt(output_item *items, size_t n, const char *dir, int made,
                             interrupts *ints, const char *cmd)
{
    int signo = interrupts_pending(ints);
    if (signo) {
        abandon_all(items, n, dir, made);
        die_interrupted(ints, cmd, signo);
    }
}

/* Steps 1-5 of output_save_set (output.h), signals held by the caller. */
static int write_set(output_item *items, size_t n, const char *dir, interrupts *ints,
                     const char *cmd, char *err, size_t errcap)
{
    char msg[1024];
    int made = 0;
    if (dir && make_dir(dir, &made, msg, sizeof msg) < 0) {
        abandon_all(items, n, NULL, 0);
        return item_fail(err, errcap, n ? &items[0] : NULL, msg);
    }
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (items[i].path && !items[i].opened &&
            !(items[i].opened = output_open(items[i].path, items[i].flags, ints, msg,
                                            sizeof msg)))
            bad = i;
    settle_interrupt(items, n, dir, made, ints, cmd);
    for (size_t i = 0; i < n && bad == n; i++) {
        output_file *o = items[i].opened;
        if (o && output_has_temporary(o) &&
            (fill(&items[i], o, msg, sizeof msg) < 0 || output_finish(o, msg, sizeof msg) < 0))
            bad = i;
    }
    settle_interrupt(items, n, dir, made, ints, cmd);
    for (size_t i = 0; i < n && bad == n; i++)
        if ((!items[i].path || (items[i].opened && !output_has_temporary(items[i].opened))) &&
            write_in_place(&items[i], msg, sizeof msg) < 0)
            bad = i;
    if (bad < n) {
        abandon_all(items, n, dir, made);
        return item_fail(err, errcap, items[bad].path ? &items[bad] : NULL, msg);
    }
    for (size_t i = 0; i < n; i++) {
        output_file *o = items[i].opened;
        items[i].opened = NULL;
        if (o && bad == n && output_commit(o, msg, sizeof msg) < 0)
            bad = i;
        else if (o && bad < n)
            output_abandon(o); /* after a failed rename: the rest stays old */
    }
    return bad < n ? item_fail(err, errcap, &items[bad], msg) : 0;
}

int output_save_set(output_item *items, size_t n, const char *dir, interrupts *ints,
                    const char *cmd, char *err, size_t errcap)
{
    int was_held = ints->held;
    interrupts_hold(ints);
    sigset_t pipe_set, before;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_set, &before);
    int rc = write_set(items, n, dir, ints, cmd, err, errcap);
    sigprocmask(SIG_SETMASK, &before, NULL); /* a closed pipe's SIGPIPE lands here */
    if (!was_held)
        interrupts_release(ints);
    return rc;
}

int output_save(const char *option, const char *path, unsigned flags, const void *data,
                size_t len, const char *cmd, char *err, size_t errcap)
{
    interrupts ints;
    interrupts_init(&ints);
    output_item it = { option, path, flags, data, len, NULL, NULL };
    return output_save_set(&it, 1, NULL, &ints, cmd, err, errcap);
}
