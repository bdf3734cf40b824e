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
#define TS_PROBE_IDLE_CPUS	1024	/* CPUs whose idle-entry refusals are read */
#define TS_PROBE_ONLINE_WORDS	(TS_PROBE_IDLE_CPUS / 64)	/* online0..online15 */

struct ts_caps;

/* A function that calls tick_nohz_restart_sched_tick(), and what that means. */
struct ts_probe_fn {
	uint64_t start, end;
	int cause;		/* enum ts_restart_cause */
	int idle;		/* the restart ends an idle period: 1, 0, -1 unknown */
	int infer;		/* enum ts_restart_infer */
};

/* A CPU's last can_stop_idle_tick() entry, for the return that follows. */
struct ts_probe_idle {
	int64_t entry;			/* its ts->idle_entrytime */
	int64_t governor_entry;		/* that of the call before */
	unsigned char pending;		/* an entry waits for its return */
	unsigned char reason;		/* the refusal it foresaw: TICK_RETAIN_*, 0 none */
	unsigned char from_sleep_length;	/* called by tick_nohz_get_sleep_length() */
	unsigned char entry_known;
	unsigned char governor_refused;	/* the call before was such a call, refused */
	unsigned char offline_seen;	/* the CPU went offline: its NOHZ mode may have reset */
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
	/* can_stop_idle_tick(): its entry's fields and the return value */
	struct tep_format_field *idle_cpu, *idle_caller, *idle_mode, *idle_tif, *idle_softirq;
	struct tep_format_field *idle_tdc, *idle_full, *idle_entry, *idle_ret;
	struct tep_format_field *idle_online[TS_PROBE_ONLINE_WORDS];
	long long nohz_inactive;	/* NOHZ_MODE_INACTIVE, from the mark; -1 unknown */
	int tif_need_resched;		/* the bit, from the mark; -1 unknown */
	int no_nohz_full;		/* the kernel has no NO_HZ_FULL: no "full" field */
	uint64_t online_seen[TS_PROBE_ONLINE_WORDS];	/* the online mask last read */
	int nohz_known;			/* nohz_active below was read at the start */
	uint64_t nohz_active[TS_PROBE_ONLINE_WORDS];	/* /proc/timer_list at the start */
	uint64_t sleep_length_start, sleep_length_end;	/* tick_nohz_get_sleep_length() */
	struct ts_probe_idle idle[TS_PROBE_IDLE_CPUS];
};

int ts_probe_wants_event(const char *system, const char *name);
void ts_probedec_init(struct ts_probedec *p, struct tep_handle *tep, struct ts_caps *caps);
int ts_probedec_decode(struct ts_probedec *p, int id, struct tep_record *rec,
		       struct ts_event *ev);
int ts_probedec_mark(struct ts_probedec *p, char *token);
int ts_probe_restart_cause(const char *function, int *cause, int *idle, int *infer);

#endif
