/* sweep.h -- a scenario file's [sweep] section: variables, their values,
 * and the scenario of each point (issue 17, `regionsim sweep FILE`).
 *
 * A [sweep] section names variables, each with a list of values
 * (`buckets = 4, 8, 16`) or an integer range (`servers = 8..64 step 8`).
 * The points are the cartesian product of the variables' values, in file
 * order, the first variable slowest. At each point, every `$NAME` or
 * `${NAME}` in a value of the file (the text after a key's `=`) is
 * replaced by the variable's value before the file is read, and a
 * variable named like a scenario setting sets that setting as its option
 * would. So every check the scenario reader and validator make applies to
 * every point, and a message names the point:
 * "x.ini:7: at buckets=0: ...".
 *
 * The sweep is a value: the file's text and the variables, read once; a
 * point's scenario is built from them on demand (sweep_point_scenario),
 * so any number of points can be built side by side by threads.
 */
#ifndef REGIONSIM_SWEEP_H
#define REGIONSIM_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"

#define SWEEP_MAX_VARS 16        /* variables in a [sweep] section */
#define SWEEP_MAX_POINTS 10000   /* points in all (the product of the lists' lengths) */
#define SWEEP_VALUE_MAX 64       /* bytes of one value, NUL included */

typedef struct sweep_var {
    char name[SWEEP_VALUE_MAX];
    int line;                    /* its line in the file */
    int is_setting;              /* a scenario setting of that name: set at each point */
    char (*values)[SWEEP_VALUE_MAX];
    size_t nvalues;
} sweep_var;

typedef struct sweep {
    char *path;                  /* the file, as given */
    char shown_path[161];        /* as messages show it (escape_text) */
    char *text;                  /* the file, [sweep] lines blanked (line numbers kept) */
    size_t len;
    unsigned char text_sha256[32]; /* SHA-256 of the file's bytes as read (sweep_text_sha256) */
    sweep_var vars[SWEEP_MAX_VARS];
    size_t nvars;
    size_t npoints;              /* the product of the variables' lengths, >= 1 */
} sweep;

/* Reads the file at path and its [sweep] section into *sw. Returns 0, or
 * -1 with "FILE:LINE: what was wrong" in err (sw then holds nothing to
 * free): no [sweep] section or no variable in it, a malformed variable
 * name or a second one of a name, an empty list or value, a malformed
 * range (A..B step S, integers, A <= B, S >= 1), more than
 * SWEEP_MAX_POINTS points, a $NAME that is no variable, a variable that
 * is neither a setting nor referenced. Nothing else in the file is
 * checked here (sweep_point_scenario does, per point). */
int sweep_load(sweep *sw, const char *path, char *err, size_t errcap);

/* The same from text already read (path only names it and anchors the
 * relative paths it holds). */
int sweep_load_text(sweep *sw, const char *path, const char *text, size_t len, char *err,
                    size_t errcap);

void sweep_release(sweep *sw);

/* The value of variable v at point p (p < npoints). */
const char *sweep_value(const sweep *sw, size_t p, size_t v);

/* The values of a table's variables as numbers, for a chart's scale
 * (reports/sweep_html.c): values is npoints x nvars (values[p * nvars +
 * v], as sweep_value gives them); numbers (the same shape) gets, for each
 * variable whose every value reads as a number of one kind, that number;
 * NAN at every point of a variable that does not. The kinds, tried in
 * this order, every value of the variable the same kind: a plain decimal
 * number (an optional '-', digits, an optional fraction and exponent:
 * `16`, `0.5`, `-3`, `1e6`; never `inf`, `0x10` or spaces); a duration
 * (scenario/units.h: `10m`, `90s`, in microseconds); a size (`64MiB`, `512`,
 * in bytes). So `10m, 1h` are numbers, `5, 10m` and `salt, osalt` are not. */
void sweep_value_numbers(const char *const *values, size_t npoints, size_t nvars,
                         double *numbers);

/* "buckets=4 servers=8" for point p into out (cap bytes); returns out. */
const char *sweep_point_label(const sweep *sw, size_t p, char *out, size_t cap);

/* The file's text at point p: every $NAME and ${NAME} in a value replaced,
 * `$$` as one `$`. *out is malloc'd (*outlen bytes, NUL-terminated).
 * Returns 0, or -1 with "FILE:LINE: ..." in err (out of memory; a line
 * made longer than a scenario line may be is the reader's to refuse). */
int sweep_substitute(const sweep *sw, size_t p, char **out, size_t *outlen, char *err,
                     size_t errcap);

/* Point p's scenario into *sc (released by the caller with
 * scenario_release, also on failure): the defaults, the substituted file,
 * then the nset settings keys[i] = values[i] (command-line options, as
 * scenario_set takes them; may be 0), then the setting variables, then
 * scenario_ycsb_build and scenario_validate. Returns 0, or -1 with the
 * message naming the point in err: "FILE:LINE: at buckets=0: ...". */
int sweep_point_scenario(const sweep *sw, size_t p, const char *const *keys,
                         const char *const *values, size_t nset, scenario *sc, char *err,
                         size_t errcap);

/* The SHA-256 of len bytes of text into out: what sweep_load_text keeps
 * of the text it is given (sweep.text_sha256), and what a plan computes of
 * each point's file it writes. */
void sweep_text_sha256(const char *text, size_t len, unsigned char out[32]);

#define SWEEP_DIGEST_HEX 65 /* a point's digest: 64 hex digits and a NUL */

/* The identity of a planned point's scenario: the SHA-256, as 64
 * lower-case hex digits, of "regionsim point 1\n", the point file's own
 * SHA-256 (text_sha256) and the options its job runs with (nargs / 2
 * pairs KEY, VALUE, in order: sweep's --KEY VALUE and --assert TEXT as
 * ("assert", TEXT)), each string preceded by its length so that no two
 * lists hash alike. `sweep --plan` records it for each point in plan.json,
 * the job (`sweep POINT.ini ... --result PATH`) writes it into its
 * result, and `regionsim merge` refuses a result whose digest is not its
 * point's: a result made from another scenario, or with other options. */
void sweep_point_digest(const unsigned char text_sha256[32], const char *const *args,
                        size_t nargs, char out[SWEEP_DIGEST_HEX]);

#endif
