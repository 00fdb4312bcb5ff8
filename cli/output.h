/* output.h -- every file the program writes where the user said (-o,
 * --junit, --write-trace, --result, merge's and advise's -o, csv's
 * directory), with the kernel's semantics.
 *
 * The rules (cli/output.c says why each is what it is):
 *   - A name that does not exist yet, or a regular file (not a symlink)
 *     that the user owns, may write (faccessat W_OK, as the kernel checks)
 *     and that has one link, in a directory the user may write: written to
 *     a new temporary in the same directory and renamed over the name once
 *     complete, keeping the old file's permission bits. Readers see the old
 *     file or the whole new one.
 *   - A regular file the user may not write: refused ("Permission denied"),
 *     as the shell's `>` refuses it.
 *   - Anything else (a symlink, a device, a FIFO, a terminal, a /dev/fd or
 *     /proc/self/fd path, a regular file of another owner or with other
 *     hard links): opened by the kernel (which follows links and applies
 *     fs.protected_symlinks and protected_regular) without truncating, and
 *     written in place. When the file it opens is one this process already
 *     has open for writing (the shell's `>> log` on 1, `2>> ci.log`), it is
 *     written through that descriptor, keeping its O_APPEND and offset;
 *     another regular file is truncated when writing starts, as `>` does.
 *   - A directory: refused.
 * No path is resolved by hand. The only file ever removed is a temporary
 * this module created, and a directory it created for a set that failed.
 */
#ifndef REGIONSIM_OUTPUT_H
#define REGIONSIM_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "cli/interrupts.h"

/* Flags. OUTPUT_OWN_LINKS: a symlink at the path must be owned by the user
 * (sweep --result: a plan's results/ must not lead elsewhere through a
 * link another user made; protected_symlinks covers only sticky
 * world-writable directories). */
#define OUTPUT_OWN_LINKS 1u

typedef struct output_file output_file;

/* Whether path could be written by the rules above, decided as
 * output_open decides, without creating, truncating or waiting for
 * anything (a FIFO is not opened; a regular file in place is opened for
 * writing and closed untouched, for the kernel's own checks). A symlink
 * whose target does not exist passes (the kernel creates it at the open).
 * Returns 0, or -1 with "PATH: why" in err. */
int output_check(const char *path, unsigned flags, char *err, size_t errcap);

/* Opens path by the rules above: the temporary is created, or the file
 * opened in place (nothing truncated yet). `ints`, or NULL: interrupts the
 * caller holds; a FIFO with no reader is waited for by polling them (every
 * 20 ms), and a pending one ends the wait: NULL, with "PATH: interrupted
 * while waiting for a reader" in err (the caller dies of it). Without ints
 * the wait is for a reader or a signal. Returns the handle, or NULL with
 * "PATH: what failed: why" in err; nothing is left behind on failure. */
output_file *output_open(const char *path, unsigned flags, const interrupts *ints, char *err,
                         size_t errcap);

/* The stream to write to (buffered stdio). Writing starts here: a regular
 * file written in place is truncated now. Valid until output_commit or
 * output_abandon. */
FILE *output_stream(output_file *o);

/* Writes len bytes (writing starts: see output_stream). Returns 0, or -1
 * after a write error (remembered: output_finish reports it). */
int output_write(output_file *o, const void *data, size_t len);

/* Whether the output is a temporary that output_commit renames (0: the
 * destination is written in place). */
int output_has_temporary(const output_file *o);

/* Ends the writing: flushes, syncs a temporary to disk and closes it; the
 * temporary is not renamed yet. Returns 0, or -1 with "PATH: write
 * failed: why" (or sync, close) in err, for this or any earlier write.
 * Called again, or after a failure, it returns the same. */
int output_finish(output_file *o, char *err, size_t errcap);

/* output_finish if not done, then renames the temporary over the
 * destination. Returns 0, or -1 with the message in err; the temporary is
 * then removed and the destination is as it was (written in place: it
 * keeps what reached it). Frees o either way. */
int output_commit(output_file *o, char *err, size_t errcap);

/* Gives the output up: closes it (in place: after flushing what was
 * written) and removes the temporary. The destination is as it was.
 * Frees o. NULL is allowed. */
void output_abandon(output_file *o);

/* ---- sets: everything one command writes (cli/output_set.c) ---- */

/* One output of a set and its content. */
typedef struct output_item {
    const char *option;  /* names it in messages: "-o", "--junit" */
    const char *path;    /* the destination; NULL: stdout */
    unsigned flags;      /* OUTPUT_OWN_LINKS */
    const void *data;    /* the content: len bytes of data ... */
    size_t len;
    FILE *from;          /* ... or everything this stream holds (read from the start) ... */
    output_file *opened; /* ... or already open and written (a trace): the set
                            finishes and commits or abandons it */
} output_item;

/* Checks every item's path (output_check; stdout and opened items pass)
 * and, if dir is not NULL, that dir (the items' directory) is a
 * directory the user may write, or is missing and may be created. Called
 * before the work that makes the content, so that a path that cannot be
 * written fails at once. Returns 0, or -1 with "OPTION PATH: why". */
int output_check_set(const output_item *items, size_t n, const char *dir, char *err,
                     size_t errcap);

/* Writes the items as a set, holding `ints` throughout (and SIGPIPE: a
 * closed pipe is a write error until the set is settled):
 *   1. dir (if not NULL) created when missing (0777 less the umask);
 *   2. every item opened (output_open; a FIFO's wait polls ints);
 *   3. every temporary written, synced and closed;
 *   4. every in-place output (stdout, devices, FIFOs, files in place)
 *      written and closed;
 *   5. every temporary renamed over its destination, in order.
 * A failure in 1-4 renames nothing: every temporary is removed, a
 * directory created in 1 is removed again, and -1 is returned with
 * "OPTION PATH: why" in err (in-place outputs written before the failure
 * keep what reached them: a device cannot be unwritten). A signal pending
 * before step 4 abandons everything the same way and ends the program
 * (die_interrupted, naming cmd); one arriving later waits until the set is
 * complete. Step 5 is N renames, not one atomic step: only a crash (or a
 * rename that fails, which one directory makes improbable) between two of
 * them leaves part of the set new. Returns 0 when all is written. */
int output_save_set(output_item *items, size_t n, const char *dir, interrupts *ints,
                    const char *cmd, char *err, size_t errcap);

/* One item (option, path, data, len) written as a set of one, with its
 * own interrupts: output_save_set's rules. Returns 0 or -1 (err). */
int output_save(const char *option, const char *path, unsigned flags, const void *data,
                size_t len, const char *cmd, char *err, size_t errcap);

#endif
