/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diagnosis.h - one verdict per reported CPU, derived from the finished
 * analysis: the main cause of its ticks (or that it stayed tickless, or
 * that the data cannot tell), the remedy, and the section of
 * docs/cookbook.md that explains both.  docs/cookbook.md, "The diagnosis",
 * lists the rules.
 */
#ifndef TICKSTAT_DIAGNOSIS_H
#define TICKSTAT_DIAGNOSIS_H

#include <stdio.h>

#include "analysis.h"

#define TS_DIAG_TEXT	512

struct ts_diagnosis {
	int cpu;
	char cause[48];			/* a reason, a cause type, TICKLESS or UNKNOWN */
	const char *anchor;		/* in docs/cookbook.md */
	const char *why;		/* SCHED's explanation in a word (ts_sched_whys), else NULL */
	char detail[TS_DIAG_TEXT];	/* what the data says about it */
	char remedy[TS_DIAG_TEXT];	/* what to change */
	char line[3 * TS_DIAG_TEXT];	/* "CPU 2: tick ran ...; SCHED (40.0%): ...; pin one elsewhere" */
	char doctor[TS_DIAG_TEXT];	/* the stored audit's findings the recording saw here, ", " */
	int has_audit;			/* the source stored tickstat doctor's audit */
};

/*
 * The rule of a cause name: every reason names.c and analysis.c can print
 * has one (tests/check_diagnosis.py checks that against docs/cookbook.md).
 */
struct ts_diag_rule {
	const char *name;		/* "SCHED", "TIMER_DUE", "irq", "DEP_BIT*", ... */
	const char *anchor;		/* docs/cookbook.md#anchor */
	const char *remedy;
};

/*
 * What explains SCHED, in a word: a bounded label for the CSV timeline and
 * the monitor's series, where the explanation's text would not be.
 */
enum ts_sched_why {
	TS_WHY_DEADLINE,	/* a SCHED_DEADLINE task is queued */
	TS_WHY_FAIR_SERVER,	/* 6.12's fair server */
	TS_WHY_CPU_QUOTA,	/* a cgroup CPU quota (cpu.max), 6.6+ */
	TS_WHY_UNNAMED,		/* more than one task, no sched_switch to name them */
	TS_WHY_KWORKER,		/* a kworker ran work beside the task */
	TS_WHY_PERCPU_KTHREAD,	/* the CPU's own kernel thread shared it */
	TS_WHY_SHARED,		/* two or more tasks shared the CPU */
	TS_WHY_ALONE,		/* one task, nothing in the data says why */
	TS_WHY_OTHERS,		/* tasks beyond the co-runners table */
	TS_WHY_NO_TASK,		/* no task seen running while it held the tick */
	TS_WHY_SCX,		/* sched_ext: the kernel's sub-reason SCX */
	TS_NR_SCHED_WHY
};

extern const char * const ts_sched_whys[TS_NR_SCHED_WHY];

void ts_diagnose(const struct ts_analysis *an, const struct ts_cpu *c, struct ts_diagnosis *d);
void ts_explain_sched(const struct ts_analysis *an, const struct ts_cpu *c, struct ts_diagnosis *d);
void ts_explain_sched_interval(const struct ts_analysis *an, const struct ts_cpu *c,
			       struct ts_diagnosis *d);
int ts_sched_why_of(const char *why);
const struct ts_diag_rule *ts_diag_rule_of(const char *name);
void ts_table_diagnosis(FILE *f, const struct ts_analysis *an);
void ts_json_diagnosis(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c);

#endif
