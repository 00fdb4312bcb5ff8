/* plan_dir.c -- a plan's directory that is yours (plan_dir.h).
 *
 * What a plan holds is run later, by you, as you: `parallel < DIR/jobs.txt`,
 * `sbatch DIR/sweep.sbatch`. So whoever can change DIR, or put another
 * directory in its place, can run commands as you. The rules, and why:
 *
 *  - DIR is made here, or an existing one is taken only when it is empty,
 *    yours and writable by you alone: the test ssh makes of its files
 *    (StrictModes). It is opened once, with O_NOFOLLOW (a symbolic link is
 *    refused: its owner could point it elsewhere later), and every check is
 *    an fstat of that descriptor, never of the path again, so nothing can
 *    be swapped between a check and its use.
 *  - Every directory above DIR, up to the root, belongs to root or to you
 *    and is writable by no one else unless it is sticky (/tmp, a cluster's
 *    /scratch): otherwise another user could rename DIR away and put their
 *    own plan at its path after you plan. Checked by opening ".." from
 *    DIR's descriptor, one level at a time (O_PATH: no read permission
 *    needed), so what is checked is where DIR really is, whatever links
 *    the path went through. Not checked: symbolic links in the path as
 *    written, which the jobs follow again later; the kernel's
 *    protected_symlinks refuses a link in a sticky world-writable
 *    directory that someone else owns, and a link in a directory only you
 *    and root can write cannot be changed by anyone else.
 *  - Everything inside is made relative to DIR's descriptor (mkdirat,
 *    openat with O_CREAT | O_EXCL | O_NOFOLLOW: never through a link,
 *    never over anything), and each made entry is recorded, so a failure
 *    removes exactly what this run made, by the names it made (unlinkat),
 *    newest first, and DIR itself when this run made it (after checking
 *    that the name still is the directory it made).
 *  - The files that must be whole (jobs.txt, plan.json, sweep.sbatch) are
 *    staged: written under a temporary name and given theirs at the end,
 *    after syncfs has put everything written on the disk, so a name never
 *    holds part of a file. syncfs, one call for the whole plan, rather
 *    than an fsync per file: a plan of 10,000 points would wait for
 *    10,000 journal commits. The renames are done with RENAME_NOREPLACE
 *    (plain renameat on a file system without it: DIR is writable by you
 *    alone, so no one else can have made the name).
 * Modes: directories 0755, files as the caller says, less the umask: a
 * plan is readable by others if the umask lets it be, writable by you only.
 */
#define _GNU_SOURCE /* O_PATH, syncfs, renameat2 */
#include "planners/plan_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { E_DIR, E_FILE, E_STAGED };

typedef struct entry {
    char *name;  /* in its directory */
    char *temp;  /* E_STAGED: the temporary name */
    int in;      /* the E_DIR entry it is in, or -1 for DIR itself */
    int kind;
    int fd;      /* E_DIR: its descriptor */
} entry;

struct plan_dir {
    int fd;         /* DIR */
    int parent;     /* DIR's parent (O_PATH), or -1 (DIR named ".", ".." or "/") */
    char *base;     /* DIR's name in its parent */
    char *path;     /* DIR as given, for messages */
    int made;       /* this run made DIR */
    struct stat st; /* DIR's */
    entry *e;
    size_t n, cap;
};

static int say(char *err, size_t errcap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *err, size_t errcap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
    return -1;
}

/* "alice (uid 1000)", or "uid 1000" when the name is unknown. */
static const char *user_name(uid_t uid, char *out, size_t cap)
{
    struct passwd pw, *found = NULL;
    char buf[1024];
    if (getpwuid_r(uid, &pw, buf, sizeof buf, &found) == 0 && found)
        snprintf(out, cap, "%s (uid %u)", found->pw_name, (unsigned)uid);
    else
        snprintf(out, cap, "uid %u", (unsigned)uid);
    return out;
}

/* Who besides the owner may write, from a mode's bits. */
static const char *writers(mode_t mode)
{
    return (mode & 022) == 022 ? "its group and everyone"
           : mode & 020        ? "its group"
                               : "everyone";
}

/* The path the kernel gives descriptor fd (for messages only: nothing is
 * opened by it), or fallback. */
static const char *fd_name(int fd, const char *fallback, char *out, size_t cap)
{
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, cap - 1);
    if (n <= 0 || (size_t)n >= cap - 1)
        return fallback;
    out[n] = '\0';
    return out;
}

/* Every directory above DIR (from DIR's descriptor, ".." by "..") belongs
 * to root or to us and is writable by no one else unless sticky. */
static int check_ancestors(plan_dir *pd, char *err, size_t errcap)
{
    uid_t me = geteuid();
    int cur = pd->fd;
    struct stat cst = pd->st;
    char shown[PATH_MAX + 64], fallback[PATH_MAX + 64], who[300];
    snprintf(fallback, sizeof fallback, "%s", pd->path);
    for (int depth = 0; depth < 4096; depth++) {
        int up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
        struct stat ust;
        if (up < 0 || fstat(up, &ust) < 0) {
            int e = errno;
            if (up >= 0)
                close(up);
            if (cur != pd->fd)
                close(cur);
            return say(err, errcap, "%s: cannot check the directories above it: %s", pd->path,
                       strerror(e));
        }
        if (cur != pd->fd)
            close(cur);
        if (ust.st_dev == cst.st_dev && ust.st_ino == cst.st_ino) { /* the root */
            close(up);
            return 0;
        }
        size_t used = strlen(fallback);
        snprintf(fallback + used, sizeof fallback - used, "/..");
        int owner_ok = ust.st_uid == me || ust.st_uid == 0;
        int open_to_others = (ust.st_mode & 022) && !(ust.st_mode & S_ISVTX);
        if (!owner_ok || open_to_others) {
            const char *name = fd_name(up, fallback, shown, sizeof shown);
            if (!owner_ok)
                say(err, errcap, "%s: the directory %s above it belongs to %s, not to you or "
                    "root: its owner could put a plan of their own in this one's place after "
                    "you plan; plan into a directory whose every parent only you or root can "
                    "change (as ssh wants of the path to its files)", pd->path, name,
                    user_name(ust.st_uid, who, sizeof who));
            else
                say(err, errcap, "%s: the directory %s above it is writable by %s (mode %04o, "
                    "not sticky): they could put a plan of their own in this one's place after "
                    "you plan; plan into a directory whose every parent only you or root can "
                    "change (as ssh wants of the path to its files)", pd->path, name,
                    writers(ust.st_mode), (unsigned)(ust.st_mode & 07777));
            close(up);
            return -1;
        }
        cur = up;
        cst = ust;
    }
    if (cur != pd->fd)
        close(cur);
    return say(err, errcap, "%s: more than 4096 directories above it", pd->path);
}

/* DIR has no entry but . and .. */
static int check_empty(plan_dir *pd, char *err, size_t errcap)
{
    int fd = openat(pd->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return say(err, errcap, "%s: %s", pd->path, strerror(e));
    }
    struct dirent *de;
    int empty = 1;
    while (empty && (de = readdir(d)))
        empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
    closedir(d);
    if (!empty)
        return say(err, errcap, "%s: exists and is not empty (a plan goes into a new or empty "
                   "directory; remove the old plan first)", pd->path);
    return 0;
}

/* DIR is ours alone: its owner and mode, on the descriptor. */
static int check_own(plan_dir *pd, char *err, size_t errcap)
{
    char who[300], me[300];
    if (pd->st.st_uid != geteuid())
        return say(err, errcap, "%s: belongs to %s, not to you (%s): a plan's directory must be "
                   "yours, as ssh wants of its files, since its owner could change the jobs you "
                   "then run; plan into a new directory", pd->path,
                   user_name(pd->st.st_uid, who, sizeof who), user_name(geteuid(), me, sizeof me));
    if (pd->st.st_mode & 022)
        return say(err, errcap, "%s: is writable by %s (mode %04o): a plan's directory must be "
                   "writable by you alone, as ssh wants of its files, since whoever can write "
                   "in it could change the jobs you then run; chmod go-w it, or plan into a new "
                   "directory", pd->path, writers(pd->st.st_mode),
                   (unsigned)(pd->st.st_mode & 07777));
    return 0;
}

/* Removes DIR when this run made it and the name still is that directory. */
static int remove_made_dir(plan_dir *pd, char *err, size_t errcap)
{
    if (!pd->made || pd->parent < 0)
        return 0;
    struct stat now;
    if (fstatat(pd->parent, pd->base, &now, AT_SYMLINK_NOFOLLOW) < 0 ||
        now.st_dev != pd->st.st_dev || now.st_ino != pd->st.st_ino)
        return say(err, errcap, "could not remove %s: it is no longer the directory this run "
                   "made", pd->path);
    if (unlinkat(pd->parent, pd->base, AT_REMOVEDIR) < 0)
        return say(err, errcap, "could not remove %s: %s", pd->path, strerror(errno));
    pd->made = 0;
    return 0;
}

static void free_dir(plan_dir *pd)
{
    for (size_t i = 0; i < pd->n; i++) {
        if (pd->e[i].kind == E_DIR && pd->e[i].fd >= 0)
            close(pd->e[i].fd);
        free(pd->e[i].name);
        free(pd->e[i].temp);
    }
    free(pd->e);
    if (pd->fd >= 0)
        close(pd->fd);
    if (pd->parent >= 0)
        close(pd->parent);
    free(pd->base);
    free(pd->path);
    free(pd);
}

/* Opens DIR (made first when its name is a name), or says why not. */
static int open_dir(plan_dir *pd, char *err, size_t errcap)
{
    size_t len = strlen(pd->path);
    while (len > 1 && pd->path[len - 1] == '/')
        len--;
    char *copy = strndup(pd->path, len);
    if (!copy)
        return say(err, errcap, "out of memory");
    char *slash = strrchr(copy, '/');
    const char *base = slash ? slash + 1 : copy;
    int e = 0;
    if (*base && strcmp(base, ".") && strcmp(base, "..")) {
        const char *parent = !slash ? "." : slash == copy ? "/" : copy;
        if (slash && slash != copy)
            *slash = '\0';
        pd->base = strdup(base);
        pd->parent = pd->base ? open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
        e = pd->base ? errno : ENOMEM;
        if (pd->parent >= 0) {
            pd->made = mkdirat(pd->parent, base, 0755) == 0;
            e = pd->made ? 0 : errno;
        }
        if (pd->parent < 0 || (!pd->made && e != EEXIST)) {
            free(copy);
            return say(err, errcap, "%s: cannot create the directory: %s", pd->path, strerror(e));
        }
        pd->fd = openat(pd->parent, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        e = errno;
    } else {
        pd->fd = open(pd->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        e = errno;
    }
    free(copy);
    if (pd->fd >= 0)
        return 0;
    pd->made = 0; /* the name is not what this run made: never removed */
    struct stat st;
    if (pd->parent >= 0 && fstatat(pd->parent, pd->base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISLNK(st.st_mode))
            return say(err, errcap, "%s: is a symbolic link (a plan goes into a new or empty "
                       "directory of yours, named by its own path: a link's owner could point "
                       "it elsewhere after you plan)", pd->path);
        if (!S_ISDIR(st.st_mode))
            return say(err, errcap, "%s: exists and is not a directory (a plan goes into a new "
                       "or empty directory)", pd->path);
    }
    return say(err, errcap, "%s: %s", pd->path, strerror(e));
}

int plan_dir_open(const char *path, plan_dir **out, char *err, size_t errcap)
{
    *out = NULL;
    plan_dir *pd = calloc(1, sizeof *pd);
    if (!pd || !(pd->path = strdup(path))) {
        free(pd);
        return say(err, errcap, "out of memory");
    }
    pd->fd = pd->parent = -1;
    int rc = open_dir(pd, err, errcap);
    if (rc == 0 && fstat(pd->fd, &pd->st) < 0)
        rc = say(err, errcap, "%s: %s", pd->path, strerror(errno));
    if (rc == 0)
        rc = check_own(pd, err, errcap);
    if (rc == 0)
        rc = check_empty(pd, err, errcap);
    if (rc == 0)
        rc = check_ancestors(pd, err, errcap);
    if (rc < 0) {
        char ignored[256];
        remove_made_dir(pd, ignored, sizeof ignored);
        free_dir(pd);
        return -1;
    }
    *out = pd;
    return 0;
}

int plan_dir_made(const plan_dir *pd)
{
    return pd->made;
}

/* Records an entry; its name is copied. Returns its index, or -1. */
static int record(plan_dir *pd, const char *name, const char *temp, int in, int kind, int fd)
{
    if (pd->n == pd->cap) {
        size_t cap = pd->cap ? pd->cap * 2 : 16;
        entry *e = realloc(pd->e, cap * sizeof *e);
        if (!e)
            return -1;
        pd->e = e;
        pd->cap = cap;
    }
    entry *e = &pd->e[pd->n];
    e->name = strdup(name);
    e->temp = temp ? strdup(temp) : NULL;
    if (!e->name || (temp && !e->temp)) {
        free(e->name);
        free(e->temp);
        return -1;
    }
    e->in = in;
    e->kind = kind;
    e->fd = fd;
    return (int)pd->n++;
}

/* The directory descriptor and the entry index for name ("NAME" or
 * "SUB/NAME", SUB made by plan_dir_mkdir); *leaf is the last part. */
static int locate(const plan_dir *pd, const char *name, const char **leaf, int *in)
{
    const char *slash = strchr(name, '/');
    *leaf = name;
    *in = -1;
    if (!slash)
        return pd->fd;
    if (strchr(slash + 1, '/') || !slash[1])
        return -1;
    size_t len = (size_t)(slash - name);
    for (size_t i = 0; i < pd->n; i++)
        if (pd->e[i].kind == E_DIR && pd->e[i].in < 0 && strlen(pd->e[i].name) == len &&
            !memcmp(pd->e[i].name, name, len)) {
            *leaf = slash + 1;
            *in = (int)i;
            return pd->e[i].fd;
        }
    return -1;
}

int plan_dir_mkdir(plan_dir *pd, const char *name, char *err, size_t errcap)
{
    if (strchr(name, '/') || !*name || !strcmp(name, ".") || !strcmp(name, ".."))
        return say(err, errcap, "%s: not a name for a subdirectory", name);
    if (mkdirat(pd->fd, name, 0755) < 0)
        return say(err, errcap, "%s: cannot create the directory: %s", name, strerror(errno));
    int fd = openat(pd->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    if (record(pd, name, NULL, -1, E_DIR, fd) < 0) {
        if (fd >= 0)
            close(fd);
        unlinkat(pd->fd, name, AT_REMOVEDIR);
        return say(err, errcap, "out of memory");
    }
    if (fd < 0)
        return say(err, errcap, "%s: %s", name, strerror(e));
    return 0;
}

/* Creates name new (staged: under its temporary name) and records it.
 * Returns the descriptor, or -1 with the message in err. */
static int create(plan_dir *pd, const char *name, unsigned mode, int staged, char *err,
                  size_t errcap)
{
    const char *leaf;
    int in;
    int dfd = locate(pd, name, &leaf, &in);
    if (dfd < 0)
        return say(err, errcap, "%s: not a name in the plan's directory", name);
    char temp[NAME_MAX + 16];
    if (staged && snprintf(temp, sizeof temp, ".%s.partial", leaf) >= (int)sizeof temp)
        return say(err, errcap, "%s: name too long", name);
    const char *made = staged ? temp : leaf;
    int fd = openat(dfd, made, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
    if (fd < 0)
        return say(err, errcap, "%s: cannot create it: %s", name, strerror(errno));
    if (record(pd, leaf, staged ? temp : NULL, in, staged ? E_STAGED : E_FILE, -1) < 0) {
        close(fd);
        unlinkat(dfd, made, 0);
        return say(err, errcap, "out of memory");
    }
    return fd;
}

/* Writes len bytes to fd. Returns 0, or -1 with errno set. */
static int write_all(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0) {
            errno = EIO;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Closes fd after a write; a close error (NFS reports a full disk there)
 * is the write's. */
static int finish(int fd, int wrote, const char *name, char *err, size_t errcap)
{
    int e = errno;
    if (wrote < 0) {
        close(fd);
        return say(err, errcap, "%s: write failed: %s", name, strerror(e));
    }
    if (close(fd) < 0)
        return say(err, errcap, "%s: write failed (at close): %s", name, strerror(errno));
    return 0;
}

int plan_dir_write(plan_dir *pd, const char *name, const void *data, size_t len, unsigned mode,
                   int staged, char *err, size_t errcap)
{
    int fd = create(pd, name, mode, staged, err, errcap);
    if (fd < 0)
        return -1;
    return finish(fd, write_all(fd, data, len), name, err, errcap);
}

int plan_dir_copy(plan_dir *pd, const char *name, int from, const char *what, unsigned mode,
                  char *err, size_t errcap)
{
    int fd = create(pd, name, mode, 0, err, errcap);
    if (fd < 0)
        return -1;
    char buf[65536];
    for (;;) {
        ssize_t n = read(from, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            return say(err, errcap, "%s: read failed: %s", what, strerror(e));
        }
        if (n == 0)
            break;
        if (write_all(fd, buf, (size_t)n) < 0)
            return finish(fd, -1, name, err, errcap);
    }
    return finish(fd, 0, name, err, errcap);
}

/* Renames a staged file to its name, never over an existing one. */
static int give_name(int dfd, const char *temp, const char *name)
{
    if (renameat2(dfd, temp, dfd, name, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    return renameat(dfd, temp, dfd, name); /* no RENAME_NOREPLACE here: DIR is ours alone */
}

/* fsync of a directory; EINVAL (a file system that cannot) is no error. */
static int sync_dir(int fd)
{
    return fsync(fd) == 0 || errno == EINVAL ? 0 : -1;
}

int plan_dir_commit(plan_dir *pd, char *err, size_t errcap)
{
    if (syncfs(pd->fd) < 0)
        return say(err, errcap, "cannot put the plan on its disk (syncfs): %s", strerror(errno));
    for (size_t i = 0; i < pd->n; i++) {
        entry *e = &pd->e[i];
        if (e->kind != E_STAGED)
            continue;
        int dfd = e->in < 0 ? pd->fd : pd->e[e->in].fd;
        if (give_name(dfd, e->temp, e->name) < 0)
            return say(err, errcap, "%s: cannot rename %s to it: %s", e->name, e->temp,
                       strerror(errno));
        e->kind = E_FILE;
    }
    for (size_t i = 0; i < pd->n; i++)
        if (pd->e[i].kind == E_DIR && sync_dir(pd->e[i].fd) < 0)
            return say(err, errcap, "%s: sync failed: %s", pd->e[i].name, strerror(errno));
    if (sync_dir(pd->fd) < 0)
        return say(err, errcap, "sync failed: %s", strerror(errno));
    return 0;
}

int plan_dir_undo(plan_dir *pd, char *err, size_t errcap)
{
    if (!pd)
        return 0;
    int rc = 0;
    for (size_t i = pd->n; i-- > 0;) {
        entry *e = &pd->e[i];
        int dfd = e->in < 0 ? pd->fd : pd->e[e->in].fd;
        int gone;
        if (e->kind == E_DIR) {
            if (e->fd >= 0)
                close(e->fd);
            e->fd = -1;
            gone = unlinkat(dfd, e->name, AT_REMOVEDIR);
        } else {
            gone = unlinkat(dfd, e->kind == E_STAGED ? e->temp : e->name, 0);
        }
        if (gone < 0 && errno != ENOENT && rc == 0)
            rc = say(err, errcap, "could not remove %s%s%s: %s", e->in < 0 ? "" : pd->e[e->in].name,
                     e->in < 0 ? "" : "/", e->kind == E_STAGED ? e->temp : e->name,
                     strerror(errno));
    }
    if (rc == 0)
        rc = remove_made_dir(pd, err, errcap);
    free_dir(pd);
    return rc;
}

void plan_dir_close(plan_dir *pd)
{
    if (pd)
        free_dir(pd);
}
