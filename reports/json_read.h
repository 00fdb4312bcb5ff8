/* json_read.h -- reading back the JSON regionsim writes (a baseline, a
 * sweep's baseline, a planned point's result), through json-c.
 *
 * One reader so that every file is held to the same rules and refused in
 * the same words: the file must hold one JSON document and nothing after
 * it but blank space (json-c's own json_object_from_file takes the first
 * of two and says "continue" of a file cut short), and to the same size
 * cap: an input, whatever it is, is read up to the cap and no further.
 */
#ifndef REGIONSIM_JSON_READ_H
#define REGIONSIM_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* The most bytes a JSON input may hold unless the command's --max-input
 * raises it: 256 MiB. Measured: the largest report compare writes by
 * default, with its per-server window arrays (at most 4 million servers x
 * windows, JSON_WINDOWS_AUTO_CELLS: 12 schemes, 1000 servers, 330
 * windows), is 32 MB; a sweep's JSON is about 2.5 kB a point and scheme
 * (a 10,000-point sweep of 10 schemes, 250 MB, fits); a plan's result a
 * few kB. So the cap is 8 times the largest compare report. json-c holds
 * a document in 7 (a sweep's: 63 MB, 468 MB) to 23 times (window arrays:
 * 32 MB, 720 MB) its bytes, so a document at the cap can take a few GB:
 * the cap bounds what a hostile or mistaken input costs, it does not make
 * every input cheap. A report written with `--json-windows yes` can be
 * larger: --max-input is for it. */
#define JSON_READ_MAX_DEFAULT ((uint64_t)256 << 20)

/* The most --max-input may say: 1 TiB. */
#define JSON_READ_MAX_CEILING ((uint64_t)1 << 40)

/* The document in the file at path (free with json_object_put), or NULL
 * with the reason in err (cap bytes): "PATH: No such file or directory"
 * (and *missing set, if missing is not NULL), "PATH: is a directory ...",
 * "PATH: 3GiB, over the 256MiB a JSON input may hold (--max-input SIZE
 * raises it)" (a regular file, by its size, before reading), "PATH: more
 * than 256MiB came from it (not a regular file: ...)" (a FIFO, a device,
 * a pipe: at most max + 1 bytes are read, so /dev/zero is refused
 * quickly), "PATH: not JSON (the file ends inside the document)", "PATH:
 * not JSON (text after the document, at byte N)", "PATH: out of memory".
 * max >= 1 is the cap in bytes (JSON_READ_MAX_DEFAULT unless --max-input
 * said otherwise). */
json_object *json_read_file(const char *path, uint64_t max, int *missing, char *err,
                            size_t cap);

/* o's member `name` when o is an object that has it with that type, else
 * NULL (o may be NULL: lookups chain). */
json_object *json_member(json_object *o, const char *name, json_type type);

#endif
