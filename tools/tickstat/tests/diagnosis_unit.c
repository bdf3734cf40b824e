// SPDX-License-Identifier: GPL-2.0
/*
 * diagnosis_unit.c - host-side unit tests (CUnit) of the diagnosis per CPU
 * (diagnosis.c): synthetic streams through the state machine, then the
 * exact verdict of each rule class, and a verdict for every reason
 * tickstat can print, under ASan and UBSan.
 *
 * usage: diagnosis-unit-tests
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "analysis.h"
#include "diagnosis.h"
#include "output.h"
#include "unit_run.h"
#include "unit_stream.h"

/* a refusal for dependency bit in scope, and the restart that follows on a patched kernel */
static void refuse(int cpu, uint64_t ts, int scope, unsigned int bit)
{
	struct ts_event ev = { .kind = TS_EV_TICK_STOP, .cpu = cpu, .ts = ts, .pid = task[cpu],
			       .stop = { .success = 0, .dependency = 1u << bit,
					 .has_scopes = an.caps.scopes } };

	if (scope < 4)		/* the four masks; UNKNOWN: a stock kernel's first bit only */
		ev.stop.deps[scope] = 1u << bit;
	feed(&ev);
	if (an.caps.restart)
		feed(&(struct ts_event){ .kind = TS_EV_TICK_RESTART, .cpu = cpu, .ts = ts,
					 .pid = task[cpu],
					 .restart = { .stopped_ns = -1, .cause = TS_RESTART_DEPENDENCY } });
}

/* a dependency set on cpu by pid at caller (a culprit) */
static void dep_set(int cpu, uint64_t ts, unsigned int bit, int scope, int sched, int pid,
		    uint64_t caller)
{
	feed(&(struct ts_event){ .kind = TS_EV_DEP_SET, .cpu = cpu, .ts = ts, .pid = pid,
				 .dep = { .dependency = 1u << bit, .scope = scope,
					  .target = scope == TS_SCOPE_CPU ? cpu : pid,
					  .sched = sched, .caller = caller } });
}

/* a cause's entry (exit: 0) or exit (1) */
static void cause(int cpu, uint64_t ts, int type, int exit, uint64_t key, uint64_t inst)
{
	struct ts_event ev = { .kind = TS_EV_CAUSE, .cpu = cpu, .ts = ts, .pid = task[cpu],
			       .cause = { .type = type, .exit = exit, .key = key, .inst = inst } };

	if (type == TS_CAUSE_IRQ)
		snprintf(ev.cause.name, sizeof(ev.cause.name), "dev%llu", (unsigned long long)key);
	feed(&ev);
}

/* an entry and its exit 10 us later */
static void cause_once(int cpu, uint64_t ts, int type, uint64_t key)
{
	cause(cpu, ts, type, 0, key, key);
	cause(cpu, ts + 10000, type, 1, key, key);
}

/* The diagnosis of cpu once the window ends at end. */
static struct ts_diagnosis last_diagnosis;

static struct ts_diagnosis *diagnose(int cpu, uint64_t end)
{
	ts_analysis_finish(&an, end);
	CU_ASSERT_PTR_NOT_NULL_FATAL(an.cpus[cpu]);
	ts_diagnose(&an, an.cpus[cpu], &last_diagnosis);
	return &last_diagnosis;
}

static void expect(const struct ts_diagnosis *d, const char *cause, const char *anchor,
		   const char *line)
{
	CU_ASSERT_STRING_EQUAL(d->cause, cause);
	CU_ASSERT_STRING_EQUAL(d->anchor, anchor);
	CU_ASSERT_STRING_EQUAL(d->line, line);
	if (strcmp(d->line, line) || strcmp(d->cause, cause) || strcmp(d->anchor, anchor))
		fprintf(stderr, "\n  want %s #%s '%s'\n  got  %s #%s '%s'\n", cause, anchor, line,
			d->cause, d->anchor, d->line);
	/* SCHED always has its one-word explanation, a bounded label; no other cause has one */
	if (!strcmp(cause, "SCHED")) {
		CU_ASSERT(ts_sched_why_of(d->why) >= 0);
	} else {
		CU_ASSERT_PTR_NULL(d->why);
	}
}

/* The one-word explanation of the last SCHED diagnosis (diagnose()'s) */
static void expect_why(const char *why)
{
	const char *got = last_diagnosis.why;

	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_STRING_EQUAL(got, why);
}

/* A CPU that stayed tickless: nothing to change; what interrupted it, if causes were recorded. */
static void test_tickless(void)
{
	stream_start(0, 1, 0);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	task[1] = 100;
	stop_ok(1, 1 * MS);
	expect(diagnose(1, 1 * S), "TICKLESS", "diag-tickless",
	       "CPU 1: tickless 99.9% of the window; nothing to change "
	       "(what interrupted it is unknown: record with causes)");
	ts_analysis_free(&an);

	/* causes recorded, none while tickless: nothing more to say */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	stop_ok(1, 1 * MS);
	expect(diagnose(1, 1 * S), "TICKLESS", "diag-tickless",
	       "CPU 1: tickless 99.9% of the window; nothing to change");
	ts_analysis_free(&an);

	/* the tick ran 0.5%: still tickless (below 1%) */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_RUNNING, TS_IDLE_BUSY);
	stop_ok(1, 5 * MS);
	expect(diagnose(1, 1 * S), "TICKLESS", "diag-tickless",
	       "CPU 1: tickless 99.5% of the window; nothing to change");
	ts_analysis_free(&an);
}

/*
 * Tickless but interrupted: the cause that found the tick stopped most
 * often; a softirq only when nothing else did; a function's own remedy.
 */
static void test_interrupted(void)
{
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	task[1] = 100;
	stop_ok(1, 1 * MS);			/* the tick is known stopped from here */
	for (int i = 0; i < 3; i++)
		cause_once(1, (100 + i) * MS, TS_CAUSE_IRQ, 4);
	for (int i = 0; i < 2; i++)
		cause_once(1, (200 + i) * MS, TS_CAUSE_HRTIMER, 0xb00);
	for (int i = 0; i < 5; i++)		/* more, but raised by the others */
		cause_once(1, (300 + i) * MS, TS_CAUSE_SOFTIRQ, 1);
	expect(diagnose(1, 1 * S), "irq", "cause-irq",
	       "CPU 1: tickless 99.9% of the window; interrupted 3 times by IRQ 4 dev4 while "
	       "tickless: move its affinity off the CPU (/proc/irq/4/smp_affinity_list)");
	ts_analysis_free(&an);

	/* an hrtimer whose function has a known remedy: the watchdog */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_caller_set(&an, 0xb00, "watchdog_timer_fn");
	stop_ok(1, 1 * MS);
	cause_once(1, 100 * MS, TS_CAUSE_IRQ, 4);
	cause_once(1, 200 * MS, TS_CAUSE_HRTIMER, 0xb00);
	cause_once(1, 300 * MS, TS_CAUSE_HRTIMER, 0xb00);
	expect(diagnose(1, 1 * S), "hrtimer", "cause-hrtimer",
	       "CPU 1: tickless 99.9% of the window; interrupted 2 times by hrtimer "
	       "watchdog_timer_fn while tickless: kernel.watchdog_cpumask without this CPU, "
	       "or kernel.watchdog=0");
	ts_analysis_free(&an);

	/* perf rotation: its hrtimer interrupts a CPU that looks tickless (a symbol with an offset) */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_caller_set(&an, 0xb00, "perf_mux_hrtimer_handler+0x0");
	stop_ok(1, 1 * MS);
	for (int i = 0; i < 4; i++)
		cause_once(1, (100 + 4 * i) * MS, TS_CAUSE_HRTIMER, 0xb00);
	expect(diagnose(1, 1 * S), "hrtimer", "cause-hrtimer",
	       "CPU 1: tickless 99.9% of the window; interrupted 4 times by hrtimer "
	       "perf_mux_hrtimer_handler+0x0 while tickless: perf rotates more events than the "
	       "PMU counts at once: fewer events on this CPU, or none");
	ts_analysis_free(&an);

	/* a function whose name only starts like a known one has its type's remedy */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_caller_set(&an, 0xb00, "watchdog_timer_fn_other");
	stop_ok(1, 1 * MS);
	cause_once(1, 100 * MS, TS_CAUSE_HRTIMER, 0xb00);
	expect(diagnose(1, 1 * S), "hrtimer", "cause-hrtimer",
	       "CPU 1: tickless 99.9% of the window; interrupted once by hrtimer "
	       "watchdog_timer_fn_other while tickless: move the task or subsystem that arms the "
	       "hrtimer off the CPU");
	ts_analysis_free(&an);

	/* a softirq alone is named; a timer and work are named by their function */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	stop_ok(1, 1 * MS);
	cause_once(1, 100 * MS, TS_CAUSE_SOFTIRQ, 9);
	expect(diagnose(1, 1 * S), "softirq", "cause-softirq",
	       "CPU 1: tickless 99.9% of the window; interrupted once by softirq RCU while "
	       "tickless: move the IRQs and timers that raise it off the CPU");
	ts_analysis_free(&an);

	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_caller_set(&an, 0xd00, "vmstat_update");
	stop_ok(1, 1 * MS);
	cause_once(1, 100 * MS, TS_CAUSE_WORK, 0xd00);
	cause_once(1, 200 * MS, TS_CAUSE_TIMER, 0xe00);
	cause_once(1, 300 * MS, TS_CAUSE_WORK, 0xd00);
	expect(diagnose(1, 1 * S), "work", "cause-work",
	       "CPU 1: tickless 99.9% of the window; interrupted 2 times by work vmstat_update "
	       "while tickless: sysctl vm.stat_interval=10 or more");
	ts_analysis_free(&an);

	/* causes that found the tick running do not count as interruptions */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_RUNNING, TS_IDLE_BUSY);
	cause_once(1, 1 * MS, TS_CAUSE_IRQ, 4);
	stop_ok(1, 2 * MS);
	expect(diagnose(1, 1 * S), "TICKLESS", "diag-tickless",
	       "CPU 1: tickless 99.8% of the window; nothing to change");
	ts_analysis_free(&an);
}

/* The data cannot tell: an empty window, lost events, no start state. */
static void test_unknown(void)
{
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	expect(diagnose(1, 0), "UNKNOWN", "diag-unknown",
	       "CPU 1: the window is empty; the data cannot tell: record for longer, or widen "
	       "--time-range");
	ts_analysis_free(&an);

	/* a gap of lost events: unknown until the next state */
	stream_start(0, 1, 1);
	task[1] = 100;
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 1, .ts = 600 * MS,
				 .lost = { .count = 42 } });
	stop_ok(1, 900 * MS);
	expect(diagnose(1, 1 * S), "UNKNOWN", "diag-unknown",
	       "CPU 1: tick state unknown 90.0% of the window (42 events lost); the data cannot "
	       "tell: record again with a larger buffer (-b) or fewer CPUs (-C)");
	ts_analysis_free(&an);

	/* a trace.dat: no start state, and tick interrupts tell no tick state */
	stream_start(0, 1, 1);
	task[1] = 100;
	for (uint64_t t = 4 * MS; t < 1 * S; t += 4 * MS)
		feed(&(struct ts_event){ .kind = TS_EV_TICK, .cpu = 1, .ts = t, .pid = 100 });
	expect(diagnose(1, 1 * S), "UNKNOWN", "diag-unknown",
	       "CPU 1: tick state unknown 100.0% of the window; the data cannot tell: record with "
	       "tickstat record, which reads each CPU's state at the start");
	ts_analysis_free(&an);

	/* a recording whose start snapshot did not cover the CPU */
	stream_start(0, 1, 1);
	ts_analysis_set_snapshot(&an, 1);
	for (uint64_t t = 4 * MS; t < 1 * S; t += 4 * MS)
		feed(&(struct ts_event){ .kind = TS_EV_TICK, .cpu = 1, .ts = t, .pid = 100 });
	expect(diagnose(1, 1 * S), "UNKNOWN", "diag-unknown",
	       "CPU 1: tick state unknown 100.0% of the window; the data cannot tell: no event "
	       "told its tick state: record for longer");
	ts_analysis_free(&an);

	/* up to 10% unknown is still enough to tell; the lost events are said */
	stream_start(0, 1, 1);
	task[1] = 100;
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	stop_ok(1, 1 * MS);
	switch_to(1, 790 * MS, 100, "app");		/* the gap starts at the last event */
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 1, .ts = 800 * MS,
				 .lost = { .count = 3 } });
	stop_ok(1, 885 * MS);
	expect(diagnose(1, 1 * S), "TICKLESS", "diag-tickless",
	       "CPU 1: tickless 99.9% of the known time (3 events lost); nothing to change");
	ts_analysis_free(&an);
}

/* A CPU outside nohz_full ticks while busy by design. */
static void test_not_nohz_full(void)
{
	stream_start(0, 1, 1);
	ts_analysis_set_nohz_full(&an, 0, 0);
	switch_to(0, 0, 7, "app");
	switch_to(0, 400 * MS, 0, "swapper/0");
	stop_ok(0, 401 * MS);
	expect(diagnose(0, 1 * S), "NOT_NOHZ_FULL", "reason-not-nohz-full",
	       "CPU 0: tick ran 40.1% of the window; NOT_NOHZ_FULL: not in nohz_full=: its tick "
	       "runs whenever a task does, by design; nothing, on a housekeeping CPU; to isolate "
	       "it, add it to nohz_full= (and rcu_nocbs=)");
	ts_analysis_free(&an);
}

/* SCHED with co-runners held 40% of the window from 100 ms on */
static void sched_two(int third, int rr)
{
	stream_start(0, 1, 0);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 100, "spin");
	task[2] = 100;
	if (rr)
		dep_set(2, 99 * MS, 2, TS_SCOPE_CPU, 2, 200, 0xa00);
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	switch_to(2, 300 * MS, 200, "spin");		/* 100 ran 200 ms, 200 150 ms */
	if (third) {
		switch_to(2, 450 * MS, 300, "other");
		switch_to(2, 460 * MS, 100, "spin");
	} else {
		switch_to(2, 450 * MS, 100, "spin");
	}
	refuse(2, 450 * MS, TS_SCOPE_CPU, 2);
	stop_ok(2, 500 * MS);
}

/*
 * Part of the window unknown (a gap of unknown size, below 10%): the
 * shares are of the known time, and the gap is said.
 */
static void test_shares_of_known(void)
{
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 100, "spin");
	task[2] = 100;
	stop_ok(2, 1 * MS);
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	switch_to(2, 200 * MS, 200, "spin");
	switch_to(2, 300 * MS, 100, "spin");
	stop_ok(2, 400 * MS);
	switch_to(2, 500 * MS, 100, "spin");
	CU_ASSERT_EQUAL(ts_analysis_bad_page(&an, 2), 0);	/* unknown from 500 ms */
	stop_ok(2, 550 * MS);
	expect(diagnose(2, 1 * S), "SCHED", "reason-sched",
	       "CPU 2: tick ran 31.7% of the known time (events lost in 1 gap of unknown size); "
	       "SCHED (31.6%): spin(100) and spin(200) shared the CPU; pin one elsewhere");
	ts_analysis_free(&an);
}

/* SCHED: the top co-runners, and "pin one elsewhere" */
static void test_sched_co_runners(void)
{
	sched_two(0, 0);
	expect(diagnose(2, 1 * S), "SCHED", "reason-sched",
	       "CPU 2: tick ran 40.0% of the window; SCHED (40.0%): spin(100) and spin(200) "
	       "shared the CPU; pin one elsewhere");
	expect_why("shared");
	ts_analysis_free(&an);

	sched_two(1, 0);
	expect(diagnose(2, 1 * S), "SCHED", "reason-sched",
	       "CPU 2: tick ran 40.0% of the window; SCHED (40.0%): spin(100), spin(200) and 1 "
	       "more shared the CPU; pin one elsewhere");
	ts_analysis_free(&an);

	sched_two(0, 1);
	expect(diagnose(2, 1 * S), "SCHED", "reason-sched",
	       "CPU 2: tick ran 40.0% of the window; SCHED (40.0%): spin(100) and spin(200) "
	       "shared the CPU; pin one elsewhere, or make them SCHED_FIFO");
	ts_analysis_free(&an);
}

/*
 * SCHED with a kworker: the work it ran when work causes are known, else
 * how to learn it; queued by kworker/0:1, or by an interrupt on CPU 0
 * (in_irq: common_pid is then the task it interrupted).
 */
static void sched_kworker_queued(int causes, int in_irq)
{
	stream_start(0, 1, causes);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 100, "app");
	ts_comm_set(&an, 12, "kworker/0:1");
	ts_caller_set(&an, 0xf00, "vmstat_update");
	task[2] = 100;
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	feed(&(struct ts_event){ .kind = TS_EV_QUEUE, .cpu = 0, .ts = 105 * MS, .pid = 12,
				 .queue = { .function = 0xf00, .target = 2, .in_irq = in_irq } });
	switch_to(2, 110 * MS, 48, "kworker/2:1");
	if (causes)
		cause_once(2, 111 * MS, TS_CAUSE_WORK, 0xf00);
	switch_to(2, 115 * MS, 100, "app");
	stop_ok(2, 200 * MS);
}

static void sched_kworker(int causes)
{
	sched_kworker_queued(causes, 0);
}

#define SCHED_ALONE "CPU 2: tick ran 10.0% of the window; SCHED (10.0%): app(100) ran alone: " \
	"unexplained, its cgroup CPU quota unknown (the source does not record quotas: record " \
	"with tickstat); " \
	"a cgroup CPU quota (cpu.max, 6.6+) or the 6.12 fair server keep the tick " \
	"for one task; tickstat doctor checks both (cgroup-cpu-quota, fair-server)"

/*
 * SCHED held while app shared CPU 2 with a task named comm.  A CFS thread
 * of the CPU's own (ksoftirqd/2, rcuc/2) gets what it does and what wakes
 * it, not "pin one elsewhere"; a SCHED_FIFO or stop-class one (ktimers/2,
 * irq_work/2, migration/2) is no co-runner, so app ran alone; a name that
 * only looks like one (another CPU's number, none, more after it) gets
 * the co-runners' line.
 */
static void sched_with(const char *comm)
{
	stream_start(0, 1, 0);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 100, "app");
	task[2] = 100;
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	switch_to(2, 110 * MS, 35, comm);
	switch_to(2, 150 * MS, 100, "app");
	stop_ok(2, 200 * MS);
}

static void test_sched_percpu_kthread(void)
{
	sched_with("ksoftirqd/2");
	expect(diagnose(2, 1 * S), "SCHED", "percpu-kthread",
	       "CPU 2: tick ran 10.0% of the window; SCHED (10.0%): app(100) shared the CPU with "
	       "ksoftirqd/2(35), the softirq thread, woken when softirqs pile up on the CPU; "
	       "move the IRQs and timers that raise them elsewhere (irqaffinity=; the irq and "
	       "timer causes)");
	expect_why("percpu-kthread");
	ts_analysis_free(&an);

	sched_with("rcuc/2");
	expect(diagnose(2, 1 * S), "SCHED", "percpu-kthread",
	       "CPU 2: tick ran 10.0% of the window; SCHED (10.0%): app(100) shared the CPU with "
	       "rcuc/2(35), RCU's callback thread (rcutree.use_softirq=0; SCHED_FIFO, and no "
	       "co-runner, with rcutree.kthread_prio above 0); rcu_nocbs= for the isolated CPUs");
	ts_analysis_free(&an);

	/* SCHED_FIFO or the stop class: no co-runner of SCHED, app ran alone */
	for (const char **comm = (const char *[]){ "ktimers/2", "irq_work/2", "migration/2", NULL };
	     *comm; comm++) {
		sched_with(*comm);
		expect(diagnose(2, 1 * S), "SCHED", "reason-sched", SCHED_ALONE);
		expect_why("alone");
		ts_analysis_free(&an);
	}

	/* not the CPU's own thread: another CPU's number, none, or more after it */
	for (const char **comm = (const char *[]){ "ksoftirqd/3", "ktimers/", "ktimers/2x", NULL };
	     *comm; comm++) {
		char line[256];

		sched_with(*comm);
		snprintf(line, sizeof(line), "CPU 2: tick ran 10.0%% of the window; SCHED (10.0%%): "
			 "app(100) and %s(35) shared the CPU; pin one elsewhere", *comm);
		expect(diagnose(2, 1 * S), "SCHED", "reason-sched", line);
		ts_analysis_free(&an);
	}
}

static void test_sched_kworker(void)
{
	sched_kworker(1);
	expect(diagnose(2, 1 * S), "SCHED", "cause-work",
	       "CPU 2: tick ran 10.0% of the window; SCHED (10.0%): kworker/2:1(48) ran "
	       "vmstat_update (once, queued by kworker/0:1(12) on CPU 0); sysctl "
	       "vm.stat_interval=10 or more");
	expect_why("kworker");
	ts_analysis_free(&an);

	sched_kworker(0);
	expect(diagnose(2, 1 * S), "SCHED", "reason-sched",
	       "CPU 2: tick ran 10.0% of the window; SCHED (10.0%): app(100) and kworker/2:1(48) "
	       "shared the CPU; record with causes (work) to name the work");
	expect_why("kworker");
	ts_analysis_free(&an);

	/* queued in an interrupt on CPU 0: kworker/0:1 was only interrupted */
	sched_kworker_queued(1, 1);
	expect(diagnose(2, 1 * S), "SCHED", "cause-work",
	       "CPU 2: tick ran 10.0% of the window; SCHED (10.0%): kworker/2:1(48) ran "
	       "vmstat_update (once, queued by an interrupt on CPU 0); sysctl "
	       "vm.stat_interval=10 or more");
	ts_analysis_free(&an);
}

/* SCHED with one task: unexplained, what checks it; DEADLINE: by design. */
/*
 * CPU 2's verdict once SCHED refused at 100 ms and the tick stopped at
 * 300 ms of a 1 s window: "SCHED (20.0%): LINE" with its anchor.
 */
static void expect_sched_20(const char *why, const char *anchor, const char *line)
{
	const struct ts_diagnosis *d;
	char want[640];

	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	stop_ok(2, 300 * MS);
	snprintf(want, sizeof(want), "CPU 2: tick ran 20.0%% of the window; SCHED (20.0%%): %s",
		 line);
	d = diagnose(2, 1 * S);
	expect(d, "SCHED", anchor, want);
	CU_ASSERT_STRING_EQUAL(d->why, why);
	ts_analysis_free(&an);
}

static void test_sched_alone(void)
{
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 100, "app");
	task[2] = 100;
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	stop_ok(2, 300 * MS);
	expect(diagnose(2, 1 * S), "SCHED", "reason-sched",
	       "CPU 2: tick ran 20.0% of the window; SCHED (20.0%): app(100) ran alone: "
	       "unexplained, its cgroup CPU quota unknown (the source does not record quotas: "
	       "record with tickstat); a cgroup CPU quota (cpu.max, 6.6+) or the 6.12 fair server keep the "
	       "tick for one task; tickstat doctor checks both (cgroup-cpu-quota, fair-server)");
	ts_analysis_free(&an);

	/* a stock kernel: the scheduling class is unknown too */
	stream_start(0, 0, 1);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 100, "app");
	task[2] = 100;
	refuse(2, 100 * MS, TS_SCOPE_UNKNOWN, 2);
	stop_ok(2, 300 * MS);
	expect(diagnose(2, 1 * S), "SCHED", "reason-sched",
	       "CPU 2: tick ran 20.0% of the window; SCHED (20.0%): app(100) ran alone: "
	       "unexplained, its cgroup CPU quota unknown (the source does not record quotas: "
	       "record with tickstat); a cgroup CPU quota (cpu.max, 6.6+) or the 6.12 fair server keep the "
	       "tick for one task; tickstat doctor checks both (cgroup-cpu-quota, fair-server); "
	       "--probes or the patched kernel would name the scheduling class");
	ts_analysis_free(&an);

	/*
	 * The recorder read the task's quota: since 6.6 it is the cause; without
	 * one, 6.12's fair server; before 6.6 a quota explains nothing.
	 */
	for (int k = 0; k < 4; k++) {
		static const struct {
			const char *kernel;
			int64_t quota;
			const char *why, *anchor, *line;
		} cases[] = {
			{ "6.12.57+deb13-amd64", 50000, "cpu-quota", "cgroup-cpu-quota",
			  "app(100) ran alone under a cgroup CPU quota (cpu.max 50000 100000), which "
			  "keeps the tick since 6.6; remove the quota on isolated CPUs (echo max > its "
			  "cgroup's cpu.max)" },
			{ "6.12.57+deb13-amd64", -1, "fair-server", "fair-server",
			  "app(100) ran alone without a CPU quota: on 6.12 and later the fair server "
			  "(the deadline server for CFS tasks) holds the tick about once a second; but "
			  "its timer (dl_task_timer) was never armed here; set "
			  "/sys/kernel/debug/sched/fair_server/cpuN/runtime to 0 on isolated CPUs, if RT "
			  "starvation is not a risk" },
			{ "6.6.1", 50000, "cpu-quota", "cgroup-cpu-quota",
			  "app(100) ran alone under a cgroup CPU quota (cpu.max 50000 100000), which "
			  "keeps the tick since 6.6; remove the quota on isolated CPUs (echo max > its "
			  "cgroup's cpu.max)" },
			{ "6.1.192", 50000, "alone", "reason-sched",
			  "app(100) ran alone: unexplained; a cgroup CPU quota (cpu.max, 6.6+) or the "
			  "6.12 fair server keep the tick for one task; tickstat doctor checks both "
			  "(cgroup-cpu-quota, fair-server)" },
		};

		stream_start(0, 1, 1);
		ts_analysis_set_kernel(&an, cases[k].kernel);
		ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
		ts_comm_set(&an, 100, "app");
		CU_ASSERT_EQUAL(ts_analysis_set_quota(&an, 100, cases[k].quota,
						      cases[k].quota < 0 ? 0 : 100000), 0);
		task[2] = 100;
		expect_sched_20(cases[k].why, cases[k].anchor, cases[k].line);
	}

	/*
	 * The fair server's evidence: its timer (dl_task_timer) armed for the
	 * CPU, as a symbol with or without its offset.  With the quota unknown
	 * (no cgroup v2 where the task ran) the timer alone names it; with
	 * neither, SCHED stays unexplained and says what is missing.
	 */
	for (int k = 0; k < 3; k++) {
		static const struct {
			int64_t quota;		/* -1 none, -2 unknown (a tickstat recording) */
			const char *symbol;
			int armings;
			const char *why, *anchor, *line;
		} cases[] = {
			{ -1, "dl_task_timer", 3, "fair-server", "fair-server",
			  "app(100) ran alone without a CPU quota: on 6.12 and later the fair server "
			  "(the deadline server for CFS tasks) holds the tick about once a second; its "
			  "timer (dl_task_timer) was armed 3 times here; set "
			  "/sys/kernel/debug/sched/fair_server/cpuN/runtime to 0 on isolated CPUs, if RT "
			  "starvation is not a risk" },
			{ -2, "dl_task_timer+0x0", 2, "fair-server", "fair-server",
			  "app(100) ran alone (its CPU quota unknown): on 6.12 and later the fair server "
			  "(the deadline server for CFS tasks) holds the tick about once a second; its "
			  "timer (dl_task_timer) was armed 2 times here; set "
			  "/sys/kernel/debug/sched/fair_server/cpuN/runtime to 0 on isolated CPUs, if RT "
			  "starvation is not a risk" },
			{ -2, "dl_task_timer_other", 2, "alone", "reason-sched",
			  "app(100) ran alone: unexplained, its cgroup CPU quota unknown (no cgroup v2 "
			  "where it ran, or it was gone); a cgroup CPU quota (cpu.max, 6.6+) or the 6.12 "
			  "fair server keep the tick for one task; tickstat doctor checks both "
			  "(cgroup-cpu-quota, fair-server)" },
		};
		stream_start(0, 1, 1);
		ts_analysis_set_causes_recorded(&an, (1 << TS_NR_CAUSE_TYPES) - 1);
		ts_analysis_set_kernel(&an, "6.12.57+deb13-amd64");
		ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
		ts_comm_set(&an, 100, "app");
		ts_caller_set(&an, 0xd1, cases[k].symbol);
		if (cases[k].quota != -2)
			CU_ASSERT_EQUAL(ts_analysis_set_quota(&an, 100, cases[k].quota, 0), 0);
		task[2] = 100;
		for (int i = 0; i < cases[k].armings; i++)
			feed(&(struct ts_event){ .kind = TS_EV_ARM, .cpu = 2, .ts = (10 + i) * MS,
						 .pid = 100,
						 .arm = { .type = TS_CAUSE_HRTIMER, .function = 0xd1,
							  .inst = 0xd2, .target = 2 } });
		expect_sched_20(cases[k].why, cases[k].anchor, cases[k].line);
	}

	/* a kworker passing by while the task under a quota held SCHED: the quota still */
	stream_start(0, 1, 1);
	ts_analysis_set_kernel(&an, "6.12.57+deb13-amd64");
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 100, "app");
	CU_ASSERT_EQUAL(ts_analysis_set_quota(&an, 100, 50000, 100000), 0);
	task[2] = 100;
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	switch_to(2, 150 * MS, 50, "kworker/2:1");
	switch_to(2, 151 * MS, 100, "app");
	stop_ok(2, 300 * MS);
	expect(diagnose(2, 1 * S), "SCHED", "cgroup-cpu-quota",
	       "CPU 2: tick ran 20.0% of the window; SCHED (20.0%): app(100) ran alone under a "
	       "cgroup CPU quota (cpu.max 50000 100000), which keeps the tick since 6.6; remove "
	       "the quota on isolated CPUs (echo max > its cgroup's cpu.max)");
	ts_analysis_free(&an);

	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	task[2] = 100;
	dep_set(2, 99 * MS, 2, TS_SCOPE_CPU, 1, 100, 0xa00);
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	stop_ok(2, 300 * MS);
	expect(diagnose(2, 1 * S), "SCHED", "reason-sched",
	       "CPU 2: tick ran 20.0% of the window; SCHED (20.0%): a SCHED_DEADLINE task is "
	       "queued: deadline tasks keep the tick by design; nothing, or run it on a CPU that "
	       "is not isolated");
	expect_why("deadline");
	ts_analysis_free(&an);

	/* 6.12's sub-reasons, where the kernel names them (the series on 6.12) */
	for (int k = 0; k < 3; k++) {
		static const struct {
			int sched;
			const char *why, *anchor, *line;
		} cases[] = {
			{ 4, "fair-server", "fair-server", "the kernel names the fair server (the deadline server for "
			  "CFS tasks); set /sys/kernel/debug/sched/fair_server/cpuN/runtime to 0 on "
			  "isolated CPUs, if RT starvation is not a risk" },
			{ 5, "cpu-quota", "cgroup-cpu-quota", "the kernel names a CFS bandwidth quota (a cgroup's "
			  "cpu.max); remove the quota on isolated CPUs (echo max > its cgroup's "
			  "cpu.max)" },
			{ 6, "scx", "reason-sched", "the kernel names sched_ext: its BPF scheduler gave the "
			  "running task a finite slice, or sched_ext bypasses the BPF scheduler; have "
			  "the BPF scheduler give tasks on isolated CPUs an infinite slice "
			  "(SCX_SLICE_INF)" },
		};

		stream_start(0, 1, 1);
		ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
		task[2] = 100;
		dep_set(2, 99 * MS, 2, TS_SCOPE_CPU, cases[k].sched, 100, 0xa00);
		expect_sched_20(cases[k].why, cases[k].anchor, cases[k].line);
	}
}

/* POSIX_TIMER: its culprit on a patched kernel; what would name it on a stock one. */
static void test_posix_timer(void)
{
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 3, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 94, "cputimer");
	ts_caller_set(&an, 0xc00, "set_cpu_itimer+0x122");
	task[3] = 94;
	dep_set(3, 99 * MS, 0, TS_SCOPE_PROCESS, 0, 94, 0xc00);
	refuse(3, 100 * MS, TS_SCOPE_PROCESS, 0);
	stop_ok(3, 400 * MS);
	expect(diagnose(3, 1 * S), "POSIX_TIMER", "reason-posix-timer",
	       "CPU 3: tick ran 30.0% of the window; POSIX_TIMER (30.0%): a CPU-time timer is "
	       "armed; set by cputimer(94) at set_cpu_itimer+0x122; disarm CPU-time timers "
	       "(setitimer ITIMER_PROF/VIRTUAL, timer_create on CPU clocks)");
	ts_analysis_free(&an);

	stream_start(0, 0, 1);
	ts_analysis_set_initial(&an, 3, TS_TICK_STOPPED, TS_IDLE_BUSY);
	task[3] = 94;
	refuse(3, 100 * MS, TS_SCOPE_UNKNOWN, 0);
	stop_ok(3, 400 * MS);
	expect(diagnose(3, 1 * S), "POSIX_TIMER", "reason-posix-timer",
	       "CPU 3: tick ran 30.0% of the window; POSIX_TIMER (30.0%): a CPU-time timer is "
	       "armed; --probes or the patched kernel would name who set it; disarm CPU-time "
	       "timers (setitimer ITIMER_PROF/VIRTUAL, timer_create on CPU clocks)");
	ts_analysis_free(&an);

	/* probes that could not see the dependencies: only the patched kernel would */
	stream_start(0, 0, 1);
	an.caps.probes.used = 1;
	ts_analysis_set_initial(&an, 3, TS_TICK_STOPPED, TS_IDLE_BUSY);
	refuse(3, 100 * MS, TS_SCOPE_UNKNOWN, 0);
	stop_ok(3, 400 * MS);
	CU_ASSERT(strstr(diagnose(3, 1 * S)->detail,
			 "; the patched kernel would name who set it") != NULL);
	ts_analysis_free(&an);

	/* the dependency events are there, but it was set before the window */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 3, TS_TICK_STOPPED, TS_IDLE_BUSY);
	refuse(3, 100 * MS, TS_SCOPE_PROCESS, 0);
	stop_ok(3, 400 * MS);
	CU_ASSERT_STRING_EQUAL(diagnose(3, 1 * S)->detail,
			       "a CPU-time timer is armed; set before the window: no culprit seen");
	ts_analysis_free(&an);
}

/* The other dependencies: their meaning and remedy; a global culprit counts for every CPU. */
static void test_dependencies(void)
{
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 50, "perf");
	dep_set(0, 99 * MS, 1, TS_SCOPE_GLOBAL, 0, 50, 0);
	refuse(1, 100 * MS, TS_SCOPE_GLOBAL, 1);
	stop_ok(1, 600 * MS);
	expect(diagnose(1, 1 * S), "PERF_EVENTS", "reason-perf-events",
	       "CPU 1: tick ran 50.0% of the window; PERF_EVENTS (50.0%): a perf event in "
	       "frequency mode or with a sample period on this CPU; set by perf(50); stop "
	       "the sampling tool, or count without sampling (perf stat)");
	ts_analysis_free(&an);
}

/* TIMER_DUE names the timer that ran while the tick did, when timers are known. */
static void test_timer_due(void)
{
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_RUNNING, TS_IDLE_IDLE);
	ts_caller_set(&an, 0xe00, "mydrv_poll");
	retain(1, 0, 1);
	cause_once(1, 100 * MS, TS_CAUSE_TIMER, 0xe00);
	cause_once(1, 200 * MS, TS_CAUSE_TIMER, 0xe00);
	retain(1, 200 * MS + 20000, 1);
	stop_ok(1, 250 * MS);
	expect(diagnose(1, 1 * S), "TIMER_DUE", "reason-timer-due",
	       "CPU 1: tick ran 25.0% of the window; TIMER_DUE (25.0%): a timer expires within "
	       "a tick; timer mydrv_poll ran 2 times while the tick ran; move the task or driver "
	       "that arms the timer off the CPU");
	ts_analysis_free(&an);
}

/* UNREPORTED: normal after idle exit; a stock kernel could learn more. */
static void test_unreported(void)
{
	stream_start(0, 0, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_RUNNING, TS_IDLE_BUSY);
	stop_ok(1, 100 * MS);
	expect(diagnose(1, 1 * S), "UNREPORTED", "reason-unreported",
	       "CPU 1: tick ran 10.0% of the window; UNREPORTED (10.0%): the tick ran and no "
	       "decision said why; --probes or the patched kernel would name the reason");
	ts_analysis_free(&an);

	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_RUNNING, TS_IDLE_BUSY);
	stop_ok(1, 100 * MS);
	expect(diagnose(1, 1 * S), "UNREPORTED", "reason-unreported",
	       "CPU 1: tick ran 10.0% of the window; UNREPORTED (10.0%): the tick ran and no "
	       "decision said why; short stretches after idle exit are normal; a stock kernel: "
	       "--probes or the patched kernel name the reason");
	ts_analysis_free(&an);
}

/* What a diagnosis always has: a cause with a rule, its anchor, a detail, a remedy, a line. */
static void expect_whole(const struct ts_diagnosis *d, int cpu, const char *cause)
{
	const struct ts_diag_rule *r = ts_diag_rule_of(cause);
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "CPU %d: ", cpu);
	CU_ASSERT_STRING_EQUAL(d->cause, cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d->anchor);
	CU_ASSERT_STRING_EQUAL(d->anchor, r->anchor);
	CU_ASSERT(d->detail[0] != '\0');
	CU_ASSERT(d->remedy[0] != '\0');
	CU_ASSERT(!strncmp(d->line, prefix, strlen(prefix)));
	CU_ASSERT(strstr(d->line, cause) != NULL);
	CU_ASSERT(strstr(d->line, d->remedy) != NULL);
	if (strcmp(d->cause, cause))
		fprintf(stderr, "\n  want %s, got %s: '%s'\n", cause, d->cause, d->line);
}

/*
 * Every reason tickstat can print, as the one that held the tick longest:
 * each dependency bit (and one it has no name for) at each scope, each
 * retain reason (and one by number), IDLE_REFUSED, UNREPORTED and
 * NOT_NOHZ_FULL, on a patched and a stock stream, with causes and without:
 * never an empty diagnosis, always the reason's own rule.
 */
static void test_never_empty(void)
{
	char name[48];
	int n = 0;

	for (int patched = 0; patched <= 1; patched++)
		for (int causes = 0; causes <= 1; causes++) {
			for (unsigned int bit = 0; bit <= TS_DEP_BITS; bit++)
				for (int scope = 0; scope < TS_NR_SCOPES; scope++) {
					stream_start(0, patched, causes);
					ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
					task[1] = 100;
					refuse(1, 100 * MS, scope, bit);
					expect_whole(diagnose(1, 1 * S), 1, ts_dep_name(bit));
					ts_analysis_free(&an);
					n++;
				}
			for (int r = 1; r <= ts_retain_numbered_min() + 1; r++) {
				int reason = r > ts_retain_numbered_min() ? TS_RETAIN_IDLE_REFUSED : r;

				stream_start(0, patched, causes);
				ts_analysis_set_initial(&an, 1, TS_TICK_RUNNING, TS_IDLE_IDLE);
				retain(1, 0, reason);
				snprintf(name, sizeof(name), "%s", ts_retain_name(reason));
				expect_whole(diagnose(1, 1 * S), 1, name);
				ts_analysis_free(&an);
				n++;
			}
			stream_start(0, patched, causes);
			ts_analysis_set_initial(&an, 1, TS_TICK_RUNNING, TS_IDLE_BUSY);
			expect_whole(diagnose(1, 1 * S), 1, "UNREPORTED");
			ts_analysis_free(&an);
			stream_start(0, patched, causes);
			ts_analysis_set_nohz_full(&an, 1, 0);
			ts_analysis_set_initial(&an, 1, TS_TICK_RUNNING, TS_IDLE_BUSY);
			expect_whole(diagnose(1, 1 * S), 1, "NOT_NOHZ_FULL");
			ts_analysis_free(&an);
			n += 2;
		}
	CU_ASSERT_EQUAL(n, 4 * ((TS_DEP_BITS + 1) * TS_NR_SCOPES + ts_retain_numbered_min() + 1 + 2));
	/* every cause type has its rule too */
	for (int t = 0; t < TS_NR_CAUSE_TYPES; t++)
		CU_ASSERT_PTR_NOT_NULL(ts_diag_rule_of(ts_cause_type_name(t)));
	CU_ASSERT_PTR_NULL(ts_diag_rule_of("NO_SUCH_REASON"));
}

/* What a writer writes, in a string the caller frees. */
static char *written(void (*fn)(FILE *, const struct ts_analysis *, const struct ts_cpu *),
		     const struct ts_cpu *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, &an, c);
	fclose(f);
	return buf;
}

static void table_of(FILE *f, const struct ts_analysis *a, const struct ts_cpu *c)
{
	(void)c;
	ts_table_diagnosis(f, a);
}

static void report_table(FILE *f, const struct ts_analysis *a, const struct ts_cpu *c)
{
	(void)c;
	ts_output_table(f, a, &(struct ts_output_opts){ .top = 10, .no_header = 1 });
}

static void report_json(FILE *f, const struct ts_analysis *a, const struct ts_cpu *c)
{
	(void)c;
	ts_output_json(f, a, &(struct ts_output_opts){ .top = 10 }, NULL);
}

static void report_csv(FILE *f, const struct ts_analysis *a, const struct ts_cpu *c)
{
	(void)c;
	CU_ASSERT_EQUAL(ts_output_csv(f, a), 0);
}

/* The table's block and the JSON's object carry the same diagnosis; names stay escaped. */
static void test_outputs(void)
{
	struct ts_diagnosis why;
	char *got;

	stream_start(0, 1, 0);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_comm_set(&an, 100, "a\nb");
	ts_comm_set(&an, 200, "caf\xc3\xa9");
	task[2] = 100;
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	switch_to(2, 300 * MS, 200, "caf\xc3\xa9");
	switch_to(2, 450 * MS, 100, "a\nb");
	stop_ok(2, 500 * MS);
	stop_ok(1, 1 * MS);
	ts_analysis_finish(&an, 1 * S);

	got = written(table_of, NULL);
	CU_ASSERT_STRING_EQUAL(got,
		"# diagnosis (docs/cookbook.md has each remedy at its [#anchor])\n"
		"# CPU 1: tickless 99.9% of the window; nothing to change (what interrupted it "
		"is unknown: record with causes) [#diag-tickless]\n"
		"# CPU 2: tick ran 40.0% of the window; SCHED (40.0%): a\\x0ab(100) and "
		"caf\xc3\xa9(200) shared the CPU; pin one elsewhere [#reason-sched]\n"
		"#\n");
	free(got);
	got = written(ts_json_diagnosis, an.cpus[2]);
	CU_ASSERT_STRING_EQUAL(got,
		"\"diagnosis\":{\"cause\":\"SCHED\",\"detail\":\"a\\\\x0ab(100) and caf\xc3\xa9(200) "
		"shared the CPU\",\"line\":\"CPU 2: tick ran 40.0% of the window; SCHED (40.0%): "
		"a\\\\x0ab(100) and caf\xc3\xa9(200) shared the CPU; pin one elsewhere\","
		"\"remedy\":\"pin one elsewhere\",\"doctor\":null,"
		"\"cookbook\":\"docs/cookbook.md#reason-sched\"}");
	free(got);
	ts_explain_sched(&an, an.cpus[2], &why);
	CU_ASSERT_STRING_EQUAL(why.cause, "SCHED");
	CU_ASSERT_STRING_EQUAL(why.detail, "a\\x0ab(100) and caf\xc3\xa9(200) shared the CPU");
	CU_ASSERT_STRING_EQUAL(why.anchor, "reason-sched");
	CU_ASSERT_STRING_EQUAL(why.why, "shared");
	/* the report: a why line after the SCHED row, a why object in its reason */
	got = written(report_table, NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "    2 SCHED            CPU      "));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "\n    2   why SCHED (shared): a\\x0ab(100) and caf\xc3\xa9(200) "
					"shared the CPU; pin one elsewhere [#reason-sched]\n"));
	free(got);
	/* the CSV timeline ends with each CPU's verdict in bounded labels */
	got = written(report_csv, NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "\ndiagnosis,1,1000000000,1000000000,,,TICKLESS,\n"
					"diagnosis,2,1000000000,1000000000,,,SCHED,\n"
					"why,2,1000000000,1000000000,,,SCHED:shared,\n"));
	CU_ASSERT_PTR_NULL(strstr(got, "why,1,"));
	free(got);
	got = written(report_json, NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "\"why\":{\"label\":\"shared\",\"detail\":\"a\\\\x0ab(100) and "
					"caf\xc3\xa9(200) shared the CPU\",\"remedy\":\"pin one "
					"elsewhere\",\"cookbook\":\"docs/cookbook.md#reason-sched\"}"));
	free(got);
	ts_analysis_free(&an);

	/*
	 * SCHED that is not the main cause is explained all the same: a lone
	 * task on 6.12 kept the tick 0.5% of the window (tickless), its fair
	 * server's timer armed there; and SCHED with no task seen running.
	 */
	stream_start(0, 1, 1);
	ts_analysis_set_kernel(&an, "6.12.57+deb13-amd64");
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_analysis_set_initial(&an, 3, TS_TICK_STOPPED, TS_IDLE_IDLE);
	ts_comm_set(&an, 100, "app");
	ts_caller_set(&an, 0xd1, "dl_task_timer");
	task[2] = 100;
	feed(&(struct ts_event){ .kind = TS_EV_ARM, .cpu = 2, .ts = 10 * MS, .pid = 100,
				 .arm = { .type = TS_CAUSE_HRTIMER, .function = 0xd1, .inst = 0xd2,
					  .target = 2 } });
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	stop_ok(2, 105 * MS);
	refuse(3, 200 * MS, TS_SCOPE_CPU, 2);
	stop_ok(3, 201 * MS);
	ts_analysis_finish(&an, 1 * S);
	ts_diagnose(&an, an.cpus[2], &why);
	CU_ASSERT_STRING_EQUAL(why.cause, "TICKLESS");
	ts_explain_sched(&an, an.cpus[2], &why);
	CU_ASSERT_STRING_EQUAL(why.anchor, "fair-server");
	CU_ASSERT_STRING_EQUAL(why.why, "fair-server");
	CU_ASSERT_PTR_NOT_NULL(strstr(why.detail, "app(100) ran alone (its CPU quota unknown): "
					"on 6.12 and later the fair server"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why.detail, "dl_task_timer) was armed once here"));
	ts_explain_sched(&an, an.cpus[3], &why);
	CU_ASSERT_STRING_EQUAL(why.anchor, "reason-sched");
	CU_ASSERT_STRING_EQUAL(why.detail, "no task was seen running while it held the tick");
	CU_ASSERT_STRING_EQUAL(why.why, "no-task");
	CU_ASSERT_STRING_EQUAL(why.remedy,
			       "see what was woken here (tickstat record -e sched:sched_wakeup, then "
			       "trace-cmd report the recording)");
	ts_analysis_free(&an);

	/* no sched_switch: the tasks that shared the CPU have no names */
	stream_start(0, 1, 0);
	an.caps.sched_switch = 0;
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	refuse(2, 100 * MS, TS_SCOPE_CPU, 2);
	stop_ok(2, 200 * MS);
	ts_analysis_finish(&an, 1 * S);
	ts_explain_sched(&an, an.cpus[2], &why);
	CU_ASSERT_STRING_EQUAL(why.why, "unnamed");
	CU_ASSERT_STRING_EQUAL(why.detail,
			       "more than one task was runnable; no sched_switch events name them");
	ts_analysis_free(&an);

	/* the co-runners table full of tasks that ran tickless: the one that held SCHED is summed */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	for (int i = 0; i < TS_MAX_TASKS; i++)
		switch_to(2, (10 + i) * MS, 100 + i, "early");
	switch_to(2, 100 * MS, 1000, "late");
	refuse(2, 110 * MS, TS_SCOPE_CPU, 2);
	stop_ok(2, 200 * MS);
	ts_analysis_finish(&an, 1 * S);
	ts_explain_sched(&an, an.cpus[2], &why);
	CU_ASSERT_STRING_EQUAL(why.detail, "tasks beyond the co-runners table (its first 64) held it");
	CU_ASSERT_STRING_EQUAL(why.why, "others");
	CU_ASSERT_STRING_EQUAL(why.remedy,
			       "pin everything but the isolated task elsewhere (cpusets, taskset)");
	ts_analysis_free(&an);
}

int main(void)
{
	static const struct ts_unit_test tests[] = {
		{ "diagnosis: tickless", test_tickless },
		{ "diagnosis: interrupted while tickless", test_interrupted },
		{ "diagnosis: the data cannot tell", test_unknown },
		{ "diagnosis: outside nohz_full", test_not_nohz_full },
		{ "diagnosis: shares of the known time", test_shares_of_known },
		{ "diagnosis: SCHED, co-runners", test_sched_co_runners },
		{ "diagnosis: SCHED, a kworker's work", test_sched_kworker },
		{ "diagnosis: SCHED, a per-CPU kernel thread", test_sched_percpu_kthread },
		{ "diagnosis: SCHED, one task; DEADLINE", test_sched_alone },
		{ "diagnosis: POSIX_TIMER, its culprit or what would name it", test_posix_timer },
		{ "diagnosis: other dependencies", test_dependencies },
		{ "diagnosis: TIMER_DUE names the timer", test_timer_due },
		{ "diagnosis: UNREPORTED", test_unreported },
		{ "diagnosis: every reason, never empty", test_never_empty },
		{ "diagnosis: table and JSON", test_outputs },
	};

	return ts_unit_run("diagnosis", tests, sizeof(tests) / sizeof(tests[0]));
}
