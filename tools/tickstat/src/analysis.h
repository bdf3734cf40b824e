/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - the per-CPU state machine and the metrics it aggregates.
 *
 * Each CPU is at any time in one tick state (unknown, running, stopped) and
 * one idle state (unknown, busy, idle).  Events move the state; the time
 * between two events is charged to the state that held during it.  While
 * the tick runs, the reasons reported by the last decision are charged too.
 * docs/metrics.md defines every number kept here.
 */
#ifndef TICKSTAT_ANALYSIS_H
#define TICKSTAT_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "hist.h"
#include "probeinfo.h"
#include "util.h"

struct ts_hold;
struct ts_doctor_rec;
struct ts_cpuset;

#define TS_MAX_CPUS		1024
#define TS_MAX_REASONS		64
#define TS_MAX_ACTIVE		(TS_DEP_BITS * 4 + 1)
#define TS_MAX_CULPRITS		256
#define TS_MAX_CALLERS		512	/* callers of dependencies, cause functions */
#define TS_MAX_TASKS		64	/* co-runners kept per CPU; the rest is "other" */
/* co-runners whose cgroup quota the recorder read */
#define TS_MAX_QUOTAS		TS_PIDMAP_MAX

enum ts_tick_state { TS_TICK_UNKNOWN, TS_TICK_RUNNING, TS_TICK_STOPPED, TS_NR_TICK };
enum ts_idle_state { TS_IDLE_UNKNOWN, TS_IDLE_BUSY, TS_IDLE_IDLE, TS_NR_IDLE };

enum ts_reason_class {
	TS_RC_NONE,		/* the tick runs and no decision said why */
	TS_RC_DEP,		/* a tick dependency bit (value), in a scope */
	TS_RC_RETAIN,		/* a tick_retain reason (value) */
};

/* Values of the TS_RC_NONE reasons. */
enum ts_none_reason {
	TS_NONE_UNREPORTED,	/* nothing said why since the last state change */
	TS_NONE_NOT_NOHZ_FULL,	/* a busy CPU outside nohz_full: by design */
};

/*
 * A reason named by the user (--forbid NAME[@SCOPE]).  A name may stand
 * for a dependency and a retain reason at once (RCU); -1: not that class.
 * A scope (-1: any) narrows it to the dependency.
 */
struct ts_reason_spec {
	int dep;
	int retain;
	int none;
	int scope;
};

struct ts_reason {
	int class;
	int scope;		/* TS_RC_DEP only */
	int value;
	uint64_t time_ns;	/* time during which it held the tick */
	uint64_t events;	/* decisions that reported it */
};

/* A SCHED dependency (bit 2), whatever its scope: the reason that gets a why */
static inline int ts_reason_is_sched(const struct ts_reason *r)
{
	return r->class == TS_RC_DEP && r->value == 2;
}

/* The capabilities of the kernel that produced the stream. */
struct ts_caps {
	int tick_stop;		/* timer:tick_stop present */
	int scopes;		/* tick_stop has the per-scope masks */
	int retain;
	int restart;
	int dep_events;
	int sched_split;	/* tick_dep_sched too: SCHED's sub-reasons can be timed */
	int sched_switch;
	int tick_expiry;	/* hrtimer_expire_entry and the tick's function */
	int check_scopes;	/* probes: the first scope holding a dependency */
	unsigned int causes;	/* cause types whose entries the source carries (bits) */
	unsigned int cause_exits;	/* and whose exits too: their time is known */
	int queue;		/* workqueue_queue_work: who queued the work */
	unsigned int vectors;	/* x86 vector kinds whose entries the source carries (enum ts_vector bits) */
	unsigned int armers;	/* cause types whose arming it carries: timer_start, hrtimer_start */
	struct ts_probe_info probes;	/* which of these come from probes */
};

struct ts_cpu;

/*
 * A task that ran on a CPU (a co-runner): its time there, the part of it
 * with the tick running (held), and with SCHED among the reasons.
 */
struct ts_task_time {
	int pid;
	uint64_t run_ns;
	uint64_t held_ns;
	uint64_t sched_ns;
};

/*
 * One constant-state stretch of one CPU, for the CSV timeline, with the
 * tick interrupts inside it.  Segments of a CPU come in time order; a long
 * stretch is split after TS_SEG_MAX_TICKS ticks to keep memory bounded.
 * A segment with no_span carries only ticks (at the window's edge).
 */
#define TS_SEG_MAX_TICKS	1024

/* SCHED sub-reasons timed apart: TICK_DEP_SCHED_* 0-6 of both series */
#define TS_NR_SCHED_SPLIT	8

/*
 * One SCHED sub-reason's stretches at a CPU (series v3).  Each
 * tick_dep_set, tick_dep_sched and tick_dep_clear of SCHED at the CPU
 * starts a stretch of one sub-reason, ends one, or both.  The ends' times
 * minus the starts' give the sub-reason's time whatever order the events
 * come in (another CPU's events come when its pages are read), once the
 * stretches open at the window's edges are known: the earliest event an
 * end means one was held from before the window, the latest a start, one
 * still held at its end (the earliest and latest do not depend on the
 * order either).
 */
struct ts_sched_stretches {
	__int128 span;			/* ends' timestamps minus starts' */
	int open;			/* starts minus ends */
	int seen;
	uint64_t first, last;		/* the earliest and the latest event */
	int first_ends, last_starts;	/* the earliest was an end, the latest a start */
};

/*
 * A cause on the timeline (docs/recording-format.md, "CSV timeline"): when
 * it began and ended (0: its exit was not seen), its type, its entry in
 * the CPU's causes[] (-1: its type's "other") and the task it interrupted.
 * A CPU holds at most TS_SEG_MAX_CAUSES not yet written; a segment carries
 * those that began in it.
 */
#define TS_SEG_MAX_CAUSES	1024

struct ts_tl_cause {
	uint64_t ts;
	uint64_t end;
	int32_t type;
	int32_t idx;
	int32_t pid;
	int32_t pad;
};

struct ts_segment {
	int cpu;
	uint64_t start;
	uint64_t end;
	enum ts_tick_state tick;
	enum ts_idle_state idle;
	const struct ts_cpu *owner;
	const int *reasons;		/* indexes into owner->reasons */
	int nr_reasons;
	int task;			/* pid running: 0 idle, -1 unknown */
	const uint64_t *ticks;		/* tick interrupts in [start, end] */
	int nr_ticks;
	const struct ts_tl_cause *causes;	/* causes that began in [start, end] */
	int nr_causes;
	int no_span;
};

/*
 * A stretch of a CPU's time at the start of the window while the trace has
 * not told its tick state yet (analysis.c, "The start"): kept, not charged,
 * until an event tells.  TS_MAX_OPEN are kept in the CPU's state; while
 * they end before the snapshot was read, whether it holds is not known
 * yet, and up to TS_MAX_OPEN_PENDING are kept (a slow snapshot on a busy
 * CPU: at 64 vCPUs under the emulator it took 0.2 to 0.7 s, and a CPU
 * that woke 200 times a second changed tasks 56 and 67 times meanwhile).
 */
#define TS_MAX_OPEN		64
#define TS_MAX_OPEN_PENDING	1024
#define TS_MAX_OPEN_TICKS_PENDING	4096	/* and ticks: 4 s of a 1000 Hz tick */

struct ts_open_stretch {
	uint64_t from;
	uint64_t to;
	enum ts_idle_state idle;
	int pid;			/* 0 idle, -1 unknown */
	int with_reasons;		/* the tick, if running, ran for the current reasons */
	int nr_ticks;			/* timeline ticks in it, in open_ticks */
};

/*
 * A cause on a CPU (docs/metrics.md, "Causes"): a work function, a timer or
 * hrtimer function, an IRQ, a softirq vector or an x86 vector, with how
 * often it began in the window, how often while the tick was stopped (it
 * interrupted a tickless CPU), and its time from entry to exit (interrupts
 * nested in it included).  Work items also count who queued them
 * (workqueue_queue_work), timers and hrtimers who armed them (timer_start,
 * hrtimer_start).
 */
#define TS_MAX_CAUSES		48	/* per CPU; the rest is summed per type */
#define TS_CAUSE_DEPTH		8	/* entries open at once: work, softirq, irq, ... */
#define TS_MAX_ARMERS		4	/* per timer cause; the rest is summed */

/* How a timer was armed (docs/metrics.md, "Who armed a timer"). */
enum ts_arm_ctx {
	TS_ARM_TASK,			/* by a task (comm, pid) */
	TS_ARM_SELF,			/* by its own callback: it re-arms itself */
	TS_ARM_CAUSE,			/* in a cause running on the arming CPU (ctx_type, ctx_key) */
	TS_ARM_IRQ,			/* in interrupt context, no cause of it traced there */
};

struct ts_armer {
	int ctx;			/* enum ts_arm_ctx */
	int cpu;			/* the CPU that armed it */
	int pid;			/* TS_ARM_TASK: the task (the last of its name), else 0 */
	char comm[16];			/* its name when it armed, "" when unknown then */
	int ctx_type;			/* TS_ARM_CAUSE: the cause's type and key */
	uint64_t ctx_key;
	char ctx_name[TS_CAUSE_NAME];	/* an IRQ's name */
	uint64_t count;
};

struct ts_cause {
	int type;			/* enum ts_cause_type */
	uint64_t key;			/* function address, IRQ number or vector */
	char name[TS_CAUSE_NAME];	/* an IRQ's name */
	uint64_t count;			/* entries in the window */
	uint64_t stopped;		/* of them, with the tick stopped */
	uint64_t held;			/* of them, with the tick running */
	uint64_t open;			/* of them, while the start's tick state is open */
	uint64_t timed;			/* entries whose exit came: time_ns is theirs */
	uint64_t time_ns;
	uint64_t queued;		/* work: queue_work calls aimed at this CPU */
	int queuer_pid;			/* the last task that queued it, -1 none */
	int queuer_cpu;			/* and the CPU it queued from */
	int queuer_irq;			/* that one was in an interrupt: the pid is
					 * the task it interrupted */
	uint64_t armed;			/* timer, hrtimer: armings for this CPU */
	struct ts_armer armers[TS_MAX_ARMERS];	/* who armed it, the first seen */
	int nr_armers;
	uint64_t armers_other;		/* armings by others beyond them */
};

struct ts_cause_open {
	int type;
	int idx;			/* into causes[], or -1 for "other" */
	uint64_t inst;
	uint64_t ts;
	int pend;			/* its timeline entry in tl_causes[], -1 none */
	long row;			/* or its written end's place in the timeline, 0 none */
};

struct ts_cpu {
	int cpu;
	int active;			/* monitored, or seen in the stream */
	int nohz_full;			/* -1 unknown, else 0/1 */

	/* state machine */
	enum ts_tick_state tick;
	enum ts_idle_state idle;
	uint64_t last_ts;
	int started;			/* any event processed */
	int cut;			/* past the end of the time range */
	int past_range;			/* an event after the range, the start still open */
	int gap_pending;		/* a bad page's gap from before the range */
	/*
	 * The start: until an event tells a part of the state since the window
	 * start, the part is open and holds its value from the snapshot (or
	 * unknown), to fall back on.
	 */
	int tick_open;
	int idle_open;
	int open_failed;		/* a failed decision while open: the next event tells */
	uint64_t open_failed_ts;
	struct ts_open_stretch open[TS_MAX_OPEN];
	struct ts_open_stretch *open_more;	/* those past open[], before the snapshot */
	int open_more_cap;
	int nr_open;			/* in open[], then in open_more */
	uint64_t *open_ticks;		/* timeline ticks, when a timeline is kept */
	int open_ticks_cap;
	int nr_open_ticks;
	int open_lead_ticks;		/* those before the first open stretch */
	uint64_t open_tick_count;	/* ticks counted while open */
	int active_reasons[TS_MAX_ACTIVE];
	int nr_active;
	uint64_t stop_start;
	int stop_censored;		/* stopped since before the window */
	int sched_detail;		/* last SCHED sub-reason for this CPU */
	uint64_t sched_detail_ts;	/* when it was set */
	struct ts_sched_stretches sched_stretches[TS_NR_SCHED_SPLIT];
	int sched_split_bad;		/* a sub-reason past the table */
	int last_failed;		/* the last tick event was a failed decision */
	int check_pos;			/* probes: position of the last mask read, -1 none */
	unsigned int check_mask;	/* and its value */
	int cur_pid;			/* the task running now: 0 idle, -1 unknown */
	uint64_t hrtimer_exit_inst;	/* the hrtimer whose exit was the last cause event, 0 none */

	/* the timeline segment not yet emitted */
	struct ts_segment seg;
	int seg_reasons[TS_MAX_ACTIVE];
	int seg_valid;
	uint64_t *seg_ticks;		/* TS_SEG_MAX_TICKS, when a timeline is kept */
	int nr_seg_ticks;
	struct ts_tl_cause *tl_causes;	/* TS_SEG_MAX_CAUSES causes not yet written */
	int nr_tl_causes;
	uint64_t tl_causes_dropped;	/* left off the timeline: while the state was open */

	/* metrics */
	uint64_t time[TS_NR_TICK][TS_NR_IDLE];
	struct ts_reason reasons[TS_MAX_REASONS];
	int nr_reasons;
	uint64_t reasons_dropped;	/* events whose reason did not fit */
	struct ts_hist stopped;
	uint64_t stopped_open;		/* intervals cut by the window */
	uint64_t open_total_ns;
	uint64_t restarts[TS_NR_RESTART_CAUSES + 1];	/* +1: other values */
	uint64_t ticks;
	uint64_t ticks_stopped;		/* tick timer fired while stopped */
	uint64_t stop_success;
	uint64_t stop_fail;
	uint64_t events;
	struct ts_task_time tasks[TS_MAX_TASKS];	/* co-runners */
	int nr_tasks;
	int last_task;			/* index of the last one charged */
	struct ts_task_time tasks_other;	/* those beyond TS_MAX_TASKS */
	uint64_t lost_events;
	uint64_t lost_unknown;		/* gaps of an unknown size */
	/*
	 * Of those, what the ring buffer's pages said it overwrote: the events
	 * they counted, and the gaps they could not (a full page has no room
	 * for the count), which the kernel's overrun counter sizes at the end
	 * (ts_analysis_finish(): missed_gaps_sized)
	 */
	uint64_t missed_events;
	uint64_t missed_gaps;
	uint64_t missed_gaps_sized;

	/* causes: the first TS_MAX_CAUSES seen, then "other" per type */
	struct ts_cause causes[TS_MAX_CAUSES];
	int nr_causes;
	struct ts_cause causes_other[TS_NR_CAUSE_TYPES];
	struct ts_cause_open cause_open[TS_CAUSE_DEPTH];
	int nr_cause_open;
};

struct ts_culprit {
	int cpu;			/* -1: every CPU (global scope) */
	unsigned int bit;
	int scope;
	int target;
	int sched;
	int pid;
	uint64_t caller;
	uint64_t sets;
	uint64_t clears;
};

struct ts_symbol {
	uint64_t addr;
	char *name;
};

/*
 * The analysis: everything a report is made of.  Only analysis.c writes it
 * (tests/check_analysis_owner.py checks that); the other modules read it
 * through const pointers and change it through the functions below, so
 * that every number a report shows can be traced to one place.  Three
 * members belong to another module, which alone writes them: caps (the
 * decoder's, filled by ts_decoder_init() and the probes' decoder), hold
 * (hold.c's queue) and doctor (docrec.c's: the audit the source stored).
 */
struct ts_analysis {
	struct ts_caps caps;		/* the decoder's: what the source can tell */
	uint64_t win_start;		/* the reported window: the data's span */
	uint64_t win_end;		/* cut by the time range, if any */
	int win_start_known;
	uint64_t data_start;		/* the span the source covers */
	uint64_t data_end;
	uint64_t snapshot_ts;		/* 0: no initial-state snapshot */
	uint64_t range_start;		/* report only this part (0, 0: all) */
	uint64_t range_end;
	int nohz_default;		/* nohz_full of a CPU not named: -1 unknown, 0 */
	int counting;			/* the current event lies in the range */
	int nr_cpus;			/* highest CPU + 1 */
	struct ts_cpu *cpus[TS_MAX_CPUS];
	/* states allocated ahead (ts_analysis_reserve_cpu), for a CPU's first use */
	struct ts_cpu *spare[TS_MAX_CPUS];
	int restrict_cpus;		/* only monitored CPUs are reported */
	uint64_t covered[TS_MAX_CPUS / 64];	/* CPUs the source has data of */
	/* the CPUs whose tick events the recorder kept, when not all (monitor) */
	struct ts_cpuset tick_data;

	struct ts_culprit culprits[TS_MAX_CULPRITS];
	int nr_culprits;
	uint64_t culprits_dropped;

	struct ts_symbol callers[TS_MAX_CALLERS];
	int nr_callers;

	/* comm of a pid, as far as the stream told */
	struct ts_comm { int pid; char comm[16]; uint64_t ts; } *comms;
	int nr_comms;
	int comm_slots;

	/* metadata from the source, for the reports */
	char source_kind[16];
	char source_path[256];
	char kernel[128];
	char clock[32];
	char nohz_full[TS_CPUSET_TEXT_MAX];
	char boot_id[40];		/* the recording kernel's boot, "" unknown */
	uint64_t overrun;		/* ring-buffer overruns the kernel counted */
	uint64_t unplaced;		/* events it dropped without marking a page */
	/* the same per CPU, where the recording's end says (overrun_known) */
	uint64_t cpu_overrun[TS_MAX_CPUS];
	unsigned char overrun_known[TS_MAX_CPUS];
	/*
	 * A watcher's: its counters only grow, so a gap counted as of unknown
	 * size stays so at the end (its recording's report sizes it)
	 */
	int gaps_stay_unsized;
	uint64_t bad_records;		/* records too short for their format */
	uint64_t bad_pages;		/* ring-buffer pages that were corrupt */
	const char *lost_uncounted;	/* why the source cannot count every lost event, or NULL */
	uint64_t backward_pages;	/* bad pages whose time goes back (counted in bad_pages) */
	char backward_first[200];	/* where the first one is */
	uint64_t checks_unmatched;	/* probes: decisions whose probed scope did not match */

	FILE *timeline;			/* segments, if kept: written by the state machine only */
	int timeline_error;

	struct ts_hold *hold;		/* hold.c's: while a watcher holds events back */
	struct ts_doctor_rec *doctor;	/* docrec.c's: the audit a recording stored, or NULL */

	/*
	 * The cause types the recorder enabled on the monitored CPUs (bits of
	 * enum ts_cause_type), from its start mark; -1 when the source is not a
	 * tickstat recording (a trace.dat: the formats it carries tell).  A
	 * tickstat recording without the key predates causes: its hrtimer
	 * expiries were only the tick's.
	 */
	int causes_recorded;
	/*
	 * The cause types whose arming (timer_start, hrtimer_start) the recorder
	 * traced for the monitored CPUs, from its start mark; -1 when the source
	 * is not a tickstat recording; 0 for a recording of a tickstat before.
	 */
	int armers_recorded;

	/*
	 * The cgroup CPU quota of co-runners (cpu.max, the innermost limit on
	 * the task's path), as the recorder read it at the end: since 6.6 a
	 * task under a quota keeps its tick (SCHED with one task).  A pid
	 * without an entry is unknown.  quota_map finds a pid's entry in O(1)
	 * expected; pids beyond TS_MAX_QUOTAS are dropped (unknown), counted
	 * in quotas_dropped.
	 */
	struct ts_quota { int pid; int64_t quota_us; uint64_t period_us; } quotas[TS_MAX_QUOTAS];
	int nr_quotas;
	struct ts_pidmap quota_map;
	uint64_t quotas_dropped;
};

void ts_analysis_init(struct ts_analysis *an);
void ts_analysis_free(struct ts_analysis *an);
const struct ts_cpu *ts_analysis_find_cpu(const struct ts_analysis *an, int cpu);
int ts_analysis_add_cpu(struct ts_analysis *an, int cpu);
int ts_analysis_reserve_cpu(struct ts_analysis *an, int cpu);
void ts_analysis_set_start(struct ts_analysis *an, uint64_t start);
void ts_analysis_set_range(struct ts_analysis *an, uint64_t start, uint64_t end);
void ts_analysis_set_snapshot(struct ts_analysis *an, uint64_t ts);
void ts_analysis_monitor(struct ts_analysis *an, int cpu);
void ts_analysis_cover(struct ts_analysis *an, int cpu);
int ts_analysis_covers(const struct ts_analysis *an, int cpu);
void ts_analysis_report_covered(struct ts_analysis *an);
void ts_analysis_tick_data(struct ts_analysis *an, int cpu);
void ts_analysis_lost_uncounted(struct ts_analysis *an, const char *why);
void ts_analysis_time_backwards(struct ts_analysis *an, const char *where);
void ts_analysis_select_cpus(struct ts_analysis *an, const struct ts_cpuset *cpus);
int ts_analysis_set_nohz_full(struct ts_analysis *an, int cpu, int nohz_full);
int ts_analysis_cpu_online(struct ts_analysis *an, int cpu);
void ts_analysis_set_nohz_default(struct ts_analysis *an, int nohz_full);

/* What the source is, for the reports. */
void ts_analysis_set_source_kind(struct ts_analysis *an, const char *kind);
void ts_analysis_set_source_path(struct ts_analysis *an, const char *path);
void ts_analysis_set_kernel(struct ts_analysis *an, const char *release);
void ts_analysis_set_clock(struct ts_analysis *an, const char *clock);
void ts_analysis_set_nohz_full_list(struct ts_analysis *an, const char *list);
void ts_analysis_add_nohz_full_list(struct ts_analysis *an, const char *piece);
int ts_analysis_set_boot_id(struct ts_analysis *an, const char *id);
void ts_analysis_count_overrun(struct ts_analysis *an, int cpu, uint64_t n);
void ts_analysis_lost_unplaced(struct ts_analysis *an, int cpu, uint64_t n);
void ts_analysis_keep_gaps_unsized(struct ts_analysis *an);
void ts_analysis_count_quotas_dropped(struct ts_analysis *an, uint64_t n);
int ts_analysis_bad_page(struct ts_analysis *an, int cpu);
void ts_analysis_set_initial(struct ts_analysis *an, int cpu,
			     enum ts_tick_state tick, enum ts_idle_state idle);
int ts_analysis_event(struct ts_analysis *an, const struct ts_event *ev);
int ts_analysis_apply(struct ts_analysis *an, const struct ts_event *ev);
int ts_analysis_hold(struct ts_analysis *an, uint64_t until);
void ts_analysis_release_cpu(struct ts_analysis *an, int cpu);
void ts_analysis_unhold(struct ts_analysis *an);
void ts_analysis_drop_held(struct ts_analysis *an);
void ts_analysis_drop_doctor(struct ts_analysis *an);	/* docrec.c */
void ts_doctor_settle(struct ts_analysis *an);		/* docrec.c: the join, once finished */
void ts_doctor_settle_again(struct ts_analysis *an);	/* docrec.c: the CPUs reported changed */
int ts_analysis_lost_after(struct ts_analysis *an, int cpu, uint64_t ts, uint64_t count);
void ts_analysis_finish(struct ts_analysis *an, uint64_t end);
int ts_sched_split(const struct ts_analysis *an, const struct ts_cpu *c,
		   uint64_t ns[TS_NR_SCHED_SPLIT]);
int ts_sched_detail(const struct ts_analysis *an, const struct ts_cpu *c);
void ts_analysis_advance(struct ts_analysis *an, uint64_t ts);
void ts_analysis_offline(struct ts_analysis *an, int cpu, uint64_t ts);
void ts_analysis_bad_record(struct ts_analysis *an, int cpu, uint64_t ts);
int ts_analysis_keep_timeline(struct ts_analysis *an);
void ts_analysis_restart_interval(struct ts_analysis *an);
int ts_analysis_trim_comms(struct ts_analysis *an);

void ts_analysis_set_causes_recorded(struct ts_analysis *an, int mask);
int ts_analysis_set_quota(struct ts_analysis *an, int pid, int64_t quota_us, uint64_t period_us);
void ts_analysis_forget_quotas(struct ts_analysis *an);
const struct ts_quota *ts_analysis_quota(const struct ts_analysis *an, int pid);
unsigned int ts_analysis_causes_known(const struct ts_analysis *an);
void ts_analysis_set_armers_recorded(struct ts_analysis *an, int mask);
unsigned int ts_analysis_armers_known(const struct ts_analysis *an);
unsigned int ts_analysis_vectors_known(const struct ts_analysis *an);
int ts_armer_name(const struct ts_analysis *an, const struct ts_armer *a, char *buf, size_t len);
int ts_cause_name(const struct ts_analysis *an, const struct ts_cause *k, char *buf, size_t len);
struct ts_ksym_query;
int ts_analysis_want_symbols(const struct ts_analysis *an, struct ts_ksym_query *q);
void ts_analysis_name_symbols(struct ts_analysis *an, const struct ts_ksym_query *q);

/* Reading the kept timeline back, once the analysis is finished. */
struct ts_timeline_iter {
	long pos;
	int reasons[TS_MAX_ACTIVE];
	uint64_t ticks[TS_SEG_MAX_TICKS];
	struct ts_tl_cause causes[TS_SEG_MAX_CAUSES];
};

int ts_timeline_next(const struct ts_analysis *an, struct ts_timeline_iter *it,
		     struct ts_segment *seg);

void ts_comm_set(struct ts_analysis *an, int pid, const char *comm);
void ts_comm_seen(struct ts_analysis *an, int pid, const char *comm, uint64_t ts);
const char *ts_comm_get(const struct ts_analysis *an, int pid);
void ts_caller_set(struct ts_analysis *an, uint64_t addr, const char *name);
const char *ts_caller_get(const struct ts_analysis *an, uint64_t addr);

const char *ts_reason_name(const struct ts_reason *r, char *buf, int len);
int ts_reason_spec_parse(const char *text, struct ts_reason_spec *spec);
int ts_reason_spec_matches(const struct ts_reason *r, const struct ts_reason_spec *spec);
int ts_reason_matches(const struct ts_reason *r, const char *spec);
void ts_reason_name_list(char *buf, size_t len);
const char *ts_tick_state_name(enum ts_tick_state s);
const char *ts_idle_state_name(enum ts_idle_state s);
int ts_parse_state_pair(const char *text, enum ts_tick_state *tick, enum ts_idle_state *idle);

/* derived numbers */
uint64_t ts_cpu_window_ns(const struct ts_analysis *an);
uint64_t ts_cpu_tick_ns(const struct ts_cpu *c, enum ts_tick_state t);
uint64_t ts_cpu_idle_ns(const struct ts_cpu *c, enum ts_idle_state i);
double ts_share(uint64_t part, uint64_t whole);

#endif
