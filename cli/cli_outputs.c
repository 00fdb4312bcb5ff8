/* cli_outputs.c -- what one `compare` or `run` writes, as one set (see
 * cli_outputs.h). Moved out of main.c with the output rules of issue 27:
 * the paths come from the options once, so that the check before the
 * run and the writing after it cannot disagree about what is written.
 */
#include "cli/cli_outputs.h"

#include <stdlib.h>
#include <string.h>

int cli_outputs_plan(cli_outputs *out, const char *output, int csv, const char *junit,
                     const char *trace)
{
    memset(out, 0, sizeof *out);
    if (csv) {
        out->dir = output;
        size_t dlen = strlen(output);
        const char *slash = dlen && output[dlen - 1] == '/' ? "" : "/";
        for (size_t i = 0; i < CSV_FILES; i++) {
            size_t n = dlen + 2 + strlen(csv_file_name(i));
            if (!(out->csv_paths[i] = malloc(n)))
                return -1;
            snprintf(out->csv_paths[i], n, "%s%s%s", output, slash, csv_file_name(i));
            out->items[out->n++] = (output_item){ .option = "-o", .path = out->csv_paths[i] };
        }
    } else {
        out->items[out->n++] = (output_item){ .option = "-o", .path = output };
    }
    out->junit_at = out->trace_at = CSV_FILES + 3;
    if (junit) {
        out->junit_at = out->n;
        out->items[out->n++] = (output_item){ .option = "--junit", .path = junit };
    }
    if (trace) {
        out->trace_at = out->n;
        out->items[out->n++] = (output_item){ .option = "--write-trace", .path = trace };
    }
    return 0;
}

int cli_outputs_check(const cli_outputs *out, char *err, size_t errcap)
{
    size_t first = out->dir ? CSV_FILES : 0; /* csv's files, with their directory */
    if (out->dir && output_check_set(out->items, CSV_FILES, out->dir, err, errcap) < 0)
        return -1;
    return output_check_set(out->items + first, out->n - first, NULL, err, errcap);
}

int cli_outputs_save(cli_outputs *out, interrupts *ints, const char *cmd, char *err,
                     size_t errcap)
{
    if (out->dir) {
        for (size_t i = 0; i < CSV_FILES; i++) {
            out->items[i].data = out->csv[i].text;
            out->items[i].len = out->csv[i].len;
        }
    } else {
        out->items[0].from = out->report;
    }
    if (out->junit_at < out->n) {
        out->items[out->junit_at].data = out->junit;
        out->items[out->junit_at].len = out->junit_len;
    }
    if (out->trace_at < out->n) {
        out->items[out->trace_at].opened = out->trace; /* the set commits or abandons it */
        out->trace = NULL;
    }
    return output_save_set(out->items, out->n, out->dir, ints, cmd, err, errcap);
}

void cli_outputs_free(cli_outputs *out)
{
    for (size_t i = 0; i < CSV_FILES; i++)
        free(out->csv_paths[i]);
    csv_files_free(out->csv);
    if (out->report)
        fclose(out->report);
    free(out->junit);
    output_abandon(out->trace);
    memset(out, 0, sizeof *out);
}
