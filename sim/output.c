/* output.c -- writing a file the user named, safely.
 *
 * -o PATH and --write-trace PATH name a destination that may be anything:
 * a name that does not exist yet, a regular file, a symlink, a device
 * (/dev/null, /dev/full, a terminal), a FIFO, a directory. Writing under
 * PATH.tmp and renaming it over PATH whatever PATH was turned a device node
 * into a regular file, replaced a symlink instead of writing through it,
 * and (as root) destroyed /dev/null. The rules here:
 *
 *   - Not there, or a regular file: atomic replace. The report is written
 *     to a temporary ".NAME.PID.N.tmp" in the same directory (so the rename
 *     stays on one file system), created with O_CREAT | O_EXCL (never
 *     someone else's file, never through a planted symlink), then flushed,
 *     fsync'd and renamed over NAME by output_commit. Readers see the old
 *     file or the whole new one; a failure removes the temporary and leaves
 *     the old file as it was. The new file takes the old one's permission
 *     bits (and owner and group, where allowed: as root); a new name gets
 *     0666 less the umask. As with every atomic writer, other hard links to
 *     the old file keep the old contents.
 *   - A symlink: followed, link by link (relative targets from the link's
 *     own directory, at most 40 links), and the same rules applied to what
 *     it finally names. The link itself is never replaced; a dangling link
 *     gets the file it names created.
 *   - A directory: refused.
 *   - Anything else (character or block device, FIFO, socket): opened in
 *     place with O_WRONLY | O_NOCTTY only: no O_CREAT, no O_TRUNC, never
 *     renamed or removed. If it turns out to be a regular file or a
 *     directory once open (it was swapped after we looked), it is closed
 *     untouched and refused. A FIFO's open waits for its reader.
 *
 * The one path this module removes is a temporary it created itself, and
 * only until it is renamed. Every write error (ENOSPC from /dev/full, EIO,
 * EFBIG past a file size limit, a failed flush, fsync or close) is kept
 * and reported by output_commit with the path the user gave.
 *
 * Layering: this is the program's module (sim/), used by main.c for both
 * -o and --write-trace. The trace writer (workloads/trace.c) writes to the
 * FILE * output_stream hands out, so workloads/ still knows nothing of
 * sim/; reports/csv.c writes a directory of files and keeps its own
 * temporaries, because reports/ does not link sim/.
 *
 * Signals: none are handled here (a simulation is a value; the process's
 * signal state belongs to main.c). The caller blocks its interrupts while a
 * temporary may exist and passes them in, so that the one wait that can
 * last, opening a FIFO in place, stays interruptible: no temporary exists
 * then, so there is nothing to clean up. output_save does that for a
 * caller with the whole report in memory (sweep, merge, advise): it holds
 * sim/interrupts.h's signals itself, only while it writes, and restores
 * the mask before it returns.
 */
#include "sim/output.h"
#include "sim/interrupts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define LINKS_MAX 40       /* symlinks followed before ELOOP, as Linux does */
#define TEMP_TRIES 100     /* temporary names tried before giving up */
#define TEMP_BASE_MAX 200  /* bytes of NAME kept in the temporary's name */

struct output_file {
    FILE *f;
    char *path;  /* as the user gave it, for messages */
    char *final; /* what the symlinks lead to: the rename's target */
    char *temp;  /* the temporary; NULL when written in place */
    int error;   /* errno of the first failed write, 0 if none */
};

/* "PATH: what: strerror(e)" (or "PATH: strerror(e)") into err; returns -1. */
static int fail(char *err, size_t errcap, const char *path, const char *what, int e)
{
    if (err && errcap)
        snprintf(err, errcap, "%s: %s%s%s", path, what, what[0] ? ": " : "", strerror(e));
    return -1;
}

static char *copy_of(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* The directory part of path: "." when it has none, "/" for "/name". */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return copy_of(".", 1);
    return copy_of(path, slash == path ? 1 : (size_t)(slash - path));
}

/* The last component of path (empty when path ends in '/'). */
static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The text of symlink `link`, or NULL with errno set. */
static char *read_link(const char *link, size_t size_hint)
{
    size_t cap = size_hint + 1 > 256 ? size_hint + 1 : 256;
    for (;;) {
        char *buf = malloc(cap);
        if (!buf)
            return NULL;
        ssize_t n = readlink(link, buf, cap);
        if (n < 0) {
            free(buf);
            return NULL;
        }
        if ((size_t)n < cap) {
            buf[n] = '\0';
            return buf;
        }
        free(buf); /* it may have been cut: try a larger buffer */
        cap *= 2;
    }
}

/* Where symlink `link` points: its target, relative ones taken from the
 * link's directory. NULL with errno set. */
static char *follow_link(const char *link, size_t size_hint)
{
    char *target = read_link(link, size_hint);
    if (!target || target[0] == '/')
        return target;
    char *dir = dir_of(link);
    size_t n = dir ? strlen(dir) + strlen(target) + 2 : 0;
    char *joined = dir ? malloc(n) : NULL;
    if (joined)
        snprintf(joined, n, "%s/%s", dir, target);
    else
        errno = ENOMEM;
    free(dir);
    free(target);
    return joined;
}

/* Follows symlinks from path to what they finally name: *final (malloc'd),
 * with *st and *exists = 1, or *exists = 0 if nothing is there. Returns 0,
 * or an errno value. */
static int resolve(const char *path, char **final, struct stat *st, int *exists)
{
    char *cur = copy_of(path, strlen(path));
    for (int links = 0; cur; links++) {
        if (lstat(cur, st) != 0) {
            int e = errno;
            if (e == ENOENT) {
                *exists = 0;
                *final = cur;
                return 0;
            }
            free(cur);
            return e;
        }
        if (!S_ISLNK(st->st_mode)) {
            *exists = 1;
            *final = cur;
            return 0;
        }
        if (links == LINKS_MAX) {
            free(cur);
            return ELOOP;
        }
        char *next = follow_link(cur, (size_t)st->st_size);
        int e = errno;
        free(cur);
        if (!next)
            return e ? e : ENOMEM;
        cur = next;
    }
    return ENOMEM;
}

/* Opens `final`, a device, FIFO or other special file, in place: O_WRONLY,
 * nothing created or truncated. `held` is unblocked while open waits. */
static int open_in_place(output_file *o, const sigset_t *held, char *err, size_t errcap)
{
    sigset_t saved;
    if (held)
        sigprocmask(SIG_UNBLOCK, held, &saved);
    int fd;
    do
        fd = open(o->final, O_WRONLY | O_NOCTTY);
    while (fd < 0 && errno == EINTR);
    int e = errno;
    if (held)
        sigprocmask(SIG_SETMASK, &saved, NULL);
    if (fd < 0)
        return fail(err, errcap, o->path, "cannot open", e);
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
        close(fd); /* swapped for a file since we looked: not ours to write in place */
        if (err && errcap)
            snprintf(err, errcap, "%s: changed while being opened (no longer a device or "
                     "FIFO); left untouched", o->path);
        return -1;
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        e = errno;
        close(fd);
        return fail(err, errcap, o->path, "cannot open", e);
    }
    return 0;
}

/* Creates a new temporary beside o->final (O_EXCL); sets o->temp. Returns
 * the descriptor, or -1 with errno set. */
static int create_temporary(output_file *o)
{
    char *dir = dir_of(o->final);
    const char *base = base_of(o->final);
    size_t n = (dir ? strlen(dir) : 0) + TEMP_BASE_MAX + 64;
    o->temp = dir ? malloc(n) : NULL;
    if (!o->temp) {
        free(dir);
        errno = ENOMEM;
        return -1;
    }
    int fd = -1;
    for (int i = 0; i < TEMP_TRIES && fd < 0; i++) {
        snprintf(o->temp, n, "%s/.%.*s.%ld.%d.tmp", dir, TEMP_BASE_MAX, base, (long)getpid(), i);
        fd = open(o->temp, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    int e = errno;
    free(dir);
    if (fd < 0) {
        free(o->temp);
        o->temp = NULL;
    }
    errno = e;
    return fd;
}

/* The temporary takes the replaced file's owner (where allowed) and mode. */
static int keep_attributes(int fd, const struct stat *old)
{
    if (fchown(fd, old->st_uid, old->st_gid) != 0) {
        /* only root may give a file away: then it stays ours */
    }
    return fchmod(fd, old->st_mode & 07777);
}

/* Opens a temporary that output_commit renames over o->final (a regular
 * file, st, if `exists`; else a new name). */
static int open_temporary(output_file *o, const struct stat *st, int exists, char *err,
                          size_t errcap)
{
    if (base_of(o->final)[0] == '\0')
        return fail(err, errcap, o->path, "", EISDIR);
    int fd = create_temporary(o);
    if (fd < 0) {
        char *dir = dir_of(o->final);
        char what[64 + TEMP_BASE_MAX];
        snprintf(what, sizeof what, "cannot create a temporary file in %.*s", TEMP_BASE_MAX,
                 dir ? dir : ".");
        int e = errno;
        free(dir);
        return fail(err, errcap, o->path, what, e);
    }
    if ((exists && keep_attributes(fd, st) != 0) || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(o->temp);
        return fail(err, errcap, o->path, "cannot set up the temporary file", e);
    }
    return 0;
}

static void free_output(output_file *o)
{
    free(o->path);
    free(o->final);
    free(o->temp);
    free(o);
}

output_file *output_open(const char *path, const sigset_t *held, char *err, size_t errcap)
{
    output_file *o = calloc(1, sizeof *o);
    if (!o || !(o->path = copy_of(path, strlen(path)))) {
        free(o);
        fail(err, errcap, path, "", ENOMEM);
        return NULL;
    }
    struct stat st;
    int exists = 0;
    int e = resolve(path, &o->final, &st, &exists);
    int rc = -1;
    if (e)
        fail(err, errcap, path, "", e);
    else if (exists && S_ISDIR(st.st_mode))
        fail(err, errcap, path, "", EISDIR);
    else if (!exists || S_ISREG(st.st_mode))
        rc = open_temporary(o, &st, exists, err, errcap);
    else
        rc = open_in_place(o, held, err, errcap);
    if (rc < 0) {
        free_output(o);
        return NULL;
    }
    return o;
}

FILE *output_stream(output_file *o)
{
    return o->f;
}

int output_write(output_file *o, const void *data, size_t len)
{
    if (o->error)
        return -1;
    errno = 0;
    if (len && fwrite(data, 1, len, o->f) != len) {
        o->error = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

int output_has_temporary(const output_file *o)
{
    return o->temp != NULL;
}

/* Flushes, syncs (a temporary) and closes o->f: 0, or -1 with *what and
 * *e saying which step failed first. */
static int finish_stream(output_file *o, const char **what, int *e)
{
    *what = "write failed";
    *e = o->error;
    errno = 0;
    if (fflush(o->f) != 0 && !*e)
        *e = errno ? errno : EIO;
    if (ferror(o->f) && !*e)
        *e = EIO;
    if (!*e && o->temp && fsync(fileno(o->f)) != 0) {
        *what = "sync failed";
        *e = errno;
    }
    if (fclose(o->f) != 0 && !*e) {
        *what = "close failed";
        *e = errno ? errno : EIO;
    }
    o->f = NULL;
    return *e ? -1 : 0;
}

int output_commit(output_file *o, char *err, size_t errcap)
{
    const char *what;
    int e;
    int rc = finish_stream(o, &what, &e);
    if (rc == 0 && o->temp && rename(o->temp, o->final) != 0) {
        e = errno;
        what = "cannot rename the temporary file over it";
        rc = -1;
    } else if (rc == 0 && o->temp) {
        free(o->temp);
        o->temp = NULL; /* renamed: no longer ours to remove */
    }
    if (rc < 0) {
        fail(err, errcap, o->path, what, e);
        if (o->temp)
            unlink(o->temp);
    }
    free_output(o);
    return rc;
}

void output_abandon(output_file *o)
{
    if (!o)
        return;
    if (o->f) {
        if (!o->temp)
            fflush(o->f); /* in place: what was written goes out whole */
        fclose(o->f);
    }
    if (o->temp)
        unlink(o->temp);
    free_output(o);
}

int output_save(const char *path, const void *data, size_t len, const char *cmd, char *err,
                size_t errcap)
{
    interrupts ints;
    interrupts_init(&ints);
    interrupts_hold(&ints);
    output_file *f = output_open(path, &ints.set, err, errcap);
    if (f)
        output_write(f, data, len);
    int signo = interrupts_pending(&ints);
    if (f && signo) {
        output_abandon(f);
        die_interrupted(&ints, cmd, signo);
    }
    int rc = f && output_commit(f, err, errcap) == 0 ? 0 : -1;
    interrupts_release(&ints);
    return rc;
}
