/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - CI verdicts: predicates over the per-CPU metrics.
 */
#ifndef TICKSTAT_CHECK_H
#define TICKSTAT_CHECK_H

#include <stdio.h>

#include "analysis.h"

#define TS_MAX_FORBID	16

struct ts_check_opts {
	double min_busy_share;		/* percent; < 0: not checked */
	double min_idle_share;
	double min_window_share;
	double max_tick_rate;		/* Hz; < 0: not checked */
	double max_unknown;		/* percent of the window */
	struct ts_forbid {
		char text[64];		/* as the user wrote it */
		struct ts_reason_spec spec;
	} forbid[TS_MAX_FORBID];
	int nr_forbid;
	int allow_lost;
};

enum ts_status { TS_PASS, TS_FAIL, TS_NOT_APPLICABLE };

struct ts_verdict_item {
	int cpu;
	char name[32];
	char option[80];	/* the option that asked for it: "--forbid SCHED@CPU" */
	enum ts_status status;
	/* N/A where what was asked may have happened (not only nothing to see): no verdict */
	int may_have;
	char detail[192];
};

struct ts_verdict {
	struct ts_verdict_item *items;
	int nr;
	int failed;
	char error[512];	/* a threshold no CPU could evaluate: no verdict */
};

void ts_check_opts_init(struct ts_check_opts *o);
int ts_check_add_forbid(struct ts_check_opts *o, const char *text);
const struct ts_forbid *ts_check_forbidden(const struct ts_check_opts *o,
					   const struct ts_reason_spec *spec);
int ts_check_run(const struct ts_analysis *an, const struct ts_check_opts *o,
		 struct ts_verdict *v);
void ts_verdict_free(struct ts_verdict *v);
void ts_verdict_table(FILE *f, const struct ts_verdict *v);
void ts_verdict_junit(FILE *f, const struct ts_verdict *v);
const char *ts_status_name(enum ts_status s);

#endif
