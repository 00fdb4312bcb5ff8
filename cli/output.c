/* output.c -- one file the user named, written with the kernel's semantics.
 *
 * A destination may be anything: a new name, a regular file, a symlink
 * (perhaps planted in /tmp by someone else), a device, a FIFO, a terminal,
 * /dev/stdout (a link to /proc/self/fd/1, which may be the shell's
 * `>> log.txt`, a pipe or a terminal). The earlier version followed
 * symlinks by hand (lstat, readlink, then a rename over what they named):
 * fs.protected_symlinks never applied, so a link planted in a sticky
 * directory made `-o /tmp/report.html` replace the file it named;
 * /dev/stdout onto `>> log.txt` replaced log.txt with the report; through
 * a pipe it failed looking for a directory in /proc/self/fd. And it
 * replaced a read-only file (even root's 0444 file in a 0777 directory),
 * which the shell's `>` refuses. The rules now (output.h lists them):
 *
 *   - Classified with one lstat (fstatat AT_SYMLINK_NOFOLLOW) of the last
 *     component, relative to its directory, which is opened once (O_PATH)
 *     and pinned: every later step (the temporary, the rename, the open in
 *     place) is relative to that same directory. The directory is "what
 *     comes before the last slash", a string cut the kernel resolves, not
 *     a link followed here.
 *   - Replaced through a temporary: a new name, or a regular file that is
 *     not a symlink, that the user owns, with one link, in a directory the
 *     user may write, and that the kernel says the user may write
 *     (faccessat W_OK with AT_EACCESS, the effective ids, as open checks).
 *     The temporary ".NAME.PID.N.tmp" is created with O_EXCL (never a file
 *     someone else made, never through a link), mode 0600 and then the old
 *     file's permission bits and group (or 0666 less the umask for a new
 *     name), written, fsync'd, closed, and renamed over NAME; rename never
 *     follows the last component, so a link planted meanwhile is replaced,
 *     not followed. Readers see the old file or the whole new one.
 *   - Refused: a regular file the user may not write (EACCES, EROFS,
 *     ETXTBSY: faccessat's answer), a directory.
 *   - Written in place: everything else. A symlink, device, FIFO or socket
 *     is opened by the kernel, openat(dir, NAME, O_WRONLY | O_CREAT |
 *     O_NOCTTY) WITHOUT O_TRUNC, which follows links and applies
 *     protected_symlinks, protected_regular and protected_fifos; so is a
 *     regular file of another owner (a rename would give it to us, and in
 *     a sticky directory fails anyway), one with other hard links (they
 *     would keep the old contents), one whose group we cannot keep, or one
 *     in a directory we may not write (the shell's `>` writes those in
 *     place too). Once open, fstat says what it is: if this process has the
 *     same file (st_dev, st_ino) open for writing already (the shell's
 *     `>> log.txt` on 1, `2>> ci.log`, `3>> log`), the output goes through
 *     a dup() of that descriptor, with its O_APPEND and offset, never
 *     truncated: what bash does for /dev/stdout where there is no /dev/fd.
 *     A socket cannot be opened by name (ENXIO): one of ours (stdout
 *     under a service manager) is written through that way too.
 *     Any other regular file is truncated when writing starts (the first
 *     output_write or output_stream: for a report, once the run is over;
 *     for a trace, when the run starts), as `>` does, but never at the
 *     open: a run that fails before writing leaves it as it was. A
 *     truncation and a partial write are then possible, as with `>`.
 *   - A FIFO's open waits for its reader; it is opened O_NONBLOCK and
 *     retried every 20 ms while the caller's held interrupts are polled,
 *     so that ^C meanwhile removes the set's temporaries and ends the
 *     program (the earlier version unblocked the signals for a blocking
 *     open, which would leave another output's temporary behind).
 *
 * output_check decides the same way before any work is done (main.c,
 * sweep, merge and advise call it before simulating) and changes nothing:
 * a new name needs a directory the user may write and search (faccessat
 * W_OK | X_OK); a file in place is opened for writing without O_TRUNC and
 * closed (the kernel's own checks, protected_regular included), except a
 * FIFO, which would wait or hand its reader an end of file, and a device,
 * whose open may act (a tape rewinds, a modem hangs up): for those,
 * faccessat. Temporaries are not created early: the simulation may take
 * hours and nothing of ours should sit in the user's directory meanwhile.
 *
 * What is not kept when a file is replaced: its owner (only a file of our
 * own is replaced), other hard links (written in place instead), ACLs and
 * extended attributes (as with every editor's atomic save).
 *
 * Errors: every write error (ENOSPC from /dev/full, EIO, EFBIG past a file
 * size limit, a failed flush, fsync or close) is kept and reported by
 * output_finish with the path the user gave.
 *
 * Layering: cli/ (the program's module, shared with planners/). The trace writer
 * (workloads/trace.c) writes to the FILE * output_stream hands out;
 * reports/ renders into memory and main.c writes what it rendered here,
 * csv's directory of files included (cli/output_set.c). Signals: none
 * handled here; output_set.c holds them around a set.
 */
#define _GNU_SOURCE /* O_PATH: a directory pinned without read permission on it */
#include "cli/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define TEMP_TRIES 100     /* temporary names tried before giving up */
#define TEMP_BASE_MAX 200  /* bytes of NAME kept in the temporary's name */
#define FIFO_POLL_NS (20 * 1000 * 1000) /* between two tries at a FIFO without a reader */
#define FD_SCAN_MAX 1024   /* descriptors looked at when /proc/self/fd cannot be read */

struct output_file {
    FILE *f;
    char *path;       /* as the user gave it, for messages */
    int dirfd;        /* its directory (O_PATH), while a temporary exists; else -1 */
    char *base;       /* the name in dirfd: the rename's target */
    char *temp;       /* the temporary's name in dirfd; NULL when written in place */
    int truncate;     /* in place, a regular file of its own: truncated when writing starts */
    int finished;     /* output_finish: 0 not yet, 1 done, -1 failed */
    const char *what; /* the first failure: which step ... */
    int error;        /* ... and its errno (0: none) */
};

/* Where a path is: its directory, opened, and the last component. */
typedef struct place {
    int dirfd;        /* O_PATH | O_DIRECTORY */
    char *dir;        /* the directory's name, for messages */
    const char *base; /* into the path */
    struct stat st;   /* lstat of base, when it exists */
    int exists;
} place;

typedef enum kind { KIND_REPLACE, KIND_IN_PLACE } kind;

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

/* fd moved above the standard descriptors: with stdout closed, a
 * descriptor of ours at 1 would be taken for it (/dev/stdout, a report
 * printed there). Returns the descriptor, or -1 with errno set. */
static int above_std(int fd)
{
    if (fd < 0 || fd > 2)
        return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int e = errno;
    close(fd);
    errno = e;
    return moved;
}

static void leave(place *pl)
{
    if (pl->dirfd >= 0)
        close(pl->dirfd);
    pl->dirfd = -1;
    free(pl->dir);
    pl->dir = NULL;
}

/* Opens path's directory and looks at its last component without
 * following it. Returns 0, or -1 with a message (the directory missing,
 * not searchable, ...). */
static int locate(const char *path, place *pl, char *err, size_t errcap)
{
    memset(pl, 0, sizeof *pl);
    pl->dirfd = -1;
    pl->base = base_of(path);
    if (!pl->base[0])
        return fail(err, errcap, path, "", path[0] ? EISDIR : ENOENT);
    if (!(pl->dir = dir_of(path)))
        return fail(err, errcap, path, "", ENOMEM);
    pl->dirfd = above_std(open(pl->dir, O_PATH | O_DIRECTORY | O_CLOEXEC));
    int e = errno;
    if (pl->dirfd >= 0 && fstatat(pl->dirfd, pl->base, &pl->st, AT_SYMLINK_NOFOLLOW) == 0)
        pl->exists = 1;
    else if (pl->dirfd >= 0 && (e = errno) == ENOENT)
        pl->exists = 0;
    else {
        leave(pl);
        return fail(err, errcap, path, "", e);
    }
    return 0;
}

/* Which rule applies (output.h), or -1 with a message: a directory, a
 * regular file the user may not write, someone else's link under
 * OUTPUT_OWN_LINKS. */
static int decide(const char *path, unsigned flags, const place *pl, char *err, size_t errcap)
{
    if (!pl->exists)
        return KIND_REPLACE;
    const struct stat *st = &pl->st;
    if (S_ISDIR(st->st_mode))
        return fail(err, errcap, path, "", EISDIR);
    if (S_ISLNK(st->st_mode)) {
        if ((flags & OUTPUT_OWN_LINKS) && st->st_uid != geteuid()) {
            if (err && errcap)
                snprintf(err, errcap, "%s: a symlink that another user (uid %lu) owns: not "
                         "written through", path, (unsigned long)st->st_uid);
            return -1;
        }
        return KIND_IN_PLACE;
    }
    if (!S_ISREG(st->st_mode))
        return KIND_IN_PLACE;
    if (faccessat(pl->dirfd, pl->base, W_OK, AT_EACCESS) != 0)
        return fail(err, errcap, path, "", errno);
    if (st->st_uid == geteuid() && st->st_nlink == 1 &&
        faccessat(pl->dirfd, ".", W_OK | X_OK, AT_EACCESS) == 0)
        return KIND_REPLACE;
    return KIND_IN_PLACE;
}

/* Whether descriptor n is open for writing on the file st describes. */
static int writes_to(int n, const struct stat *st)
{
    int fl = fcntl(n, F_GETFL);
    struct stat s;
    return fl >= 0 && (fl & O_ACCMODE) != O_RDONLY && !(fl & O_PATH) && fstat(n, &s) == 0 &&
           s.st_dev == st->st_dev && s.st_ino == st->st_ino;
}

/* The lowest descriptor other than fd (-1: none) that this process has
 * open for writing on the file st describes (the shell's `>> log`), or
 * -1. */
static int shared_descriptor(int fd, const struct stat *st)
{
    int found = -1;
    DIR *d = opendir("/proc/self/fd");
    if (!d) {
        for (int n = 0; n < FD_SCAN_MAX && found < 0; n++)
            if (n != fd && writes_to(n, st))
                found = n;
        return found;
    }
    for (struct dirent *e; (e = readdir(d));) {
        char *end;
        long n = strtol(e->d_name, &end, 10);
        if (*end || end == e->d_name || n < 0 || n == fd || n == dirfd(d) ||
            (found >= 0 && n >= found))
            continue;
        if (writes_to((int)n, st))
            found = (int)n;
    }
    closedir(d);
    return found;
}

/* Waits FIFO_POLL_NS. */
static void pause_a_little(void)
{
    struct timespec t = { 0, FIFO_POLL_NS };
    nanosleep(&t, NULL);
}

/* A descriptor of ours on the socket pl's name leads to (the kernel
 * refuses to open a socket by name: /dev/stdout under a service manager
 * is one), or -1. */
static int shared_socket(const place *pl)
{
    struct stat st;
    if (fstatat(pl->dirfd, pl->base, &st, 0) != 0 || !S_ISSOCK(st.st_mode))
        return -1;
    return shared_descriptor(-1, &st);
}

/* Opens pl's name in place: the kernel's open, no O_TRUNC; then writes
 * through the process's own descriptor on the same file, if it has one.
 * A FIFO without a reader is retried while ints stays quiet. */
static int open_in_place(output_file *o, const place *pl, const interrupts *ints, char *err,
                         size_t errcap)
{
    int fd, shared = -1;
    for (;;) {
        fd = above_std(openat(pl->dirfd, pl->base,
                              O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC | O_NONBLOCK, 0666));
        if (fd >= 0)
            break;
        int e = errno;
        struct stat st;
        if (e == EINTR)
            continue;
        if (e == ENXIO && (shared = shared_socket(pl)) >= 0)
            break;
        if (e != ENXIO || fstatat(pl->dirfd, pl->base, &st, 0) != 0 || !S_ISFIFO(st.st_mode))
            return fail(err, errcap, o->path, "cannot open", e);
        if (ints && interrupts_pending(ints)) {
            if (err && errcap)
                snprintf(err, errcap, "%s: interrupted while waiting for a reader", o->path);
            return -1;
        }
        pause_a_little();
    }
    if (fd >= 0) {
        int fl = fcntl(fd, F_GETFL);
        struct stat st;
        if ((fl >= 0 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) || fstat(fd, &st) != 0) {
            int e = errno;
            close(fd);
            return fail(err, errcap, o->path, "cannot open", e);
        }
        shared = shared_descriptor(fd, &st);
        o->truncate = shared < 0 && S_ISREG(st.st_mode);
    }
    if (shared >= 0) {
        int d = fcntl(shared, F_DUPFD_CLOEXEC, 3);
        int e = errno;
        if (fd >= 0)
            close(fd);
        if (d < 0)
            return fail(err, errcap, o->path, "cannot open", e);
        fd = d;
    }
    if (!(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        return fail(err, errcap, o->path, "cannot open", e);
    }
    return 0;
}

/* Creates a new temporary in pl's directory (O_EXCL); sets o->temp.
 * Returns the descriptor, or -1 with errno set. */
static int create_temporary(output_file *o, const place *pl)
{
    size_t n = TEMP_BASE_MAX + 64;
    if (!(o->temp = malloc(n))) {
        errno = ENOMEM;
        return -1;
    }
    int fd = -1;
    for (int i = 0; i < TEMP_TRIES && fd < 0; i++) {
        snprintf(o->temp, n, ".%.*s.%ld.%d.tmp", TEMP_BASE_MAX, pl->base, (long)getpid(), i);
        fd = openat(pl->dirfd, o->temp, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC,
                    pl->exists ? 0600 : 0666);
        if (fd >= 0 && (fd = above_std(fd)) < 0) {
            unlinkat(pl->dirfd, o->temp, 0);
            break;
        }
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(o->temp);
        o->temp = NULL;
        errno = e;
    }
    return fd;
}

/* Opens a temporary that output_commit renames over pl's name, with the
 * old file's group and permission bits. Returns 0; 1 when the old file's
 * group cannot be kept (the caller writes in place instead: a rename
 * would hand the file's group permissions to another group); or -1 with
 * a message. */
static int open_temporary(output_file *o, const place *pl, char *err, size_t errcap)
{
    int fd = create_temporary(o, pl);
    if (fd < 0) {
        char what[64 + TEMP_BASE_MAX];
        snprintf(what, sizeof what, "cannot create a temporary file in %.*s", TEMP_BASE_MAX,
                 pl->dir);
        return fail(err, errcap, o->path, what, errno);
    }
    struct stat mine;
    int regroup = pl->exists && fstat(fd, &mine) == 0 && mine.st_gid != pl->st.st_gid;
    if (regroup && fchown(fd, (uid_t)-1, pl->st.st_gid) != 0) {
        close(fd);
        unlinkat(pl->dirfd, o->temp, 0);
        free(o->temp);
        o->temp = NULL;
        return 1;
    }
    if ((pl->exists && fchmod(fd, pl->st.st_mode & 07777) != 0) || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlinkat(pl->dirfd, o->temp, 0);
        return fail(err, errcap, o->path, "cannot set up the temporary file", e);
    }
    return 0;
}

static void free_output(output_file *o)
{
    if (o->dirfd >= 0)
        close(o->dirfd);
    free(o->path);
    free(o->base);
    free(o->temp);
    free(o);
}

output_file *output_open(const char *path, unsigned flags, const interrupts *ints, char *err,
                         size_t errcap)
{
    output_file *o = calloc(1, sizeof *o);
    if (!o || !(o->path = copy_of(path, strlen(path)))) {
        free(o);
        fail(err, errcap, path, "", ENOMEM);
        return NULL;
    }
    o->dirfd = -1;
    place pl;
    if (locate(path, &pl, err, errcap) < 0) {
        free_output(o);
        return NULL;
    }
    int k = decide(path, flags, &pl, err, errcap), rc = -1;
    if (k == KIND_REPLACE)
        rc = open_temporary(o, &pl, err, errcap);
    if (k == KIND_IN_PLACE || rc == 1)
        rc = open_in_place(o, &pl, ints, err, errcap);
    if (rc == 0 && o->temp && !(o->base = copy_of(pl.base, strlen(pl.base)))) {
        rc = fail(err, errcap, path, "", ENOMEM);
        fclose(o->f);
        o->f = NULL;
        unlinkat(pl.dirfd, o->temp, 0);
    }
    if (rc == 0 && o->temp) {
        o->dirfd = pl.dirfd; /* kept for the rename */
        pl.dirfd = -1;
    }
    leave(&pl);
    if (rc < 0) {
        free_output(o);
        return NULL;
    }
    return o;
}

/* Writing starts: a regular file written in place loses its old contents
 * now, as `>` would have at its open. */
static void start_writing(output_file *o)
{
    if (!o->truncate)
        return;
    o->truncate = 0;
    if (ftruncate(fileno(o->f), 0) != 0 && !o->error)
        o->error = errno;
}

FILE *output_stream(output_file *o)
{
    start_writing(o);
    return o->f;
}

int output_write(output_file *o, const void *data, size_t len)
{
    start_writing(o);
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

int output_finish(output_file *o, char *err, size_t errcap)
{
    if (!o->finished) {
        start_writing(o); /* nothing written is an empty output, not the old one */
        const char *what = "write failed";
        int e = o->error;
        errno = 0;
        if (fflush(o->f) != 0 && !e)
            e = errno ? errno : EIO;
        if (ferror(o->f) && !e)
            e = EIO;
        if (!e && o->temp && fsync(fileno(o->f)) != 0) {
            what = "sync failed";
            e = errno;
        }
        if (fclose(o->f) != 0 && !e) {
            what = "close failed";
            e = errno ? errno : EIO;
        }
        o->f = NULL;
        o->what = what;
        o->error = e;
        o->finished = e ? -1 : 1;
    }
    return o->finished < 0 ? fail(err, errcap, o->path, o->what, o->error) : 0;
}

int output_commit(output_file *o, char *err, size_t errcap)
{
    int rc = output_finish(o, err, errcap);
    if (rc == 0 && o->temp) {
        if (renameat(o->dirfd, o->temp, o->dirfd, o->base) != 0) {
            rc = fail(err, errcap, o->path, "cannot rename the temporary file over it", errno);
        } else {
            free(o->temp);
            o->temp = NULL; /* renamed: no longer ours to remove */
        }
    }
    output_abandon(o);
    return rc;
}

void output_abandon(output_file *o)
{
    if (!o)
        return;
    if (o->f)
        fclose(o->f); /* in place: what was written goes out whole */
    if (o->temp)
        unlinkat(o->dirfd, o->temp, 0);
    free_output(o);
}

/* A file written in place, checked by the kernel's open (regular files,
 * sockets) or by faccessat (FIFOs and devices, whose open would wait or
 * act). A dangling link passes: its target is created at the open. */
static int check_in_place(const char *path, const place *pl, char *err, size_t errcap)
{
    struct stat st;
    if (fstatat(pl->dirfd, pl->base, &st, 0) != 0)
        return errno == ENOENT ? 0 : fail(err, errcap, path, "", errno);
    if (S_ISDIR(st.st_mode))
        return fail(err, errcap, path, "", EISDIR);
    if (S_ISSOCK(st.st_mode) && shared_descriptor(-1, &st) >= 0)
        return 0;
    if (S_ISREG(st.st_mode) || S_ISSOCK(st.st_mode)) {
        int fd = openat(pl->dirfd, pl->base,
                        O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC | O_NONBLOCK, 0666);
        if (fd < 0)
            return fail(err, errcap, path, "cannot open", errno);
        close(fd);
        return 0;
    }
    if (faccessat(pl->dirfd, pl->base, W_OK, AT_EACCESS) != 0)
        return fail(err, errcap, path, "", errno);
    return 0;
}

int output_check(const char *path, unsigned flags, char *err, size_t errcap)
{
    place pl;
    if (locate(path, &pl, err, errcap) < 0)
        return -1;
    int k = decide(path, flags, &pl, err, errcap), rc = -1;
    if (k == KIND_REPLACE && pl.exists)
        rc = 0; /* decide checked the file and its directory */
    else if (k == KIND_REPLACE && faccessat(pl.dirfd, ".", W_OK | X_OK, AT_EACCESS) != 0)
        rc = fail(err, errcap, path, "", errno);
    else if (k == KIND_REPLACE)
        rc = 0;
    else if (k == KIND_IN_PLACE)
        rc = check_in_place(path, &pl, err, errcap);
    leave(&pl);
    return rc;
}
