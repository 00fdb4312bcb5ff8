/* format.h -- figures and strings formatted for the human reports, text
 * and HTML (internal to reports/).
 *
 * Each fmt_ function writes into a caller's buffer of CELL bytes and
 * returns it, so several can sit in one printf. Undefined figures (NAN)
 * print as "-".
 */
#ifndef REGIONSIM_FORMAT_H
#define REGIONSIM_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/balancer.h"
#include "reports/figures.h"

#define CELL 96 /* room for one formatted figure, cut key or table cell */

/* Says "regionsim: out of memory writing the report" on stderr and exits
 * with status 2. The human reports are rendered to a temporary file first
 * (cli/main.c), so nothing partial reaches the destination. */
_Noreturn void report_out_of_memory(void);

/* x with `decimals` decimals. */
const char *fmt_fixed(char *buf, double x, int decimals);

/* A share 0..1 as a percentage with one decimal ("72.7%"). */
const char *fmt_percent(char *buf, double share);

/* Bytes and durations in the largest unit they reach: exact as an integer
 * ("4 MiB", "5 min"), else with one decimal ("1.5 GiB"). */
const char *fmt_bytes(char *buf, uint64_t bytes);
const char *fmt_duration(char *buf, uint64_t us);

/* A latency to three significant digits: "850 us", "12.3 ms", "1.25 s";
 * "-" for UINT64_MAX (nothing timed). */
const char *fmt_latency(char *buf, uint64_t us);

/* A time into the run as minutes and seconds: "12m30s", "0m05s", "0m00s";
 * between 0 and a second as "0.250s". */
const char *fmt_clock(char *buf, uint64_t us);

/* s (NULL: "-") cut to at most `cols` characters (4 <= cols < CELL),
 * ending in "..." when cut; a key in shell form is never cut inside a
 * \xNN escape. */
const char *fmt_cut(char *buf, const char *s, size_t cols);

/* One balancer run's decision in words (ASCII, HTML escapes it), e.g.
 * "ran (server out of slop): 1-6 regions a server, average 3.33, slop
 * [2, 4]; 2 moved"; "skipped (regions in transition): 2 regions in
 * transition"; a stochastic run adds "cost 0.0123 -> 0.0045". Into buf
 * (cap bytes); returns it. */
const char *fmt_balancer_run(char *buf, size_t cap, const balancer_report *b);

/* A registry figure's value for a person: its decimals (figure.decimals),
 * "-" when undefined. */
const char *fmt_figure(char *buf, const figure *f, double v);

/* A figure's value for a machine (JSON, CSV): an integral value below
 * 2^53 exactly ("12345678"), any other as "%.6g"; "" when undefined (the
 * caller writes null or an empty field). */
const char *fmt_number(char *buf, double v);

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if it is invalid:
 * a stray continuation byte, an overlong form, a surrogate, > U+10FFFF.
 * p must be NUL-terminated (a NUL ends a sequence as invalid). */
size_t utf8_sequence_len(const unsigned char *p);

/* Whether the valid UTF-8 sequence p[0..n) (n from utf8_sequence_len) is a
 * character XML 1.0 forbids: a C0 control other than tab, newline and
 * carriage return, or one of the non-characters U+FFFE and U+FFFF. */
int xml_forbids(const unsigned char *p, size_t n);

#endif
