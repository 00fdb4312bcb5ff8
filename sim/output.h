/* output.h -- writing a file the user named (-o PATH, --write-trace PATH)
 * without harming what was there.
 *
 * A regular file, or a name that does not exist yet, is written under a
 * temporary name in the same directory and renamed over it only when
 * everything was written (output_commit); a symlink is followed and the
 * rule applied to what it names (the link stays a link); a device, FIFO or
 * other special file is opened and written in place, never created,
 * truncated, renamed or removed; a directory is refused. The only path this
 * module ever removes is a temporary file it created itself. sim/output.c
 * says why each rule is what it is.
 */
#ifndef REGIONSIM_OUTPUT_H
#define REGIONSIM_OUTPUT_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

typedef struct output_file output_file;

/* Opens `path` for writing by the rules above. `held`, or NULL: signals the
 * caller keeps blocked so that it can remove the temporary before it dies
 * (main.c's interrupts). Opening a device or FIFO in place can wait (a
 * FIFO waits for its reader); no temporary exists then, so `held` is
 * unblocked for that wait only, and a pending or arriving signal ends the
 * program the default way. Returns the handle, or NULL with "PATH: what
 * failed: why" in err (a directory, a missing directory, no permission,
 * too many links, out of memory); nothing is left behind on failure. */
output_file *output_open(const char *path, const sigset_t *held, char *err, size_t errcap);

/* The stream to write to (buffered stdio). Valid until output_commit or
 * output_abandon. */
FILE *output_stream(output_file *o);

/* Writes len bytes of data to the stream. Returns 0, or -1 after a write
 * error (remembered: output_commit reports it with the path). */
int output_write(output_file *o, const void *data, size_t len);

/* Whether the output is a temporary file that output_commit renames (0:
 * the destination is written in place, a device or a FIFO). */
int output_has_temporary(const output_file *o);

/* Finishes the output: flushes, syncs a temporary to disk, closes, and
 * renames the temporary over the destination. Returns 0, or -1 with
 * "PATH: write failed: why" (or close, sync, rename) in err if any write so
 * far or any of these steps failed; the temporary is then removed and the
 * destination is as it was (a device or FIFO keeps what reached it).
 * Frees o either way. */
int output_commit(output_file *o, char *err, size_t errcap);

/* Gives the output up: closes it (in place: after flushing what was
 * written, so a FIFO's reader sees whole lines if whole lines were
 * written) and removes the temporary. The destination is as it was.
 * Frees o. NULL is allowed. */
void output_abandon(output_file *o);

/* All of a rendered report at once: data (len bytes) to path by the rules
 * above, with sim/interrupts.h's signals held from the open to the
 * commit, so that a signal meanwhile removes the temporary and then ends
 * the program (die_interrupted, naming the command cmd). Returns 0, or -1
 * with output_open's or output_commit's message in err; the destination
 * is then as it was. */
int output_save(const char *path, const void *data, size_t len, const char *cmd, char *err,
                size_t errcap);

#endif
