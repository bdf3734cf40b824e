/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topsnap.h - tickstat top's numbers: what each watched CPU did since the
 * previous snapshot, taken from the state machine's cumulative sums (the
 * same sums a report and the monitor's counters are).  Rendering them is
 * toptext.h's job, so that both can be tested without a kernel.
 */
#ifndef TICKSTAT_TOPSNAP_H
#define TICKSTAT_TOPSNAP_H

#include <stdint.h>

#include "analysis.h"
#include "series.h"
#include "util.h"

#define TS_TOP_NAME	64	/* a reason or a cause as shown, with its NUL */

/* One CPU in a snapshot; the rates and shares are the interval's. */
struct ts_top_cpu {
	int cpu;
	int online;
	enum ts_tick_state tick;	/* at the end of the interval */
	double tick_rate;		/* tick interrupts per second; -1: an empty interval */
	double tickless;		/* stopped / (stopped + running); -1: tick state unknown */
	char reason[TS_TOP_NAME];	/* held the tick longest ("SCHED@CPU"); "" none */
	char cause[TS_TOP_NAME];	/* began most often ("work vmstat_update"); "" none */
	uint64_t lost;			/* lost events since the start */
	int lost_unknown;		/* and gaps of an unknown size: lost is a lower bound */
};

struct ts_top_snap {
	uint64_t interval_ns;		/* what the interval's numbers cover */
	uint64_t elapsed_ns;		/* since the start */
	int nr;
	struct ts_top_cpu cpus[TS_MAX_CPUS];	/* by CPU number */
};

struct ts_top_prev;

/* The sums at the previous snapshot, per CPU. */
struct ts_topsnap {
	uint64_t window_ns;
	struct ts_top_prev *prev[TS_MAX_CPUS];
};

void ts_topsnap_init(struct ts_topsnap *t);
void ts_topsnap_free(struct ts_topsnap *t);
int ts_topsnap_take(struct ts_topsnap *t, const struct ts_analysis *an,
		    const struct ts_cpuset *online, ts_symbol_fn sym, void *sym_ctx,
		    struct ts_top_snap *out);

#endif
