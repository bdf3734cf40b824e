/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch.h - a session watched live: the ring buffers drained every
 * TS_WATCH_POLL_MS into the state machine, every CPU charged up to the
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

#define TS_WATCH_POLL_MS	250

struct ts_watch {
	struct ts_analysis *an;
	struct ts_session *ss;
	struct ts_cpuset online;	/* the online mask at the last poll */
	uint64_t charge_to;		/* the moment before the last drain */
	uint64_t clock_ns;		/* the CPUs are charged up to here (CLOCK_MONOTONIC) */
};

int ts_watch_start(struct ts_watch *w, const struct ts_session_opts *so, struct ts_analysis *an,
		   FILE *out, const char *path);
int ts_watch_poll(struct ts_watch *w);
int ts_watch_online(const struct ts_watch *w, int cpu);
int ts_watch_stop(struct ts_watch *w);
void ts_watch_free(struct ts_watch *w);
int ts_watch_wait_ms(uint64_t now, uint64_t until);

#endif
