/* advise_main.h -- the `regionsim advise` command line (planners/advise_main.c). */
#ifndef REGIONSIM_ADVISE_MAIN_H
#define REGIONSIM_ADVISE_MAIN_H

/* Runs `regionsim advise` with argv[1] == "advise": parses the options
 * (bad usage: a message naming the option, exit status 2, nothing on
 * stdout), searches, prints the report. Returns the exit status. */
int advise_main(int argc, char **argv);

#endif
