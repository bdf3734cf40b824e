// SPDX-License-Identifier: GPL-2.0
/*
 * top_unit.c - host-side unit tests (CUnit) of tickstat top without a
 * kernel or a terminal: the interval's numbers from synthetic streams
 * through the state machine (topsnap.c), and the screen made of them
 * (toptext.c): CPU order when all fit, the worst first and the hidden
 * line when not, no line wider than the terminal, nothing but text, plain
 * mode, and the frame that draws the lines in place on a terminal.  Under
 * ASan and UBSan.
 *
 * usage: top-unit-tests
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "analysis.h"
#include "toptext.h"
#include "topsnap.h"
#include "unit_run.h"

#define MS	1000000ULL
#define S	1000000000ULL
#define MAX_LINES	64

static struct ts_analysis an;
static struct ts_topsnap ts;
static struct ts_top_snap snap;

/* ---- the interval's numbers ---- */

static void feed(const struct ts_event *ev)
{
	CU_ASSERT_EQUAL(ts_analysis_event(&an, ev), 0);
}

static void sw(int cpu, uint64_t ts, int prev_pid, int next_pid)
{
	feed(&(struct ts_event){ .kind = TS_EV_SWITCH, .cpu = cpu, .ts = ts, .pid = prev_pid,
				 .sw = { .prev_pid = prev_pid, .next_pid = next_pid,
					 .next_comm = "task" } });
}

static void stop_ok(int cpu, uint64_t ts)
{
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = cpu, .ts = ts,
				 .stop = { .success = 1 } });
}

/* the tick keeps running for SCHED, in the CPU's scope */
static void stop_sched(int cpu, uint64_t ts)
{
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = cpu, .ts = ts,
				 .stop = { .dependency = 1 << 2, .has_scopes = 1,
					   .deps = { 0, 1 << 2, 0, 0 } } });
	feed(&(struct ts_event){ .kind = TS_EV_TICK_RESTART, .cpu = cpu, .ts = ts,
				 .restart = { .stopped_ns = -1, .cause = TS_RESTART_DEPENDENCY } });
}

/* n tick interrupts from ts on, 4 ms apart (HZ=250) */
static void ticks(int cpu, uint64_t ts, int n)
{
	for (int i = 0; i < n; i++)
		feed(&(struct ts_event){ .kind = TS_EV_TICK, .cpu = cpu, .ts = ts + i * 4 * MS });
}

/* a cause's entry and its exit 10 us later */
static void cause(int cpu, uint64_t ts, int type, uint64_t key)
{
	struct ts_event ev = { .kind = TS_EV_CAUSE, .cpu = cpu, .ts = ts,
			       .cause = { .type = type, .key = key, .inst = key } };

	if (type == TS_CAUSE_IRQ)
		snprintf(ev.cause.name, sizeof(ev.cause.name), "eth0");
	feed(&ev);
	ev.ts += 10000;
	ev.cause.exit = 1;
	feed(&ev);
}

static const char *names(void *ctx, uint64_t addr)
{
	(void)ctx;
	return addr == 0x1000 ? "vmstat_update" : NULL;
}

static void begin(void)
{
	ts_analysis_init(&an);
	an.caps.tick_stop = an.caps.scopes = an.caps.retain = an.caps.restart = 1;
	an.caps.dep_events = an.caps.sched_switch = an.caps.tick_expiry = 1;
	an.caps.causes = an.caps.cause_exits = (1u << TS_NR_CAUSE_TYPES) - 1;
	for (int c = 1; c <= 3; c++)
		ts_analysis_monitor(&an, c);
	ts_analysis_set_start(&an, 0);
	ts_topsnap_init(&ts);
}

static void end(void)
{
	ts_topsnap_free(&ts);
	ts_analysis_free(&an);
}

/* the CPUs charged up to t, then a snapshot; online: NULL, all */
static const struct ts_top_snap *take(uint64_t t, const struct ts_cpuset *online)
{
	ts_analysis_advance(&an, t);
	CU_ASSERT_EQUAL_FATAL(ts_topsnap_take(&ts, &an, online, names, NULL, &snap), 0);
	CU_ASSERT_EQUAL_FATAL(snap.nr, 3);
	return &snap;
}

static const struct ts_top_cpu *cpu(int n)
{
	for (int i = 0; i < snap.nr; i++)
		if (snap.cpus[i].cpu == n)
			return &snap.cpus[i];
	CU_FAIL_FATAL("CPU missing from the snapshot");
	return NULL;
}

/*
 * A lone task (CPU 1), two tasks then one (CPU 2), work items and an
 * interrupt on an idle CPU (CPU 3): each interval has its own numbers,
 * not the sums since the start.
 */
static void test_snap_intervals(void)
{
	begin();
	sw(1, 0, 0, 100);
	stop_ok(1, 0);
	sw(2, 0, 0, 200);
	stop_sched(2, 0);
	ticks(2, 0, 250);
	stop_ok(3, 0);
	for (int i = 0; i < 3; i++)
		cause(3, 100 * MS + i * MS, TS_CAUSE_WORK, 0x1000);
	cause(3, 500 * MS, TS_CAUSE_IRQ, 24);
	take(1 * S, NULL);
	CU_ASSERT_EQUAL(snap.interval_ns, 1 * S);
	CU_ASSERT_EQUAL(snap.elapsed_ns, 1 * S);
	CU_ASSERT_EQUAL(cpu(1)->tick, TS_TICK_STOPPED);
	CU_ASSERT_DOUBLE_EQUAL(cpu(1)->tickless, 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cpu(1)->tick_rate, 0.0, 1e-9);
	CU_ASSERT_STRING_EQUAL(cpu(1)->reason, "");
	CU_ASSERT_EQUAL(cpu(2)->tick, TS_TICK_RUNNING);
	CU_ASSERT_DOUBLE_EQUAL(cpu(2)->tickless, 0.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cpu(2)->tick_rate, 250.0, 1e-9);
	CU_ASSERT_STRING_EQUAL(cpu(2)->reason, "SCHED@CPU");
	CU_ASSERT_STRING_EQUAL(cpu(3)->cause, "work vmstat_update");
	CU_ASSERT_TRUE(cpu(3)->online);

	/* CPU 2 stops half-way through the next second; CPU 3 takes interrupts */
	ticks(2, 1 * S, 125);
	stop_ok(2, 1500 * MS);
	for (int i = 0; i < 4; i++)
		cause(3, 1100 * MS + i * MS, TS_CAUSE_IRQ, 24);
	take(2 * S, NULL);
	CU_ASSERT_EQUAL(snap.interval_ns, 1 * S);
	CU_ASSERT_EQUAL(snap.elapsed_ns, 2 * S);
	CU_ASSERT_EQUAL(cpu(2)->tick, TS_TICK_STOPPED);
	CU_ASSERT_DOUBLE_EQUAL(cpu(2)->tickless, 0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cpu(2)->tick_rate, 125.0, 1e-9);
	CU_ASSERT_STRING_EQUAL(cpu(2)->reason, "SCHED@CPU");
	/* 4 interrupts now against 3 work items in all: the interval's, not the sums */
	CU_ASSERT_STRING_EQUAL(cpu(3)->cause, "irq 24 eth0");

	/* the local APIC timer's vector carries every tick: named only when alone */
	for (int i = 0; i < 10; i++)
		cause(3, 2100 * MS + i * MS, TS_CAUSE_VECTOR, TS_VEC_LOCAL_TIMER);
	cause(3, 2500 * MS, TS_CAUSE_VECTOR, TS_VEC_RESCHEDULE);
	take(2600 * MS, NULL);
	CU_ASSERT_STRING_EQUAL(cpu(3)->cause, "vector reschedule");
	cause(3, 2700 * MS, TS_CAUSE_VECTOR, TS_VEC_LOCAL_TIMER);
	take(2800 * MS, NULL);
	CU_ASSERT_STRING_EQUAL(cpu(3)->cause, "vector local_timer");

	/* a quiet second: no reason and no cause grew */
	take(3 * S, NULL);
	CU_ASSERT_DOUBLE_EQUAL(cpu(2)->tickless, 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cpu(2)->tick_rate, 0.0, 1e-9);
	CU_ASSERT_STRING_EQUAL(cpu(2)->reason, "");
	CU_ASSERT_STRING_EQUAL(cpu(3)->cause, "");
	end();
}

/* Lost events add up since the start; a gap of unknown size marks a lower bound. */
static void test_snap_lost_offline(void)
{
	struct ts_cpuset online = { 0 };

	begin();
	sw(1, 0, 0, 100);
	stop_ok(1, 0);
	stop_ok(2, 0);
	stop_ok(3, 0);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 1, .ts = 500 * MS, .lost.count = 7 });
	take(1 * S, NULL);
	CU_ASSERT_EQUAL(cpu(1)->lost, 7);
	CU_ASSERT_FALSE(cpu(1)->lost_unknown);
	CU_ASSERT_EQUAL(cpu(2)->lost, 0);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 1, .ts = 1500 * MS });
	ts_cpuset_add(&online, 1);
	ts_cpuset_add(&online, 2);
	ts_analysis_offline(&an, 3, 1200 * MS);
	take(2 * S, &online);
	CU_ASSERT_EQUAL(cpu(1)->lost, 7);
	CU_ASSERT_TRUE(cpu(1)->lost_unknown);
	CU_ASSERT_FALSE(cpu(3)->online);
	CU_ASSERT_EQUAL(cpu(3)->tick, TS_TICK_UNKNOWN);
	/* offline for the whole of the next interval: no share to show */
	take(3 * S, &online);
	CU_ASSERT_EQUAL(cpu(3)->tickless, -1);
	end();
}

/* ---- the screen ---- */

static struct ts_top_cpu mk(int n, double tickless, double rate, const char *reason,
			    const char *cause)
{
	struct ts_top_cpu c = { .cpu = n, .online = 1, .tick = TS_TICK_STOPPED,
				.tickless = tickless, .tick_rate = rate };

	if (tickless >= 0 && tickless < 1)
		c.tick = TS_TICK_RUNNING;
	snprintf(c.reason, sizeof(c.reason), "%s", reason);
	snprintf(c.cause, sizeof(c.cause), "%s", cause);
	return c;
}

/* Six CPUs: 4 is the worst, then 2, 6, 5 (more ticks at the same share), 1, 3 (no share). */
static void six_cpus(void)
{
	memset(&snap, 0, sizeof(snap));
	snap.interval_ns = 1 * S;
	snap.elapsed_ns = 12 * S;
	snap.cpus[0] = mk(1, 1.0, 0, "", "");
	snap.cpus[1] = mk(2, 0.5, 125, "SCHED@CPU", "work vmstat_update");
	snap.cpus[2] = mk(3, -1, 0, "", "");
	snap.cpus[2].online = 0;
	snap.cpus[3] = mk(4, 0.0, 250, "POSIX_TIMER@PROCESS", "hrtimer posix_timer_fn");
	snap.cpus[4] = mk(5, 0.9, 10, "RCU", "");
	snap.cpus[5] = mk(6, 0.9, 20, "RCU", "softirq RCU");
	snap.cpus[5].lost = 3;
	snap.cpus[5].lost_unknown = 1;
	snap.nr = 6;
}

static int nr_lines;
static char *lines[MAX_LINES];
static char *screen;

/* render into lines[]; returns the hidden count */
static int render(int rows, int cols, int plain)
{
	struct ts_top_view v = { .rows = rows, .cols = cols, .plain = plain, .cpus = "1-6",
				 .interval_s = 1 };
	size_t len;
	FILE *f;
	int hidden;

	free(screen);
	f = open_memstream(&screen, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	hidden = ts_top_render(f, &snap, &v);
	fclose(f);
	CU_ASSERT_TRUE(len == 0 || screen[len - 1] == '\n');
	CU_ASSERT_PTR_NULL(strchr(screen, '\033'));
	CU_ASSERT_PTR_NULL(strchr(screen, '\r'));
	nr_lines = 0;
	for (char *p = screen, *nl; *p && nr_lines < MAX_LINES; p = nl + 1) {
		nl = strchr(p, '\n');
		*nl = '\0';
		lines[nr_lines++] = p;
	}
	return hidden;
}

/* the CPU number a row starts with, -1 for another line */
static int row_cpu(int i)
{
	int n;

	return sscanf(lines[i], "%d", &n) == 1 ? n : -1;
}

/* All fit: the title, the header, every CPU in CPU order, nothing hidden. */
static void test_render_fits(void)
{
	six_cpus();
	CU_ASSERT_EQUAL(render(24, 100, 0), 0);
	CU_ASSERT_EQUAL_FATAL(nr_lines, 8);
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[0], "tickstat top"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[0], "CPUs 1-6"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[0], "up 12.0 s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[0], "q quits"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[1], "TICKLESS"));
	for (int i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(row_cpu(2 + i), i + 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[2], "stopped"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[2], "1.000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[3], "running"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[3], "125.0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[3], "SCHED@CPU"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[3], "work vmstat_update"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[4], "offline"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[5], "POSIX_TIMER@PROCESS"));
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[7], " 3+ "));
	/* exactly as many rows as lines: still all fit */
	CU_ASSERT_EQUAL(render(8, 100, 0), 0);
	CU_ASSERT_EQUAL(nr_lines, 8);
}

/* Too few rows: the worst first, as many as fit, and a line saying how many are not shown. */
static void test_render_hidden(void)
{
	static const int worst[] = { 4, 2, 6, 5, 1, 3 };

	six_cpus();
	CU_ASSERT_EQUAL(render(7, 100, 0), 2);
	CU_ASSERT_EQUAL_FATAL(nr_lines, 7);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(row_cpu(2 + i), worst[i]);
	CU_ASSERT_STRING_EQUAL(lines[6], "(2 more CPUs not shown: too few rows; the worst are above)");
	/* every rank of the order, one more row at a time */
	for (int rows = 4; rows <= 8; rows++) {
		int shown = rows == 8 ? 6 : rows - 3;

		render(rows, 100, 0);
		CU_ASSERT_EQUAL(nr_lines, rows);
		for (int i = 0; rows < 8 && i < shown; i++)
			CU_ASSERT_EQUAL(row_cpu(2 + i), worst[i]);
	}
	CU_ASSERT_EQUAL(render(4, 100, 0), 5);
	CU_ASSERT_STRING_EQUAL(lines[3], "(5 more CPUs not shown: too few rows; the worst are above)");
	/* never one CPU hidden for a line that says so: that line's row shows it */
	snap.nr = 3;
	CU_ASSERT_EQUAL(render(5, 100, 0), 0);
	CU_ASSERT_EQUAL(render(4, 100, 0), 2);
	/* a lone CPU on a one-row terminal: singular */
	snap.nr = 1;
	CU_ASSERT_EQUAL(render(1, 100, 0), 1);
	CU_ASSERT_STRING_EQUAL(lines[0], "(1 more CPU not shown: too few rows; the worst are above)");
}

/* A tiny terminal: never more lines than rows. */
static void test_render_tiny(void)
{
	six_cpus();
	for (int rows = 0; rows <= 3; rows++) {
		render(rows, 100, 0);
		CU_ASSERT_TRUE(nr_lines <= rows);
	}
	render(1, 100, 0);
	CU_ASSERT_EQUAL_FATAL(nr_lines, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[0], "6 more CPUs"));
}

/* No line wider than the terminal, at any width; the columns stay aligned. */
static void test_render_widths(void)
{
	six_cpus();
	snprintf(snap.cpus[1].cause, sizeof(snap.cpus[1].cause), "work %s",
		 "a_very_long_kernel_function_name_that_goes_on_and_on");
	for (int cols = 1; cols <= 140; cols++) {
		render(24, cols, 0);
		for (int i = 0; i < nr_lines; i++)
			CU_ASSERT_TRUE(strlen(lines[i]) <= (size_t)cols);
	}
	/* before the first numbers too */
	for (int cols = 1; cols <= 140; cols++) {
		static const char full[] =
			"tickstat top  CPUs 1-6  every 1 s: the first numbers come in 1 s  (q quits)";
		struct ts_top_view v = { .rows = 24, .cols = cols, .cpus = "1-6", .interval_s = 1 };
		char *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);

		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		ts_top_waiting(f, &v);
		fclose(f);
		CU_ASSERT_EQUAL(len, (cols < (int)strlen(full) ? (size_t)cols : strlen(full)) + 1);
		CU_ASSERT_EQUAL(strncmp(out, full, len - 1), 0);
		free(out);
	}
	render(24, 200, 0);
	/* the header's columns over the rows' */
	CU_ASSERT_EQUAL(strstr(lines[1], "TICKLESS") - lines[1] + 8,
			strstr(lines[2], "1.000") - lines[2] + 5);
	CU_ASSERT_EQUAL(strstr(lines[1], "TOP REASON") - lines[1],
			strstr(lines[3], "SCHED@CPU") - lines[3]);
	CU_ASSERT_EQUAL(strstr(lines[1], "TOP CAUSE") - lines[1],
			strstr(lines[3], "work a_very") - lines[3]);
	/* a reason longer than its column is cut, the cause stays in its place */
	snprintf(snap.cpus[1].reason, sizeof(snap.cpus[1].reason), "%s",
		 "DEP_BIT7@PROCESS_AND_MORE_TEXT");
	render(24, 200, 0);
	CU_ASSERT_EQUAL(strstr(lines[1], "TOP CAUSE") - lines[1],
			strstr(lines[3], "work a_very") - lines[3]);
	/* UTF-8 counts as one column per character */
	snprintf(snap.cpus[0].cause, sizeof(snap.cpus[0].cause), "irq 5 \xc3\xa9\xc3\xa9\xc3\xa9");
	render(24, 80, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[2], "\xc3\xa9\xc3\xa9\xc3\xa9"));
}

/* Plain mode: every CPU in CPU order whatever the rows, no line cut, no key to press. */
static void test_render_plain(void)
{
	six_cpus();
	snprintf(snap.cpus[1].cause, sizeof(snap.cpus[1].cause), "work %s",
		 "a_very_long_kernel_function_name_that_goes_on_and_on");
	CU_ASSERT_EQUAL(render(0, 0, 1), 0);
	CU_ASSERT_EQUAL_FATAL(nr_lines, 8);
	CU_ASSERT_PTR_NULL(strstr(lines[0], "q quits"));
	for (int i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(row_cpu(2 + i), i + 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(lines[3], "work a_very_long_kernel_function_name_that_goes_on_and_on"));
	/* a terminal's size, if any, does not apply */
	CU_ASSERT_EQUAL(render(3, 20, 1), 0);
	CU_ASSERT_EQUAL(nr_lines, 8);
}

/* On a terminal: drawn in place, each line cleared to its end, no newline to scroll the screen. */
static void test_frame(void)
{
	static const char text[] = "title\nheader\n   1  stopped\n";
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ts_top_frame(f, text, strlen(text));
	fclose(f);
	CU_ASSERT_STRING_EQUAL(out, "\033[Htitle\033[K\nheader\033[K\n   1  stopped\033[K\033[J");
	free(out);
}

/* The order itself: share, then ticks, then lost events, then CPU; no share last. */
static void test_worse(void)
{
	struct ts_top_cpu a = mk(1, 0.5, 10, "", ""), b = mk(2, 0.5, 10, "", "");

	CU_ASSERT_TRUE(ts_top_worse(&a, &b));
	CU_ASSERT_FALSE(ts_top_worse(&b, &a));
	b.lost = 1;
	CU_ASSERT_TRUE(ts_top_worse(&b, &a));
	a.tick_rate = 11;
	CU_ASSERT_TRUE(ts_top_worse(&a, &b));
	b.tickless = 0.4;
	CU_ASSERT_TRUE(ts_top_worse(&b, &a));
	b.tickless = -1;
	CU_ASSERT_TRUE(ts_top_worse(&a, &b));
	CU_ASSERT_FALSE(ts_top_worse(&a, &a));
}

int main(void)
{
	static const struct ts_unit_test tests[] = {
		{ "the interval's numbers", test_snap_intervals },
		{ "lost events and offline CPUs", test_snap_lost_offline },
		{ "all CPUs fit: CPU order", test_render_fits },
		{ "too few rows: the worst first, the hidden line", test_render_hidden },
		{ "a tiny terminal", test_render_tiny },
		{ "no line wider than the terminal", test_render_widths },
		{ "plain mode", test_render_plain },
		{ "which CPU is worse", test_worse },
		{ "the terminal's frame", test_frame },
	};
	int ret = ts_unit_run("tickstat top", tests, sizeof(tests) / sizeof(tests[0]));

	free(screen);
	return ret;
}
