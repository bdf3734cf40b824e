// SPDX-License-Identifier: GPL-2.0
/*
 * diagnosis.c - a verdict per CPU from the finished analysis (diagnosis.h).
 *
 * It reads the analysis and its metrics, nothing else, so every figure it
 * names is one the report shows in its tables too.  The rules, in priority
 * (docs/cookbook.md, "The diagnosis", says the same):
 *
 *  1. the window is empty, or the tick state is unknown for more than
 *     MAX_UNKNOWN of it: the data cannot tell (UNKNOWN), and why;
 *  2. a CPU known to be outside nohz_full: its tick runs while a task does,
 *     by design (NOT_NOHZ_FULL);
 *  3. the tick ran less than MIN_RAN of the known time: the cause that
 *     interrupted the tickless CPU most often (a cause type), else TICKLESS;
 *  4. the reason that held the tick longest, with what the data says of it:
 *     co-runners and the work a kworker ran for SCHED, the culprit of a
 *     dependency, the timer of TIMER_DUE, what --probes or the patched
 *     kernel would add on a stock one.
 *
 * The words of each cause, its remedy and its cookbook anchor are in
 * rules[]: tests/check_diagnosis.py checks that every reason tickstat can
 * print has a rule and every anchor a section in docs/cookbook.md.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "docrec.h"
#include "metrics.h"
#include "text.h"

#define MAX_UNKNOWN	0.10	/* above it, the data cannot tell */
#define MIN_RAN		0.01	/* below it, the CPU counts as tickless */

#define SAFE_LEN	(4 * 64 + 1)
#define NAME_LEN	160

/* BEGIN RULES: one per reason and cause type (tests/check_diagnosis.py reads them) */
static const struct ts_diag_rule rules[] = {
	/* the data, the whole CPU */
	{ "UNKNOWN", "diag-unknown", "the data cannot tell" },
	{ "TICKLESS", "diag-tickless", "nothing to change" },
	/* dependency bits */
	{ "POSIX_TIMER", "reason-posix-timer",
	  "disarm CPU-time timers (setitimer ITIMER_PROF/VIRTUAL, timer_create on CPU clocks)" },
	{ "PERF_EVENTS", "reason-perf-events",
	  "stop the sampling tool, or count without sampling (perf stat)" },
	{ "SCHED", "reason-sched", "pin one elsewhere" },
	{ "CLOCK_UNSTABLE", "reason-clock-unstable",
	  "make the TSC trusted: dmesg | grep -i tsc says why it is not; tsc=reliable where it is known good" },
	{ "RCU", "reason-rcu", "rcu_nocbs= for the isolated CPUs; fewer system calls in the hot loop" },
	{ "RCU_EXP", "reason-rcu-exp",
	  "keep what calls synchronize_rcu_expedited() (module loads, network configuration) off the run" },
	{ "DEP_BIT*", "reason-unnamed",
	  "a tickstat that knows this kernel names it; include/linux/tick.h says what the bit is" },
	/* retain reasons */
	{ "TIMER_DUE", "reason-timer-due", "move the task or driver that arms the timer off the CPU" },
	{ "ARCH", "reason-arch", "the architecture's arch_needs_cpu() says why (never on x86)" },
	{ "IRQ_WORK", "reason-irq-work",
	  "often a tracer or perf waking its reader: check the recorder itself" },
	{ "TIMER_SOFTIRQ", "reason-timer-softirq",
	  "move the IRQs and tasks that arm timers on the CPU elsewhere" },
	{ "NO_TIMEKEEPER", "reason-no-timekeeper",
	  "a kernel bug (dmesg warns): keep a housekeeping CPU online and out of nohz_full=" },
	{ "NOHZ_INACTIVE", "reason-nohz-inactive",
	  "remove nohz=off; the CPU needs a oneshot-capable clock event device" },
	{ "NEED_RESCHED", "reason-need-resched", "find the wake-up source; a few are normal" },
	{ "SOFTIRQ", "reason-softirq",
	  "a kernel bug: dmesg's \"NOHZ tick-stop error\" names the softirq" },
	{ "TIMEKEEPING", "reason-timekeeping",
	  "expected on the housekeeping CPU; keep one CPU out of nohz_full= for it" },
	{ "IDLE_LOOP", "reason-idle-loop", "normal once per idle period; many mean frequent wake-ups" },
	{ "IDLE_REFUSED", "reason-idle-refused", "the patched kernel names the reason" },
	{ "RETAIN_*", "reason-unnamed",
	  "a tickstat that knows this kernel names it; include/trace/events/timer.h says what it is" },
	/* no decision said why */
	{ "UNREPORTED", "reason-unreported",
	  "short stretches after idle exit are normal; a stock kernel: --probes or the patched kernel name the reason" },
	{ "NOT_NOHZ_FULL", "reason-not-nohz-full",
	  "nothing, on a housekeeping CPU; to isolate it, add it to nohz_full= (and rcu_nocbs=)" },
	/* causes: what interrupted a tickless CPU */
	{ "work", "cause-work",
	  "bind the workqueue to housekeeping CPUs, or stop what queues the work here" },
	{ "timer", "cause-timer", "move the task or driver that arms the timer off the CPU" },
	{ "hrtimer", "cause-hrtimer", "move the task or subsystem that arms the hrtimer off the CPU" },
	{ "irq", "cause-irq", "move its affinity off the CPU" },
	{ "softirq", "cause-softirq", "move the IRQs and timers that raise it off the CPU" },
	{ "vector", "cause-vector", "the vector's row in the cookbook says what raises it" },
	/* x86 vectors, each by its kind (the diagnosis names "vector", links the kind's) */
	{ "vector:local_timer", "cause-vector-local-timer",
	  "the timers and hrtimers that fired on the CPU raise it: move what arms them off the CPU" },
	{ "vector:reschedule", "cause-vector-reschedule",
	  "keep what wakes tasks on the CPU or signals its task off it (sched:sched_wakeup, signal:signal_generate name them)" },
	{ "vector:call_function", "cause-vector-call-function",
	  "keep what runs functions on other CPUs off the run: threads of the task's process elsewhere (munmap, mprotect: TLB shootdowns), membarrier, on_each_cpu users" },
	{ "vector:call_function_single", "cause-vector-call-function",
	  "keep what runs functions on other CPUs off the run: threads of the task's process elsewhere (munmap, mprotect: TLB shootdowns), membarrier, on_each_cpu users" },
	{ "vector:irq_work", "cause-vector-irq-work",
	  "often perf or a tracer waking its reader: check the recorder itself" },
	{ "vector:x86_platform_ipi", "cause-vector-platform",
	  "the hypervisor or platform driver sends it (Hyper-V, UV, posted interrupts): its settings, not the CPU's" },
	{ "vector:spurious_apic", "cause-vector-apic", "a hardware or firmware fault: dmesg says more" },
	{ "vector:error_apic", "cause-vector-apic", "a hardware or firmware fault: dmesg says more" },
	{ "vector:thermal_apic", "cause-vector-thermal",
	  "thermal events of the package: cooling, or the power limits; not affinable" },
	{ "vector:threshold_apic", "cause-vector-mce",
	  "corrected machine-check errors: check the hardware (rasdaemon, mcelog); not affinable" },
	{ "vector:deferred_error_apic", "cause-vector-mce",
	  "corrected machine-check errors: check the hardware (rasdaemon, mcelog); not affinable" },
};
/* END RULES */

/* IPI storms: an IPI kind interrupting a tickless CPU this often (per second) or more */
#define IPI_STORM_HZ	100

/* What a dependency or retain reason means, as the detail of a diagnosis without more. */
static const struct {
	const char *name;
	const char *what;
} meanings[] = {
	{ "POSIX_TIMER", "a CPU-time timer is armed" },
	{ "PERF_EVENTS", "a perf event in frequency mode or with a sample period on this CPU" },
	{ "CLOCK_UNSTABLE", "the TSC is not trusted: sched_clock is unstable" },
	{ "RCU", "RCU needs this CPU for a grace period, or its callbacks run here" },
	{ "RCU_EXP", "an expedited RCU grace period waits for this CPU" },
	{ "TIMER_DUE", "a timer expires within a tick" },
	{ "ARCH", "arch_needs_cpu() asked for the tick" },
	{ "IRQ_WORK", "irq_work is pending on the CPU" },
	{ "TIMER_SOFTIRQ", "the timer softirq is pending" },
	{ "NO_TIMEKEEPER", "nobody keeps the time" },
	{ "NOHZ_INACTIVE", "nohz is not active on this CPU" },
	{ "NEED_RESCHED", "a task woke up as the CPU went idle" },
	{ "SOFTIRQ", "softirq work was pending at idle entry" },
	{ "TIMEKEEPING", "this CPU keeps the time, so it keeps its tick when idle" },
	{ "IDLE_LOOP", "the idle loop kept the tick for short idle periods" },
	{ "IDLE_REFUSED", "idle entries refused the stop for a reason the probes could not read" },
	{ "UNREPORTED", "the tick ran and no decision said why" },
	{ "NOT_NOHZ_FULL", "not in nohz_full=: its tick runs whenever a task does, by design" },
	{ "DEP_BIT*", "a tick dependency this tickstat has no name for" },
	{ "RETAIN_*", "a retain reason this tickstat has no name for" },
};

/* Functions whose remedy is better known than their type's. */
static const struct {
	const char *fn;
	const char *remedy;
} known_fns[] = {
	{ "vmstat_update", "sysctl vm.stat_interval=10 or more" },
	{ "lru_add_drain_per_cpu",
	  "an LRU drain another CPU asked for (lru_add_drain_all: mlock, compaction): keep those off the run" },
	{ "watchdog_timer_fn", "kernel.watchdog_cpumask without this CPU, or kernel.watchdog=0" },
	{ "perf_mux_hrtimer_handler",
	  "perf rotates more events than the PMU counts at once: fewer events on this CPU, or none" },
};

/* put - append to a buffer of TS_DIAG_TEXT or more, cutting what does not fit */
static void put(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

#define PUT(field, ...)	put(field, sizeof(field), __VA_ARGS__)

/* "once", "3 times" */
static const char *times(uint64_t n, char *buf, size_t len)
{
	if (n == 1)
		snprintf(buf, len, "once");
	else
		snprintf(buf, len, "%" PRIu64 " times", n);
	return buf;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* ts_diag_rule_of - the rule of a cause name; a name by number has its class's */
const struct ts_diag_rule *ts_diag_rule_of(const char *name)
{
	const char *key = name;

	if (!strncmp(name, "DEP_BIT", 7))
		key = "DEP_BIT*";
	else if (!strncmp(name, "RETAIN_", 7))
		key = "RETAIN_*";
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(rules[i].name, key))
			return &rules[i];
	return NULL;
}

static const char *meaning_of(const char *name)
{
	const char *key = name;

	if (!strncmp(name, "DEP_BIT", 7))
		key = "DEP_BIT*";
	else if (!strncmp(name, "RETAIN_", 7))
		key = "RETAIN_*";
	for (size_t i = 0; i < sizeof(meanings) / sizeof(meanings[0]); i++)
		if (!strcmp(meanings[i].name, key))
			return meanings[i].what;
	return "";
}

static const char *known_fn_remedy(const char *name)
{
	for (size_t i = 0; i < sizeof(known_fns) / sizeof(known_fns[0]); i++) {
		size_t n = strlen(known_fns[i].fn);

		if (!strncmp(name, known_fns[i].fn, n) && (!name[n] || name[n] == '+'))
			return known_fns[i].remedy;
	}
	return NULL;
}

const char * const ts_sched_whys[TS_NR_SCHED_WHY] = {
	[TS_WHY_DEADLINE] = "deadline",
	[TS_WHY_FAIR_SERVER] = "fair-server",
	[TS_WHY_CPU_QUOTA] = "cpu-quota",
	[TS_WHY_UNNAMED] = "unnamed",
	[TS_WHY_KWORKER] = "kworker",
	[TS_WHY_PERCPU_KTHREAD] = "percpu-kthread",
	[TS_WHY_SHARED] = "shared",
	[TS_WHY_ALONE] = "alone",
	[TS_WHY_OTHERS] = "others",
	[TS_WHY_NO_TASK] = "no-task",
	[TS_WHY_SCX] = "scx",
};

/* ts_sched_why_of - the index of a label of ts_sched_whys, or -1 */
int ts_sched_why_of(const char *why)
{
	for (int i = 0; why && i < TS_NR_SCHED_WHY; i++)
		if (!strcmp(why, ts_sched_whys[i]))
			return i;
	return -1;
}

/* set_cause - the cause, its anchor and its rule's remedy (a caller may add to it) */
static void set_cause(struct ts_diagnosis *d, const char *name)
{
	const struct ts_diag_rule *r = ts_diag_rule_of(name);

	snprintf(d->cause, sizeof(d->cause), "%s", name);
	d->anchor = r ? r->anchor : "diag-unknown";
	d->remedy[0] = '\0';
	PUT(d->remedy, "%s", r ? r->remedy : "see the cookbook");
}

/* "comm(pid)", escaped for the table (JSON takes it as it is) */
static const char *task_name(const struct ts_analysis *an, int pid, char *buf, size_t len)
{
	const char *comm = ts_comm_get(an, pid);
	char safe[SAFE_LEN];

	snprintf(buf, len, "%s(%d)", comm ? ts_text_safe(safe, sizeof(safe), comm) : "?", pid);
	return buf;
}

static int is_kworker(const struct ts_analysis *an, int pid)
{
	const char *comm = ts_comm_get(an, pid);

	return comm && !strncmp(comm, "kworker/", 8);
}

/*
 * The per-CPU kernel threads a nohz_full CPU cannot send away: the kernel
 * wakes each on its own CPU for work that CPU made.  "Pin one elsewhere"
 * is no remedy for them; what made the work is.  Those that run SCHED_FIFO
 * (ktimers, irq_work: PREEMPT_RT's) or in the stop class (migration) never
 * hold SCHED: sched_can_stop_tick() counts CFS and RR tasks only, so they
 * ran while something else held it, and are no co-runner of it.
 */
static const struct percpu_kthread {
	const char *prefix;	/* the comm up to the CPU number */
	int holds_sched;	/* a CFS thread: it can make SCHED hold the tick */
	const char *what;
	const char *remedy;
} percpu_kthreads[] = {
	{ "ksoftirqd/", 1, "the softirq thread, woken when softirqs pile up on the CPU",
	  "move the IRQs and timers that raise them elsewhere (irqaffinity=; the irq and timer causes)" },
	{ "rcuc/", 1,
	  "RCU's callback thread (rcutree.use_softirq=0; SCHED_FIFO, and no co-runner, with rcutree.kthread_prio above 0)",
	  "rcu_nocbs= for the isolated CPUs" },
	{ "ktimers/", 0, NULL, NULL },
	{ "irq_work/", 0, NULL, NULL },
	{ "migration/", 0, NULL, NULL },
};

/* pid's entry in percpu_kthreads (its comm is PREFIX and cpu's number), or NULL */
static const struct percpu_kthread *percpu_kthread(const struct ts_analysis *an, int pid,
						   int cpu)
{
	const size_t count = sizeof(percpu_kthreads) / sizeof(percpu_kthreads[0]);
	const char *comm = ts_comm_get(an, pid);
	char *end;

	for (size_t i = 0; comm && i < count; i++) {
		size_t n = strlen(percpu_kthreads[i].prefix);

		if (strncmp(comm, percpu_kthreads[i].prefix, n))
			continue;
		/* the prefix matched, so comm is at least n long */
		if (comm[n] < '0' || comm[n] > '9')
			continue;
		if (strtol(comm + n, &end, 10) == cpu && !*end)
			return &percpu_kthreads[i];
	}
	return NULL;
}

/* Could this task of the CPU have made SCHED hold the tick? */
static int holds_sched(const struct ts_analysis *an, const struct ts_cpu *c, int pid)
{
	const struct percpu_kthread *k = percpu_kthread(an, pid, c->cpu);

	return !k || k->holds_sched;
}

/* What --probes or the patched kernel would tell that this source does not. */
static const char *would_tell(const struct ts_analysis *an)
{
	return an->caps.probes.used ? "the patched kernel" : "--probes or the patched kernel";
}

/* " (3 events lost)", " (events lost in 2 gaps of unknown size)", both, or nothing */
static void lost_note(const struct ts_cpu *c, char *buf, size_t len)
{
	if (c->lost_events)
		put(buf, len, " (%" PRIu64 " event%s lost)", c->lost_events,
		    c->lost_events == 1 ? "" : "s");
	if (c->lost_unknown)
		put(buf, len, " (events lost in %" PRIu64 " gap%s of unknown size)", c->lost_unknown,
		    c->lost_unknown == 1 ? "" : "s");
}

/* The part of the time the shares are of: the window, or its known part when some is unknown. */
static uint64_t known_ns(const struct ts_metrics *m)
{
	return m->unknown_ns ? m->stopped_ns + m->running_ns : m->window_ns;
}

/* "tick ran 40.0% of the window (3 events lost)" */
static void summary(const struct ts_cpu *c, const struct ts_metrics *m, int tickless,
		    char *buf, size_t len)
{
	double share = m->tickless_share < 0 ? 0 : m->tickless_share;

	put(buf, len, "%s %.1f%% of the %s", tickless ? "tickless" : "tick ran",
	    100.0 * (tickless ? share : 1 - share), m->unknown_ns ? "known time" : "window");
	lost_note(c, buf, len);
}

/* Rule 1: nothing, or too little, is known of the CPU's tick. */
static int diag_data(const struct ts_analysis *an, const struct ts_cpu *c,
		     const struct ts_metrics *m, struct ts_diagnosis *d)
{
	if (m->window_ns && m->unknown_share <= MAX_UNKNOWN)
		return 0;
	set_cause(d, "UNKNOWN");
	d->remedy[0] = '\0';
	if (!m->window_ns) {
		PUT(d->detail, "the window is empty");
		PUT(d->remedy, "record for longer, or widen --time-range");
		return 1;
	}
	PUT(d->detail, "tick state unknown %.1f%% of the window", 100.0 * m->unknown_share);
	if (c->lost_events || c->lost_unknown) {
		lost_note(c, d->detail, sizeof(d->detail));
		PUT(d->remedy, "record again with a larger buffer (-b) or fewer CPUs (-C)");
	} else if (!an->snapshot_ts) {
		PUT(d->remedy, "record with tickstat record, which reads each CPU's state at the start");
	} else {
		PUT(d->remedy, "no event told its tick state: record for longer");
	}
	return 1;
}

/*
 * A cause that carries others: a softirq (the IRQs and timers that raise
 * it), the local APIC timer's vector (every timer and hrtimer expiry, and
 * the tick).  Named only when nothing it carries is.
 */
static int carrier(const struct ts_cause *k)
{
	return k->type == TS_CAUSE_SOFTIRQ ||
	       (k->type == TS_CAUSE_VECTOR && k->key == TS_VEC_LOCAL_TIMER);
}

/*
 * The cause that interrupted the tickless CPU most often: a work item, a
 * timer, an hrtimer, an IRQ or an x86 vector; a carrier only when nothing
 * else did.  NULL when none did, or none is known.
 */
static const struct ts_cause *top_interrupter(const struct ts_analysis *an,
					      const struct ts_cpu *c)
{
	unsigned int known = ts_analysis_causes_known(an);
	int order[TS_MAX_CAUSES], n = ts_cause_order(c, order);
	const struct ts_cause *best = NULL;

	for (int i = 0; i < n; i++) {
		const struct ts_cause *k = &c->causes[order[i]];
		int soft = carrier(k);

		if (!(known & (1u << k->type)) || !k->stopped)
			continue;
		if (!best || (carrier(best) && !soft) ||
		    (carrier(best) == soft && k->stopped > best->stopped))
			best = k;
	}
	return best;
}

/* An IPI: a vector another CPU sends to make this one act */
static int is_ipi(const struct ts_cause *k)
{
	return k->type == TS_CAUSE_VECTOR &&
	       (k->key == TS_VEC_RESCHEDULE || k->key == TS_VEC_CALL_FUNCTION ||
		k->key == TS_VEC_CALL_FUNCTION_SINGLE || k->key == TS_VEC_X86_PLATFORM_IPI);
}

/* "IRQ 4 ttyS0", "hrtimer watchdog_timer_fn", "softirq TIMER" */
static void cause_label(const struct ts_analysis *an, const struct ts_cause *k, char *buf,
			size_t len)
{
	char name[NAME_LEN], safe[SAFE_LEN];

	ts_cause_name(an, k, name, sizeof(name));
	snprintf(buf, len, "%s %s", k->type == TS_CAUSE_IRQ ? "IRQ" : is_ipi(k) ? "IPI" :
		 k->type == TS_CAUSE_VECTOR ? "x86 vector" : ts_cause_type_name(k->type),
		 ts_text_safe(safe, sizeof(safe), name));
}

/*
 * Who armed a timer, for the detail: ", armed by usleep(544)@2 (25 of 25
 * armings)", the top armer other than the timer itself, and "; it re-arms
 * itself" when its callback does; nothing when the armings are unknown.
 */
static void armed_by(const struct ts_analysis *an, const struct ts_cause *k, char *buf,
		     size_t len)
{
	const struct ts_armer *top = NULL, *self = NULL;
	char name[TS_CAUSE_NAME + 160], safe[SAFE_LEN];
	struct ts_armer by[TS_MAX_ARMERS];
	int n;

	if (!(ts_analysis_armers_known(an) & (1u << k->type)) || !k->armed)
		return;
	n = ts_armers_of(an, k, by);
	for (int i = 0; i < n; i++) {
		const struct ts_armer *a = &by[i];

		if (a->ctx == TS_ARM_SELF)
			self = a;
		else if (!top || a->count > top->count)
			top = a;
	}
	if (top) {
		ts_armer_name(an, top, name, sizeof(name));
		put(buf, len, ", armed by %s (%" PRIu64 " of %" PRIu64 " armings)",
		    ts_text_safe(safe, sizeof(safe), name), top->count, k->armed);
	}
	if (self)
		put(buf, len, "%s it re-arms itself", top ? ";" : ",");
}

/* The remedy of a cause: its function's, or its type's (an IRQ's names the file, a vector its kind's). */
static void cause_remedy(const struct ts_analysis *an, const struct ts_cause *k,
			 struct ts_diagnosis *d)
{
	char name[NAME_LEN];
	const struct ts_diag_rule *r;
	const char *fn;

	ts_cause_name(an, k, name, sizeof(name));
	if (k->type == TS_CAUSE_VECTOR) {
		snprintf(name, sizeof(name), "vector:%s", ts_vector_name((unsigned int)k->key));
		r = ts_diag_rule_of(name);
		if (r) {
			d->anchor = r->anchor;
			d->remedy[0] = '\0';
			PUT(d->remedy, "%s", r->remedy);
		}
		return;
	}
	fn = k->type == TS_CAUSE_IRQ || k->type == TS_CAUSE_SOFTIRQ ? NULL : known_fn_remedy(name);
	if (fn) {
		d->remedy[0] = '\0';
		PUT(d->remedy, "%s", fn);
	} else if (k->type == TS_CAUSE_IRQ) {
		PUT(d->remedy, " (/proc/irq/%" PRIu64 "/smp_affinity_list)", k->key);
	}
}

/* Rule 3: the tick (almost) never ran; what interrupted the CPU, if anything. */
static int diag_tickless(const struct ts_analysis *an, const struct ts_cpu *c,
			 const struct ts_metrics *m, struct ts_diagnosis *d)
{
	unsigned int known = ts_analysis_causes_known(an);
	const struct ts_cause *k;
	char label[NAME_LEN + SAFE_LEN], n[32];

	if (m->tickless_share < 0 || 1 - m->tickless_share >= MIN_RAN)
		return 0;
	k = top_interrupter(an, c);
	if (!k) {
		set_cause(d, "TICKLESS");
		summary(c, m, 1, d->detail, sizeof(d->detail));
		if (!(known & ~(1u << TS_CAUSE_SOFTIRQ)))
			PUT(d->remedy, " (what interrupted it is unknown: record with causes)");
		snprintf(d->line, sizeof(d->line), "CPU %d: %s; %s", c->cpu, d->detail, d->remedy);
		return 1;
	}
	set_cause(d, ts_cause_type_name(k->type));
	cause_label(an, k, label, sizeof(label));
	PUT(d->detail, "interrupted %s by %s while tickless", times(k->stopped, n, sizeof(n)), label);
	if (is_ipi(k) && m->window_ns &&
	    (double)k->stopped * 1e9 / (double)m->window_ns >= IPI_STORM_HZ)
		PUT(d->detail, " (an IPI storm: %.0f a second)",
		    (double)k->stopped * 1e9 / (double)m->window_ns);
	armed_by(an, k, d->detail, sizeof(d->detail));
	cause_remedy(an, k, d);
	snprintf(d->line, sizeof(d->line), "CPU %d: ", c->cpu);
	summary(c, m, 1, d->line, sizeof(d->line));
	PUT(d->line, "; %s: %s", d->detail, d->remedy);
	return 1;
}

/* The work a CPU ran most while its tick ran, then most often; NULL if none. */
static const struct ts_cause *top_work(const struct ts_cpu *c)
{
	const struct ts_cause *best = NULL;

	for (int i = 0; i < c->nr_causes; i++) {
		const struct ts_cause *k = &c->causes[i];

		if (k->type != TS_CAUSE_WORK)
			continue;
		if (!best || k->held > best->held ||
		    (k->held == best->held && k->count > best->count))
			best = k;
	}
	return best;
}

/* The timer function that ran most often while the tick ran, if timers are known. */
static const struct ts_cause *top_held(const struct ts_analysis *an, const struct ts_cpu *c,
				       int type)
{
	const struct ts_cause *best = NULL;

	if (!(ts_analysis_causes_known(an) & (1u << type)))
		return NULL;
	for (int i = 0; i < c->nr_causes; i++) {
		const struct ts_cause *k = &c->causes[i];

		if (k->type == type && k->held && (!best || k->held > best->held))
			best = k;
	}
	return best;
}

/* An x86 vector of this kind, if it interrupted the CPU while the tick ran */
static const struct ts_cause *vector_held(const struct ts_analysis *an, const struct ts_cpu *c,
					  int kind)
{
	if (!(ts_analysis_vectors_known(an) & (1u << kind)))
		return NULL;
	for (int i = 0; i < c->nr_causes; i++)
		if (c->causes[i].type == TS_CAUSE_VECTOR && c->causes[i].key == (uint64_t)kind &&
		    c->causes[i].held)
			return &c->causes[i];
	return NULL;
}

/* SCHED with a kworker among the co-runners: the work it ran, when causes tell. */
static void sched_kworker(const struct ts_analysis *an, const struct ts_cpu *c, int other,
			  int kworker, struct ts_diagnosis *d)
{
	const struct ts_cause *k = NULL;
	char kw[SAFE_LEN + 16], task[SAFE_LEN + 16], name[NAME_LEN], safe[SAFE_LEN], n[32];

	d->why = ts_sched_whys[TS_WHY_KWORKER];
	task_name(an, kworker, kw, sizeof(kw));
	if (ts_analysis_causes_known(an) & (1u << TS_CAUSE_WORK))
		k = top_work(c);
	if (!k) {
		if (other > 0)
			PUT(d->detail, "%s and %s shared the CPU",
			    task_name(an, other, task, sizeof(task)), kw);
		else
			PUT(d->detail, "%s ran work on the CPU", kw);
		if (ts_analysis_causes_known(an) & (1u << TS_CAUSE_WORK))
			PUT(d->detail, "; no work item seen");
		d->remedy[0] = '\0';
		PUT(d->remedy, "record with causes (work) to name the work");
		return;
	}
	ts_cause_name(an, k, name, sizeof(name));
	PUT(d->detail, "%s ran %s (%s", kw, ts_text_safe(safe, sizeof(safe), name),
	    times(k->count, n, sizeof(n)));
	if (k->queued && k->queuer_pid >= 0)
		PUT(d->detail, ", queued by %s on CPU %d",
		    k->queuer_irq ? "an interrupt" :
		    task_name(an, k->queuer_pid, task, sizeof(task)), k->queuer_cpu);
	PUT(d->detail, ")");
	d->anchor = ts_diag_rule_of("work")->anchor;
	d->remedy[0] = '\0';
	if (known_fn_remedy(name))
		PUT(d->remedy, "%s", known_fn_remedy(name));
	else
		PUT(d->remedy, "%s", ts_diag_rule_of("work")->remedy);
}

/* The co-runners that ran while SCHED held the tick, most of that time first. */
static int sched_runners(const struct ts_analysis *an, const struct ts_cpu *c, int *pids,
			 int max)
{
	int idx[TS_MAX_TASKS], n = 0;

	for (int i = 0; i < c->nr_tasks; i++)
		if (c->tasks[i].sched_ns && c->tasks[i].pid > 0 &&
		    holds_sched(an, c, c->tasks[i].pid))
			idx[n++] = i;
	for (int i = 1; i < n; i++)		/* a few: insertion sort */
		for (int j = i; j > 0; j--) {
			const struct ts_task_time *a = &c->tasks[idx[j - 1]], *b = &c->tasks[idx[j]];
			int t;

			if (a->sched_ns > b->sched_ns ||
			    (a->sched_ns == b->sched_ns && a->pid < b->pid))
				break;
			t = idx[j], idx[j] = idx[j - 1], idx[j - 1] = t;
		}
	for (int i = 0; i < n && i < max; i++)
		pids[i] = c->tasks[idx[i]].pid;
	return n;
}

/* The kernel's version from the source's release ("6.12.57+deb13-amd64"), 0 unknown */
static int kernel_version(const struct ts_analysis *an)
{
	int major, minor;

	if (sscanf(an->kernel, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 1000 + minor;
}

/*
 * How often the fair server's replenishment timer (dl_task_timer) was armed
 * for this CPU: a throttled server arms it, and a CPU with no
 * SCHED_DEADLINE task has no other user of it.  -1 when the source did not
 * record hrtimer armings.
 */
static int64_t dl_timer_armed(const struct ts_analysis *an, const struct ts_cpu *c)
{
	static const char fn[] = "dl_task_timer";
	const size_t len = sizeof(fn) - 1;
	char name[NAME_LEN];

	if (!(ts_analysis_armers_known(an) & (1u << TS_CAUSE_HRTIMER)))
		return -1;
	for (int i = 0; i < c->nr_causes; i++) {
		const struct ts_cause *k = &c->causes[i];

		if (k->type != TS_CAUSE_HRTIMER)
			continue;
		ts_cause_name(an, k, name, sizeof(name));
		/* a symbol may carry its offset: "dl_task_timer+0x0" */
		if (!strncmp(name, fn, len) && (!name[len] || name[len] == '+'))
			return (int64_t)k->armed;
	}
	/* hrtimers beyond the table were summed: it may be among them */
	return c->causes_other[TS_CAUSE_HRTIMER].armed ? -1 : 0;
}

#define FAIR_SERVER_REMEDY \
	"set /sys/kernel/debug/sched/fair_server/cpuN/runtime to 0 on isolated CPUs, " \
	"if RT starvation is not a risk"
#define QUOTA_REMEDY	"remove the quota on isolated CPUs (echo max > its cgroup's cpu.max)"

/* Why a task's quota is unknown: the source carries none, or the recorder could not read it */
static const char *quota_unknown_why(const struct ts_analysis *an)
{
	if (an->causes_recorded < 0)
		return "the source does not record quotas: record with tickstat";
	if (an->quotas_dropped)
		return "no cgroup v2 where it ran, it was gone, or more tasks ran than it keeps";
	return "no cgroup v2 where it ran, or it was gone";
}

/*
 * SCHED held while one task ran: the task's cgroup CPU quota (the recorder
 * read it) keeps the tick since 6.6; with no quota on 6.12 and later, the
 * fair server, and its timer's armings where they were recorded.  A quota
 * that could not be read (no cgroup v2 where the task ran) leaves the fair
 * server to its timer alone: armed here, it was there.  Returns 1 when it
 * says which, 0 when the data cannot.
 */
static int lone_sched_explained(const struct ts_analysis *an, const struct ts_cpu *c, int pid,
				struct ts_diagnosis *d)
{
	const struct ts_quota *q = ts_analysis_quota(an, pid);
	int version = kernel_version(an);
	int64_t armed = dl_timer_armed(an, c);
	char task[SAFE_LEN + 16];

	task_name(an, pid, task, sizeof(task));
	if (q && q->quota_us >= 0 && version >= 6006) {
		PUT(d->detail, "%s ran alone under a cgroup CPU quota (cpu.max %" PRId64 " %" PRIu64
		    "), which keeps the tick since 6.6", task, q->quota_us, q->period_us);
		d->anchor = "cgroup-cpu-quota";
		d->why = ts_sched_whys[TS_WHY_CPU_QUOTA];
		d->remedy[0] = '\0';
		PUT(d->remedy, "%s", QUOTA_REMEDY);
		return 1;
	}
	if (version < 6012 || (!q && armed <= 0))
		return 0;
	PUT(d->detail, "%s ran alone %s: on 6.12 and later the fair server (the deadline server "
	    "for CFS tasks) holds the tick about once a second", task,
	    q ? "without a CPU quota" : "(its CPU quota unknown)");
	if (armed == 1)
		PUT(d->detail, "; its timer (dl_task_timer) was armed once here");
	else if (armed > 1)
		PUT(d->detail, "; its timer (dl_task_timer) was armed %" PRId64 " times here",
		    armed);
	else if (!armed)
		PUT(d->detail, "; but its timer (dl_task_timer) was never armed here");
	d->anchor = "fair-server";
	d->why = ts_sched_whys[TS_WHY_FAIR_SERVER];
	d->remedy[0] = '\0';
	PUT(d->remedy, "%s", FAIR_SERVER_REMEDY);
	return 1;
}

/*
 * Did pid run for 90% or more of the time SCHED held the tick, of the
 * tasks that can hold it (holds_sched())?  Others then only passed by (a
 * kworker for a moment): the question is why this one kept it.
 */
static int mostly_one(const struct ts_analysis *an, const struct ts_cpu *c, int pid)
{
	uint64_t all = c->tasks_other.sched_ns, its = 0;

	for (int i = 0; i < c->nr_tasks; i++) {
		if (!holds_sched(an, c, c->tasks[i].pid))
			continue;
		all += c->tasks[i].sched_ns;
		if (c->tasks[i].pid == pid)
			its = c->tasks[i].sched_ns;
	}
	return all && its >= all / 10 * 9;
}

/* SCHED: who shared the CPU, or why one task kept the tick; detail its sub-reason (-1 unknown) */
static void diag_sched(const struct ts_analysis *an, const struct ts_cpu *c, int detail,
		       struct ts_diagnosis *d)
{
	char a[SAFE_LEN + 16], b[SAFE_LEN + 16];
	int pids[2], n;

	if (detail == 1) {			/* DEADLINE */
		PUT(d->detail, "a SCHED_DEADLINE task is queued: deadline tasks keep the tick by design");
		d->why = ts_sched_whys[TS_WHY_DEADLINE];
		d->remedy[0] = '\0';
		PUT(d->remedy, "nothing, or run it on a CPU that is not isolated");
		return;
	}
	if (detail == 4) {			/* FAIR_SERVER: the kernel says so */
		PUT(d->detail, "%s", "the kernel names the fair server (the deadline server for CFS "
		    "tasks)");
		d->anchor = "fair-server";
		d->why = ts_sched_whys[TS_WHY_FAIR_SERVER];
		d->remedy[0] = '\0';
		PUT(d->remedy, "%s", FAIR_SERVER_REMEDY);
		return;
	}
	if (detail == 6) {			/* SCX: the kernel says so */
		PUT(d->detail, "the kernel names sched_ext: its BPF scheduler gave the running task "
		    "a finite slice, or sched_ext bypasses the BPF scheduler");
		d->why = ts_sched_whys[TS_WHY_SCX];
		d->remedy[0] = '\0';
		PUT(d->remedy, "have the BPF scheduler give tasks on isolated CPUs an infinite slice "
		    "(SCX_SLICE_INF)");
		return;
	}
	if (detail == 5) {			/* CFS_BANDWIDTH: the kernel says so */
		PUT(d->detail, "the kernel names a CFS bandwidth quota (a cgroup's cpu.max)");
		d->anchor = "cgroup-cpu-quota";
		d->why = ts_sched_whys[TS_WHY_CPU_QUOTA];
		d->remedy[0] = '\0';
		PUT(d->remedy, "%s", QUOTA_REMEDY);
		return;
	}
	if (!an->caps.sched_switch) {
		PUT(d->detail, "more than one task was runnable; no sched_switch events name them");
		d->why = ts_sched_whys[TS_WHY_UNNAMED];
		d->remedy[0] = '\0';
		PUT(d->remedy, "record with sched:sched_switch to name them");
		return;
	}
	n = sched_runners(an, c, pids, 2);
	/* one task had nearly all of it: why one task kept the tick comes first */
	if (n >= 2 && mostly_one(an, c, pids[0]) && lone_sched_explained(an, c, pids[0], d))
		return;
	if (n >= 2 && (is_kworker(an, pids[0]) || is_kworker(an, pids[1]))) {
		int kw = is_kworker(an, pids[0]) ? 0 : 1;

		sched_kworker(an, c, pids[!kw], pids[kw], d);
		return;
	}
	/* a CPU's own thread among the two: sched_runners() kept only those that hold SCHED */
	if (n >= 2) {
		const struct percpu_kthread *k = percpu_kthread(an, pids[0], c->cpu);
		int kt = k ? 0 : 1;

		if (!k)
			k = percpu_kthread(an, pids[1], c->cpu);
		if (k) {
			task_name(an, pids[!kt], a, sizeof(a));
			task_name(an, pids[kt], b, sizeof(b));
			PUT(d->detail, "%s shared the CPU with %s, %s", a, b, k->what);
			d->anchor = "percpu-kthread";
			d->why = ts_sched_whys[TS_WHY_PERCPU_KTHREAD];
			d->remedy[0] = '\0';
			PUT(d->remedy, "%s", k->remedy);
			return;
		}
	}
	if (n >= 2) {
		task_name(an, pids[0], a, sizeof(a));
		task_name(an, pids[1], b, sizeof(b));
		d->why = ts_sched_whys[TS_WHY_SHARED];
		if (n == 2)
			PUT(d->detail, "%s and %s shared the CPU", a, b);
		else
			PUT(d->detail, "%s, %s and %d more shared the CPU", a, b, n - 2);
		if (detail == 2)		/* RR */
			PUT(d->remedy, ", or make them SCHED_FIFO");
		return;
	}
	if (n == 1 && is_kworker(an, pids[0])) {
		sched_kworker(an, c, -1, pids[0], d);
		return;
	}
	if (n == 1 && lone_sched_explained(an, c, pids[0], d))
		return;
	d->why = ts_sched_whys[n ? TS_WHY_ALONE : TS_WHY_NO_TASK];
	if (n == 1 && !ts_analysis_quota(an, pids[0]))
		PUT(d->detail, "%s ran alone: unexplained, its cgroup CPU quota unknown (%s); %s",
		    task_name(an, pids[0], a, sizeof(a)), quota_unknown_why(an),
		    "a cgroup CPU quota (cpu.max, 6.6+) or the 6.12 fair server keep the tick for one task");
	else if (n == 1)
		PUT(d->detail, "%s ran alone: unexplained; %s", task_name(an, pids[0], a, sizeof(a)),
		    "a cgroup CPU quota (cpu.max, 6.6+) or the 6.12 fair server keep the tick for one task");
	d->remedy[0] = '\0';
	if (n == 0 && c->tasks_other.sched_ns) {
		/* the table of co-runners was full: the ones that held it are summed */
		PUT(d->detail, "tasks beyond the co-runners table (its first %d) held it",
		    TS_MAX_TASKS);
		d->why = ts_sched_whys[TS_WHY_OTHERS];
		PUT(d->remedy, "pin everything but the isolated task elsewhere (cpusets, taskset)");
	} else if (n == 0) {
		/* no co-runner to blame, and no quota or fair server to look for */
		PUT(d->detail, "no task was seen running while it held the tick");
		PUT(d->remedy, "see what was woken here (tickstat record -e sched:sched_wakeup, "
		    "then trace-cmd report the recording)");
	} else {
		PUT(d->remedy, "tickstat doctor checks both (cgroup-cpu-quota, fair-server)");
	}
	if (!an->caps.dep_events)
		PUT(d->remedy, "; %s would name the scheduling class", would_tell(an));
}

/* The culprit that set dependency bit on this CPU (or every CPU) most often. */
static const struct ts_culprit *culprit_of(const struct ts_analysis *an, int cpu,
					   unsigned int bit)
{
	int order[TS_MAX_CULPRITS], n = ts_culprit_order(an, order);

	for (int i = 0; i < n; i++) {
		const struct ts_culprit *k = &an->culprits[order[i]];

		if (k->bit == bit && k->sets && (k->cpu == cpu || k->cpu < 0))
			return k;
	}
	return NULL;
}

/* A dependency other than SCHED: who set it, or what would tell. */
static void diag_dependency(const struct ts_analysis *an, const struct ts_cpu *c,
			    const struct ts_reason *r, struct ts_diagnosis *d)
{
	const struct ts_culprit *k = culprit_of(an, c->cpu, r->value);
	char task[SAFE_LEN + 16], safe[SAFE_LEN];
	const char *caller;

	PUT(d->detail, "%s", meaning_of(d->cause));
	if (k) {
		caller = ts_caller_get(an, k->caller);
		PUT(d->detail, "; set by %s", task_name(an, k->pid, task, sizeof(task)));
		if (caller)
			PUT(d->detail, " at %s", ts_text_safe(safe, sizeof(safe), caller));
	} else if (!an->caps.dep_events) {
		PUT(d->detail, "; %s would name who set it", would_tell(an));
	} else {
		PUT(d->detail, "; set before the window: no culprit seen");
	}
}

/* A retain reason or a reason without a decision: its meaning, and what more the data says. */
static void diag_other(const struct ts_analysis *an, const struct ts_cpu *c,
		       const struct ts_reason *r, struct ts_diagnosis *d)
{
	const struct ts_cause *k = NULL;
	char label[NAME_LEN + SAFE_LEN], n[32];

	PUT(d->detail, "%s", meaning_of(d->cause));
	if (r->class == TS_RC_RETAIN && (r->value == 1 || r->value == 5))	/* TIMER_DUE, TIMER_SOFTIRQ */
		k = top_held(an, c, TS_CAUSE_TIMER);
	if (r->class == TS_RC_RETAIN && r->value == 4)				/* IRQ_WORK */
		k = vector_held(an, c, TS_VEC_IRQ_WORK);
	if (k) {
		cause_label(an, k, label, sizeof(label));
		PUT(d->detail, "; %s ran %s while the tick ran", label, times(k->held, n, sizeof(n)));
		armed_by(an, k, d->detail, sizeof(d->detail));
	}
	if (r->class == TS_RC_NONE && r->value == TS_NONE_UNREPORTED && !an->caps.retain) {
		d->remedy[0] = '\0';
		PUT(d->remedy, "%s would name the reason", would_tell(an));
	}
}

/* Rule 4: the reason that held the tick longest. */
static void diag_reason(const struct ts_analysis *an, const struct ts_cpu *c,
			const struct ts_metrics *m, struct ts_diagnosis *d)
{
	int order[TS_MAX_REASONS], n = ts_reason_order(c, order);
	const struct ts_reason *r = n ? &c->reasons[order[0]] : NULL;
	struct ts_reason none = { .class = TS_RC_NONE, .value = TS_NONE_UNREPORTED };
	char name[48];

	if (!r || !r->time_ns)		/* the tick ran, and nothing held it: no decision said why */
		r = &none;
	set_cause(d, ts_reason_name(r, name, sizeof(name)));
	if (ts_reason_is_sched(r))
		diag_sched(an, c, ts_sched_detail(an, c), d);
	else if (r->class == TS_RC_DEP)
		diag_dependency(an, c, r, d);
	else
		diag_other(an, c, r, d);
	snprintf(d->line, sizeof(d->line), "CPU %d: ", c->cpu);
	summary(c, m, 0, d->line, sizeof(d->line));
	PUT(d->line, "; %s (%.1f%%)", d->cause, pct(r->time_ns, known_ns(m)));
	if (d->detail[0])
		PUT(d->line, ": %s", d->detail);
	PUT(d->line, "; %s", d->remedy);
}

/* ts_diagnose - the diagnosis of one CPU of a finished analysis; never empty */
/*
 * The audit tickstat record stored at the start (docrec.c): its findings on
 * this CPU that the recording saw happen, named after the line, so that the
 * set-up problem and its effect meet (issue 23's join).
 */
static void doctor_saw(const struct ts_analysis *an, const struct ts_cpu *c,
		       struct ts_diagnosis *d)
{
	const struct ts_doctor_rec *rec = ts_doctor_stored(an);
	int shown = 0;

	d->has_audit = rec != NULL;
	for (int i = 0; rec && i < rec->a.nr; i++) {
		const struct ts_finding *f = &rec->a.f[i];

		if (!f->kind || !ts_cpuset_has(&f->cpus, c->cpu) || ts_doctor_seen_at(an, i) <= 0 ||
		    strstr(d->doctor, f->kind->id))
			continue;
		if (shown++ == 3)
			break;
		PUT(d->doctor, "%s%s", shown > 1 ? ", " : "", f->kind->id);
	}
	if (d->doctor[0])
		PUT(d->line, " (tickstat doctor found it at the start: %s)", d->doctor);
}

void ts_diagnose(const struct ts_analysis *an, const struct ts_cpu *c, struct ts_diagnosis *d)
{
	struct ts_metrics m;

	memset(d, 0, sizeof(*d));
	d->cpu = c->cpu;
	ts_metrics_of(an, c, &m);
	if (diag_data(an, c, &m, d)) {
		snprintf(d->line, sizeof(d->line), "CPU %d: %s; the data cannot tell: %s", c->cpu,
			 d->detail, d->remedy);
	} else if (c->nohz_full == 0) {
		set_cause(d, "NOT_NOHZ_FULL");
		PUT(d->detail, "%s", meaning_of(d->cause));
		snprintf(d->line, sizeof(d->line), "CPU %d: ", c->cpu);
		summary(c, &m, 0, d->line, sizeof(d->line));
		PUT(d->line, "; NOT_NOHZ_FULL: %s; %s", d->detail, d->remedy);
	} else if (!diag_tickless(an, c, &m, d)) {
		diag_reason(an, c, &m, d);
	}
	doctor_saw(an, c, d);
}

/* SCHED's explanation with this sub-reason (-1 unknown) */
static void explain_sched(const struct ts_analysis *an, const struct ts_cpu *c, int detail,
			  struct ts_diagnosis *d)
{
	memset(d, 0, sizeof(*d));
	d->cpu = c->cpu;
	set_cause(d, "SCHED");
	diag_sched(an, c, detail, d);
}

/*
 * ts_explain_sched - why SCHED held a CPU's tick, as the diagnosis says it
 * when SCHED is the main cause: the tasks that shared the CPU, a lone
 * task's CPU quota or the fair server, or that nothing in the data tells.
 * The reports give it beside every SCHED reason, the main cause or not, so
 * that SCHED is never left bare.
 */
void ts_explain_sched(const struct ts_analysis *an, const struct ts_cpu *c, struct ts_diagnosis *d)
{
	explain_sched(an, c, ts_sched_detail(an, c), d);
}

/*
 * ts_explain_sched_interval - the same for a watcher's last interval: its
 * co-runners and causes are the interval's (the tables restart each
 * interval), and the sub-reason is the one last set, where the report's
 * (the one that held the bit longest) would let an old phase name every
 * later interval.
 */
void ts_explain_sched_interval(const struct ts_analysis *an, const struct ts_cpu *c,
			       struct ts_diagnosis *d)
{
	explain_sched(an, c, c->sched_detail, d);
}

/* ts_table_diagnosis - the table's first section: a line per CPU */
void ts_table_diagnosis(FILE *f, const struct ts_analysis *an)
{
	struct ts_diagnosis d;

	fprintf(f, "# diagnosis (docs/cookbook.md has each remedy at its [#anchor])\n");
	for (int i = 0; i < an->nr_cpus; i++) {
		const struct ts_cpu *c = an->cpus[i];

		if (!c || !c->active)
			continue;
		ts_diagnose(an, c, &d);
		fprintf(f, "# %s [#%s]\n", d.line, d.anchor);
	}
	fprintf(f, "#\n");
}

/* ts_json_diagnosis - a CPU's "diagnosis" object */
void ts_json_diagnosis(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c)
{
	struct ts_diagnosis d;

	ts_diagnose(an, c, &d);
	fputs("\"diagnosis\":{\"cause\":", f);
	ts_json_string(f, d.cause);
	fputs(",\"detail\":", f);
	ts_json_string(f, d.detail);
	fputs(",\"line\":", f);
	ts_json_string(f, d.line);
	fputs(",\"remedy\":", f);
	ts_json_string(f, d.remedy);
	fputs(",\"doctor\":", f);
	if (!d.has_audit) {
		fputs("null", f);
	} else {
		char ids[TS_DIAG_TEXT], *tok, *save = NULL;
		int first = 1;

		snprintf(ids, sizeof(ids), "%s", d.doctor);
		fputc('[', f);
		for (tok = strtok_r(ids, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
			fprintf(f, "%s", first ? "" : ",");
			ts_json_string(f, tok);
			first = 0;
		}
		fputc(']', f);
	}
	fprintf(f, ",\"cookbook\":\"docs/cookbook.md#%s\"}", d.anchor);
}
