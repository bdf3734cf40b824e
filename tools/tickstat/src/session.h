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
};

struct ts_session;

/* how long a poller may wait between polls (ts_session_next_wait_ns) */
#define TS_SESSION_WAIT_MIN_NS	(10 * 1000000ULL)
#define TS_SESSION_WAIT_MAX_NS	(500 * 1000000ULL)

struct ts_session *ts_session_start(const struct ts_session_opts *o, struct ts_analysis *an,
				    FILE *out, const char *path);
const struct ts_cpuset *ts_session_monitored(const struct ts_session *ss);
uint64_t ts_session_start_ns(const struct ts_session *ss);
uint64_t ts_session_records(const struct ts_session *ss);
const char *ts_session_symbol(struct ts_session *ss, uint64_t addr);
int ts_session_poll(struct ts_session *ss);
void ts_session_trim_quotas(struct ts_session *ss);
uint64_t ts_session_next_wait_ns(const struct ts_session *ss, uint64_t wait_ns);
int ts_session_stop(struct ts_session *ss);
void ts_session_free(struct ts_session *ss);

#endif
