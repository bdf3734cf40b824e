/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - tickstat record: a session around a command or a duration.
 */
#ifndef TICKSTAT_RECORD_H
#define TICKSTAT_RECORD_H

#include "analysis.h"
#include "util.h"

#include <stdio.h>

struct ts_record_opts {
	struct ts_cpuset cpus;		/* monitored; empty: nohz_full or all */
	double duration;		/* seconds; 0: until the command or Ctrl-C */
	const char *output;		/* recording file's name, or NULL */
	FILE *output_file;		/* where to write it (the caller opened it) */
	const char *spool_hint;		/* where to spool it: beside this, "-": TMPDIR */
	int buffer_kb;
	const char **extra;		/* -e SYSTEM:EVENT, for the file */
	int nr_extra;
	char **command;			/* argv to run, or NULL */
	int probes;			/* enum ts_probes_mode */
	int no_causes;			/* --no-causes */
	int no_doctor;			/* --no-doctor */
};

/* How the command ended. */
struct ts_command_end {
	int status;			/* wait status; -1: no command */
	int stopped;			/* we ended it (duration over, Ctrl-C) */
};

int ts_record(const struct ts_record_opts *o, struct ts_analysis *an,
	      struct ts_command_end *cmd);

#endif
