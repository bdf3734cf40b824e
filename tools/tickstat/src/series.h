/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - tickstat monitor's cumulative series: what the state machine
 * has counted since the monitor started, with bounded label sets, written
 * as Prometheus text.
 *
 * Most counters are read straight from the analysis, whose numbers only
 * grow.  Culprits, co-runners and causes are the exception: the analysis
 * keeps them in fixed tables that would fill up over days, so each update
 * moves their counts into series of their own (labelled by command name,
 * kernel function or cause name, never by pid) and empties the tables.  A
 * CPU gets at most `top` such series per reason and scope (culprits), per
 * cause type (causes) or in all (co-runners); a key gets one when it is
 * significant in an interval (a culprit from its first set, a cause from
 * its first entry, a co-runner once it held the tick for 1 ms),
 * the most significant first, while there is room or when the smallest
 * named series did less in its whole life than the key in this interval
 * (that series is then dropped); the rest add to a series labelled
 * "other".  No series ever goes down; one that is dropped (also after an
 * hour without growth) disappears, and Prometheus marks it stale.
 */
#ifndef TICKSTAT_SERIES_H
#define TICKSTAT_SERIES_H

#include <stdint.h>

#include "analysis.h"
#include "diagnosis.h"
#include "promtext.h"

/* One culprit, co-runner or cause series. */
struct ts_row {
	int cpu;			/* -1: every CPU (a global dependency) */
	int bit;			/* culprits: dependency bit; causes: type; -1 co-runners */
	int scope;
	char comm[16];			/* "other" for the rest; causes: "" */
	char caller[64];		/* causes: the cause's name */
	/* culprits: sets, clears; co-runners: run, held, sched ns; causes: entries, ns, stopped */
	uint64_t v[3];
	uint64_t changed;		/* when it last grew (CLOCK_MONOTONIC ns) */
};

struct ts_rows {
	struct ts_row *row;		/* the series */
	int nr;
	int cap;
	struct ts_row *pend;		/* this interval's numbers, before they are placed */
	int nr_pend;
	int cap_pend;
	int sig;			/* which v[] ranks a key for a named series */
	uint64_t retired;		/* named series removed (gave way, or idle) */
};

/* What the monitor knows of itself, for the exposition. */
struct ts_monitor_self {
	uint64_t start_unix_ns;		/* CLOCK_REALTIME at the start */
	uint64_t clock_ns;		/* CLOCK_MONOTONIC the counters are charged up to */
	uint64_t updates;
	uint64_t scrapes;
	uint64_t textfile_errors;
	uint64_t records;		/* ring-buffer records read */
	uint64_t cpu_ns;		/* its own CPU time, user and system */
	uint64_t rss_bytes;		/* its resident memory */
	const char *kernel;
};

struct ts_series {
	int top;
	uint64_t prev_busy[TS_MAX_CPUS][2];	/* last update's busy stopped, running ns */
	double ratio[TS_MAX_CPUS];		/* last interval's busy tickless share; <0 none */
	int online[TS_MAX_CPUS];
	uint64_t prev_sched[TS_MAX_CPUS];	/* last update's SCHED time, ns */
	/* SCHED's time by what explained it in the interval it fell in (ts_sched_whys) */
	uint64_t sched_why_ns[TS_MAX_CPUS][TS_NR_SCHED_WHY];
	struct ts_rows culprits;
	struct ts_rows tasks;
	struct ts_rows causes;
	unsigned int causes_known;	/* the cause types the source can tell (a bit each) */
	uint64_t culprits_dropped;
	uint64_t comm_resets;
};

/* Names a kernel text address; NULL when unknown. */
typedef const char *(*ts_symbol_fn)(void *ctx, uint64_t addr);

void ts_series_init(struct ts_series *s, int top);
void ts_series_free(struct ts_series *s);
void ts_series_take(struct ts_series *s, struct ts_analysis *an, ts_symbol_fn sym,
		    void *sym_ctx);
void ts_series_write(const struct ts_series *s, const struct ts_analysis *an,
		     const struct ts_monitor_self *self, struct ts_prom *p);

#endif
