/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch.h - a session watched live: the ring buffers drained every poll
 * (ts_watch_poll_ms) into the state machine, every CPU charged up to the
 * moment before the previous drain, CPU hotplug followed.  tickstat
 * monitor (counters for Prometheus) and tickstat top (a screen) both watch
 * through it, so that their numbers are the same numbers.
 */
#ifndef TICKSTAT_WATCH_H
#define TICKSTAT_WATCH_H

#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "session.h"
#include "util.h"

/*
 * A poll every quarter of the interval the numbers are shown at, within
 * these, and closer while a CPU fills its buffer fast (struct ts_watch):
 * a poll that reads a CPU's partly written page has the kernel copy it out
 * an event at a time, so that polls 250 ms apart cost a 64-CPU monitor at
 * 200 wakeups a second 146 instructions an event in ring_buffer_read_page()
 * alone, 46 at 1 s (docs/performance.md, "Where the kernel's part goes");
 * the monitor now takes whole pages (ts_session_opts.whole_pages), top
 * reads every page, for a screen one poll behind.
 */
#define TS_WATCH_POLL_MIN_MS	250
#define TS_WATCH_POLL_MAX_MS	1000

struct ts_watch {
	struct ts_analysis *an;
	struct ts_session *ss;
	struct ts_cpuset online;	/* the online mask at the last poll */
	uint64_t charge_to;		/* every CPU's events read to (ts_session_complete_ns) */
	uint64_t clock_ns;		/* the CPUs are charged up to here (CLOCK_MONOTONIC) */
	/*
	 * The wait before the next poll: poll_ns (ts_watch_poll_ms) while the
	 * CPUs give little, shorter while one fills its buffer faster
	 * (ts_session_next_wait_ns), so that a burst does not overrun it;
	 * TS_WATCH_POLL_MIN_MS at the start, doubling from there.
	 */
	uint64_t poll_ns, wait_ns;
};

int ts_watch_start(struct ts_watch *w, const struct ts_session_opts *so, struct ts_analysis *an,
		   FILE *out, const char *path, double interval_s);
int ts_watch_poll(struct ts_watch *w);
int ts_watch_online(const struct ts_watch *w, int cpu);
int ts_watch_stop(struct ts_watch *w);
void ts_watch_free(struct ts_watch *w);

/*
 * ts_watch_poll_ms - the time between polls for numbers shown every
 * interval_s: a quarter of it, from TS_WATCH_POLL_MIN_MS (tickstat top's
 * second) to TS_WATCH_POLL_MAX_MS (the monitor's 10 s).  The numbers are
 * about a poll behind (ts_watch_poll).
 */
static inline int ts_watch_poll_ms(double interval_s)
{
	double ms = interval_s * 1000 / 4;

	if (!(ms >= TS_WATCH_POLL_MIN_MS))
		return TS_WATCH_POLL_MIN_MS;
	return ms > TS_WATCH_POLL_MAX_MS ? TS_WATCH_POLL_MAX_MS : (int)ms;
}

/*
 * ts_watch_wait_ms - how long a live loop may sleep in poll() at now before
 * its next step at until: rounded up to whole milliseconds, and never past
 * the longest time between polls of the buffers
 */
static inline int ts_watch_wait_ms(uint64_t now, uint64_t until)
{
	uint64_t ms = until > now ? (until - now + 999999) / 1000000 : 0;

	return ms > TS_WATCH_POLL_MAX_MS ? TS_WATCH_POLL_MAX_MS : (int)ms;
}

#endif
