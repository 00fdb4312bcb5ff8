/* json_read.c -- a JSON file read whole and parsed as one document.
 *
 * The file is read into memory first (a result or a report is at most a
 * few megabytes) so that json-c's tokener sees it in one piece and can
 * say where the document ended; its "continue" and "unexpected end of
 * data" are put as "the file ends inside the document".
 */
#include "reports/json_read.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's bytes, NUL-terminated, *len without the NUL; NULL with err. */
static char *read_whole(const char *path, size_t *len, int *missing, char *err, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (missing)
            *missing = errno == ENOENT;
        snprintf(err, cap, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t n = 0, size = 0;
    int oom = 0;
    for (;;) {
        if (n + 65536 + 1 > size) {
            size = size ? size * 2 : 131072;
            char *t = realloc(text, size);
            if (!t) {
                oom = 1;
                break;
            }
            text = t;
        }
        size_t got = fread(text + n, 1, size - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (oom || bad) {
        free(text);
        snprintf(err, cap, "%s: %s", path, oom ? "out of memory" : "read failed");
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

json_object *json_read_file(const char *path, int *missing, char *err, size_t cap)
{
    if (missing)
        *missing = 0;
    size_t len = 0;
    char *text = read_whole(path, &len, missing, err, cap);
    if (!text)
        return NULL;
    json_tokener *tok = json_tokener_new();
    json_object *doc = NULL;
    if (!tok) {
        snprintf(err, cap, "%s: out of memory", path);
    } else if (len > (size_t)INT32_MAX - 1) {
        snprintf(err, cap, "%s: not JSON (over 2 GiB)", path);
    } else {
        doc = json_tokener_parse_ex(tok, text, (int)(len + 1));
        enum json_tokener_error e = json_tokener_get_error(tok);
        if (!doc) {
            snprintf(err, cap, "%s: not JSON (%s)", path,
                     e == json_tokener_continue || e == json_tokener_error_parse_eof
                         ? "the file ends inside the document"
                         : json_tokener_error_desc(e));
        } else { /* one document: nothing after it but blank space */
            size_t end = json_tokener_get_parse_end(tok);
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
