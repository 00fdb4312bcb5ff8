/* trace.h -- recorded operations: read a trace, write one.
 *
 * A trace is a text file with one operation per line:
 *
 *     time,op,key[,bytes]
 *
 * time: microseconds since the start of the trace, a non-negative integer,
 *       never smaller than the line before;
 * op:   put, get or delete;
 * key:  the row key in HBase shell form (Bytes.toStringBinary: \xNN for
 *       bytes outside ' '..'~' and for '\'); in CSV a key holding a comma
 *       is written with \x2C or quoted ("a,b", with "" for a quote);
 * bytes: optional, the cell's value size in bytes.
 * Fields are separated by tabs if the first line holds a tab (TSV), else
 * by commas (CSV). An optional first line naming the columns
 * ("time,op,key" or "time,op,key,bytes") is skipped, as are empty lines and
 * lines starting with '#'.
 *
 * Reading streams: one line at a time in a reused buffer, so memory does
 * not grow with the file. A malformed line stops the reader with
 * "FILE:LINE: what was wrong".
 */
#ifndef REGIONSIM_TRACE_H
#define REGIONSIM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "workloads/record.h"

typedef struct trace_reader trace_reader;

/* Opens path for reading. NULL with a message in err if it cannot. */
trace_reader *trace_open(const char *path, char *err, size_t errcap);

/* The next operation: sets *t_us and *out (out->op, out->key, out->key_len,
 * out->value_bytes, out->naming = NAMING_KEY; the key stays valid until
 * the next call). Returns 1, 0 at the end of the file, or -1 with
 * "FILE:LINE: ..." in err (then every later call returns -1 too). */
int trace_next(trace_reader *t, uint64_t *t_us, record *out, char *err, size_t errcap);

void trace_close(trace_reader *t);

typedef struct trace_writer trace_writer;

/* Creates (truncates) path; TSV if it ends in ".tsv", else CSV. Writes the
 * header line. NULL with a message in err if it cannot. */
trace_writer *trace_create(const char *path, char *err, size_t errcap);

/* Appends one operation. bytes = 0 leaves the column out. Returns 0, or -1
 * on a write error (reported again by trace_finish). */
int trace_write(trace_writer *w, uint64_t t_us, record_op op,
                const uint8_t *key, size_t key_len, uint32_t bytes);

/* Flushes and closes. Returns 0, or -1 with a message in err if any write
 * failed. Frees w either way. */
int trace_finish(trace_writer *w, char *err, size_t errcap);

#endif
