/* presplit.h -- the split keys a table is created with, as HBase makes them.
 *
 * Two sources of keys for regionmap_new:
 *
 *  - HBase's RegionSplitter algorithms (org.apache.hadoop.hbase.util.
 *    RegionSplitter), each dividing its key space into n regions the way
 *    its split(n) does:
 *      PRESPLIT_HEX      HexStringSplit: 8 lower-case hex chars, "00000000"
 *                        to "ffffffff" (2^32 values);
 *      PRESPLIT_DECIMAL  DecimalStringSplit: 8 decimal digits, "00000000"
 *                        to "99999999" (10^8 values);
 *      PRESPLIT_UNIFORM  UniformSplit: 8 raw bytes, 00..00 to FF..FF
 *                        (2^64 values).
 *    Every region gets floor(range / n) values; the last one also gets the
 *    remainder. Split key i (1 <= i < n) is i * floor(range / n). Details
 *    and sources in presplit.c.
 *
 *  - A list of keys in the HBase shell's printable form (key.h): a file with
 *    one key per line (like the shell's SPLITS_FILE), or a scenario value.
 *
 * Every function hands back *keys (an array of keyrefs) and *bytes (the
 * storage they point into), both malloc'd and freed by the caller with
 * free(); the keys are non-empty and strictly ascending, ready for
 * regionmap_new. No global state.
 */
#ifndef REGIONSIM_PRESPLIT_H
#define REGIONSIM_PRESPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "core/key.h"

typedef enum presplit_algorithm {
    PRESPLIT_HEX,     /* HexStringSplit */
    PRESPLIT_DECIMAL, /* DecimalStringSplit */
    PRESPLIT_UNIFORM  /* UniformSplit */
} presplit_algorithm;

/* The n-1 split keys that cut the algorithm's key space into n regions, as
 * HBase's split(n) makes them, written as keyrefs into a buffer the function
 * allocates: *keys (n-1 entries) and *bytes (their storage), both freed by
 * the caller with free(). Every key is 8 bytes long. Returns 0, or -1 (n < 2,
 * n too large for the key space -- only DECIMAL, n > 10^8, like HBase's
 * "split granularity is greater than the range" -- or out of memory); on -1
 * *keys and *bytes are NULL. */
int presplit_keys(presplit_algorithm a, uint32_t n, keyref **keys, uint8_t **bytes);

/* Longest line of a split keys file, in characters (without its line end):
 * 1 MiB, as the trace reader's; a 32767-byte key takes at most 131068 in
 * shell form. */
#define PRESPLIT_MAX_LINE (1 << 20)

/* Reads split keys from path: one key per line in shell form (key_parse).
 * A line is the key verbatim -- spaces included -- once its "\n" or "\r\n"
 * ending is removed. A UTF-8 byte order mark (EF BB BF) at the start of
 * the file is skipped (an editor's, not key bytes). Empty lines and lines
 * starting with '#' are skipped (a key starting with '#' is written \x23).
 * Keys must be strictly ascending and at most KEY_MAX_LEN bytes. A file
 * without keys gives *n = 0 and NULL arrays (a table of one region).
 *
 * On success returns 0 with *keys, *bytes, *n as above. On error returns -1,
 * sets *keys and *bytes to NULL and *n to 0, and writes (errcap > 0: always
 * NUL-terminated, cut short if long) one of:
 *   "PATH: cannot open: <strerror>"
 *   "PATH:LINE: read error: <strerror>"  (an I/O error, a directory: never
 *                                         taken for the end of the file)
 *   "PATH:LINE: line too long: expected at most 1048576 characters"
 *   "PATH:LINE: bad escape at column C: expected \xNN"   (C 1-based)
 *   "PATH:LINE: key too long: expected at most 32767 bytes (HBase's row limit)"
 *   "PATH:LINE: key \"NEW\" is not after the previous key \"OLD\" (line L)"
 *   "PATH:LINE: out of memory" / "PATH: out of memory"
 * (keys quoted in shell form, control bytes of PATH as \xNN). */
int presplit_read_file(const char *path, keyref **keys, uint8_t **bytes, size_t *n,
                       char *err, size_t errcap);

/* The same for a list written in a scenario value: keys in shell form
 * separated by commas or whitespace (whitespace around a comma is part of
 * the separator; a comma or space inside a key is written \x2C or \x20).
 * At least one key; an empty key -- nothing but whitespace before the
 * first comma, between two commas or after the last one -- is refused,
 * not skipped. Errors read as the file's, with "key K" (1-based) in place
 * of "PATH:LINE" and columns counted in the whole text:
 *   "key K: bad escape at column C: expected \xNN"
 *   "key K: key \"NEW\" is not after the previous key \"OLD\" (key K-1)"
 *   "key K is empty: expected a key before the ',' at column C"
 *   "key K is empty: expected a key after the ',' at column C"
 *   "expected at least one key, found none" */
int presplit_parse_list(const char *text, keyref **keys, uint8_t **bytes, size_t *n,
                        char *err, size_t errcap);

#endif
