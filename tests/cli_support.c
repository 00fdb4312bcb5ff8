/* cli_support.c -- running the regionsim binary as a user would; see
 * cli_support.h. */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/cli_support.h"

const char *binary;
const char *source_root;

void cli_args(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: %s PATH-TO-REGIONSIM [SOURCE-ROOT]\n", argc ? argv[0] : "test");
        exit(2);
    }
    binary = argv[1];
    source_root = argc > 2 && argv[2][0] != '-' ? argv[2] : ".";
}


char *slurp(FILE *f)
{
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}


const child_env plain_env = { "xterm-256color", NULL, -1 };

/* In the child, before exec. */
static void child_setup(const child_env *e)
{
    if (e->term)
        setenv("TERM", e->term, 1);
    else
        unsetenv("TERM");
    if (e->no_color)
        setenv("NO_COLOR", e->no_color, 1);
    else
        unsetenv("NO_COLOR");
    setenv("LC_ALL", "C", 1);
    setenv("TZ", "UTC0", 1);
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (e->fsize_limit >= 0) {
        struct rlimit rl = { (rlim_t)e->fsize_limit, (rlim_t)e->fsize_limit };
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(125);
    }
}

/* Starts the binary (argv[0] is set here) with stdout and stderr to the
 * given files. */
pid_t spawn(const child_env *env, const char **argv, FILE *out, FILE *err)
{
    argv[0] = binary;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        child_setup(env);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* argv[1..] from a NULL-terminated list of arguments. */
static void collect_args(const char *argv[32], const char *first, va_list ap)
{
    size_t n = 1;
    argv[1] = first;
    if (first)
        while (++n < 31 && (argv[n] = va_arg(ap, const char *)) != NULL)
            ;
    argv[n < 31 ? n : 31] = NULL;
}

static output run_argv(const child_env *env, const char **argv)
{
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    pid_t pid = spawn(env, argv, out, err);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    output o = { WIFEXITED(status) ? WEXITSTATUS(status) : 128, slurp(out), slurp(err) };
    return o;
}

/* Runs the binary with a NULL-terminated argument list, in plain_env. */
output run(const char *first, ...)
{
    const char *argv[32];
    va_list ap;
    va_start(ap, first);
    collect_args(argv, first, ap);
    va_end(ap);
    return run_argv(&plain_env, argv);
}

/* The same in the environment env. */
output run_env(const child_env *env, const char *first, ...)
{
    const char *argv[32];
    va_list ap;
    va_start(ap, first);
    collect_args(argv, first, ap);
    va_end(ap);
    return run_argv(env, argv);
}

/* Runs the binary with `tty_fd` (1 or 2) on a pseudo-terminal and the
 * other stream in a file; what the terminal showed goes to o.out or o.err.
 * argv is NULL-terminated, without the binary. */
output run_on_tty(int tty_fd, const child_env *env, const char *const *args)
{
    const char *argv[32] = { binary };
    size_t n = 1;
    while (n < 31 && args[n - 1]) {
        argv[n] = args[n - 1];
        n++;
    }
    argv[n] = NULL;
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(master >= 0);
    assert_int_equal(grantpt(master), 0);
    assert_int_equal(unlockpt(master), 0);
    const char *slave_name = ptsname(master);
    assert_non_null(slave_name);
    FILE *file = tmpfile();
    assert_non_null(file);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int slave = open(slave_name, O_RDWR | O_NOCTTY);
        if (slave < 0)
            _exit(126);
        dup2(slave, tty_fd);
        dup2(fileno(file), tty_fd == 1 ? 2 : 1);
        close(slave);
        close(master);
        child_setup(env);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    /* Drain the terminal while the child runs (it would block on a full
     * one); read fails with EIO once the child has closed its end. */
    size_t cap = 1 << 16, len = 0;
    char *seen = malloc(cap);
    assert_non_null(seen);
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap *= 2;
            seen = realloc(seen, cap);
            assert_non_null(seen);
        }
        ssize_t got = read(master, seen + len, 4096);
        if (got > 0)
            len += (size_t)got;
        else if (got < 0 && errno == EINTR)
            continue;
        else
            break;
    }
    seen[len] = '\0';
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    close(master);
    output o = { WIFEXITED(status) ? WEXITSTATUS(status) : 128, NULL, NULL };
    if (tty_fd == 1) {
        o.out = seen;
        o.err = slurp(file);
    } else {
        o.err = seen;
        o.out = slurp(file);
    }
    return o;
}

void output_free(output *o)
{
    free(o->out);
    free(o->err);
}

size_t count_lines_with(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 1023 ? len : 1023), line);
        n += strstr(buf, needle) != NULL;
        line = nl ? nl + 1 : NULL;
    }
    return n;
}

void assert_usage_error(output o, const char *want1, const char *want2)
{
    assert_int_equal(o.status, 2);
    assert_string_equal(o.out, "");
    assert_non_null(strstr(o.err, want1));
    if (want2)
        assert_non_null(strstr(o.err, want2));
    output_free(&o);
}


json_object *member(json_object *o, const char *name)
{
    json_object *m = NULL;
    assert_true(json_object_object_get_ex(o, name, &m));
    return m;
}

void assert_well_formed_xml(const char *path)
{
    if (system("command -v xmllint >/dev/null 2>&1") != 0) {
        fprintf(stderr, "note: xmllint not installed; well-formedness not checked here\n");
        return;
    }
    char cmd[4200];
    assert_true((size_t)snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", path) < sizeof cmd);
    assert_int_equal(system(cmd), 0);
}
