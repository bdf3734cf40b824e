// SPDX-License-Identifier: GPL-2.0
/*
 * monitor_unit.c - host-side unit tests of tickstat monitor's parts
 * (CUnit): the exposition format, the cumulative series on synthetic
 * streams (monotonic, bounded, tables emptied), a CPU going offline, and
 * the HTTP server over a real socket on 127.0.0.1.
 *
 * usage: monitor-unit-tests
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "analysis.h"
#include "httpd.h"
#include "promtext.h"
#include "series.h"
#include "unit_run.h"
#include "unit_stream.h"
#include "watch.h"

/* ---- exposition format ---- */

static void test_prom_format(void)
{
	struct ts_prom p = { 0 };
	const char *l[] = { "cpu", "1", "comm", "a\"b\\c\nd", NULL };

	ts_prom_family(&p, "x_total", "counter", "Help with \\ and\nnewline.");
	ts_prom_u64(&p, "x_total", l, 18446744073709551615ULL);
	ts_prom_seconds(&p, "y_seconds_total", NULL, 0);
	ts_prom_seconds(&p, "y_seconds_total", NULL, 1234567890123ULL);
	ts_prom_seconds(&p, "y_seconds_total", NULL, 999999999ULL);
	ts_prom_double(&p, "z", NULL, 0.5);
	ts_prom_double(&p, "z", NULL, 0.0 / 0.0);
	ts_prom_double(&p, "z", NULL, -1.0 / 0.0);
	CU_ASSERT_FALSE(p.oom);
	CU_ASSERT_STRING_EQUAL(p.buf,
		"# HELP x_total Help with \\\\ and\\nnewline.\n"
		"# TYPE x_total counter\n"
		"x_total{cpu=\"1\",comm=\"a\\\"b\\\\c\\nd\"} 18446744073709551615\n"
		"y_seconds_total 0.000000000\n"
		"y_seconds_total 1234.567890123\n"
		"y_seconds_total 0.999999999\n"
		"z 0.5\n"
		"z NaN\n"
		"z -Inf\n");
	ts_prom_reset(&p);
	CU_ASSERT_EQUAL(p.len, 0);
	CU_ASSERT_STRING_EQUAL(p.buf, "");
	ts_prom_free(&p);
}

/* ---- the series on synthetic streams ---- */

static struct ts_series ser;

/* a patched kernel's stream (unit_stream.c) on monitored CPUs 1 and 2 */
static void start(int top)
{
	stream_start(0, 1, 0);
	ts_analysis_monitor(&an, 1);
	ts_analysis_monitor(&an, 2);
	ts_series_init(&ser, top);
}

static void finish(void)
{
	ts_series_free(&ser);
	ts_analysis_free(&an);
}

static void sw(int cpu, uint64_t ts, int prev_pid, int next_pid)
{
	struct ts_event ev = { .kind = TS_EV_SWITCH, .cpu = cpu, .ts = ts, .pid = prev_pid,
			       .sw = { .prev_pid = prev_pid, .next_pid = next_pid } };

	snprintf(ev.sw.next_comm, sizeof(ev.sw.next_comm), "task%d", next_pid);
	snprintf(ev.sw.prev_comm, sizeof(ev.sw.prev_comm), "task%d", prev_pid);
	feed(&ev);
}

static void stop_in(int cpu, uint64_t ts, int pid)
{
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = cpu, .ts = ts, .pid = pid,
				 .stop = { .success = 1 } });
}

static void stop_sched(int cpu, uint64_t ts, int pid)
{
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = cpu, .ts = ts, .pid = pid,
				 .stop = { .dependency = 1 << 2, .has_scopes = 1,
					   .deps = { 0, 1 << 2, 0, 0 } } });
	feed(&(struct ts_event){ .kind = TS_EV_TICK_RESTART, .cpu = cpu, .ts = ts, .pid = pid,
				 .restart = { .stopped_ns = -1, .cause = TS_RESTART_DEPENDENCY } });
}

static void dep_set(int target, uint64_t ts, int pid, uint64_t caller)
{
	feed(&(struct ts_event){ .kind = TS_EV_DEP_SET, .cpu = 0, .ts = ts, .pid = pid,
				 .dep = { .dependency = 1 << 2, .scope = TS_SCOPE_CPU,
					  .target = target, .caller = caller } });
}

static const char *names(void *ctx, uint64_t addr)
{
	(void)ctx;
	return addr == 0x1000 ? "wake_up_new_task" : NULL;
}

static void update(uint64_t ts)
{
	ts_analysis_advance(&an, ts);
	ts_series_take(&ser, &an, names, NULL);
}

/* The value of the sample that starts with prefix ("name{labels} "), or -1. */
static double sample(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);

	while (p && *p) {
		if (!strncmp(p, prefix, n))
			return strtod(p + n, NULL);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static double value_of(const char *prefix)
{
	struct ts_monitor_self self = { .kernel = "test" };
	struct ts_prom p = { 0 };
	double v;

	ts_series_write(&ser, &an, &self, &p);
	CU_ASSERT_FALSE(p.oom);
	v = sample(p.buf, prefix);
	ts_prom_free(&p);
	return v;
}

#define BUSY_STOPPED	"tickstat_cpu_seconds_total{cpu=\"1\",tick=\"stopped\",activity=\"busy\"} "
#define BUSY_RUNNING	"tickstat_cpu_seconds_total{cpu=\"1\",tick=\"running\",activity=\"busy\"} "
#define RATIO		"tickstat_busy_tickless_ratio{cpu=\"1\"} "
#define SCHED_SECONDS	"tickstat_reason_seconds_total{cpu=\"1\",reason=\"SCHED\",scope=\"CPU\"} "

/* Counters are the state machine's own sums; the ratio is the last interval's. */
static void test_series_counters(void)
{
	start(5);
	sw(1, 0, 0, 100);
	stop_in(1, 100 * MS, 100);		/* the tick ran before: 0.1 s busy running */
	update(1 * S);
	CU_ASSERT_DOUBLE_EQUAL(value_of(BUSY_STOPPED), 0.9, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(RATIO), 0.9, 1e-9);
	CU_ASSERT_EQUAL(value_of(SCHED_SECONDS), -1);		/* no such reason yet */
	/* a second task from 1.5 s to 2 s: the tick runs for SCHED */
	sw(1, 1500 * MS, 100, 200);
	stop_sched(1, 1500 * MS, 200);
	sw(1, 2 * S, 200, 100);
	stop_in(1, 2 * S, 100);
	update(2 * S);
	CU_ASSERT_DOUBLE_EQUAL(value_of(BUSY_STOPPED), 1.4, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(BUSY_RUNNING), 0.6, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(RATIO), 0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(SCHED_SECONDS), 0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_corunner_sched_seconds_total{cpu=\"1\",comm=\"task200\"} "),
			       0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_restarts_total{cpu=\"1\",cause=\"DEPENDENCY\"} "),
			       1, 1e-9);
	/* the co-runner table was emptied; its numbers live on in the series */
	CU_ASSERT_EQUAL(an.cpus[1]->nr_tasks, 0);
	update(3 * S);
	/* task 100 held the tick before the first stop: a series of its own */
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_corunner_seconds_total{cpu=\"1\",comm=\"task100\"} "),
			       2.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_corunner_seconds_total{cpu=\"1\",comm=\"task200\"} "),
			       0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(RATIO), 1.0, 1e-9);
	/* an interval without busy time has no ratio */
	sw(1, 3 * S, 100, 0);
	update(4 * S);
	CU_ASSERT_EQUAL(value_of(RATIO), -1);
	finish();
}

#define SCHED_WHY(why)	"tickstat_sched_why_seconds_total{cpu=\"1\",why=\"" why "\"} "

/*
 * SCHED's time by what explained it in each interval: two tasks sharing
 * the CPU, then a lone task whose SCHED_DEADLINE sub-reason was set; the
 * earlier interval's label keeps its time, and an interval without SCHED
 * adds nothing.
 */
static void test_series_sched_why(void)
{
	start(5);
	sw(1, 0, 0, 100);
	stop_in(1, 100 * MS, 100);
	sw(1, 500 * MS, 100, 200);
	stop_sched(1, 500 * MS, 200);
	sw(1, 700 * MS, 200, 100);
	stop_in(1, 1 * S, 100);
	update(1 * S);
	CU_ASSERT_DOUBLE_EQUAL(value_of(SCHED_WHY("shared")), 0.5, 1e-9);
	CU_ASSERT_EQUAL(value_of(SCHED_WHY("deadline")), -1);
	/* one task, and the kernel names a deadline task (sched 1) */
	feed(&(struct ts_event){ .kind = TS_EV_DEP_SET, .cpu = 1, .ts = 1200 * MS, .pid = 100,
				 .dep = { .dependency = 1 << 2, .scope = TS_SCOPE_CPU, .target = 1,
					  .sched = 1 } });
	stop_sched(1, 1200 * MS, 100);
	stop_in(1, 1500 * MS, 100);
	update(2 * S);
	CU_ASSERT_DOUBLE_EQUAL(value_of(SCHED_WHY("deadline")), 0.3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(SCHED_WHY("shared")), 0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(SCHED_SECONDS), 0.8, 1e-9);
	update(3 * S);
	CU_ASSERT_DOUBLE_EQUAL(value_of(SCHED_WHY("deadline")), 0.3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(SCHED_WHY("shared")), 0.5, 1e-9);
	CU_ASSERT_EQUAL(value_of("tickstat_sched_why_seconds_total{cpu=\"2\""), -1);
	finish();
}

/* a cause's entry (exit 0) or exit (1) on cpu, in task 100; IRQs named devKEY */
static void cause_ev(int cpu, uint64_t ts, int type, int exit, uint64_t key)
{
	struct ts_event ev = { .kind = TS_EV_CAUSE, .cpu = cpu, .ts = ts, .pid = 100,
			       .cause = { .type = type, .exit = exit, .key = key, .inst = key } };

	if (type == TS_CAUSE_IRQ)
		snprintf(ev.cause.name, sizeof(ev.cause.name), "dev%llu", (unsigned long long)key);
	feed(&ev);
}

#define CAUSE(name, labels)	"tickstat_cause_" name "{cpu=\"1\"," labels "} "

/*
 * Causes: by CPU, type and name, at most top named per CPU and type (the
 * first, most entries first), the rest in "other"; the analysis' table
 * emptied every interval, a cause open across an update timed in its own
 * series; no series for an unwatched CPU; a type the source cannot tell
 * has no series and says unknown.
 */
static void test_series_causes(void)
{
	start(3);
	an.caps.causes = (1u << TS_NR_CAUSE_TYPES) - 1;
	an.caps.cause_exits = an.caps.causes;
	sw(1, 0, 0, 100);
	stop_in(1, 100 * MS, 100);
	/* hrtimer functions 0x3000 + k, k + 1 entries each, 10 us long */
	for (int k = 0; k < 5; k++)
		for (int n = 0; n <= k; n++) {
			uint64_t t = 200 * MS + k * 10 * MS + n * MS;

			cause_ev(1, t, TS_CAUSE_HRTIMER, 0, 0x3000 + k);
			cause_ev(1, t + 10000, TS_CAUSE_HRTIMER, 1, 0x3000 + k);
		}
	cause_ev(1, 400 * MS, TS_CAUSE_HRTIMER, 0, 0x1000);	/* named by the symbol fn */
	cause_ev(1, 400 * MS + 5000, TS_CAUSE_HRTIMER, 1, 0x1000);
	cause_ev(3, 400 * MS, TS_CAUSE_IRQ, 0, 9);		/* CPU 3: not monitored */
	cause_ev(1, 990 * MS, TS_CAUSE_IRQ, 0, 4);		/* exits after the update */
	update(1 * S);
	/* the open IRQ keeps its entry, counted 0 */
	CU_ASSERT_EQUAL(an.cpus[1]->nr_causes, 1);
	CU_ASSERT_EQUAL(an.cpus[1]->causes[0].count, 0);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("events_total", "type=\"hrtimer\",name=\"0x3004\"")),
			       5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("events_total", "type=\"hrtimer\",name=\"0x3003\"")),
			       4, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("events_total", "type=\"hrtimer\",name=\"0x3002\"")),
			       3, 1e-9);
	/* 0x3001 (2), 0x3000 (1) and wake_up_new_task (1): past the top 3 */
	CU_ASSERT_EQUAL(value_of(CAUSE("events_total", "type=\"hrtimer\",name=\"0x3001\"")), -1);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("events_total", "type=\"hrtimer\",name=\"other\"")),
			       4, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("seconds_total", "type=\"hrtimer\",name=\"other\"")),
			       35e-6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("while_stopped_total",
					      "type=\"hrtimer\",name=\"0x3004\"")), 5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("events_total", "type=\"irq\",name=\"4 dev4\"")),
			       1, 1e-9);
	CU_ASSERT_EQUAL(value_of(CAUSE("seconds_total", "type=\"irq\",name=\"4 dev4\"")), 0);
	CU_ASSERT_EQUAL(value_of("tickstat_cause_events_total{cpu=\"3\""), -1);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_cause_type_known{type=\"work\"} "), 1, 1e-9);
	/* the IRQ's exit in the next interval; a named function returns */
	cause_ev(1, 1 * S + 20000, TS_CAUSE_IRQ, 1, 4);
	cause_ev(1, 1100 * MS, TS_CAUSE_HRTIMER, 0, 0x3004);
	cause_ev(1, 1100 * MS + 10000, TS_CAUSE_HRTIMER, 1, 0x3004);
	update(2 * S);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("events_total", "type=\"irq\",name=\"4 dev4\"")),
			       1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("seconds_total", "type=\"irq\",name=\"4 dev4\"")),
			       10.02e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("events_total", "type=\"hrtimer\",name=\"0x3004\"")),
			       6, 1e-9);
	CU_ASSERT_EQUAL(ser.causes.nr, 5);		/* three named hrtimers, other, the IRQ */
	CU_ASSERT_EQUAL(an.cpus[1]->nr_causes, 0);
	/* a source without the work events: unknown, no series */
	an.caps.causes &= ~(1u << TS_CAUSE_WORK);
	update(3 * S);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_cause_type_known{type=\"work\"} "), 0, 1e-9);
	finish();
}

/*
 * The causes beyond a CPU's table (its type's "other" in the analysis)
 * keep their type across intervals: the table is emptied at each update,
 * and a type's "other" of the next interval is labelled with that type,
 * not the first type's.
 */
static void test_series_causes_other(void)
{
	start(3);
	an.caps.causes = (1u << TS_NR_CAUSE_TYPES) - 1;
	an.caps.cause_exits = an.caps.causes;
	sw(1, 0, 0, 100);
	stop_in(1, 100 * MS, 100);
	for (int i = 0; i < TS_MAX_CAUSES + 2; i++)
		cause_ev(1, 200 * MS + i * MS, TS_CAUSE_IRQ, 0, 100 + i);
	update(1 * S);
	for (int i = 0; i < TS_MAX_CAUSES + 3; i++)
		cause_ev(1, 1100 * MS + i * MS, TS_CAUSE_IRQ, 0, 200 + i);
	update(2 * S);
	/* the series' other: the 3 beyond the table and those past the top */
	CU_ASSERT(value_of(CAUSE("events_total", "type=\"irq\",name=\"other\"")) >= 3 + 2);
	CU_ASSERT_EQUAL(value_of(CAUSE("events_total", "type=\"work\",name=\"other\"")), -1);
	finish();
}

/* The x86 vectors: a series per kind (eleven at most: bounded labels), their type known. */
static void test_series_vectors(void)
{
	start(3);
	an.caps.causes = (1u << TS_NR_CAUSE_TYPES) - 1;
	an.caps.cause_exits = an.caps.causes;
	sw(1, 0, 0, 100);
	stop_in(1, 100 * MS, 100);
	for (int i = 0; i < 2; i++) {
		cause_ev(1, (200 + i) * MS, TS_CAUSE_VECTOR, 0, TS_VEC_RESCHEDULE);
		cause_ev(1, (200 + i) * MS + 3000, TS_CAUSE_VECTOR, 1, TS_VEC_RESCHEDULE);
	}
	update(1 * S);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("events_total", "type=\"vector\",name=\"reschedule\"")),
			       2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of(CAUSE("seconds_total",
					      "type=\"vector\",name=\"reschedule\"")), 6e-6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_cause_type_known{type=\"vector\"} "), 1, 1e-9);
	finish();
}

/* At most top named culprits per CPU, reason and scope; the rest is other. */
static void test_series_bounded(void)
{
	char prefix[256];

	start(3);
	for (int pid = 1000; pid < 1010; pid++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "waker%d", pid);
		ts_comm_set(&an, pid, comm);
		dep_set(1, pid * MS, pid, 0x1000);
	}
	dep_set(3, 20 * S, 1000, 0x1000);		/* CPU 3: not monitored */
	update(30 * S);
	CU_ASSERT_EQUAL(an.nr_culprits, 0);
	CU_ASSERT_EQUAL(ser.culprits.nr, 4);
	snprintf(prefix, sizeof(prefix),
		 "tickstat_culprit_sets_total{cpu=\"1\",reason=\"SCHED\",scope=\"CPU\",comm=\"other\",caller=\"other\"} ");
	CU_ASSERT_DOUBLE_EQUAL(value_of(prefix), 7, 1e-9);
	/* a named culprit keeps its series; a new one adds to other */
	dep_set(1, 31 * S, 1001, 0x1000);
	dep_set(1, 32 * S, 2000, 0x2000);
	update(40 * S);
	CU_ASSERT_EQUAL(ser.culprits.nr, 4);
	CU_ASSERT_DOUBLE_EQUAL(value_of(prefix), 8, 1e-9);
	snprintf(prefix, sizeof(prefix),
		 "tickstat_culprit_sets_total{cpu=\"1\",reason=\"SCHED\",scope=\"CPU\",comm=\"waker1001\",caller=\"wake_up_new_task\"} ");
	CU_ASSERT_DOUBLE_EQUAL(value_of(prefix), 2, 1e-9);
	/*
	 * co-runners: 100 tasks on CPU 2 while SCHED holds the tick, more than
	 * the analysis' table holds (64; the last, 0.901 s, is beyond it): the
	 * task that held it 0.5 s before them is named first, then two of those
	 * that held it 1 ms; the rest is other
	 */
	stop_sched(2, 40500 * MS, 1);
	for (int i = 0; i < 100; i++)
		sw(2, 41 * S + i * MS, i ? 3000 + i - 1 : 1, 3000 + i);
	update(42 * S);
	CU_ASSERT_EQUAL(ser.tasks.nr, 4);		/* three named, other */
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_corunner_held_seconds_total{cpu=\"2\",comm=\"task1\"} "),
			       0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_corunner_held_seconds_total{cpu=\"2\",comm=\"task3000\"} "),
			       0.001, 1e-9);
	CU_ASSERT_EQUAL(value_of("tickstat_corunner_held_seconds_total{cpu=\"2\",comm=\"task3002\"} "),
			-1);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_corunner_seconds_total{cpu=\"2\",comm=\"other\"} "),
			       0.998, 1e-9);
	/* the comm table is emptied once half full */
	for (int pid = 10000; pid < 15000; pid++)
		ts_comm_set(&an, pid, "x");
	update(43 * S);
	CU_ASSERT_EQUAL(an.nr_comms, 0);
	CU_ASSERT_EQUAL(ser.comm_resets, 1);
	/*
	 * task 3099 held the tick for the whole second (its pid is in the
	 * emptied table now): more than the smallest named series (1 ms) in its
	 * whole life, which gives way
	 */
	CU_ASSERT_EQUAL(ser.tasks.nr, 4);
	CU_ASSERT_EQUAL(ser.tasks.retired, 1);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_corunner_held_seconds_total{cpu=\"2\",comm=\"task3099\"} "),
			       1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_corunner_held_seconds_total{cpu=\"2\",comm=\"task1\"} "),
			       0.5, 1e-9);
	/* an hour without growth: those named series go, other stays, slots free */
	ts_comm_set(&an, 3099, "task3099");	/* named again, as by a switch */
	update(42 * S + 3601 * S);
	CU_ASSERT_EQUAL(ser.culprits.nr, 1);
	CU_ASSERT_EQUAL(ser.tasks.nr, 2);		/* other, and task 3099 still running */
	CU_ASSERT_EQUAL(value_of("tickstat_corunner_held_seconds_total{cpu=\"2\",comm=\"task1\"} "), -1);
	CU_ASSERT_DOUBLE_EQUAL(value_of("tickstat_series_dropped_total "), 6, 1e-9);
	dep_set(1, 3700 * S, 5000, 0x1000);
	update(3701 * S);
	CU_ASSERT_EQUAL(ser.culprits.nr, 2);
	CU_ASSERT_EQUAL(value_of(prefix), -1);		/* waker1001 is gone */
	finish();
}

/* Every counter of every update is at least what the previous one said. */
static void test_series_monotonic(void)
{
	struct ts_monitor_self self = { .kernel = "test" };
	struct ts_prom cur = { 0 };
	char *prev = NULL;
	int checked = 0, counter;

	start(2);
	srand(1);
	for (int step = 1; step <= 200; step++) {
		uint64_t t = step * 50 * MS;
		int r = rand() % 6, pid = 100 + rand() % 8;

		if (r == 0)
			stop_in(1 + step % 2, t, pid);
		else if (r == 1)
			stop_sched(1 + step % 2, t, pid);
		else if (r == 2)
			sw(1 + step % 2, t, pid, rand() % 2 ? 0 : pid + 1);
		else if (r == 3)
			dep_set(1 + step % 2, t, pid, 0x1000 * (rand() % 4));
		else if (r == 4 && step % 40 == 0)
			ts_analysis_offline(&an, 2, t);
		else
			feed(&(struct ts_event){ .kind = TS_EV_TICK, .cpu = 1, .ts = t });
		if (step % 10)
			continue;
		update(t + 10 * MS);
		ts_prom_reset(&cur);
		ts_series_write(&ser, &an, &self, &cur);
		counter = 0;
		for (char *line = cur.buf; *line; line = strchr(line, '\n') + 1) {
			char *nl = strchr(line, '\n'), *sp;
			char key[512];
			double before;

			*nl = '\0';
			sp = strrchr(line, ' ');
			if (!strncmp(line, "# TYPE ", 7))
				counter = !strcmp(sp + 1, "counter");
			if (line[0] != '#' && counter) {
				snprintf(key, sizeof(key), "%.*s", (int)(sp - line + 1), line);
				before = prev ? sample(prev, key) : -1;
				CU_ASSERT(before <= strtod(sp + 1, NULL));
				checked++;
			}
			*nl = '\n';
		}
		free(prev);
		prev = strdup(cur.buf);
	}
	CU_ASSERT(checked > 500);
	free(prev);
	ts_prom_free(&cur);
	finish();
}

/* Offline: unknown from the moment given, a stopped interval cut, nothing lost. */
static void test_offline(void)
{
	struct ts_cpu *c;

	start(5);
	stop_in(2, 100 * MS, 0);
	sw(2, 100 * MS, 100, 0);
	update(1 * S);
	ts_analysis_offline(&an, 2, 1 * S);
	update(3 * S);
	c = an.cpus[2];
	CU_ASSERT_EQUAL(c->time[TS_TICK_STOPPED][TS_IDLE_IDLE], 900 * MS);
	/* before the first stop the tick ran (its task: idle); offline, unknown */
	CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_IDLE], 100 * MS);
	CU_ASSERT_EQUAL(c->time[TS_TICK_UNKNOWN][TS_IDLE_UNKNOWN], 2 * S);
	CU_ASSERT_EQUAL(c->stopped_open, 1);
	CU_ASSERT_EQUAL(c->lost_events + c->lost_unknown, 0);
	/* back online: its events set the state again */
	sw(2, 3500 * MS, 0, 0);
	stop_in(2, 3500 * MS, 0);
	update(4 * S);
	CU_ASSERT_EQUAL(c->time[TS_TICK_STOPPED][TS_IDLE_IDLE], 1400 * MS);
	CU_ASSERT_EQUAL(c->time[TS_TICK_UNKNOWN][TS_IDLE_UNKNOWN], 2500 * MS);
	finish();
}

/*
 * A late commit: CPU 2's switch to a task at 0.9 s is read only by the poll
 * after the one at 1 s.  Polls every 250 ms hold back what is newer than
 * the previous poll's moment and charge up to it, as the monitor does, so
 * the switch still ends the idle time at 0.9 s.  Fed as it arrives without
 * holding, the same stream charges 0.1 s of busy time to idle (the control).
 */
static void late_commit(int holding)
{
	struct ts_cpu *c;

	start(5);
	for (uint64_t poll = 250 * MS; poll <= 1500 * MS; poll += 250 * MS) {
		uint64_t charge_to = holding ? poll - 250 * MS : poll;

		if (holding)
			CU_ASSERT_EQUAL(ts_analysis_hold(&an, charge_to), 0);
		if (poll == 250 * MS) {		/* what the first drain reads */
			stop_in(2, 100 * MS, 0);
			sw(2, 100 * MS, 100, 0);
		}
		if (poll == 1250 * MS) {	/* the late one, and one after it */
			sw(2, 900 * MS, 0, 200);
			stop_sched(2, 1100 * MS, 200);
		}
		update(charge_to);
		c = an.cpus[2];
		if (charge_to == 1000 * MS) {
			CU_ASSERT_EQUAL(c->time[TS_TICK_STOPPED][TS_IDLE_IDLE],
					holding ? 800 * MS : 900 * MS);
			CU_ASSERT_EQUAL(c->time[TS_TICK_STOPPED][TS_IDLE_BUSY],
					holding ? 100 * MS : 0);
		}
	}
	if (holding)
		ts_analysis_unhold(&an);
	update(1500 * MS);
	CU_ASSERT_EQUAL(c->time[TS_TICK_STOPPED][TS_IDLE_IDLE], holding ? 800 * MS : 900 * MS);
	CU_ASSERT_EQUAL(c->time[TS_TICK_STOPPED][TS_IDLE_BUSY], holding ? 200 * MS : 100 * MS);
	CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_BUSY], 400 * MS);
	finish();
}

static void test_hold_late_commit(void)
{
	late_commit(1);
	late_commit(0);
}

/*
 * Per CPU, held events go in as they came, also one older than the moment
 * after a held one (a bad page's loss); other CPUs are not held up; a CPU
 * going offline gets its held events first; unhold feeds the rest.
 */
static void test_hold_order(void)
{
	struct ts_event lost = { .kind = TS_EV_LOST, .cpu = 1, .ts = 50 * MS };
	struct ts_cpu *c1, *c2;

	start(5);
	CU_ASSERT_EQUAL(ts_analysis_hold(&an, 100 * MS), 0);
	stop_in(1, 90 * MS, 0);			/* in: not newer */
	sw(1, 150 * MS, 0, 300);		/* held */
	feed(&lost);				/* older, but behind the held switch */
	sw(2, 120 * MS, 0, 400);		/* held */
	sw(3, 95 * MS, 0, 500);			/* in: CPU 1's queue holds no other CPU */
	sw(3, 100 * MS, 500, 0);		/* held: stamped at the moment, as [A, B) */
	CU_ASSERT_EQUAL(an.cpus[3]->cur_pid, 500);
	c1 = an.cpus[1];
	c2 = an.cpus[2];
	CU_ASSERT_EQUAL(c1->tick, TS_TICK_STOPPED);
	CU_ASSERT_EQUAL(c1->cur_pid, 0);
	CU_ASSERT_EQUAL(c1->lost_events + c1->lost_unknown, 0);
	CU_ASSERT_NOT_EQUAL(c2->cur_pid, 400);
	/* CPU 2 goes: its switch first, then unknown from then on */
	ts_analysis_offline(&an, 2, 100 * MS);
	c2 = an.cpus[2];
	CU_ASSERT_EQUAL(c2->last_ts, 120 * MS);
	CU_ASSERT_EQUAL(c2->idle, TS_IDLE_UNKNOWN);
	/* CPU 1: the switch, then the loss (an unknown count) */
	CU_ASSERT_EQUAL(ts_analysis_hold(&an, 200 * MS), 0);
	CU_ASSERT_EQUAL(an.cpus[3]->cur_pid, 0);
	CU_ASSERT_EQUAL(c1->cur_pid, -1);
	CU_ASSERT_EQUAL(c1->lost_events + c1->lost_unknown, 1);
	sw(1, 250 * MS, 300, 0);		/* held */
	CU_ASSERT_EQUAL(c1->idle, TS_IDLE_UNKNOWN);
	ts_analysis_unhold(&an);
	CU_ASSERT_EQUAL(c1->idle, TS_IDLE_IDLE);
	CU_ASSERT_PTR_NULL(an.hold);
	finish();
}

/*
 * Many held events, released in parts while more come (the queue grows and
 * moves down), go in order: a switch every 1 ms between a task and idle
 * charges 300 ms to each.  An event stamped 20 s past the moment is not
 * held: it would hold its CPU back for good.
 */
static void test_hold_many(void)
{
	uint64_t busy = 0, idle = 0;
	struct ts_cpu *c;

	start(5);
	CU_ASSERT_EQUAL(ts_analysis_hold(&an, 0), 0);
	for (int i = 1; i <= 600; i++) {
		sw(1, i * MS, i % 2 ? 0 : 100, i % 2 ? 100 : 0);
		if (i % 100 == 0 && i > 300)	/* up to 400 held: more than the first 256 */
			CU_ASSERT_EQUAL(ts_analysis_hold(&an, (i - 300) * MS), 0);
	}
	c = an.cpus[1];
	CU_ASSERT_EQUAL(c->last_ts, 299 * MS);
	ts_analysis_unhold(&an);
	update(601 * MS);
	for (int t = 0; t < TS_NR_TICK; t++) {
		busy += c->time[t][TS_IDLE_BUSY];
		idle += c->time[t][TS_IDLE_IDLE];
	}
	CU_ASSERT_EQUAL(busy, 300 * MS);
	CU_ASSERT_EQUAL(idle, 301 * MS);	/* the first switch's idle task ran since 0 */
	CU_ASSERT_EQUAL(ts_analysis_hold(&an, 700 * MS), 0);
	sw(1, 20700 * MS, 0, 100);
	CU_ASSERT_EQUAL(c->cur_pid, 100);
	finish();
}

/* ---- the HTTP server ---- */

static int connect_to(const char *address)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001) };
	const char *colon = strrchr(address, ':');
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_port = htons(atoi(colon + 1));
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(!connect(fd, (struct sockaddr *)&sa, sizeof(sa)));
	return fd;
}

/* Serve until every client got its whole answer (the server closes). */
static void serve_all(struct ts_httpd *h, int *fds, char **answers, int n, const char *body)
{
	size_t len[64] = { 0 };
	int open = n;

	for (int round = 0; open && round < 2000; round++) {
		struct pollfd p[TS_HTTPD_MAX_FDS];
		int np = ts_httpd_pollfds(h, p);

		poll(p, np, 5);
		ts_httpd_serve(h, p, np, body, strlen(body));
		for (int i = 0; i < n; i++) {
			ssize_t got;

			if (fds[i] < 0)
				continue;
			got = recv(fds[i], answers[i] + len[i], 65535 - len[i], MSG_DONTWAIT);
			if (got > 0) {
				len[i] += got;
				answers[i][len[i]] = '\0';
			} else if (got == 0) {
				close(fds[i]);
				fds[i] = -1;
				open--;
			}
		}
	}
	CU_ASSERT_EQUAL(open, 0);
}

static void ask(struct ts_httpd *h, const char *request, const char *body, char *answer)
{
	int fd = connect_to(ts_httpd_address(h));

	CU_ASSERT(send(fd, request, strlen(request), 0) == (ssize_t)strlen(request));
	answer[0] = '\0';
	serve_all(h, &fd, &answer, 1, body);
}

static void test_httpd(void)
{
	const char *body = "# HELP a b\n# TYPE a gauge\na 1\n";
	char err[256], *answer = malloc(65536), *big = malloc(9001);
	struct ts_httpd *h;

	CU_ASSERT_PTR_NULL(ts_httpd_open("abc", err, sizeof(err)));
	CU_ASSERT_PTR_NULL(ts_httpd_open("127.0.0.1", err, sizeof(err)));
	CU_ASSERT_PTR_NULL(ts_httpd_open(":70000", err, sizeof(err)));
	CU_ASSERT_PTR_NULL(ts_httpd_open("::1:80", err, sizeof(err)));
	CU_ASSERT_PTR_NULL(ts_httpd_open("localhost:80", err, sizeof(err)));
	CU_ASSERT_PTR_NULL(ts_httpd_open("[::1:80", err, sizeof(err)));
	h = ts_httpd_open(":0", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT(!strncmp(ts_httpd_address(h), "127.0.0.1:", 10));
	CU_ASSERT(strcmp(ts_httpd_address(h), "127.0.0.1:0"));

	ask(h, "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n", body, answer);
	CU_ASSERT(!strncmp(answer, "HTTP/1.1 200 OK\r\n", 17));
	CU_ASSERT_PTR_NOT_NULL(strstr(answer, "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"));
	snprintf(big, 64, "Content-Length: %zu\r\n", strlen(body));
	CU_ASSERT_PTR_NOT_NULL(strstr(answer, big));
	CU_ASSERT_STRING_EQUAL(strstr(answer, "\r\n\r\n") + 4, body);
	ask(h, "HEAD /metrics?x=1 HTTP/1.0\r\n\r\n", body, answer);
	CU_ASSERT(!strncmp(answer, "HTTP/1.1 200 OK\r\n", 17));
	CU_ASSERT_STRING_EQUAL(strstr(answer, "\r\n\r\n") + 4, "");
	ask(h, "GET /nope HTTP/1.1\r\n\r\n", body, answer);
	CU_ASSERT(!strncmp(answer, "HTTP/1.1 404 ", 13));
	ask(h, "POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n", body, answer);
	CU_ASSERT(!strncmp(answer, "HTTP/1.1 405 ", 13));
	ask(h, "hello\r\n\r\n", body, answer);
	CU_ASSERT(!strncmp(answer, "HTTP/1.1 400 ", 13));
	memset(big, 'a', 9000);
	big[9000] = '\0';
	memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
	ask(h, big, body, answer);
	CU_ASSERT(!strncmp(answer, "HTTP/1.1 431 ", 13));
	CU_ASSERT_EQUAL(ts_httpd_requests(h), 3);	/* GET and HEAD: 200, 200, 404 */

	/* more clients at once than the server takes (16): all answered in turn */
	{
		int fds[30];
		char *answers[30];

		for (int i = 0; i < 30; i++) {
			fds[i] = connect_to(ts_httpd_address(h));
			answers[i] = calloc(1, 65536);
			send(fds[i], "GET /metrics HTTP/1.1\r\n\r\n", 25, 0);
		}
		serve_all(h, fds, answers, 30, body);
		for (int i = 0; i < 30; i++) {
			CU_ASSERT(!strncmp(answers[i], "HTTP/1.1 200 OK", 15));
			free(answers[i]);
		}
	}
	ts_httpd_close(h);
	free(answer);
	free(big);
}

/*
 * polls a quarter of the interval apart, from 250 ms (top's second) to 1 s
 * (the monitor's 10)
 */
static void test_watch_poll_ms(void)
{
	CU_ASSERT_EQUAL(ts_watch_poll_ms(1), 250);
	CU_ASSERT_EQUAL(ts_watch_poll_ms(0.1), 250);
	CU_ASSERT_EQUAL(ts_watch_poll_ms(2), 500);
	CU_ASSERT_EQUAL(ts_watch_poll_ms(10), 1000);
	CU_ASSERT_EQUAL(ts_watch_poll_ms(86400), 1000);
	CU_ASSERT_EQUAL(ts_watch_wait_ms(0, 5000ULL * MS), 1000);
	CU_ASSERT_EQUAL(ts_watch_wait_ms(0, MS / 2), 1);
	/*
	 * and closer while a CPU fills its buffer (256 pages): halved past
	 * an 8th, the shortest at half; back up to the poll period while
	 * every CPU gives less than a 32nd
	 */
	CU_ASSERT_EQUAL(ts_wait_after(0, 256, 250 * MS, 1000 * MS), 500 * MS);
	CU_ASSERT_EQUAL(ts_wait_after(0, 256, 800 * MS, 1000 * MS), 1000 * MS);
	CU_ASSERT_EQUAL(ts_wait_after(0, 256, 400 * MS, 250 * MS), 250 * MS);
	CU_ASSERT_EQUAL(ts_wait_after(10, 256, 250 * MS, 1000 * MS), 250 * MS);
	CU_ASSERT_EQUAL(ts_wait_after(40, 256, 1000 * MS, 1000 * MS), 500 * MS);
	CU_ASSERT_EQUAL(ts_wait_after(40, 256, 15 * MS, 1000 * MS), TS_SESSION_WAIT_MIN_NS);
	CU_ASSERT_EQUAL(ts_wait_after(128, 256, 1000 * MS, 1000 * MS), TS_SESSION_WAIT_MIN_NS);
}

int main(void)
{
	static const struct ts_unit_test tests[] = {
		{ "prom: text format, escaping, exact seconds", test_prom_format },
		{ "series: counters and the interval's ratio", test_series_counters },
		{ "series: label sets bounded, tables emptied", test_series_bounded },
		{ "series: causes by CPU, type and name, bounded", test_series_causes },
		{ "series: SCHED's time by its explanation", test_series_sched_why },
		{ "series: a type's causes beyond the table keep their type", test_series_causes_other },
		{ "series: x86 vectors by kind", test_series_vectors },
		{ "series: no counter ever goes down", test_series_monotonic },
		{ "state: a CPU offline is unknown, nothing lost", test_offline },
		{ "hold: a late commit counts from its own time", test_hold_late_commit },
		{ "hold: per CPU in order, offline and unhold release", test_hold_order },
		{ "hold: many events in order, one far ahead not held", test_hold_many },
		{ "httpd: answers, errors, many clients", test_httpd },
		{ "watch: polls a quarter of the interval apart, closer in a burst",
		  test_watch_poll_ms },
	};

	return ts_unit_run("tickstat monitor", tests, sizeof(tests) / sizeof(tests[0]));
}
