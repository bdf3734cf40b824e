// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - names of the values the tick events carry.
 *
 * They match the __print_symbolic() tables of include/trace/events/timer.h
 * in the patched kernel.  A value this table does not know (a newer kernel)
 * is named by its number, never dropped.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "event.h"

static const char * const dep_names[TS_DEP_BITS] = {
	"POSIX_TIMER", "PERF_EVENTS", "SCHED", "CLOCK_UNSTABLE", "RCU", "RCU_EXP",
};

static const char * const scope_names[TS_NR_SCOPES] = {
	"GLOBAL", "CPU", "TASK", "PROCESS", "UNKNOWN",
};

/* TICK_RETAIN_* values start at 1; IDLE_LOOP is new in series v2 */
static const char * const retain_names[] = {
	NULL, "TIMER_DUE", "RCU", "ARCH", "IRQ_WORK", "TIMER_SOFTIRQ",
	"NO_TIMEKEEPER", "NOHZ_INACTIVE", "NEED_RESCHED", "SOFTIRQ", "TIMEKEEPING",
	"IDLE_LOOP",
};

#define NR_RETAIN (int)(sizeof(retain_names) / sizeof(retain_names[0]))

static const char * const restart_names[TS_NR_RESTART_CAUSES] = {
	"UNKNOWN", "IDLE_EXIT", "IDLE_TICK", "DEPENDENCY",
};

/*
 * TICK_DEP_SCHED_*: 0-3 in both series; 4-6 only in the linux-6.12 series
 * (the fair server, a CFS task under a bandwidth quota, sched_ext).
 */
static const char * const sched_names[] = {
	"NONE", "DEADLINE", "RR", "CFS", "FAIR_SERVER", "CFS_BANDWIDTH", "SCX",
};

/* Names for unknown numbers: a small ring so that a caller may hold two. */
static const char *number_name(const char *prefix, long val)
{
	static char ring[4][32];
	static int next;
	char *buf = ring[next++ & 3];

	snprintf(buf, sizeof(ring[0]), "%s%ld", prefix, val);
	return buf;
}

/* ts_dep_name - name of a dependency bit number (0 = POSIX_TIMER) */
const char *ts_dep_name(unsigned int bit)
{
	if (bit < TS_DEP_BITS)
		return dep_names[bit];
	return number_name("DEP_BIT", bit);
}

/* ts_dep_from_name - bit number of a dependency name (any case), or -1 */
int ts_dep_from_name(const char *name)
{
	for (int i = 0; i < TS_DEP_BITS; i++)
		if (!strcasecmp(name, dep_names[i]))
			return i;
	return -1;
}

/* ts_scope_name - name of an enum ts_scope value */
const char *ts_scope_name(int scope)
{
	if (scope >= 0 && scope < TS_NR_SCOPES)
		return scope_names[scope];
	return "UNKNOWN";
}

/* ts_retain_name - name of a TICK_RETAIN_* value */
const char *ts_retain_name(int reason)
{
	if (reason > 0 && reason < NR_RETAIN)
		return retain_names[reason];
	if (reason == TS_RETAIN_IDLE_REFUSED)
		return "IDLE_REFUSED";
	return number_name("RETAIN_", reason);
}

/* ts_retain_from_name - TICK_RETAIN_* value of a name (any case), or -1 */
int ts_retain_from_name(const char *name)
{
	for (int i = 1; i < NR_RETAIN; i++)
		if (!strcasecmp(name, retain_names[i]))
			return i;
	if (!strcasecmp(name, "IDLE_REFUSED"))
		return TS_RETAIN_IDLE_REFUSED;
	return -1;
}

/* ts_retain_numbered_min - the first TICK_RETAIN_* value without a name here */
int ts_retain_numbered_min(void)
{
	return NR_RETAIN;
}

/* ts_restart_name - name of an enum ts_restart_cause value */
const char *ts_restart_name(int cause)
{
	if (cause >= 0 && cause < TS_NR_RESTART_CAUSES)
		return restart_names[cause];
	return number_name("CAUSE_", cause);
}

/* ts_sched_name - name of a TICK_DEP_SCHED_* value */
const char *ts_sched_name(int sched)
{
	if (sched >= 0 && sched < (int)(sizeof(sched_names) / sizeof(sched_names[0])))
		return sched_names[sched];
	return number_name("SCHED_", sched);
}

static const char * const cause_type_names[TS_NR_CAUSE_TYPES] = {
	"work", "timer", "hrtimer", "irq", "softirq", "vector",
};

/* ts_cause_type_name - the name of a cause type (enum ts_cause_type) */
const char *ts_cause_type_name(int type)
{
	if (type >= 0 && type < TS_NR_CAUSE_TYPES)
		return cause_type_names[type];
	return number_name("CAUSE", type);
}

/* ts_cause_type_from_name - a cause type by name, or -1 */
int ts_cause_type_from_name(const char *name)
{
	for (int i = 0; i < TS_NR_CAUSE_TYPES; i++)
		if (!strcmp(name, cause_type_names[i]))
			return i;
	return -1;
}

/* softirq vectors, as include/linux/interrupt.h numbers them since 4.x */
static const char * const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
	"HRTIMER", "RCU",
};

/* ts_softirq_name - the name of a softirq vector; a number beyond them */
const char *ts_softirq_name(unsigned int vec)
{
	if (vec < sizeof(softirq_names) / sizeof(softirq_names[0]))
		return softirq_names[vec];
	return number_name("SOFTIRQ", vec);
}

/* x86 vectors (enum ts_vector): their irq_vectors events are NAME_entry, NAME_exit */
static const char * const vector_names[TS_NR_VECTORS] = {
	"local_timer", "reschedule", "call_function", "call_function_single", "irq_work",
	"x86_platform_ipi", "spurious_apic", "error_apic", "thermal_apic", "threshold_apic",
	"deferred_error_apic",
};

/* and the /proc/interrupts row that counts each */
static const char * const vector_rows[TS_NR_VECTORS] = {
	"LOC", "RES", "CAL", "CAL", "IWI", "PLT", "SPU", "ERR", "TRM", "THR", "DFR",
};

/* ts_vector_name - the name of an x86 vector kind; a number beyond them */
const char *ts_vector_name(unsigned int kind)
{
	if (kind < TS_NR_VECTORS)
		return vector_names[kind];
	return number_name("VECTOR", kind);
}

/* ts_vector_row - the /proc/interrupts row of an x86 vector kind, "" beyond them */
const char *ts_vector_row(unsigned int kind)
{
	return kind < TS_NR_VECTORS ? vector_rows[kind] : "";
}
