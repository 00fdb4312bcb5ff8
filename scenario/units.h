/* units.h -- numbers with units, as users write them in options and files.
 *
 * Sizes: an integer with an optional unit B, KiB, MiB, GiB, TiB (binary).
 * Durations: an integer with a required unit us, ms, s, m, h, d (days).
 * Counts: a plain decimal integer.
 * All parsers are strict (the whole text must be used), overflow-safe, and
 * return -1 instead of guessing; callers turn that into a message naming
 * where the text came from.
 */
#ifndef REGIONSIM_UNITS_H
#define REGIONSIM_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Each returns 0 and sets *out, or -1 if text is not of that form or the
 * value does not fit in 64 bits. */
int units_parse_count(const char *text, uint64_t *out);
int units_parse_size(const char *text, uint64_t *out);
int units_parse_duration(const char *text, uint64_t *out_us);

/* A size as a user would write it, in the largest unit that holds it
 * exactly (4MiB, 10GiB, 1536KiB, 100B), into out (cap bytes): what
 * units_parse_size reads back (core/text.h's size_text). */
void units_format_size(uint64_t bytes, char *out, size_t cap);

/* A duration as a user would write it, in the largest unit that holds it
 * exactly (90s, 30m, 2h, 1500ms, 7us), into out (cap bytes). */
void units_format_duration(uint64_t us, char *out, size_t cap);

/* escape_text (user text for messages) and size_text: core/text.h */
#include "core/text.h"

#endif
