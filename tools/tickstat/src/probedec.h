/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probedec.h - tickstat's kprobe events turned into the patched kernel's
 * events (struct ts_event), for every source, like decode.c.
 */
#ifndef TICKSTAT_PROBEDEC_H
#define TICKSTAT_PROBEDEC_H

#include <traceevent/event-parse.h>

#include "event.h"
#include "probeinfo.h"

#define TS_PROBE_MAX_FNS	8	/* restart callers with a known cause */

struct ts_caps;

/* A function that calls tick_nohz_restart_sched_tick(), and what that means. */
struct ts_probe_fn {
	uint64_t start, end;
	int cause;		/* enum ts_restart_cause */
	int idle;		/* the restart ends an idle period: 1, 0, -1 unknown */
	int infer;		/* enum ts_restart_infer */
};

struct ts_probedec {
	struct ts_probe_info *info;
	int id[TS_NR_PROBES];		/* event type ids, -1: absent or not used */
	struct tep_format_field *bit[TS_NR_PROBES];
	struct tep_format_field *caller[TS_NR_PROBES];
	struct tep_format_field *target[TS_NR_PROBES];
	struct tep_format_field *prev[TS_NR_PROBES];
	struct tep_format_field *prev_cpu[2][TS_PROBE_MAX_CPUS];	/* set_cpu, clear_cpu */
	struct tep_format_field *mask, *dep;
	uint64_t tick_dep_mask;		/* its address, from the probes mark; 0 unknown */
	struct ts_probe_fn fn[TS_PROBE_MAX_FNS];
	int nr_fn;
};

int ts_probe_wants_event(const char *system, const char *name);
void ts_probedec_init(struct ts_probedec *p, struct tep_handle *tep, struct ts_caps *caps);
int ts_probedec_decode(struct ts_probedec *p, int type, struct tep_record *rec,
		       struct ts_event *ev);
int ts_probedec_mark(struct ts_probedec *p, char *token);
int ts_probe_restart_cause(const char *function, int *cause, int *idle, int *infer);

#endif
