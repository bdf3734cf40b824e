/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live.h - record tick events from this machine's kernel.
 */
#ifndef TICKSTAT_LIVE_H
#define TICKSTAT_LIVE_H

#include "analysis.h"
#include "util.h"

struct ts_record_opts {
	struct ts_cpuset cpus;		/* monitored; empty: nohz_full or all */
	double duration;		/* seconds; 0: until the command or Ctrl-C */
	const char *output;		/* recording file, or NULL */
	int buffer_kb;
	char **command;			/* argv to run, or NULL */
};

int ts_record(const struct ts_record_opts *o, struct ts_analysis *an, int *cmd_status);

#endif
