/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probeinfo.h - the kprobe events tickstat places on a stock kernel, and
 * what a stream says about them.
 *
 * Where the kernel lacks the patched events, tickstat probes the functions
 * that decide (kernel/time/tick-sched.c) and turns the probe events into
 * the patched kernel's events (probedec.c).  The table below is the one
 * list of probes: probes.c places them, probedec.c reads them back, the
 * reports name them.  A probe that could not be placed leaves its part
 * unknown; why is carried in the recording (the "probes" mark).
 */
#ifndef TICKSTAT_PROBEINFO_H
#define TICKSTAT_PROBEINFO_H

#include <stdint.h>

#define TS_PROBE_GROUP_PREFIX	"tickstat_"	/* + the recorder's pid */
#define TS_PROBE_MAX_CPUS	64	/* CPUs whose dependency mask a probe reads */

enum ts_probe_id {
	TS_PROBE_DEP_SET,
	TS_PROBE_DEP_CLEAR,
	TS_PROBE_DEP_SET_CPU,
	TS_PROBE_DEP_CLEAR_CPU,
	TS_PROBE_DEP_SET_TASK,
	TS_PROBE_DEP_CLEAR_TASK,
	TS_PROBE_DEP_SET_SIGNAL,
	TS_PROBE_DEP_CLEAR_SIGNAL,
	TS_PROBE_RESTART,
	TS_PROBE_DEP_CHECK,
	TS_PROBE_IDLE_CHECK,	/* can_stop_idle_tick()'s entry: what it will test */
	TS_PROBE_IDLE_RET,	/* its return: may the tick stop on idle entry */
	TS_NR_PROBES,
};

/* What a probe stands in for: the patched kernel's event it replaces. */
enum ts_probe_part {
	TS_PART_DEPS,		/* timer:tick_dep_set/clear */
	TS_PART_RESTART,	/* timer:tick_restart */
	TS_PART_SCOPES,		/* tick_stop's per-scope masks */
	TS_PART_RETAIN,		/* timer:tick_retain of the idle entry */
	TS_NR_PARTS,
};

struct ts_probe_def {
	const char *event;	/* the kprobe event's name in tickstat's group */
	const char *function;	/* the kernel function probed */
	int part;
	int scope;		/* enum ts_scope of a dependency probe, else -1 */
	int clear;		/* a dependency clear */
	int ret;		/* a return probe (kretprobe): FUNCTION%return */
};

extern const struct ts_probe_def ts_probe_defs[TS_NR_PROBES];

/* Why a probe is (not) there. */
enum ts_probe_why {
	TS_PW_NONE,		/* not asked for: the kernel's own events tell it */
	TS_PW_PLACED,
	TS_PW_ABSENT,		/* not in /proc/kallsyms: inlined or renamed */
	TS_PW_CLONE,		/* only compiler clones (NAME.isra.0): other arguments */
	TS_PW_AMBIGUOUS,	/* several functions of that name */
	TS_PW_BLACKLISTED,	/* the kernel allows no probe there */
	TS_PW_REFUSED,		/* the kernel refused the probe */
	TS_PW_NO_KPROBES,	/* no kprobe events (CONFIG_KPROBE_EVENTS) */
	TS_PW_NO_ADDRESS,	/* a variable it reads has no address in /proc/kallsyms */
	TS_PW_ARCH,		/* the probes know x86_64's calling convention only */
	TS_PW_NO_BTF,		/* the kernel has no BTF: no field offsets */
	TS_NR_WHY,
};

/* What the placed probes cannot tell, even so. */
enum ts_probe_gap {
	TS_GAP_TARGET,		/* task pid and process tgid: no BTF */
	TS_GAP_CHANGES,		/* whether a call changed a mask: no address of it */
	TS_GAP_CAUSE,		/* restart causes: the callers' addresses unknown */
	TS_GAP_IDLE_REASON,	/* why idle entry was refused: a condition unreadable */
	TS_NR_GAPS,
};

/* What a stream says about the probes: the report's part of it. */
struct ts_probe_info {
	int used;			/* the stream has probe events or the probes mark */
	char group[32];
	unsigned char why[TS_NR_PROBES];	/* enum ts_probe_why */
	unsigned char gap[TS_NR_GAPS];		/* 0, or an enum ts_probe_why saying why */
	int parts;			/* bit per enum ts_probe_part: events from probes */
	uint64_t unfiltered;		/* dependency calls reported without knowing if they changed a mask */
	uint64_t unchanged;		/* dependency calls that changed nothing (left out) */
};

const char *ts_probe_label(int id);
const char *ts_probe_why_name(int why);
const char *ts_probe_why_text(int why);
int ts_probe_why_from_name(const char *name);
const char *ts_probe_gap_name(int gap);
const char *ts_probe_gap_text(int gap);
const char *ts_probe_part_name(int part);

#endif
