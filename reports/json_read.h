/* json_read.h -- reading back the JSON regionsim writes (a baseline, a
 * sweep's baseline, a planned point's result), through json-c.
 *
 * One reader so that every file is held to the same rules and refused in
 * the same words: the file must hold one JSON document and nothing after
 * it but blank space (json-c's own json_object_from_file takes the first
 * of two and says "continue" of a file cut short).
 */
#ifndef REGIONSIM_JSON_READ_H
#define REGIONSIM_JSON_READ_H

#include <stddef.h>

#include <json-c/json.h>

/* The document in the file at path (free with json_object_put), or NULL
 * with the reason in err (cap bytes): "PATH: No such file or directory"
 * (and *missing set, if missing is not NULL), "PATH: not JSON (the file
 * ends inside the document)", "PATH: not JSON (text after the document,
 * at byte N)", "PATH: out of memory". */
json_object *json_read_file(const char *path, int *missing, char *err, size_t cap);

/* o's member `name` when o is an object that has it with that type, else
 * NULL (o may be NULL: lookups chain). */
json_object *json_member(json_object *o, const char *name, json_type type);

#endif
