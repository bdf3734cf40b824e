/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - the numbers a report shows for a CPU, derived from its state.
 * docs/metrics.md defines each one.
 */
#ifndef TICKSTAT_METRICS_H
#define TICKSTAT_METRICS_H

#include "analysis.h"

struct ts_metrics {
	uint64_t window_ns;
	uint64_t unknown_ns;		/* tick state unknown */
	uint64_t stopped_ns;
	uint64_t running_ns;
	uint64_t busy_ns;		/* busy, tick state known */
	uint64_t busy_stopped_ns;
	uint64_t idle_ns;		/* idle, tick state known */
	uint64_t idle_stopped_ns;
	uint64_t idle_unknown_ns;	/* tick known, idle state unknown */
	uint64_t state_unknown_ns;	/* tick or idle state unknown: the window less busy and idle */
	double tickless_share;		/* -1: undefined */
	double busy_tickless_share;
	double idle_tickless_share;
	double unknown_share;		/* of the tick state */
	double state_unknown_share;	/* of the tick or the idle state */
	double tick_rate_hz;		/* -1: an empty window */
};

void ts_metrics_of(const struct ts_analysis *an, const struct ts_cpu *c, struct ts_metrics *m);
int ts_reason_order(const struct ts_cpu *c, int *order);
int ts_culprit_order(const struct ts_analysis *an, int *order);
int ts_task_order(const struct ts_cpu *c, int *order);
int ts_cause_order(const struct ts_cpu *c, int *order);
int ts_armers_of(const struct ts_analysis *an, const struct ts_cause *k, struct ts_armer *out);

#endif
