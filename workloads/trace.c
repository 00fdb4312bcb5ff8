typedef int regionsim_placeholder_t; /* to be written */
