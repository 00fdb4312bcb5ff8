/* trace.h -- recorded operations: read a trace, write one.
 *
 * A trace is a text file with one operation per line:
 *
 *     time,op,key[,bytes[,cells]]
 *     time,scan,key,rows
 *
 * time: microseconds since the start of the trace, an integer from 0 to
 *       TRACE_TIME_MAX, never smaller than the line before;
 * op:   put, get, delete, scan or readmodifywrite, or YCSB's names insert
 *       and update (= put) and read (= get); any case ("PUT", "Read");
 * key:  the row key in HBase shell form (Bytes.toStringBinary: \xNN for
 *       bytes outside ' '..'~' and for '\'); in CSV a key holding a comma
 *       is written with \x2C or quoted ("a,b", with "" for a quote);
 * bytes: optional, the value size in bytes (put, readmodifywrite; read and
 *       kept for get and delete too), 0 .. 2^31 - 1;
 * cells: optional (put, readmodifywrite): the cells of the row it writes
 *       (a YCSB record's fields), 1 .. 2^31 - 1; bytes are then their
 *       values' bytes together (without it: one cell);
 * rows: required for scan: the rows it reads from key on, 1 .. 2^31 - 1.
 * Fields are separated by tabs if the first line holds a tab (TSV), else
 * by commas (CSV). An optional first line naming the columns
 * ("time,op,key", "time,op,key,bytes" or "time,op,key,bytes,cells") is skipped, as are empty lines and
 * lines starting with '#'.
 *
 * The reader also takes YCSB's own record of a run (TRACE_FORMAT_YCSB):
 * what site.ycsb.BasicDB prints with basicdb.verbose=true, one line per
 * operation ("READ usertable user123 [ <all fields>]"), among YCSB's other
 * output, which is skipped. Those lines carry no times: the caller gives
 * the spacing (trace_open_format).
 *
 * Reading streams: one line at a time in a reused buffer, so memory does
 * not grow with the file. A malformed line stops the reader with
 * "FILE:LINE: what was wrong".
 */
#ifndef REGIONSIM_TRACE_H
#define REGIONSIM_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "workloads/record.h"

/* The latest time a trace may hold: 2^64 - 2 microseconds. The engine
 * keeps times as uint64_t and takes UINT64_MAX (2^64 - 1) to mean "never"
 * (an open-ended phase's end), so an operation at 2^64 - 1 could not run:
 * the reader refuses it ("FILE:LINE: time out of range") rather than drop
 * it, and the writer refuses to write it. */
#define TRACE_TIME_MAX (UINT64_MAX - 1)

typedef struct trace_reader trace_reader;

typedef enum trace_format {
    TRACE_FORMAT_CSV = 0, /* regionsim's own: CSV or TSV, by the first line */
    TRACE_FORMAT_YCSB,    /* site.ycsb.BasicDB's verbose output */
} trace_format;

/* The format a name stands for: "regionsim" or "csv" (TRACE_FORMAT_CSV:
 * TSV too, told by the first line), "ycsb" (TRACE_FORMAT_YCSB); exact,
 * lower case. Returns 0 and sets *out, or -1 for any other name (*out
 * untouched). */
int trace_format_parse(const char *name, trace_format *out);

/* Opens path for reading in format fmt. NULL with a message in err if it
 * cannot. interval_us is the spacing of YCSB's operations, which carry no
 * time: the i-th operation (from 0) is at i * interval_us; 0 puts them
 * all at time 0 (closed-loop replay). A time past TRACE_TIME_MAX stops the
 * reader at that line. The CSV format reads its times and ignores it. */
trace_reader *trace_open_format(const char *path, trace_format fmt, uint64_t interval_us,
                                char *err, size_t errcap);

/* trace_open_format(path, TRACE_FORMAT_CSV, 0, err, errcap). */
trace_reader *trace_open(const char *path, char *err, size_t errcap);

/* The next operation: sets *t_us and *out, zeroed first, then out->seq
 * (0, 1, 2, ...), out->op, out->key, out->key_len (the key stays valid
 * until the next call), out->naming = NAMING_KEY and:
 *   put, readmodifywrite: out->value_bytes = the bytes column (0 if none),
 *       and for YCSB's INSERT and UPDATE out->cells = its fields and
 *       out->value_bytes = their values' bytes (both 0 if not known);
 *   get, delete: out->value_bytes = the bytes column (0 if none);
 *   scan: out->rows = its rows (>= 1).
 * Returns 1, 0 at the end of the file, or -1 with "FILE:LINE: ..." in err
 * (then every later call returns -1 too). */
int trace_next(trace_reader *t, uint64_t *t_us, record *out, char *err, size_t errcap);

void trace_close(trace_reader *t);

typedef struct trace_writer trace_writer;

/* A writer of a trace to `f`, a stream open for writing that the caller
 * owns and closes: where and how a file is created or replaced is the
 * caller's business (cli/output.c), so this layer never creates, renames or
 * removes a file. `name` names the trace in messages. tsv: tab-separated,
 * else CSV (trace_name_is_tsv tells by the name). Writes the header line.
 * NULL with a message in err if out of memory. */
trace_writer *trace_writer_new(FILE *f, const char *name, int tsv, char *err, size_t errcap);

/* Whether a trace file named `path` is TSV: its name ends in ".tsv". */
int trace_name_is_tsv(const char *path);

/* Appends one operation of any record_op. bytes_or_rows is a scan's rows
 * (1 .. 2^31 - 1, always written), else the value bytes (0 .. 2^31 - 1;
 * 0 leaves the column out); trace_write writes one cell (no cells
 * column). Returns 0, or -1 on a write error or an
 * operation the reader would refuse (a time after TRACE_TIME_MAX or before
 * the last one, a bad op, key, size or row count); the first failure is
 * kept, every later call returns -1, and trace_finish reports it. */
int trace_write(trace_writer *w, uint64_t t_us, record_op op,
                const uint8_t *key, size_t key_len, uint32_t bytes_or_rows);

/* The same for a put or readmodifywrite of `cells` cells (0 or 1: one
 * cell, no cells column; more: the bytes column, even 0, then cells). */
int trace_write_cells(trace_writer *w, uint64_t t_us, record_op op, const uint8_t *key,
                      size_t key_len, uint32_t bytes_or_rows, uint32_t cells);

/* Flushes the stream (it stays open: the caller closes it). Returns 0, or
 * -1 with "NAME: what failed" in err if any write, argument or the flush
 * failed. Frees w either way; NULL is allowed (returns 0). */
int trace_finish(trace_writer *w, char *err, size_t errcap);

#endif
