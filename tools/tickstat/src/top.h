/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top.h - tickstat top: a live view of the tick per CPU, like rtla osnoise top.
 */
#ifndef TICKSTAT_TOP_H
#define TICKSTAT_TOP_H

#include "util.h"

#define TS_TOP_INTERVAL		1.0	/* seconds between refreshes, by default */
#define TS_TOP_BUFFER_KB	1024	/* ring buffer per CPU, by default */

struct ts_top_opts {
	struct ts_cpuset cpus;		/* watched; empty: nohz_full or all */
	int buffer_kb;
	double interval;		/* seconds between refreshes */
	double duration;		/* seconds; 0: until q or a signal */
	int no_causes;			/* --no-causes */
};

int ts_top(const struct ts_top_opts *o);

#endif
