/* plan_dir.h -- a directory that is yours, for `regionsim sweep FILE
 * --plan DIR` (planners/sweep_plan.c): opened once and checked on its
 * descriptor, filled with files created new relative to that descriptor,
 * and emptied of exactly what this run made when the plan cannot be
 * finished. planners/plan_dir.c says why each rule is what it is.
 *
 * Names inside are "NAME" (in DIR) or "SUB/NAME" (in a subdirectory this
 * run made with plan_dir_mkdir); nothing else is accepted.
 */
#ifndef REGIONSIM_PLAN_DIR_H
#define REGIONSIM_PLAN_DIR_H

#include <stddef.h>

typedef struct plan_dir plan_dir;

/* Opens path as a plan's directory into *out: made here (mode 0755 less
 * the umask; its parent must exist), or an existing empty directory that
 * is no symbolic link, belongs to the effective user and is writable by
 * no one else (no group or world write bit); and every directory above it,
 * up to the root, belongs to root or to that user and is writable by no
 * one else unless it is sticky (as /tmp is). All checked on descriptors:
 * fstat of DIR as opened with O_NOFOLLOW, and of each ".." above it.
 * Returns 0, or -1 with "PATH: what was wrong" in err and nothing left
 * behind (a directory made here is removed again). */
int plan_dir_open(const char *path, plan_dir **out, char *err, size_t errcap);

/* Whether plan_dir_open made the directory (1) or found it empty (0). */
int plan_dir_made(const plan_dir *pd);

/* Makes subdirectory name (one component) inside, mode 0755 less the
 * umask. Returns 0, or -1 with "NAME: why" in err. */
int plan_dir_mkdir(plan_dir *pd, const char *name, char *err, size_t errcap);

/* Creates file name new (O_CREAT | O_EXCL | O_NOFOLLOW, mode less the
 * umask) holding len bytes of data. staged: written under a temporary
 * name (".NAME.partial") and given its name only by plan_dir_commit, so
 * that the name never holds part of the file. Returns 0, or -1 with
 * "NAME: write failed: why" (or create, close) in err; what was created
 * stays recorded, for plan_dir_undo. */
int plan_dir_write(plan_dir *pd, const char *name, const void *data, size_t len, unsigned mode,
                   int staged, char *err, size_t errcap);

/* The same with the bytes read from descriptor from to its end (not
 * staged): "NAME: write failed: why", or "what: read failed: why" with
 * what naming the source. */
int plan_dir_copy(plan_dir *pd, const char *name, int from, const char *what, unsigned mode,
                  char *err, size_t errcap);

/* Finishes the plan: flushes what was written to its disk (syncfs), gives
 * each staged file its name in the order they were written (never over
 * an existing one), then syncs the directories. Returns 0, or -1 with
 * "why" in err (the caller then calls plan_dir_undo). */
int plan_dir_commit(plan_dir *pd, char *err, size_t errcap);

/* Removes what this run made, by the names it made, newest first (files,
 * temporaries, subdirectories, and the directory itself when
 * plan_dir_open made it), and frees pd. Returns 0, or -1 with "could not
 * remove NAME: why" in err (the first that failed; the rest are still
 * tried). NULL is allowed. */
int plan_dir_undo(plan_dir *pd, char *err, size_t errcap);

/* Keeps everything and frees pd. NULL is allowed. */
void plan_dir_close(plan_dir *pd);

#endif
