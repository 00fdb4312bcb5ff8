/* trace_ycsb.c -- reading YCSB's own record of a run as a trace.
 *
 * Format. With TRACE_FORMAT_YCSB the lines are what site.ycsb.BasicDB
 * prints with basicdb.verbose=true (YCSB core/src/main/java/site/ycsb/
 * BasicDB.java at commit d9faaac8; methods read, scan, update, insert,
 * delete), one StringBuilder per call:
 *
 *     READ table key [ <all fields>]       or [ f1 f2 ] for some fields
 *     SCAN table startkey recordcount [ <all fields>]
 *     UPDATE table key [ name=value name=value ]     (also "[ ]")
 *     INSERT table key [ name=value ]
 *     DELETE table key
 *
 * A line whose first space-separated word is one of those five verbs, in
 * upper case, is an operation and must have that form; every other line
 * (YCSB's command line, "Loading workload...", the properties BasicDB.init
 * prints, "[OVERALL], ..." measurements, blank lines) is skipped. The
 * table is not kept; the key is taken as its bytes (the HBase binding
 * writes Bytes.toBytes(key)), not as shell form. A value is printed as
 * ByteIterator.toString() makes it, and may hold anything but a newline:
 * CoreWorkload's RandomByteIterator values are bytes ' ' .. 0x7F, spaces,
 * '=' and ']' included. So the values are cut at " NAME=" where NAME is
 * the first field's name with its digits replaced by any digits: the
 * names CoreWorkload gives its fields (fieldnameprefix + index). A value
 * holding " field3=" by chance (about 96^-8 per position for random
 * values) would count as two fields; the byte total is then short by that
 * name only. Field names that do not end in digits are not CoreWorkload's:
 * cells and value bytes are then left 0 (the phase's defaults). The bytes
 * counted are those printed: for CoreWorkload's ASCII values, the values'
 * own. BasicDB prints no times, so the i-th operation is given
 * i * interval_us; a read-modify-write prints as a READ and an UPDATE, so
 * it reads as a get and a put, and a SCAN of 0 records is refused like
 * the CSV format's.
 *
 * Design. This file only parses a line: trace.c's reader reads the file
 * (streaming, line numbers, the message that stops it, trace_fail) and
 * hands each line to trace_ycsb_line, which takes it apart as spans of
 * the line, copying nothing but the key (into the reader's key buffer);
 * the fields of an INSERT or UPDATE are counted in one pass, not kept.
 * What it shares with the CSV format (the rows of a scan, the record
 * filled in) is trace.c's, through workloads/trace_impl.h.
 */
#include "workloads/trace_impl.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

/* ---- YCSB: BasicDB's verbose output --------------------------------- */

/* BasicDB's verbs, what each reads as, and the form its line must have. */
static const struct ycsb_verb {
    const char *name;
    record_op op;
    const char *form;
} ycsb_verbs[] = {
    { "READ", RECORD_GET, "READ table key [ fields]" },
    { "SCAN", RECORD_SCAN, "SCAN table key count [ fields]" },
    { "UPDATE", RECORD_PUT, "UPDATE table key [ name=value ... ]" },
    { "INSERT", RECORD_PUT, "INSERT table key [ name=value ... ]" },
    { "DELETE", RECORD_DELETE, "DELETE table key" },
};

/* A piece of the line. */
typedef struct span {
    const char *text;
    size_t len;
} span;

/* The word of line[*pos..len) up to the next ' ' or the end; moves *pos
 * past that space. Returns 1 if a space followed, 0 at the end. */
static int next_word(const char *line, size_t len, size_t *pos, span *word)
{
    const char *sp = memchr(line + *pos, ' ', len - *pos);
    size_t end = sp ? (size_t)(sp - line) : len;
    word->text = line + *pos;
    word->len = end - *pos;
    *pos = sp ? end + 1 : len;
    return sp != NULL;
}

/* The verb a line starts with, or NULL: not an operation. */
static const struct ycsb_verb *find_verb(const span *word)
{
    for (size_t i = 0; i < sizeof ycsb_verbs / sizeof ycsb_verbs[0]; i++)
        if (word->len == strlen(ycsb_verbs[i].name) &&
            memcmp(word->text, ycsb_verbs[i].name, word->len) == 0)
            return &ycsb_verbs[i];
    return NULL;
}

/* If s[0..n) starts with stem, one or more digits and '=', the length of
 * that name (without the '='); else 0. */
static size_t field_name_at(const char *s, size_t n, const char *stem, size_t stem_len)
{
    if (n <= stem_len || memcmp(s, stem, stem_len) != 0)
        return 0;
    size_t i = stem_len;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i > stem_len && i < n && s[i] == '=' ? i : 0;
}

/* The fields of an INSERT or UPDATE, `in` being the text between "[ " and
 * the closing ']': "name=value " for each field (BasicDB.insert, .update).
 * Sets *cells to their number and *bytes to their values' bytes, both 0
 * when the names are not CoreWorkload's (see the top of the file). */
static int count_fields(trace_reader *t, const struct ycsb_verb *v, const char *in, size_t len,
                        uint32_t *cells, uint32_t *bytes)
{
    *cells = *bytes = 0;
    if (len == 0)
        return 0; /* "[ ]": no values */
    const char *eq = memchr(in, '=', len), *sp = memchr(in, ' ', len);
    if (!eq || eq == in || (sp && sp < eq) || in[len - 1] != ' ')
        return trace_fail(t, in, len, "bad fields: expected 'name=value ' for each, as in %s",
                          v->form);
    size_t name_len = (size_t)(eq - in), stem = name_len;
    while (stem > 0 && in[stem - 1] >= '0' && in[stem - 1] <= '9')
        stem--;
    if (stem == 0 || stem == name_len)
        return 0; /* not fieldnameprefix + index: unknown */
    /* Each value runs from its '=' to the ' ' before the next name, the
     * last to the final ' '. Names hold no ' ' (checked above), so a
     * partial match never hides the next space: linear in len. */
    size_t start = name_len + 1, total = 0, n = 1, name;
    for (size_t i = start; i + 1 < len; i++) {
        if (in[i] != ' ' || !(name = field_name_at(in + i + 1, len - i - 1, in, stem)))
            continue;
        total += i - start;
        n++;
        start = i + 1 + name + 1;
        i = start - 1;
    }
    assert(start <= len - 1);
    total += len - 1 - start;
    assert(total <= LINE_MAX_BYTES && n <= LINE_MAX_BYTES);
    *cells = (uint32_t)n;
    *bytes = (uint32_t)total;
    return 0;
}

/* The i-th YCSB operation's time, i * interval_us, unless past
 * TRACE_TIME_MAX. */
static int ycsb_time(trace_reader *t, const char *line, size_t len, uint64_t *time)
{
    if (t->interval_us > 0 && t->seq > TRACE_TIME_MAX / t->interval_us)
        return trace_fail(t, line, len, "time out of range: operation %" PRIu64 " at %" PRIu64
                          " microseconds apart is past %" PRIu64 " microseconds",
                          t->seq, t->interval_us, (uint64_t)TRACE_TIME_MAX);
    *time = t->seq * t->interval_us;
    return 0;
}

int trace_ycsb_line(trace_reader *t, const char *line, size_t len, uint64_t *t_us, record *out)
{
    size_t pos = 0;
    span verb, table, key, count = { NULL, 0 };
    uint32_t rows = 0, cells = 0, bytes = 0;
    uint64_t time = 0;
    int more = next_word(line, len, &pos, &verb);
    const struct ycsb_verb *v = find_verb(&verb);
    if (!v)
        return 0;
    if (!more || !next_word(line, len, &pos, &table) ||
        (!next_word(line, len, &pos, &key) && v->op != RECORD_DELETE))
        return trace_fail(t, line, len, "too few fields: expected %s", v->form);
    if (table.len == 0)
        return trace_fail(t, line, len, "empty table: expected %s", v->form);
    if (key.len == 0)
        return trace_fail(t, key.text, 0, "empty key: expected 1..%d bytes", KEY_MAX_LEN);
    if (key.len > KEY_MAX_LEN)
        return trace_fail(t, key.text, key.len, "key too long: expected at most %d bytes "
                          "(HBase's row limit)", KEY_MAX_LEN);
    if (v->op == RECORD_DELETE && key.text + key.len < line + len)
        return trace_fail(t, key.text + key.len, (size_t)(line + len - key.text - key.len),
                          "text after the key: expected %s", v->form);
    if (v->op == RECORD_SCAN) {
        if (!next_word(line, len, &pos, &count))
            return trace_fail(t, line, len, "too few fields: expected %s", v->form);
        if (trace_parse_rows(t, count.text, count.len, &rows) < 0)
            return -1;
    }
    if (v->op != RECORD_DELETE) {
        const char *rest = line + pos;
        size_t rest_len = len - pos;
        if (rest_len < 3 || memcmp(rest, "[ ", 2) != 0 || rest[rest_len - 1] != ']')
            return trace_fail(t, rest, rest_len, "bad field list: expected '[ ' ... ']' "
                              "to end the line, as in %s", v->form);
        if (v->op == RECORD_PUT && count_fields(t, v, rest + 2, rest_len - 3, &cells, &bytes) < 0)
            return -1;
    }
    if (ycsb_time(t, line, len, &time) < 0)
        return -1;
    memcpy(t->key, key.text, key.len);
    trace_fill_record(t, time, v->op, key.len, t_us, out);
    out->rows = rows;
    out->cells = cells;
    out->value_bytes = bytes;
    return 1;
}
