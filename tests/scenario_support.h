/* scenario_support.h -- scenario files for the tests of the settings and
 * of the file reader (test_scenario.c, test_scenario_file.c): text written
 * to a temporary file and loaded as `regionsim --scenario` would. */
#ifndef REGIONSIM_TESTS_SCENARIO_SUPPORT_H
#define REGIONSIM_TESTS_SCENARIO_SUPPORT_H

#include <stddef.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "tests/support.h"

/* Messages are read in full: main's buffer for them is 768 bytes. */
#define MSG 768

/* A temporary file holding text (tests/support.h's test_temp_file); the
 * caller unlinks it. */
static inline const char *scenario_file(const char *text)
{
    return test_temp_file("regionsim-test", text);
}

/* sc as the defaults, then text loaded over them as a scenario file (the
 * file removed after): scenario_load's status, its message in err. */
static inline int load(const char *text, scenario *sc, char *err, size_t cap)
{
    scenario_defaults(sc);
    const char *path = scenario_file(text);
    int rc = scenario_load(sc, path, err, cap);
    unlink(path);
    return rc;
}

#endif
