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

void ts_diagnose(const struct ts_analysis *an, const struct ts_cpu *c, struct ts_diagnosis *d);
void ts_explain_sched(const struct ts_analysis *an, const struct ts_cpu *c, struct ts_diagnosis *d);
const struct ts_diag_rule *ts_diag_rule_of(const char *name);
void ts_table_diagnosis(FILE *f, const struct ts_analysis *an);
void ts_json_diagnosis(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c);

#endif
