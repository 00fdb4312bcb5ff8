/* test_trace.c -- reading and writing traces: both dialects, quoting,
 * escapes, a binary-key round trip through the writer, every kind of
 * malformed line (message names FILE:LINE and the token), sticky errors,
 * bounded lines, write errors.
 *
 * Each test gets its own directory from mkdtemp (so file names can carry
 * the .csv/.tsv suffix the writer looks at); teardown removes it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/key.h"
#include "workloads/trace.h"

#define MAX_FILES 32

typedef struct fixture {
    char dir[64];
    char paths[MAX_FILES][128];
    int nfiles;
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    strcpy(fx->dir, "/tmp/test_trace.XXXXXX");
    if (!mkdtemp(fx->dir)) {
        free(fx);
        return -1;
    }
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    for (int i = 0; i < fx->nfiles; i++)
        unlink(fx->paths[i]);
    int r = rmdir(fx->dir);
    free(fx);
    return r;
}

/* A path named name inside the test's directory, removed by teardown. */
static const char *path_for(void **state, const char *name)
{
    fixture *fx = *state;
    assert_true(fx->nfiles < MAX_FILES);
    char *p = fx->paths[fx->nfiles++];
    size_t d = strlen(fx->dir), n = strlen(name);
    assert_true(d + 1 + n < sizeof fx->paths[0]);
    memcpy(p, fx->dir, d);
    p[d] = '/';
    memcpy(p + d + 1, name, n + 1);
    return p;
}

/* Writes len bytes of text to a new file called name. */
static const char *write_file(void **state, const char *name, const char *text, size_t len)
{
    const char *path = path_for(state, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

static const char *write_text(void **state, const char *name, const char *text)
{
    return write_file(state, name, text, strlen(text));
}

/* Reads the next operation and checks every field. */
static void expect_rec(trace_reader *t, uint64_t t_us, record_op op, const char *key,
                       size_t key_len, uint32_t bytes, uint32_t rows, uint32_t cells,
                       uint64_t seq)
{
    char err[512] = "";
    uint64_t got_t = 12345;
    record r;
    memset(&r, 0xAB, sizeof r);
    int rc = trace_next(t, &got_t, &r, err, sizeof err);
    if (rc != 1)
        print_error("trace_next: %d %s\n", rc, err);
    assert_int_equal(rc, 1);
    assert_int_equal(got_t, t_us);
    assert_int_equal(r.op, op);
    assert_int_equal(r.key_len, key_len);
    assert_memory_equal(r.key, key, key_len);
    assert_int_equal(r.value_bytes, bytes);
    assert_int_equal(r.rows, rows);
    assert_int_equal(r.cells, cells);
    assert_int_equal(r.seq, seq);
    assert_int_equal(r.naming, NAMING_KEY);
    assert_int_equal(r.ts_ms, 0);
    assert_int_equal(r.entity, 0);
    assert_int_equal(r.metric, 0);
    assert_int_equal(r.host, 0);
    assert_int_equal(r.tag, 0);
}

/* expect_rec of an operation that is not a scan, with no cell count. */
static void expect_op(trace_reader *t, uint64_t t_us, record_op op,
                      const char *key, size_t key_len, uint32_t bytes, uint64_t seq)
{
    expect_rec(t, t_us, op, key, key_len, bytes, 0, 0, seq);
}

static void expect_end(trace_reader *t)
{
    char err[512] = "";
    uint64_t t_us;
    record r;
    assert_int_equal(trace_next(t, &t_us, &r, err, sizeof err), 0);
    assert_int_equal(trace_next(t, &t_us, &r, err, sizeof err), 0); /* stays at the end */
}

static trace_reader *open_ok(const char *path)
{
    char err[512] = "";
    trace_reader *t = trace_open(path, err, sizeof err);
    if (!t)
        print_error("trace_open: %s\n", err);
    assert_non_null(t);
    return t;
}

static void test_parse_csv(void **state)
{
    const char *good =
        "# recorded 2024-01-01, by hand\r\n"
        "time,op,key,bytes\r\n"
        "0,put,row1,100\r\n"
        "\r\n"
        "\n"
        "5,get,row1\r\n"
        "# a comment\twith a tab\n"
        "5,delete,\"a,b\"\r\n"
        "6,put,\"say \"\"hi\"\"\",7\n"
        "7,get,a\\x2Cb\\xff\\x00z\n"
        "8,put,\\xFF\\xfe\\x5C,0\n"
        "9,delete,\"\"\"\",2147483647\n"
        "18446744073709551614,get,a\"b"; /* no final newline; mid-field quote is literal */
    trace_reader *t = open_ok(write_text(state, "small.csv", good));
    expect_op(t, 0, RECORD_PUT, "row1", 4, 100, 0);
    expect_op(t, 5, RECORD_GET, "row1", 4, 0, 1);
    expect_op(t, 5, RECORD_DELETE, "a,b", 3, 0, 2);
    expect_op(t, 6, RECORD_PUT, "say \"hi\"", 8, 7, 3);
    expect_op(t, 7, RECORD_GET, "a,b\xff\0z", 6, 0, 4);
    expect_op(t, 8, RECORD_PUT, "\xff\xfe\\", 3, 0, 5);
    expect_op(t, 9, RECORD_DELETE, "\"", 1, 2147483647u, 6);
    expect_op(t, TRACE_TIME_MAX, RECORD_GET, "a\"b", 3, 0, 7);
    expect_end(t);
    trace_close(t);
}

static void test_parse_tsv(void **state)
{
    const char *text =
        "time\top\tkey\r\n"
        "1\tput\ta,b\t10\r\n"
        "# comment\n"
        "2\tget\t\"x\"\"y\"\r\n"   /* TSV is never quoted: the quotes are key bytes */
        "3\tdelete\t\\x09tab\\x0A\\xFF\n";
    trace_reader *t = open_ok(write_text(state, "small.tsv", text));
    expect_op(t, 1, RECORD_PUT, "a,b", 3, 10, 0);
    expect_op(t, 2, RECORD_GET, "\"x\"\"y\"", 6, 0, 1);
    expect_op(t, 3, RECORD_DELETE, "\ttab\n\xff", 6, 0, 2);
    expect_end(t);
    trace_close(t);
}

static void test_no_header_and_empty_files(void **state)
{
    /* No header: the first line is an operation (and picks the delimiter). */
    trace_reader *t = open_ok(write_text(state, "nohead.csv", "3,get,k\n"));
    expect_op(t, 3, RECORD_GET, "k", 1, 0, 0);
    expect_end(t);
    trace_close(t);
    t = open_ok(write_text(state, "nohead.tsv", "\n# only\n4\tput\tk\t5\n"));
    expect_op(t, 4, RECORD_PUT, "k", 1, 5, 0);
    expect_end(t);
    trace_close(t);
    t = open_ok(write_text(state, "empty.csv", ""));
    expect_end(t);
    trace_close(t);
    t = open_ok(write_text(state, "header.csv", "time,op,key\n"));
    expect_end(t);
    trace_close(t);
    /* A header is only skipped as the first significant line. */
    t = open_ok(write_text(state, "twohead.csv", "time,op,key\ntime,op,key\n"));
    char err[512] = "";
    uint64_t t_us;
    record r;
    assert_int_equal(trace_next(t, &t_us, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "twohead.csv:2: bad time"));
    trace_close(t);
}

static void test_longest_key(void **state)
{
    /* KEY_MAX_LEN bytes, each written as \xFF: 131068 characters. */
    size_t n = 8 + 4 * KEY_MAX_LEN + 1;
    char *text = malloc(n + 1);
    uint8_t *want = malloc(KEY_MAX_LEN);
    assert_non_null(text);
    assert_non_null(want);
    size_t len = (size_t)sprintf(text, "1,put,");
    for (int i = 0; i < KEY_MAX_LEN; i++)
        len += (size_t)sprintf(text + len, "\\xFF");
    text[len++] = '\n';
    memset(want, 0xff, KEY_MAX_LEN);
    trace_reader *t = open_ok(write_file(state, "long.csv", text, len));
    expect_op(t, 1, RECORD_PUT, (const char *)want, KEY_MAX_LEN, 0, 0);
    expect_end(t);
    trace_close(t);
    free(text);
    free(want);
}

/* ---- malformed lines ---------------------------------------------- */

static trace_reader *open_format_ok(const char *path, trace_format fmt, uint64_t interval_us)
{
    char err[512] = "";
    trace_reader *t = trace_open_format(path, fmt, interval_us, err, sizeof err);
    if (!t)
        print_error("trace_open_format: %s\n", err);
    assert_non_null(t);
    return t;
}

/* Reads name (holding text, in format fmt) until an error; checks the
 * message names FILE:LINE and holds each of the wanted pieces; checks the
 * error sticks. */
static void expect_error_in(void **state, const char *name, const char *text, size_t len,
                            trace_format fmt, uint64_t interval_us, int line, const char *what,
                            const char *token)
{
    const char *path = write_file(state, name, text, len);
    trace_reader *t = open_format_ok(path, fmt, interval_us);
    char err[1024] = "", again[1024] = "", where[256];
    uint64_t t_us;
    record r;
    int rc;
    while ((rc = trace_next(t, &t_us, &r, err, sizeof err)) == 1)
        ;
    if (rc != -1)
        print_error("%s: expected an error, got %d\n", name, rc);
    assert_int_equal(rc, -1);
    snprintf(where, sizeof where, "%s:%d: ", path, line);
    if (strncmp(err, where, strlen(where)) != 0 || !strstr(err, what) || !strstr(err, token))
        print_error("%s: unexpected message: %s\n", name, err);
    assert_true(strncmp(err, where, strlen(where)) == 0);
    assert_non_null(strstr(err, what));
    assert_non_null(strstr(err, token));
    /* Sticky: the same error on every later call. */
    for (int i = 0; i < 2; i++) {
        assert_int_equal(trace_next(t, &t_us, &r, again, sizeof again), -1);
        assert_string_equal(again, err);
    }
    trace_close(t);
}

static void expect_error_len(void **state, const char *name, const char *text, size_t len,
                             int line, const char *what, const char *token)
{
    expect_error_in(state, name, text, len, TRACE_FORMAT_CSV, 0, line, what, token);
}

static void expect_error(void **state, const char *name, const char *text, int line,
                         const char *what, const char *token)
{
    expect_error_len(state, name, text, strlen(text), line, what, token);
}

static void expect_ycsb_error(void **state, const char *name, const char *text, int line,
                              const char *what, const char *token)
{
    expect_error_in(state, name, text, strlen(text), TRACE_FORMAT_YCSB, 1, line, what, token);
}

static void test_field_count_errors(void **state)
{
    expect_error(state, "few.csv", "0,put\n", 1,
                 "too few fields: expected time,op,key[,bytes[,cells]] or time,scan,key,rows",
                 "found '0,put'");
    expect_error(state, "many.csv", "time,op,key\n0,put,a,1,2,more\n", 2,
                 "too many fields: expected time,op,key[,bytes[,cells]] or time,scan,key,rows",
                 "found 'more'");
    expect_error(state, "many.tsv", "0\tput\ta\t1\t2\tc\n", 1, "too many fields", "found 'c'");
    /* A comma is data in TSV, a tab is data in CSV: */
    expect_error(state, "few.tsv", "0\tput,a\n", 1, "too few fields", "found '0\\x09put,a'");
}

static void test_time_errors(void **state)
{
    expect_error(state, "t1.csv", "# c\n\n0,put,a\nx1,get,a\n", 4,
                 "bad time: expected a non-negative integer", "found 'x1'");
    expect_error(state, "t2.csv", "-1,put,a\n", 1, "bad time", "found '-1'");
    expect_error(state, "t3.csv", ",put,a\n", 1, "bad time", "found ''");
    expect_error(state, "t4.csv", "18446744073709551616,put,a\n", 1,
                 "time out of range", "found '18446744073709551616'");
    expect_error(state, "t5.csv", "1,put,a\r\n7,put,a\r\n7,get,a\r\n5,get,a\r\n", 4,
                 "time 5 is before the previous operation's 7", "found '5'");
    /* 2^64 - 1 is the engine's "never": refused with its line, not dropped. */
    expect_error(state, "t6.csv", "0,put,a\n18446744073709551615,put,b\n", 2,
                 "time out of range: expected at most 18446744073709551614",
                 "found '18446744073709551615'");
}

/* The latest time a trace may hold reads back as itself. */
static void test_latest_time(void **state)
{
    const char *path = write_text(state, "max.csv", "0,put,a\n18446744073709551614,get,b\n");
    trace_reader *t = open_ok(path);
    expect_op(t, 0, RECORD_PUT, "a", 1, 0, 0);
    expect_op(t, TRACE_TIME_MAX, RECORD_GET, "b", 1, 0, 1);
    expect_end(t);
    trace_close(t);
}

static void test_op_and_bytes_errors(void **state)
{
    expect_error(state, "op1.csv", "0,PUTS,a\n", 1,
                 "bad op: expected put, get, delete, scan, readmodifywrite, insert, update "
                 "or read", "found 'PUTS'");
    expect_error(state, "op2.tsv", "0\tscanner\ta\n", 1, "bad op", "found 'scanner'");
    expect_error(state, "op4.csv", "0,rmw,a\n", 1, "bad op", "found 'rmw'");
    expect_error(state, "op3.csv", "0, put,a\n", 1, "bad op", "found ' put'");
    expect_error(state, "b1.csv", "0,put,a,12x\n", 1,
                 "bad bytes: expected an integer from 0 to 2147483647", "found '12x'");
    expect_error(state, "b2.csv", "0,put,a,2147483648\n", 1, "bad bytes",
                 "found '2147483648'");
    expect_error(state, "b3.csv", "0,put,a,\n", 1, "bad bytes", "found ''");
}

/* scan, readmodifywrite and YCSB's names for the others, in any case. */
static void test_scan_rmw_and_aliases(void **state)
{
    const char *text =
        "time,op,key,bytes\n"
        "0,scan,row1,10\n"
        "1,readmodifywrite,row2,300\n"
        "2,readmodifywrite,row3\n"
        "3,INSERT,row4,5\n"
        "4,update,row5\n"
        "5,Read,row6\n"
        "6,SCAN,\"a,b\",2147483647\n"
        "7,ReadModifyWrite,row7\n"
        "8,DELETE,row8\n"
        "9,Put,row9,1\n"
        "10,gEt,row10\n";
    trace_reader *t = open_ok(write_text(state, "ops.csv", text));
    expect_rec(t, 0, RECORD_SCAN, "row1", 4, 0, 10, 0, 0);
    expect_op(t, 1, RECORD_RMW, "row2", 4, 300, 1);
    expect_op(t, 2, RECORD_RMW, "row3", 4, 0, 2);
    expect_op(t, 3, RECORD_PUT, "row4", 4, 5, 3);
    expect_op(t, 4, RECORD_PUT, "row5", 4, 0, 4);
    expect_op(t, 5, RECORD_GET, "row6", 4, 0, 5);
    expect_rec(t, 6, RECORD_SCAN, "a,b", 3, 0, 2147483647u, 0, 6);
    expect_op(t, 7, RECORD_RMW, "row7", 4, 0, 7);
    expect_op(t, 8, RECORD_DELETE, "row8", 4, 0, 8);
    expect_op(t, 9, RECORD_PUT, "row9", 4, 1, 9);
    expect_op(t, 10, RECORD_GET, "row10", 5, 0, 10);
    expect_end(t);
    trace_close(t);
    t = open_ok(write_text(state, "ops.tsv", "0\tscan\tk\t1\n"));
    expect_rec(t, 0, RECORD_SCAN, "k", 1, 0, 1, 0, 0);
    expect_end(t);
    trace_close(t);
}

/* A put of several cells (a YCSB record's fields): bytes are then all
 * their values' bytes; cells only on a put or readmodifywrite. */
static void test_cells_column(void **state)
{
    const char *text =
        "time,op,key,bytes,cells\n"
        "0,put,row1,1000,10\n"
        "1,readmodifywrite,row2,100,1\n"
        "2,insert,row3,0,3\n"
        "3,put,row4\n";
    trace_reader *t = open_ok(write_text(state, "cells.csv", text));
    uint64_t t_us;
    record r;
    char err[256];
    assert_int_equal(trace_next(t, &t_us, &r, err, sizeof err), 1);
    assert_true(r.op == RECORD_PUT && r.cells == 10 && r.value_bytes == 1000);
    assert_int_equal(trace_next(t, &t_us, &r, err, sizeof err), 1);
    assert_true(r.op == RECORD_RMW && r.cells == 1 && r.value_bytes == 100);
    assert_int_equal(trace_next(t, &t_us, &r, err, sizeof err), 1);
    assert_true(r.op == RECORD_PUT && r.cells == 3 && r.value_bytes == 0);
    assert_int_equal(trace_next(t, &t_us, &r, err, sizeof err), 1);
    assert_true(r.cells == 0 && r.value_bytes == 0);
    expect_end(t);
    trace_close(t);
    expect_error(state, "c1.csv", "0,put,a,10,0\n", 1,
                 "bad cells: expected an integer from 1 to 2147483647", "found '0'");
    expect_error(state, "c2.csv", "0,put,a,10,2147483648\n", 1, "bad cells",
                 "found '2147483648'");
    expect_error(state, "c3.csv", "0,get,a,0,2\n", 1, "cells on a get", "found '2'");
    expect_error(state, "c4.csv", "0,delete,a,0,2\n", 1, "cells on a delete", "found '2'");
}

static void test_scan_errors(void **state)
{
    expect_error(state, "s1.csv", "0,get,a\n1,scan,a\n", 2,
                 "scan without rows: expected time,scan,key,rows", "found '1,scan,a'");
    expect_error(state, "s2.csv", "0,scan,a,0\n", 1,
                 "bad rows: expected an integer from 1 to 2147483647", "found '0'");
    expect_error(state, "s3.csv", "0,scan,a,2147483648\n", 1, "bad rows", "found '2147483648'");
    expect_error(state, "s4.csv", "0,scan,a,\n", 1, "bad rows", "found ''");
    expect_error(state, "s5.csv", "0,scan,a,-1\n", 1, "bad rows", "found '-1'");
    expect_error(state, "s6.csv", "0,scan,a,1x\n", 1, "bad rows", "found '1x'");
    expect_error(state, "s7.tsv", "0\tscan\ta\t10\t1\n", 1,
                 "cells on a scan: expected them only on a put or readmodifywrite", "found '1'");
    /* The key is checked before the rows. */
    expect_error(state, "s8.csv", "0,scan,,5\n", 1, "empty key", "found ''");
    expect_error(state, "s9.csv", "0,readmodifywrite,a,2147483648\n", 1, "bad bytes",
                 "found '2147483648'");
}

static void test_format_names(void **state)
{
    (void)state;
    trace_format f = TRACE_FORMAT_YCSB;
    assert_int_equal(trace_format_parse("regionsim", &f), 0);
    assert_int_equal(f, TRACE_FORMAT_CSV);
    f = TRACE_FORMAT_YCSB;
    assert_int_equal(trace_format_parse("csv", &f), 0);
    assert_int_equal(f, TRACE_FORMAT_CSV);
    assert_int_equal(trace_format_parse("ycsb", &f), 0);
    assert_int_equal(f, TRACE_FORMAT_YCSB);
    const char *bad[] = { "", "YCSB", "tsv", "ycsb ", "basicdb", "regionsim2" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        f = TRACE_FORMAT_YCSB;
        assert_int_equal(trace_format_parse(bad[i], &f), -1);
        assert_int_equal(f, TRACE_FORMAT_YCSB); /* untouched */
    }
}

/* ---- YCSB's BasicDB output ------------------------------------------- */

/* What `bin/ycsb run basic -P workloads/workloada -p basicdb.verbose=true`
 * prints, cut short, with values chosen to hold what random values can:
 * spaces, '=', ']', "field" without digits, 0x7F. */
static const char ycsb_sample[] =
    "Command line: -db site.ycsb.BasicDB -P workloads/workloada -p basicdb.verbose=true -t\n"
    "YCSB Client 0.18.0-SNAPSHOT\n"
    "\n"
    "Loading workload...\n"
    "Starting test.\n"
    "***************** properties *****************\n"
    "\"basicdb.verbose\"=\"true\"\n"
    "\"fieldcount\"=\"10\"\n"
    "**********************************************\n"
    "DBWrapper: report latency for each error is false and specific error codes to track "
    "for latency are: []\n"
    "READ usertable user6284781860667377211 [ <all fields>]\n"
    "UPDATE usertable user8517097267634966620 [ field7=N)4\"?W&1 ;3 ]\n"
    "INSERT usertable user1 [ field1=a b]c=d field0=xx field2= field9= field=x field10=\x7f ]\r\n"
    "SCAN usertable user5 54 [ <all fields>]\n"
    "READ usertable user2 [ field1 field3 ]\n"
    "UPDATE usertable user3 [ ]\n"
    "UPDATE usertable user4 [ name=abc other=de ]\n"
    "DELETE usertable user\xc3\xa9\\x41\n"
    "read usertable user9 [ <all fields>]\n"
    "READING usertable user9 [ <all fields>]\n"
    "[OVERALL], RunTime(ms), 123\n"
    "[OVERALL], Throughput(ops/sec), 8130.08\n"
    "[READ], Operations, 2\n"
    "[READ], Return=OK, 2\n"
    "[UPDATE], 99thPercentileLatency(us), 11\n";

/* The sample's operations, i-th at i * interval_us. */
static void expect_ycsb_sample(trace_reader *t, uint64_t iv)
{
    expect_op(t, 0 * iv, RECORD_GET, "user6284781860667377211", 23, 0, 0);
    expect_rec(t, 1 * iv, RECORD_PUT, "user8517097267634966620", 23, 11, 0, 1, 1);
    /* "a b]c=d", "xx", "", " field=x", "\x7f": 7 + 2 + 0 + 8 + 1 bytes */
    expect_rec(t, 2 * iv, RECORD_PUT, "user1", 5, 18, 0, 5, 2);
    expect_rec(t, 3 * iv, RECORD_SCAN, "user5", 5, 0, 54, 0, 3);
    expect_op(t, 4 * iv, RECORD_GET, "user2", 5, 0, 4);
    expect_rec(t, 5 * iv, RECORD_PUT, "user3", 5, 0, 0, 0, 5);
    /* names that are not CoreWorkload's: cells and bytes unknown */
    expect_rec(t, 6 * iv, RECORD_PUT, "user4", 5, 0, 0, 0, 6);
    /* the key's bytes as printed: no shell-form decoding */
    expect_op(t, 7 * iv, RECORD_DELETE, "user\xc3\xa9\\x41", 10, 0, 7);
    expect_end(t);
}

static void test_ycsb_basicdb(void **state)
{
    const char *path = write_text(state, "ycsb.out", ycsb_sample);
    trace_reader *t = open_format_ok(path, TRACE_FORMAT_YCSB, 250);
    expect_ycsb_sample(t, 250);
    trace_close(t);
    t = open_format_ok(path, TRACE_FORMAT_YCSB, 0); /* closed loop: all at 0 */
    expect_ycsb_sample(t, 0);
    trace_close(t);
    /* Nothing but YCSB's other output: no operations, no error. */
    t = open_format_ok(write_text(state, "none.out", "Loading workload...\n\n[OVERALL], x\n"),
                       TRACE_FORMAT_YCSB, 1);
    expect_end(t);
    trace_close(t);
    /* The same file read as CSV is refused at its first line. */
    expect_error(state, "ycsb.csv", ycsb_sample, 1, "too few fields", "found 'Command line:");
}

/* Where tests/data is: the program's argument, else beside this source
 * file (__FILE__ is relative to the build directory, where meson runs
 * tests); NULL until main sets it. */
static const char *data_dir;

/* YCSB's "[INSERT], Operations, N" lines of the log at path: the sum of N
 * over the phases for the four ops BasicDB prints a line for. */
static long ycsb_reported_ops(const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512], prefix[64];
    long total = 0, n;
    snprintf(prefix, sizeof prefix, "[%s], Operations, ", name);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, prefix, strlen(prefix)) == 0 &&
            sscanf(line + strlen(prefix), "%ld", &n) == 1)
            total += n;
    fclose(f);
    return total;
}

/* The logs of real YCSB runs (tests/data/ycsb_basicdb_{a..f}.log: load and
 * run of each core workload, fieldcount 10, fieldlength 10): every line is
 * read, the ops are those YCSB counted, and every INSERT has 10 cells of 10
 * bytes, every UPDATE one (writeallfields=false), every SCAN 1..100 rows. */
static void test_ycsb_real_logs(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/ycsb_basicdb_a.log", data_dir);
    FILE *probe = fopen(path, "r");
    if (!probe) /* committed: a broken tree */
        fail_msg("%s: %s", path, strerror(errno));
    fclose(probe);
    for (char w = 'a'; w <= 'f'; w++) {
        snprintf(path, sizeof path, "%s/ycsb_basicdb_%c.log", data_dir, w);
        trace_reader *t = open_format_ok(path, TRACE_FORMAT_YCSB, 10);
        long gets = 0, puts = 0, inserts = 0, scans = 0, i = 0;
        char err[512] = "";
        uint64_t t_us;
        record r;
        int rc;
        while ((rc = trace_next(t, &t_us, &r, err, sizeof err)) == 1) {
            assert_int_equal(t_us, (uint64_t)i * 10);
            assert_int_equal(r.seq, (uint64_t)i);
            i++;
            if (r.op == RECORD_GET) {
                gets++;
            } else if (r.op == RECORD_PUT) {
                puts++;
                inserts += r.cells == 10;
                assert_true((r.cells == 10 && r.value_bytes == 100) ||
                            (r.cells == 1 && r.value_bytes == 10));
            } else {
                assert_int_equal(r.op, RECORD_SCAN);
                scans++;
                assert_true(r.rows >= 1 && r.rows <= 100);
            }
        }
        if (rc != 0)
            print_error("%s\n", err);
        assert_int_equal(rc, 0);
        trace_close(t);
        assert_int_equal(gets, ycsb_reported_ops(path, "READ"));
        assert_int_equal(scans, ycsb_reported_ops(path, "SCAN"));
        assert_int_equal(inserts, ycsb_reported_ops(path, "INSERT"));
        assert_int_equal(puts - inserts, ycsb_reported_ops(path, "UPDATE"));
        assert_true(inserts >= 1000);
    }
}

/* The latest time an operation may have is TRACE_TIME_MAX; one interval
 * more is refused with its line. */
static void test_ycsb_times(void **state)
{
    const char *text = "READ t a [ ]\n\nREAD t b [ ]\nDELETE t c\nDELETE t d\n";
    uint64_t iv = UINT64_MAX / 2; /* 2 x iv = 2^64 - 2 */
    trace_reader *t = open_format_ok(write_text(state, "max.out", text), TRACE_FORMAT_YCSB, iv);
    expect_op(t, 0, RECORD_GET, "a", 1, 0, 0);
    expect_op(t, iv, RECORD_GET, "b", 1, 0, 1);
    expect_op(t, TRACE_TIME_MAX, RECORD_DELETE, "c", 1, 0, 2);
    char err[512] = "";
    uint64_t t_us;
    record r;
    assert_int_equal(trace_next(t, &t_us, &r, err, sizeof err), -1);
    if (!strstr(err, "max.out:5: time out of range: operation 3 at 9223372036854775807 "
                     "microseconds apart is past 18446744073709551614 microseconds"))
        print_error("%s\n", err);
    assert_non_null(strstr(err, "max.out:5: time out of range: operation 3 at "
                                "9223372036854775807 microseconds apart is past "
                                "18446744073709551614 microseconds"));
    trace_close(t);
    t = open_format_ok(write_text(state, "big.out", "DELETE t a\nDELETE t b\n"),
                       TRACE_FORMAT_YCSB, UINT64_MAX);
    expect_op(t, 0, RECORD_DELETE, "a", 1, 0, 0);
    assert_int_equal(trace_next(t, &t_us, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "big.out:2: time out of range"));
    trace_close(t);
}

static void test_ycsb_errors(void **state)
{
    expect_ycsb_error(state, "y1.out", "Starting test.\nREAD usertable\n", 2,
                      "too few fields: expected READ table key [ fields]",
                      "found 'READ usertable'");
    expect_ycsb_error(state, "y2.out", "READ usertable user1\n", 1, "too few fields",
                      "found 'READ usertable user1'");
    expect_ycsb_error(state, "y3.out", "READ\n", 1, "too few fields", "found 'READ'");
    expect_ycsb_error(state, "y4.out", "READ usertable user1 <all fields>\n", 1,
                      "bad field list: expected '[ ' ... ']' to end the line, as in "
                      "READ table key [ fields]", "found '<all fields>'");
    expect_ycsb_error(state, "y5.out", "READ usertable user1 [ <all fields>\n", 1,
                      "bad field list", "found '[ <all fields>'");
    expect_ycsb_error(state, "y6.out", "READ usertable user1 []\n", 1, "bad field list",
                      "found '[]'");
    expect_ycsb_error(state, "y7.out", "READ  user1 [ ]\n", 1,
                      "empty table: expected READ table key [ fields]", "found 'READ  user1 [ ]'");
    expect_ycsb_error(state, "y8.out", "READ usertable  [ ]\n", 1,
                      "empty key: expected 1..32767 bytes", "found ''");
    expect_ycsb_error(state, "y9.out", "SCAN usertable user1 0 [ <all fields>]\n", 1,
                      "bad rows: expected an integer from 1 to 2147483647", "found '0'");
    expect_ycsb_error(state, "y10.out", "SCAN usertable user1 2147483648 [ ]\n", 1,
                      "bad rows", "found '2147483648'");
    expect_ycsb_error(state, "y11.out", "SCAN usertable user1 [ <all fields>]\n", 1,
                      "bad rows", "found '['");
    expect_ycsb_error(state, "y12.out", "SCAN usertable user1 5\n", 1,
                      "too few fields: expected SCAN table key count [ fields]",
                      "found 'SCAN usertable user1 5'");
    expect_ycsb_error(state, "y13.out", "DELETE usertable user1 [ ]\n", 1,
                      "text after the key: expected DELETE table key", "found ' [ ]'");
    expect_ycsb_error(state, "y14.out", "DELETE usertable user1 \n", 1,
                      "text after the key", "found ' '");
    expect_ycsb_error(state, "y15.out", "DELETE usertable\n", 1,
                      "too few fields: expected DELETE table key", "found 'DELETE usertable'");
    expect_ycsb_error(state, "y16.out", "INSERT usertable user1 [ field0=abc]\n", 1,
                      "bad fields: expected 'name=value ' for each, as in "
                      "INSERT table key [ name=value ... ]", "found 'field0=abc'");
    expect_ycsb_error(state, "y17.out", "INSERT usertable user1 [ =abc ]\n", 1,
                      "bad fields", "found '=abc '");
    expect_ycsb_error(state, "y18.out", "UPDATE usertable user1 [ abc ]\n", 1,
                      "bad fields: expected 'name=value ' for each, as in "
                      "UPDATE table key [ name=value ... ]", "found 'abc '");
    expect_ycsb_error(state, "y19.out", "UPDATE usertable user1 [ a b=c ]\n", 1,
                      "bad fields", "found 'a b=c '");
    expect_ycsb_error(state, "y20.out", "UPDATE usertable user1\n", 1,
                      "too few fields: expected UPDATE table key [ name=value ... ]",
                      "found 'UPDATE usertable user1'");
    /* A line that is not an operation's is never an error, even malformed-looking. */
    expect_ycsb_error(state, "y21.out", "READX a\nread a\n[READ] x\nINSERT t k [ f0=1 ]\nREAD t\n",
                      5, "too few fields", "found 'READ t'");
    /* One byte over HBase's row limit. */
    size_t n = 9 + KEY_MAX_LEN + 1;
    char *text = malloc(n + 8);
    assert_non_null(text);
    memcpy(text, "DELETE t ", 9);
    memset(text + 9, 'k', KEY_MAX_LEN + 1);
    memcpy(text + n, "\n", 2);
    expect_ycsb_error(state, "y22.out", text, 1, "key too long: expected at most 32767 bytes",
                      "found 'kkkkkkkkkk");
    /* The longest key is fine. */
    text[n - 1] = '\n';
    text[n] = '\0';
    trace_reader *t = open_format_ok(write_text(state, "y23.out", text), TRACE_FORMAT_YCSB, 1);
    expect_op(t, 0, RECORD_DELETE, text + 9, KEY_MAX_LEN, 0, 0);
    expect_end(t);
    trace_close(t);
    free(text);
}

static void test_key_errors(void **state)
{
    expect_error(state, "k1.csv", "0,put,ab\\q12\n", 1,
                 "bad escape at column 3 of the key (column 9 of the line): expected \\xNN",
                 "found '\\q12'");
    /* In a quoted key, "" counts as two columns of the line. */
    expect_error(state, "k2.csv", "0,get,\"a\"\"b\\x4\"\n", 1,
                 "bad escape at column 4 of the key (column 12 of the line)", "found '\\x4'");
    expect_error(state, "k3.tsv", "0\tget\tk\\xG0\n", 1,
                 "bad escape at column 2 of the key (column 8 of the line)", "found '\\xG0'");
    expect_error(state, "k4.csv", "0,put,\n", 1, "empty key: expected 1..32767 bytes",
                 "found ''");
    expect_error(state, "k5.csv", "0,put,\"\"\n", 1, "empty key", "found ''");
    expect_error(state, "k6.csv", "0,put,\"abc\n", 1,
                 "unterminated quoted field", "found '\"abc'");
    expect_error(state, "k7.csv", "0,put,\"a\"b,3\n", 1,
                 "text after a closing quote", "found '\"a\"b,3'");
    /* One byte over HBase's row limit. */
    size_t n = 6 + KEY_MAX_LEN + 1;
    char *text = malloc(n + 2);
    assert_non_null(text);
    memcpy(text, "0,put,", 6);
    memset(text + 6, 'k', KEY_MAX_LEN + 1);
    text[n] = '\n';
    expect_error_len(state, "k8.csv", text, n + 1, 1,
                     "key too long: expected at most 32767 bytes", "found 'kkkkkkkkkk");
    free(text);
}

static void test_line_too_long(void **state)
{
    /* 2 MiB in one line: refused at 1 MiB, so the buffer stays bounded. */
    size_t n = (size_t)2 << 20;
    char *text = malloc(n);
    assert_non_null(text);
    memcpy(text, "0,put,a\n1,put,", 14);
    memset(text + 14, 'z', n - 14);
    expect_error_len(state, "huge.csv", text, n, 2, "line too long: expected at most 1048576 bytes",
                     "found '1,put,zzz");
    free(text);
}

static void test_open_errors(void **state)
{
    char err[512] = "";
    const char *missing = path_for(state, "missing.csv");
    assert_null(trace_open(missing, err, sizeof err));
    assert_non_null(strstr(err, missing));
    err[0] = '\0';
    assert_null(trace_open_format(missing, TRACE_FORMAT_YCSB, 1, err, sizeof err));
    assert_non_null(strstr(err, missing));
    const char *there = write_text(state, "there.csv", "0,put,a\n");
    assert_null(trace_open_format(there, (trace_format)7, 1, err, sizeof err));
    assert_string_equal(err, "unknown trace format");
    trace_close(NULL);
}

/* ---- writer ---------------------------------------------------------- */

/* A writer on a file the test opens (the writer never opens, renames or
 * closes files: the program's cli/output.c does). */
typedef struct open_writer {
    FILE *f;
    trace_writer *w;
} open_writer;

static open_writer writer_on(const char *path)
{
    char err[512] = "";
    open_writer ow = { fopen(path, "w"), NULL };
    assert_non_null(ow.f);
    ow.w = trace_writer_new(ow.f, path, trace_name_is_tsv(path), err, sizeof err);
    if (!ow.w)
        print_error("trace_writer_new: %s\n", err);
    assert_non_null(ow.w);
    return ow;
}

/* trace_finish, then the test closes the stream. Returns trace_finish's. */
static int finish(open_writer *ow, char *err, size_t errcap)
{
    int rc = trace_finish(ow->w, err, errcap);
    int closed = fclose(ow->f);
    if (rc == 0)
        assert_int_equal(closed, 0);
    return rc;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    assert_non_null(buf);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            assert_non_null(buf);
        }
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static void test_writer_format(void **state)
{
    char err[512] = "";
    const char *csv = path_for(state, "w.csv");
    open_writer ow = writer_on(csv);
    assert_int_equal(trace_write(ow.w, 0, RECORD_PUT, (const uint8_t *)"a,\"b\\", 5, 10), 0);
    assert_int_equal(trace_write(ow.w, 3, RECORD_DELETE, (const uint8_t *)"\t\xff", 2, 0), 0);
    assert_int_equal(trace_write(ow.w, 4, RECORD_SCAN, (const uint8_t *)"s", 1, 1), 0);
    assert_int_equal(trace_write(ow.w, 4, RECORD_SCAN, (const uint8_t *)"t", 1, 2147483647u), 0);
    assert_int_equal(trace_write(ow.w, 5, RECORD_RMW, (const uint8_t *)"u", 1, 0), 0);
    assert_int_equal(trace_write(ow.w, 6, RECORD_RMW, (const uint8_t *)"v", 1, 100), 0);
    assert_int_equal(finish(&ow, err, sizeof err), 0);
    size_t len;
    char *text = read_all(csv, &len);
    assert_string_equal(text, "time,op,key,bytes\n"
                              "0,put,a\\x2C\\x22b\\x5C,10\n"
                              "3,delete,\\x09\\xFF\n"
                              "4,scan,s,1\n"
                              "4,scan,t,2147483647\n"
                              "5,readmodifywrite,u\n"
                              "6,readmodifywrite,v,100\n");
    free(text);

    const char *tsv = path_for(state, "w.tsv");
    ow = writer_on(tsv);
    assert_int_equal(trace_write(ow.w, 1, RECORD_GET, (const uint8_t *)"a,\"b", 4, 0), 0);
    assert_int_equal(finish(&ow, err, sizeof err), 0);
    text = read_all(tsv, &len);
    assert_string_equal(text, "time\top\tkey\tbytes\n1\tget\ta,\"b\n");
    free(text);
}

/* The writer writes to any stream and leaves it open: the caller closes. */
static void test_writer_leaves_the_stream_to_its_owner(void **state)
{
    (void)state;
    char err[512] = "", *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    assert_non_null(m);
    trace_writer *w = trace_writer_new(m, "memory", 0, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(trace_write(w, TRACE_TIME_MAX, RECORD_PUT, (const uint8_t *)"k", 1, 0), 0);
    assert_int_equal(trace_finish(w, err, sizeof err), 0);
    assert_true(fputs("# still open\n", m) >= 0);
    assert_int_equal(fclose(m), 0);
    assert_string_equal(text, "time,op,key,bytes\n18446744073709551614,put,k\n# still open\n");
    free(text);
    assert_true(trace_name_is_tsv("a.tsv"));
    assert_false(trace_name_is_tsv("a.csv"));
    assert_false(trace_name_is_tsv("tsv"));
    assert_int_equal(trace_finish(NULL, err, sizeof err), 0);
}

static void test_writer_refuses_what_reader_would(void **state)
{
    char err[512] = "";
    const uint8_t k[] = { 'k' };
    struct { uint64_t t; int op; size_t len; uint32_t bytes; const char *what; } bad[] = {
        { 5, RECORD_GET, 0, 0, "key of 0 bytes" },
        { 5, RECORD_GET, KEY_MAX_LEN + 1, 0, "key of 32768 bytes" },
        { 5, RECORD_GET, 1, 2147483648u, "bytes 2147483648" },
        { 5, RECORD_RMW, 1, 2147483648u, "bytes 2147483648" },
        { 4, RECORD_GET, 1, 0, "time 4 is before the previous operation's 5" },
        { UINT64_MAX, RECORD_GET, 1, 0,
          "time 18446744073709551615: expected at most 18446744073709551614" },
        { 5, RECORD_SCAN, 1, 0, "scan of 0 rows: expected 1..2147483647" },
        { 5, RECORD_SCAN, 1, 2147483648u, "scan of 2147483648 rows: expected 1..2147483647" },
        { 5, RECORD_RMW + 1, 1, 0, "op 5: expected put, get, delete, scan or readmodifywrite" },
        { 5, -1, 1, 0, "op -1: expected" },
    };
    uint8_t *big = calloc(1, KEY_MAX_LEN + 1);
    assert_non_null(big);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "bad%zu.csv", i);
        const char *path = path_for(state, name);
        open_writer ow = writer_on(path);
        assert_int_equal(trace_write(ow.w, 5, RECORD_PUT, k, 1, 0), 0);
        assert_int_equal(trace_write(ow.w, bad[i].t, (record_op)bad[i].op,
                                     bad[i].len > 1 ? big : k, bad[i].len, bad[i].bytes), -1);
        /* Stopped: even a good write fails now. */
        assert_int_equal(trace_write(ow.w, 9, RECORD_PUT, k, 1, 0), -1);
        assert_int_equal(finish(&ow, err, sizeof err), -1);
        assert_non_null(strstr(err, path));
        assert_non_null(strstr(err, bad[i].what));
    }
    free(big);
}

static void test_writer_reports_write_errors(void **state)
{
    (void)state;
    char err[512] = "";
    if (access("/dev/full", W_OK) != 0) /* every Linux system has it */
        fail_msg("/dev/full: %s", strerror(errno));
    open_writer ow = writer_on("/dev/full");
    for (int i = 0; i < 1000; i++)
        trace_write(ow.w, (uint64_t)i, RECORD_PUT, (const uint8_t *)"key", 3, 100);
    assert_int_equal(finish(&ow, err, sizeof err), -1);
    assert_non_null(strstr(err, "/dev/full: write failed"));
}

/* What the YCSB reader read, written as a trace, reads back the same (but
 * for the cell counts, which the trace format does not keep). */
static void test_ycsb_to_trace(void **state)
{
    char err[512] = "";
    trace_reader *y = open_format_ok(write_text(state, "rt.out", ycsb_sample),
                                     TRACE_FORMAT_YCSB, 1000);
    const char *path = path_for(state, "from-ycsb.csv");
    open_writer ow = writer_on(path);
    uint64_t t_us;
    record r;
    int n = 0;
    while (trace_next(y, &t_us, &r, err, sizeof err) == 1) {
        uint32_t arg = r.op == RECORD_SCAN ? r.rows : r.value_bytes;
        assert_int_equal(trace_write(ow.w, t_us, (record_op)r.op, r.key, r.key_len, arg), 0);
        n++;
    }
    assert_int_equal(n, 8);
    trace_close(y);
    assert_int_equal(finish(&ow, err, sizeof err), 0);
    size_t len;
    char *text = read_all(path, &len);
    assert_string_equal(text, "time,op,key,bytes\n"
                              "0,get,user6284781860667377211\n"
                              "1000,put,user8517097267634966620,11\n"
                              "2000,put,user1,18\n"
                              "3000,scan,user5,54\n"
                              "4000,get,user2\n"
                              "5000,put,user3\n"
                              "6000,put,user4\n"
                              "7000,delete,user\\xC3\\xA9\\x5Cx41\n");
    free(text);
    trace_reader *t = open_ok(path);
    y = open_format_ok(write_text(state, "rt2.out", ycsb_sample), TRACE_FORMAT_YCSB, 1000);
    for (int i = 0; i < n; i++) {
        record want;
        uint64_t want_t;
        assert_int_equal(trace_next(y, &want_t, &want, err, sizeof err), 1);
        expect_rec(t, want_t, (record_op)want.op, (const char *)want.key, want.key_len,
                   want.value_bytes, want.rows, 0, (uint64_t)i);
    }
    expect_end(t);
    trace_close(t);
    trace_close(y);
}

/* ---- round trip ------------------------------------------------------ */

typedef struct rng { uint64_t s; } rng;

static uint64_t next_u64(rng *r)
{
    /* splitmix64 */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A byte biased towards the ones a trace must escape or quote. */
static uint8_t tricky_byte(rng *r)
{
    static const uint8_t tricky[] = { ',', '\\', '"', '\t', '\n', '\r', 0x00, 0xFF,
                                      '#', 'x', ' ', '~', 0x7F, 0x80 };
    uint64_t v = next_u64(r);
    return v % 2 ? tricky[(v >> 8) % sizeof tricky] : (uint8_t)(v >> 16);
}

#define ROUND_TRIP_OPS 10000

typedef struct op_log {
    uint64_t t_us[ROUND_TRIP_OPS];
    uint8_t op[ROUND_TRIP_OPS];
    uint32_t bytes[ROUND_TRIP_OPS]; /* a scan's rows */
    size_t key_off[ROUND_TRIP_OPS + 1];
    uint8_t *keys;
} op_log;

static void round_trip(void **state, const char *name, uint64_t seed)
{
    op_log *log = calloc(1, sizeof *log);
    assert_non_null(log);
    log->keys = malloc((size_t)ROUND_TRIP_OPS * 64 + KEY_MAX_LEN);
    assert_non_null(log->keys);
    rng r = { seed };
    uint64_t t = 0;
    for (int i = 0; i < ROUND_TRIP_OPS; i++) {
        /* Mostly short keys; one of the longest allowed. */
        size_t len = i == ROUND_TRIP_OPS / 2 ? KEY_MAX_LEN : 1 + next_u64(&r) % 63;
        t += next_u64(&r) % 3 == 0 ? 0 : next_u64(&r) % 1000; /* ties too */
        log->t_us[i] = t;
        log->op[i] = (uint8_t)(next_u64(&r) % 5); /* put, get, delete, scan, readmodifywrite */
        if (log->op[i] == RECORD_SCAN) /* rows: 1 .. 2^31 - 1 */
            log->bytes[i] = next_u64(&r) % 2 ? 1 + (uint32_t)(next_u64(&r) % 100)
                                             : 1 + (uint32_t)(next_u64(&r) % 2147483647u);
        else
            log->bytes[i] = next_u64(&r) % 4 == 0 ? 0 : (uint32_t)(next_u64(&r) % 2147483648u);
        log->key_off[i + 1] = log->key_off[i] + len;
        for (size_t j = 0; j < len; j++)
            log->keys[log->key_off[i] + j] = tricky_byte(&r);
    }
    log->op[0] = RECORD_PUT;
    log->bytes[0] = 2147483647u; /* the largest size */

    char err[512] = "";
    const char *path = path_for(state, name);
    open_writer ow = writer_on(path);
    for (int i = 0; i < ROUND_TRIP_OPS; i++)
        assert_int_equal(trace_write(ow.w, log->t_us[i], (record_op)log->op[i],
                                     log->keys + log->key_off[i],
                                     log->key_off[i + 1] - log->key_off[i], log->bytes[i]), 0);
    assert_int_equal(finish(&ow, err, sizeof err), 0);

    trace_reader *rd = open_ok(path);
    for (int i = 0; i < ROUND_TRIP_OPS; i++) {
        int scan = log->op[i] == RECORD_SCAN;
        expect_rec(rd, log->t_us[i], (record_op)log->op[i],
                   (const char *)log->keys + log->key_off[i],
                   log->key_off[i + 1] - log->key_off[i], scan ? 0 : log->bytes[i],
                   scan ? log->bytes[i] : 0, 0, (uint64_t)i);
    }
    expect_end(rd);
    trace_close(rd);
    free(log->keys);
    free(log);
}

static void test_round_trip_csv(void **state)
{
    round_trip(state, "rt.csv", 1);
    /* The CSV the writer makes never needs quoting: no '"' at all. */
    fixture *fx = *state;
    size_t len;
    char *text = read_all(fx->paths[fx->nfiles - 1], &len);
    assert_null(memchr(text, '"', len));
    assert_null(memchr(text, '\t', len));
    assert_int_equal(strncmp(text, "time,op,key,bytes\n", 18), 0);
    free(text);
}

static void test_round_trip_tsv(void **state)
{
    round_trip(state, "rt.tsv", 2);
    fixture *fx = *state;
    size_t len;
    char *text = read_all(fx->paths[fx->nfiles - 1], &len);
    assert_int_equal(strncmp(text, "time\top\tkey\tbytes\n", 18), 0);
    free(text);
}

/* ---- streaming ------------------------------------------------------- */

static void test_streams_many_lines(void **state)
{
    /* 200,000 lines read one by one; the reader's memory is a line buffer
     * (bounded by the longest line, here ~40 bytes) and the key buffer, so
     * this checks the count and contents, and valgrind checks nothing per
     * line is kept (every allocation is freed by trace_close). */
    enum { LINES = 200000 };
    char err[512] = "";
    const char *path = path_for(state, "many.csv");
    open_writer ow = writer_on(path);
    for (uint32_t i = 0; i < LINES; i++) {
        char key[32];
        int n = snprintf(key, sizeof key, "row%07u,x", (unsigned)i);
        assert_int_equal(trace_write(ow.w, i / 3, (record_op)(i % 3), (const uint8_t *)key,
                                     (size_t)n, i % 5), 0);
    }
    assert_int_equal(finish(&ow, err, sizeof err), 0);
    trace_reader *t = open_ok(path);
    for (uint32_t i = 0; i < LINES; i++) {
        char key[32];
        int n = snprintf(key, sizeof key, "row%07u,x", (unsigned)i);
        expect_op(t, i / 3, (record_op)(i % 3), key, (size_t)n, i % 5, i);
    }
    expect_end(t);
    trace_close(t);
}

int main(int argc, char **argv)
{
    static char beside[512];
    const char *src = __FILE__, *slash = strrchr(src, '/');
    snprintf(beside, sizeof beside, "%.*sdata", slash ? (int)(slash - src + 1) : 0, src);
    data_dir = argc > 1 ? argv[1] : beside;
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_parse_csv),
        T(test_parse_tsv),
        T(test_no_header_and_empty_files),
        T(test_longest_key),
        T(test_field_count_errors),
        T(test_time_errors),
        T(test_latest_time),
        T(test_op_and_bytes_errors),
        T(test_scan_rmw_and_aliases),
        T(test_cells_column),
        T(test_scan_errors),
        T(test_format_names),
        T(test_ycsb_basicdb),
        T(test_ycsb_times),
        T(test_ycsb_errors),
        T(test_ycsb_to_trace),
        T(test_ycsb_real_logs),
        T(test_key_errors),
        T(test_line_too_long),
        T(test_open_errors),
        T(test_writer_format),
        T(test_writer_leaves_the_stream_to_its_owner),
        T(test_writer_refuses_what_reader_would),
        T(test_writer_reports_write_errors),
        T(test_round_trip_csv),
        T(test_round_trip_tsv),
        T(test_streams_many_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
