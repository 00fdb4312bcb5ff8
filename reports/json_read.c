/* json_read.c -- a JSON file read whole, up to a size cap, and parsed as
 * one document.
 *
 * The file is read into memory first so that json-c's tokener sees it in
 * one piece and can say where the document ended; its "continue" and
 * "unexpected end of data" are put as "the file ends inside the document".
 *
 * Size: every input has a cap (JSON_READ_MAX_DEFAULT, or the command's
 * --max-input). A regular file is refused by its size before a byte is
 * read; anything else (a FIFO, a pipe, a character device such as
 * /dev/zero) is read until it ends or gives more than the cap, so at most
 * cap + 1 bytes are ever read and held: a file that keeps growing, or a
 * device that never ends, is refused after that many bytes, not when
 * memory runs out. A regular file that grows while it is read is held to
 * the same bound. The buffer grows by doubling, never past cap + 2 bytes.
 *
 * json-c's tokener takes at most INT_MAX bytes a call; a larger document
 * (a cap raised past 2 GiB) is fed to it in pieces, which it parses as one.
 */
#include "reports/json_read.h"
#include "core/text.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_BLOCK 65536
#define PARSE_PIECE ((size_t)1 << 30) /* bytes handed to the tokener a call */

/* Grows *text (holding *size bytes) to at least need bytes, doubling,
 * never past limit. 0, or -1 when out of memory. */
static int grow(char **text, size_t *size, size_t need, size_t limit)
{
    if (need <= *size)
        return 0;
    size_t n = *size ? *size : READ_BLOCK * 2;
    while (n < need)
        n = n > limit / 2 ? limit : n * 2;
    if (n > limit)
        n = limit;
    char *t = realloc(*text, n);
    if (!t)
        return -1;
    *text = t;
    *size = n;
    return 0;
}

/* The bytes of fd (a file of type mode) up to max + 1 of them into *text,
 * NUL-terminated, *len without the NUL. Returns 0, 1 when more than max
 * came, or -1 with errno set (ENOMEM when out of memory). */
static int read_capped(int fd, uint64_t max, char **text, size_t *len)
{
    size_t limit = max >= SIZE_MAX - 2 ? SIZE_MAX : (size_t)max + 2; /* max + 1 bytes, the NUL */
    size_t size = 0, n = 0;
    *text = NULL;
    for (;;) {
        if (grow(text, &size, n + READ_BLOCK + 1 < limit ? n + READ_BLOCK + 1 : limit, limit) < 0) {
            errno = ENOMEM;
            return -1;
        }
        size_t room = size - n - 1;
        if (room == 0) /* max + 1 bytes held: more than the cap */
            break;
        ssize_t got = read(fd, *text + n, room < READ_BLOCK ? room : READ_BLOCK);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        n += (size_t)got;
    }
    (*text)[n] = '\0';
    *len = n;
    return (uint64_t)n > max ? 1 : 0;
}

/* The file's bytes, NUL-terminated, *len without the NUL; NULL with err. */
static char *read_whole(const char *path, uint64_t max, size_t *len, int *missing, char *err,
                        size_t cap)
{
    char limit[32];
    size_text(max, limit, sizeof limit);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        if (missing)
            *missing = errno == ENOENT;
        snprintf(err, cap, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, cap, "%s: is a directory; expected a JSON file", path);
        close(fd);
        return NULL;
    }
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
        snprintf(err, cap, "%s: %llu bytes, over the %s a JSON input may hold (--max-input "
                 "SIZE raises the cap)", path, (unsigned long long)st.st_size, limit);
        close(fd);
        return NULL;
    }
    char *text = NULL;
    int rc = read_capped(fd, max, &text, len);
    int e = errno;
    close(fd);
    if (rc != 0) {
        free(text);
        if (rc > 0)
            snprintf(err, cap, "%s: more than %s came from it, the most a JSON input may hold "
                     "(%s; --max-input SIZE raises the cap)", path, limit,
                     S_ISREG(st.st_mode) ? "the file grew while it was read"
                                         : "not a regular file: it may never end");
        else
            snprintf(err, cap, "%s: %s", path, e == ENOMEM ? "out of memory" : strerror(e));
        return NULL;
    }
    return text;
}

/* The document in text (len bytes and a NUL), fed to tok in pieces of at
 * most PARSE_PIECE bytes; *end: where it ended in text. NULL when it did
 * not parse (the tokener's error says why). */
static json_object *parse_pieces(json_tokener *tok, const char *text, size_t len, size_t *end)
{
    size_t at = 0, total = len + 1; /* the NUL ends a number at the end of the text */
    for (;;) {
        size_t n = total - at < PARSE_PIECE ? total - at : PARSE_PIECE;
        json_object *doc = json_tokener_parse_ex(tok, text + at, (int)n);
        if (doc) {
            *end = at + json_tokener_get_parse_end(tok);
            return doc;
        }
        at += n;
        if (json_tokener_get_error(tok) != json_tokener_continue || at >= total)
            return NULL;
    }
}

json_object *json_read_file(const char *path, uint64_t max, int *missing, char *err, size_t cap)
{
    if (missing)
        *missing = 0;
    size_t len = 0;
    char *text = read_whole(path, max, &len, missing, err, cap);
    if (!text)
        return NULL;
    json_tokener *tok = json_tokener_new();
    json_object *doc = NULL;
    if (!tok) {
        snprintf(err, cap, "%s: out of memory", path);
    } else {
        size_t end = 0;
        doc = parse_pieces(tok, text, len, &end);
        enum json_tokener_error e = json_tokener_get_error(tok);
        if (!doc) {
            snprintf(err, cap, "%s: not JSON (%s)", path,
                     e == json_tokener_continue || e == json_tokener_error_parse_eof
                         ? "the file ends inside the document"
                         : json_tokener_error_desc(e));
        } else { /* one document: nothing after it but blank space */
            while (end < len && text[end] && strchr(" \t\r\n", text[end]))
                end++;
            if (end < len) {
                snprintf(err, cap, "%s: not JSON (text after the document, at byte %zu)", path,
                         end);
                json_object_put(doc);
                doc = NULL;
            }
        }
    }
    if (tok)
        json_tokener_free(tok);
    free(text);
    return doc;
}

json_object *json_member(json_object *o, const char *name, json_type type)
{
    json_object *m = NULL;
    if (!o || !json_object_is_type(o, json_type_object) ||
        !json_object_object_get_ex(o, name, &m) || !json_object_is_type(m, type))
        return NULL;
    return m;
}
