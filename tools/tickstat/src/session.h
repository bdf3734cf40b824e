/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - a recording session on this machine's kernel: start, poll
 * the ring buffers into the analysis as often as wanted, stop, free.
 * record.c (tickstat record) is one user; a long-running watcher is another.
 */
#ifndef TICKSTAT_SESSION_H
#define TICKSTAT_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "util.h"

struct ts_session_opts {
	struct ts_cpuset cpus;		/* monitored; empty: nohz_full or all */
	int buffer_kb;			/* ring buffer per CPU */
	int pin_away;			/* move the caller off the monitored CPUs */
	const char **extra;		/* -e SYSTEM:EVENT: more events for the file */
	int nr_extra;
	int probes;			/* enum ts_probes_mode: kprobes on a stock kernel */
	int causes;			/* record the causes' events on the monitored CPUs */
	int no_vector_causes;		/* but not the x86 vectors' (tickstat top) */
	int doctor;			/* audit the host at the start, into doctor marks */
	int whole_pages;		/* polls take whole pages only (drain_all) */
	int monitored_ticks_only;	/* the other CPUs' own tick events left out */
};

struct ts_session;

/* how long a poller may wait between polls (ts_session_next_wait_ns) */
#define TS_SESSION_WAIT_MIN_NS	(10 * 1000000ULL)
#define TS_SESSION_WAIT_MAX_NS	(500 * 1000000ULL)

/*
 * ts_wait_after - the wait after a poll in which one CPU gave at most
 * most_pages of a buffer of buffer_pages, given the wait before it: it
 * doubles, up to max_ns, while every CPU gave less than a 32nd of its
 * buffer, and halves, down to TS_SESSION_WAIT_MIN_NS, once one gave more
 * than an 8th; one that gave half its buffer or more brings the next poll
 * at once to the shortest wait.  ts_session_next_wait_ns() says why.
 */
static inline uint64_t ts_wait_after(int most_pages, int buffer_pages, uint64_t wait_ns,
				     uint64_t max_ns)
{
	if ((int64_t)most_pages * 2 >= buffer_pages)
		return TS_SESSION_WAIT_MIN_NS;
	if ((int64_t)most_pages * 8 > buffer_pages)
		wait_ns /= 2;
	else if ((int64_t)most_pages * 32 < buffer_pages)
		wait_ns *= 2;
	if (wait_ns < TS_SESSION_WAIT_MIN_NS)
		return TS_SESSION_WAIT_MIN_NS;
	return wait_ns > max_ns ? max_ns : wait_ns;
}

struct ts_session *ts_session_start(const struct ts_session_opts *o, struct ts_analysis *an,
				    FILE *out, const char *path);
const struct ts_cpuset *ts_session_monitored(const struct ts_session *ss);
uint64_t ts_session_complete_ns(const struct ts_session *ss);
int ts_session_drain_cpu(struct ts_session *ss, int cpu);
void ts_session_set_quiet_ns(struct ts_session *ss, uint64_t ns);
uint64_t ts_session_start_ns(const struct ts_session *ss);
uint64_t ts_session_records(const struct ts_session *ss);
const char *ts_session_symbol(struct ts_session *ss, uint64_t addr);
int ts_session_poll(struct ts_session *ss);
void ts_session_trim_quotas(struct ts_session *ss);
uint64_t ts_session_next_wait_ns(const struct ts_session *ss, uint64_t wait_ns, uint64_t max_ns);
int ts_session_stop(struct ts_session *ss);
void ts_session_free(struct ts_session *ss);

#endif
