/* fuzz_splitkeys.c -- split keys (core/presplit.h) and the HBase shell's
 * key form (core/key.h).
 *
 * Input: read three ways: as a split key list (presplit_parse_list, up to
 * its first NUL byte), as a split keys file (presplit_read_file), and as
 * one key in shell form (key_parse); its raw bytes are also a key to
 * format.
 *
 * Oracles:
 *  - keys come out non-empty, at most 32767 bytes (KEY_MAX_LEN) and
 *    strictly ascending; none: NULL arrays;
 *  - each key formats (key_format) to a shell form that key_parse reads
 *    back to the same bytes; key_format_len is that form's length, and a
 *    short buffer holds a prefix of it;
 *  - the keys written back as a file (one shell form a line, a leading
 *    '#' as \x23) and as a list (',' and ' ' as \x2C and \x20) read back
 *    as the same keys;
 *  - a file's error reads "FILE:LINE: ..." with a LINE of the file; "bad
 *    escape at column C" points at a '\' of that line; "(line L)" of a key
 *    out of order names an earlier line;
 *  - a list's error reads "key K: ...", K >= 1; "bad escape at column C"
 *    points at a '\' of the text; "(key K-1)" names the key before; "key
 *    K is empty: ... at column C" points at a ','; "expected at least one
 *    key" only for a text of separators;
 *  - key_parse of the input: on success at most one byte per character;
 *    on failure the column is a '\' of the input.
 */
#include "fuzz/fuzz.h"

#include "core/key.h"
#include "core/presplit.h"

#define ERR_CAP 4096 /* message buffers: a message this long may be cut short */

/* The shell form of k, malloc'd; checks key_format's promises. */
static char *shell_form(keyref k)
{
    size_t len = key_format_len(k);
    char *s = malloc(len + 1), small[8];
    FUZZ_CHECK(s != NULL, "%s", "out of memory");
    FUZZ_CHECK(key_format(k, s, len + 1) == len && strlen(s) == len, "key_format's length %zu", len);
    FUZZ_CHECK(key_format(k, small, sizeof small) == len &&
               !strncmp(small, s, sizeof small - 1) && strlen(small) == (len < 8 ? len : 7),
               "%s", "key_format into a short buffer is not a prefix of the form");
    uint8_t *back = malloc(k.len + 1);
    size_t blen = 0, bad = 0;
    FUZZ_CHECK(back && key_parse(s, len, back, k.len, &blen, &bad) == 0 && blen == k.len &&
               (k.len == 0 || !memcmp(back, k.data, k.len)),
               "the shell form '%s' does not read back to its %zu bytes", s, k.len);
    free(back);
    return s;
}

static void check_keys(const keyref *keys, const uint8_t *bytes, size_t n, const char *what)
{
    FUZZ_CHECK(n > 0 || (keys == NULL && bytes == NULL), "%s: no keys but arrays", what);
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(keys[i].len >= 1 && keys[i].len <= KEY_MAX_LEN, "%s: key %zu is %zu bytes", what,
                   i + 1, keys[i].len);
        FUZZ_CHECK(i == 0 || key_compare(keys[i - 1], keys[i]) < 0, "%s: key %zu is not after key %zu",
                   what, i + 1, i);
        free(shell_form(keys[i]));
    }
}

static int same_keys(const keyref *a, size_t na, const keyref *b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (key_compare(a[i], b[i]) != 0)
            return 0;
    return 1;
}

/* Appends s to a growing buffer. */
static void put(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
        FUZZ_CHECK(*buf != NULL, "%s", "out of memory");
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
}

/* The keys as a file (list = 0) or a list (list = 1), read back. */
static void check_written_back(const keyref *keys, size_t n, int list)
{
    char *text = NULL;
    size_t len = 0, cap = 0;
    put(&text, &len, &cap, "", 0);
    for (size_t i = 0; i < n; i++) {
        char *s = shell_form(keys[i]);
        for (size_t j = 0; s[j]; j++) {
            const char *esc = list && s[j] == ',' ? "\\x2C" : list && s[j] == ' ' ? "\\x20"
                            : !list && j == 0 && s[j] == '#' ? "\\x23" : NULL;
            put(&text, &len, &cap, esc ? esc : s + j, esc ? 4 : 1);
        }
        if (!list || i + 1 < n)
            put(&text, &len, &cap, list ? "," : "\n", 1);
        free(s);
    }
    keyref *back = NULL;
    uint8_t *bytes = NULL;
    size_t nb = 0;
    char err[ERR_CAP];
    int rc;
    if (list) {
        rc = presplit_parse_list(text, &back, &bytes, &nb, err, sizeof err);
    } else {
        char path[64];
        int fd = fuzz_memfile((const uint8_t *)text, len, path, sizeof path);
        rc = presplit_read_file(path, &back, &bytes, &nb, err, sizeof err);
        close(fd);
    }
    FUZZ_CHECK(rc == 0, "the keys written back as a %s are refused: %s", list ? "list" : "file", err);
    FUZZ_CHECK(same_keys(keys, n, back, nb), "the keys written back as a %s read back as others",
               list ? "list" : "file");
    free(back);
    free(bytes);
    free(text);
}

/* Line `line` (1-based) of data, without its "\n" or "\r\n" and, on
 * line 1, without a UTF-8 byte order mark (skipped: not key bytes). */
static const uint8_t *nth_line(const uint8_t *data, size_t size, unsigned long long line, size_t *len)
{
    size_t at = size >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3) ? 3 : 0;
    for (unsigned long long l = 1; l < line && at < size; at++)
        l += data[at] == '\n';
    size_t end = at;
    while (end < size && data[end] != '\n')
        end++;
    *len = end - at;
    if (*len && data[end - 1] == '\r')
        (*len)--;
    return data + at;
}

static void check_file_error(const char *err, const char *path, const uint8_t *data, size_t size)
{
    unsigned long long line = 0, col = 0, prev = 0;
    size_t lines = fuzz_count_lines(data, size);
    const char *what = fuzz_after_place(err, path, &line);
    FUZZ_CHECK(what != NULL, "a split keys file's error does not start with FILE:LINE: '%s'", err);
    FUZZ_CHECK(line >= 1 && line <= lines, "the error names line %llu of %zu: '%s'", line, lines, err);
    if (sscanf(what, "bad escape at column %llu:", &col) == 1) {
        size_t len;
        const uint8_t *l = nth_line(data, size, line, &len);
        FUZZ_CHECK(col >= 1 && col <= len && l[col - 1] == '\\',
                   "'%s' does not point at a '\\' of line %llu", err, line);
    }
    const char *paren = strrchr(what, '(');
    size_t wl = strlen(what);
    /* A message that filled its buffer (ERR_CAP) was cut short: its end may
     * be the key's own bytes (a key ending in ')'), not "(line L)". */
    int cut = strlen(err) + 1 >= ERR_CAP;
    if (strstr(what, "is not after the previous key") && what[wl - 1] == ')' && !cut) {
        FUZZ_CHECK(paren && sscanf(paren, "(line %llu)", &prev) == 1 && prev >= 1 && prev < line,
                   "'%s' does not name an earlier line", err);
    }
}

static void check_list_error(const char *err, const char *text)
{
    unsigned long long k = 0, col = 0, prev = 0;
    int used = 0;
    if (!strcmp(err, "expected at least one key, found none")) {
        FUZZ_CHECK(strspn(text, ", \t\n\r\v\f") == strlen(text),
                   "'%s' for a list with a key in it", err);
        return;
    }
    if (sscanf(err, "key %llu is empty: expected a key %*s the ',' at column %llu", &k, &col) == 2) {
        FUZZ_CHECK(k >= 1 && col >= 1 && col <= strlen(text) && text[col - 1] == ',',
                   "'%s' does not point at a ',' of the text", err);
        return;
    }
    FUZZ_CHECK(sscanf(err, "key %llu: %n", &k, &used) == 1 && used > 0 && k >= 1,
               "a split key list's error does not start with 'key K: ': '%s'", err);
    const char *what = err + used;
    if (sscanf(what, "bad escape at column %llu:", &col) == 1)
        FUZZ_CHECK(col >= 1 && col <= strlen(text) && text[col - 1] == '\\',
                   "'%s' does not point at a '\\' of the text", err);
    if (strstr(what, "is not after the previous key") && what[strlen(what) - 1] == ')' &&
        strlen(err) + 1 < ERR_CAP) {
        const char *paren = strrchr(what, '('); /* (not when the message was cut short) */
        FUZZ_CHECK(paren && sscanf(paren, "(key %llu)", &prev) == 1 && prev + 1 == k,
                   "'%s' does not name the key before", err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    keyref *keys;
    uint8_t *bytes;
    size_t n;
    char err[ERR_CAP];

    /* the list form */
    char *text = fuzz_cstr(data, size);
    if (presplit_parse_list(text, &keys, &bytes, &n, err, sizeof err) == 0) {
        check_keys(keys, bytes, n, "list");
        FUZZ_CHECK(n >= 1, "%s", "a list of no keys accepted");
        check_written_back(keys, n, 0);
        check_written_back(keys, n, 1);
        free(keys);
        free(bytes);
    } else {
        FUZZ_CHECK(keys == NULL && bytes == NULL && n == 0, "%s", "a refused list handed out keys");
        check_list_error(err, text);
    }
    free(text);

    /* the file form */
    char path[64];
    int fd = fuzz_memfile(data, size, path, sizeof path);
    if (presplit_read_file(path, &keys, &bytes, &n, err, sizeof err) == 0) {
        check_keys(keys, bytes, n, "file");
        check_written_back(keys, n, 0);
        if (n > 0)
            check_written_back(keys, n, 1);
        free(keys);
        free(bytes);
    } else {
        FUZZ_CHECK(keys == NULL && bytes == NULL && n == 0, "%s", "a refused file handed out keys");
        check_file_error(err, path, data, size);
    }
    close(fd);

    /* one key in shell form, and the input's bytes as a key */
    uint8_t *key = malloc(size + 1);
    size_t klen = 0, bad = 0;
    FUZZ_CHECK(key != NULL, "%s", "out of memory");
    if (key_parse((const char *)data, size, key, size, &klen, &bad) == 0) {
        FUZZ_CHECK(klen <= size, "%zu characters parse to %zu bytes", size, klen);
        free(shell_form(keyref_of(key, klen)));
    } else {
        FUZZ_CHECK(bad < size && data[bad] == '\\', "key_parse failed at column %zu, not a '\\'", bad);
    }
    free(key);
    free(shell_form(keyref_of(data, size)));
    return 0;
}
