/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event.h - the decoded tick event: the one stream every input becomes.
 *
 * Live ring buffers, tickstat recordings and trace-cmd files all produce
 * struct ts_event; the per-CPU state machine (cpu_state.c) consumes it.
 * The stream must be in timestamp order per CPU; order across CPUs does
 * not matter.
 */
#ifndef TICKSTAT_EVENT_H
#define TICKSTAT_EVENT_H

#include <stdint.h>

/* event type ids a decoder can route: the kernel's trace_entry type is 16 bits */
#define TS_EVENT_IDS	65536

enum ts_kind {
	TS_EV_TICK_STOP,	/* timer:tick_stop (stock and patched) */
	TS_EV_TICK_RETAIN,	/* timer:tick_retain (patched) */
	TS_EV_TICK_RESTART,	/* timer:tick_restart (patched) */
	TS_EV_DEP_SET,		/* timer:tick_dep_set (patched) */
	TS_EV_DEP_CLEAR,	/* timer:tick_dep_clear (patched) */
	TS_EV_SWITCH,		/* sched:sched_switch: idle or busy */
	TS_EV_TICK,		/* hrtimer_expire_entry of the tick's own timer */
	TS_EV_LOST,		/* the ring buffer dropped events before this */
	TS_EV_DEP_CHECK,	/* a probe: one dependency mask the tick decision read */
	TS_EV_CAUSE,		/* a work item, timer or interrupt begins or ends (cause) */
	TS_EV_QUEUE,		/* workqueue_queue_work aimed at a CPU (queue) */
	TS_EV_ARM,		/* timer_start or hrtimer_start: a timer armed for a CPU (arm) */
};

/*
 * What runs on a CPU besides its tasks: the causes of interrupts and
 * kernel work that tickstat names below the tick's reasons
 * (docs/metrics.md, "Causes").
 */
enum ts_cause_type {
	TS_CAUSE_WORK,		/* workqueue_execute_start/end: a work function */
	TS_CAUSE_TIMER,		/* timer_expire_entry/exit: a timer_list function */
	TS_CAUSE_HRTIMER,	/* hrtimer_expire_entry/exit, other than the tick's */
	TS_CAUSE_IRQ,		/* irq_handler_entry/exit: a device interrupt */
	TS_CAUSE_SOFTIRQ,	/* softirq_entry/exit: a softirq vector */
	TS_CAUSE_VECTOR,	/* irq_vectors:*_entry/exit: an x86 vector or IPI (enum ts_vector) */
	TS_NR_CAUSE_TYPES,
};

/*
 * The x86 interrupt vectors the kernel traces in its irq_vectors system
 * (arch/x86/include/asm/trace/irq_vectors.h, the same in 6.1 and 6.12):
 * each has a NAME_entry and NAME_exit event.  The key of a TS_CAUSE_VECTOR
 * cause.  /proc/interrupts counts them in its LOC, RES, CAL (both call
 * function kinds), IWI, PLT, SPU, ERR, TRM, THR and DFR rows.
 */
enum ts_vector {
	TS_VEC_LOCAL_TIMER,		/* the local APIC timer: the tick, every (hr)timer */
	TS_VEC_RESCHEDULE,		/* IPI: reschedule (a wake-up, a signal, a kick) */
	TS_VEC_CALL_FUNCTION,		/* IPI: smp_call_function to several CPUs */
	TS_VEC_CALL_FUNCTION_SINGLE,	/* IPI: smp_call_function to one CPU */
	TS_VEC_IRQ_WORK,		/* irq_work raised by an IPI (to itself or another CPU) */
	TS_VEC_X86_PLATFORM_IPI,	/* a platform or hypervisor IPI */
	TS_VEC_SPURIOUS_APIC,
	TS_VEC_ERROR_APIC,
	TS_VEC_THERMAL_APIC,
	TS_VEC_THRESHOLD_APIC,		/* machine check threshold */
	TS_VEC_DEFERRED_ERROR_APIC,	/* AMD deferred machine check error */
	TS_NR_VECTORS,
};

#define TS_CAUSE_NAME	24	/* an IRQ's action name, as the event carries it */

/* TICK_DEP_MASK_* bits of include/linux/tick.h */
#define TS_DEP_BITS		6

/* dep.target when the source cannot tell it (a probe without BTF) */
#define TS_TARGET_UNKNOWN	INT32_MIN
/* dep.sched when the source cannot tell it (a probe) */
#define TS_SCHED_UNKNOWN	-1
/*
 * retain.reason of an idle-entry refusal whose reason the probes could not
 * read (probedec.c): tickstat's own, far above the kernel's TICK_RETAIN_*.
 */
#define TS_RETAIN_IDLE_REFUSED	100

/*
 * Values a kernel may send that have no name here: reports name them by
 * number (DEP_BIT7, RETAIN_12), and --forbid takes those names only in
 * these ranges.  The kernel's dependency masks are 32 bits wide; retain
 * values stop below tickstat's own TS_RETAIN_IDLE_REFUSED.
 */
#define TS_DEP_BIT_MAX		31
#define TS_RETAIN_NUMBERED_MAX	(TS_RETAIN_IDLE_REFUSED - 1)

/* Scopes of a dependency; UNKNOWN on kernels that do not report it. */
enum ts_scope {
	TS_SCOPE_GLOBAL,
	TS_SCOPE_CPU,
	TS_SCOPE_TASK,
	TS_SCOPE_PROCESS,
	TS_SCOPE_UNKNOWN,
	TS_NR_SCOPES,
};

/* tick_restart causes; INFERRED when a stock kernel leaves it implicit */
enum ts_restart_cause {
	TS_RESTART_UNKNOWN,
	TS_RESTART_IDLE_EXIT,
	TS_RESTART_IDLE_TICK,
	TS_RESTART_DEPENDENCY,
	TS_NR_RESTART_CAUSES,
};

/*
 * How the analysis completes a probe's restart cause: the probe knows the
 * function that called tick_nohz_restart_sched_tick() when it was a real
 * call, not a tail call.
 */
enum ts_restart_infer {
	TS_INFER_NONE,		/* the cause is known */
	TS_INFER_CPU_KIND,	/* leaving idle: IDLE_EXIT, DEPENDENCY on a nohz_full CPU */
	TS_INFER_DECISION,	/* a caller not known: DEPENDENCY right after a failed decision */
};

struct ts_event {
	enum ts_kind kind;
	int cpu;
	uint64_t ts;		/* trace clock, ns */
	int pid;		/* common_pid: who was running */
	union {
		struct {
			int success;
			unsigned int dependency;	/* first bit, as 6.1 */
			int has_scopes;			/* patched fields present */
			unsigned int deps[4];		/* per ts_scope */
		} stop;
		struct {
			int reason;
			int64_t delta_ns;
		} retain;
		struct {
			int64_t stopped_ns;	/* series v1 only; else -1 */
			int idle;		/* 1: in the idle loop; -1 unknown */
			int cause;
			int infer;	/* a probe: enum ts_restart_infer */
		} restart;
		struct {
			unsigned int dependency;	/* a TICK_DEP_MASK_* bit */
			int scope;
			int target;
			int sched;		/* set: the new sub-reason; clear: the one it ended */
			int sched_change;	/* the bit stayed set: prev_sched ended (tick_dep_sched) */
			int prev_sched;
			uint64_t caller;
		} dep;
		struct {
			int prev_pid;
			int next_pid;
			char next_comm[16];
			char prev_comm[16];
		} sw;
		struct {
			uint64_t count;		/* 0: an unknown number */
			/* the ring buffer said it overwrote them (a page's missed-events flag) */
			int missed;
			/* the gap's end is unknown (a bad page): it may reach into the range */
			int open_end;
		} lost;
		struct {
			unsigned int mask;	/* the mask's value */
			int global;		/* it is the global mask: a decision starts */
		} check;
		struct {
			int type;		/* enum ts_cause_type */
			int exit;		/* 1: it ends */
			uint64_t key;		/* function address, IRQ number or vector */
			uint64_t inst;		/* the work item, timer, IRQ or vector */
			char name[TS_CAUSE_NAME];	/* an IRQ's name, "" none */
		} cause;
		struct {
			uint64_t function;	/* the work function */
			int target;		/* the CPU it was queued to run on */
			int in_irq;		/* queued in interrupt context (common_flags) */
		} queue;
		struct {
			int type;		/* TS_CAUSE_TIMER or TS_CAUSE_HRTIMER */
			uint64_t function;	/* the timer function */
			uint64_t inst;		/* the timer's address */
			int target;		/* the CPU it will fire on */
			int in_irq;		/* armed in interrupt context (common_flags) */
		} arm;
	};
};

const char *ts_dep_name(unsigned int bit);
int ts_dep_from_name(const char *name);
const char *ts_scope_name(int scope);
const char *ts_retain_name(int reason);
int ts_retain_from_name(const char *name);
int ts_retain_numbered_min(void);
const char *ts_restart_name(int cause);
const char *ts_sched_name(int sched);
const char *ts_cause_type_name(int type);
int ts_cause_type_from_name(const char *name);
const char *ts_softirq_name(unsigned int vec);
const char *ts_vector_name(unsigned int kind);
const char *ts_vector_row(unsigned int kind);

#endif
