/* cli_support.h -- running the regionsim binary as a user would, for the
 * end-to-end test programs (test_cli.c: commands, files in, exit
 * statuses; test_cli_files.c: terminals, output files, interrupts).
 *
 * Every child runs with the environment set here (child_env: TERM,
 * NO_COLOR, LC_ALL, TZ, default signal dispositions, an empty signal
 * mask), never the one the tests were started with, so TERM=dumb or
 * NO_COLOR in the caller's shell changes nothing. A failed step fails the
 * calling cmocka test.
 */
#ifndef REGIONSIM_CLI_SUPPORT_H
#define REGIONSIM_CLI_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <json-c/json.h>

/* The binary under test and the source tree (for examples/ and tests/data/),
 * set once by the test program's main from its arguments (cli_args). */
extern const char *binary;
extern const char *source_root;

/* Sets binary and source_root from a test program's arguments,
 * PATH-TO-REGIONSIM [SOURCE-ROOT] (an argument from '-' on is an option of
 * the program's, and the root is then "."); without the binary, prints the
 * usage line naming argv[0] and exits 2. */
void cli_args(int argc, char **argv);

/* What a run printed, and its exit status (128 if a signal ended it). */
typedef struct output {
    int status;
    char *out, *err;
} output;

/* What a child runs with: every variable the binary reads (TERM, NO_COLOR)
 * and the ones that could change the C library's output (LC_ALL, TZ) are
 * set, not inherited; signals are at their defaults and unblocked. */
typedef struct child_env {
    const char *term;     /* TERM; NULL unsets it */
    const char *no_color; /* NO_COLOR; NULL unsets it */
    long fsize_limit;     /* RLIMIT_FSIZE in bytes, SIGXFSZ ignored (a full disk); -1: none */
} child_env;

/* TERM=xterm-256color, NO_COLOR unset, no file size limit. */
extern const child_env plain_env;

/* Reads the rest of f into a string (malloc'd) and closes f. */
char *slurp(FILE *f);

/* Starts the binary (argv[0] is set here; argv NULL-terminated) with
 * stdout and stderr to the given files, in env. */
pid_t spawn(const child_env *env, const char **argv, FILE *out, FILE *err);

/* Runs the binary with a NULL-terminated argument list, in plain_env. */
output run(const char *first, ...);

/* The same in the environment env. */
output run_env(const child_env *env, const char *first, ...);

/* Runs the binary with `tty_fd` (1 or 2) on a pseudo-terminal and the
 * other stream in a file; what the terminal showed goes to o.out or o.err.
 * args is NULL-terminated, without the binary. */
output run_on_tty(int tty_fd, const child_env *env, const char *const *args);

void output_free(output *o);

/* Lines of text that contain needle. */
size_t count_lines_with(const char *text, const char *needle);

/* Asserts o is a usage error: exit 2, nothing on stdout, a message that
 * contains want1 and (unless NULL) want2; frees o. */
void assert_usage_error(output o, const char *want1, const char *want2);

/* Object o's member name (the test fails if there is none). */
json_object *member(json_object *o, const char *name);

/* The file at path (no ' in it) is well-formed XML by xmllint --noout;
 * a note on stderr, and no check, when xmllint is not installed. */
void assert_well_formed_xml(const char *path);

#endif
