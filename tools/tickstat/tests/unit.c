// SPDX-License-Identifier: GPL-2.0
/*
 * unit.c - host-side unit tests of tickstat (CUnit): histogram, CPU lists,
 * the state machine on synthetic streams, the trace.dat reader on fixtures
 * captured in the guest (tests/fixtures: tickstat's recordings and
 * trace-cmd's files of the same runs), the symbol resolver, and every way a
 * recording can be broken.
 *
 * usage: unit-tests FIXTURE_DIR
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "analysis.h"
#include "cgroup.h"
#include "check.h"
#include "datfile.h"
#include "decode.h"
#include "docrec.h"
#include "format.h"
#include "metrics.h"
#include "output.h"
#include "pagesum.h"
#include "ksym.h"
#include "stream.h"
#include "timerlist.h"
#include "tracedat.h"
#include "util.h"
#include "unit_run.h"
#include "unit_ringpage.h"
#include "unit_spool.h"
#include "unit_stream.h"
#include "unit_formats.h"

static const char *fixtures;

static char *fixture(const char *name)
{
	static char path[4][512];
	static int next;
	char *p = path[next++ & 3];

	snprintf(p, sizeof(path[0]), "%s/%s", fixtures, name);
	return p;
}

/* ---- the tick's hrtimer, by name ---- */

static const char hrtimer_fmt[] =
	"name: hrtimer_expire_entry\nID: 42\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 now;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"hrtimer=%p\", REC->hrtimer\n";

/* Decode one hrtimer_expire_entry of callback fn: 1 when it is a tick. */
static int decode_expiry(struct ts_decoder *d, unsigned long long fn)
{
	unsigned char data[32] = { 42 };	/* common_type: hrtimer_expire_entry */
	struct tep_record rec = { .ts = 1000, .cpu = 1, .size = sizeof(data), .data = data };
	struct ts_event ev;

	memcpy(data + 24, &fn, sizeof(fn));
	return ts_decode(d, &rec, &ev) == 1 && ev.kind == TS_EV_TICK;
}

/*
 * The tick's timer is found by name in the kernel's symbols (the live
 * /proc/kallsyms or a trace.dat's): tick_sched_timer up to Linux 6.8,
 * tick_nohz_handler from 6.9 (6.1 has both, and there tick_sched_timer is
 * the tick); another callback is no tick; without either name the count is
 * unknown, not 0.
 */
static void test_decode_tick_names(void)
{
	static const struct {
		const char *kallsyms;
		unsigned long long tick;
	} kernels[] = {
		{ "ffffffff81000100 t tick_sched_timer\nffffffff81000180 t tick_nohz_handler\n"
		  "ffffffff81000200 t hrtimer_wakeup\n", 0xffffffff81000100ULL },	/* 6.1 */
		{ "ffffffff81000100 t tick_nohz_handler\nffffffff81000200 t hrtimer_wakeup\n",
		  0xffffffff81000100ULL },						/* 6.12 */
		{ "ffffffff81000200 t hrtimer_wakeup\n", 0 },				/* neither */
	};

	for (int i = 0; i < 3; i++) {
		struct ts_ksym_query *q = calloc(1, sizeof(*q));
		struct tep_handle *tep = tep_alloc();
		struct ts_decoder d = { 0 };
		struct ts_caps caps;

		CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
		CU_ASSERT_PTR_NOT_NULL_FATAL(q);
		ts_ksym_query_init(q);
		ts_ksym_feed(q, kernels[i].kallsyms, strlen(kernels[i].kallsyms));
		ts_ksym_end(q);
		CU_ASSERT_EQUAL(q->tick_fn, kernels[i].tick);
		CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, tick_stop_fmt, strlen(tick_stop_fmt),
						      "timer"), 0);
		CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, hrtimer_fmt, strlen(hrtimer_fmt),
						      "timer"), 0);
		d.tick_fn = q->tick_fn;
		CU_ASSERT_EQUAL_FATAL(ts_decoder_init(&d, tep, &caps), 0);
		CU_ASSERT_EQUAL(caps.tick_expiry, !!kernels[i].tick);
		if (kernels[i].tick) {
			CU_ASSERT(decode_expiry(&d, kernels[i].tick));
			CU_ASSERT(!decode_expiry(&d, 0xffffffff81000200ULL));
		}
		tep_free(tep);
		free(q);
	}
}

/* the causes' formats as 6.1 writes them (a __data_loc string among them) */
static const char irq_entry_fmt[] =
	"name: irq_handler_entry\nID: 50\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n";
static const char queue_fmt[] =
	"name: workqueue_queue_work\nID: 51\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] workqueue;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int req_cpu;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"work struct=%p\", REC->work\n";
static const char work_start_fmt[] =
	"name: workqueue_execute_start\nID: 52\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"work struct %p\", REC->work\n";

/* Parse a format as a file's reader does: cleaned first (format.c). */
static void parse_clean(struct tep_handle *tep, const char *fmt, const char *system)
{
	char *clean = ts_format_clean(fmt, strlen(fmt), 0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(clean);
	CU_ASSERT_EQUAL(tep_parse_event(tep, clean, strlen(clean), system), 0);
	free(clean);
}

/* series v3's tick_dep_set (v2's layout) and its new tick_dep_sched */
static const char dep_set_fmt[] =
	"name: tick_dep_set\nID: 60\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int dependency;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int scope;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int target;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int sched;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"dependency=%d\", REC->dependency\n";
static const char dep_sched_fmt[] =
	"name: tick_dep_sched\nID: 61\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int target;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int sched;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_sched;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"target=%d\", REC->target\n";

/*
 * A SCHED reason that changes while the bit stays set: series v2 sent a
 * tick_dep_set of SCHED at CPU scope with the new reason, v3 sends
 * tick_dep_sched (its tick_dep_set is for real changes only).  Both decode
 * to the same event, so that both kernels' recordings give one report; a
 * tick_dep_sched too short for its format is a bad record.
 */
static void test_decode_dep_sched(void)
{
	struct tep_handle *tep = tep_alloc();
	unsigned char set[40] = { 60 }, change[32] = { 61 };
	unsigned long long caller = 0xffffffff81234567ULL;
	struct tep_record rec = { .ts = 1000, .cpu = 0 };
	struct ts_decoder d = { 0 };
	struct ts_event v2, v3;
	struct ts_caps caps;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, tick_stop_fmt, strlen(tick_stop_fmt), "timer"), 0);
	parse_clean(tep, dep_set_fmt, "timer");
	parse_clean(tep, dep_sched_fmt, "timer");
	CU_ASSERT_EQUAL_FATAL(ts_decoder_init(&d, tep, &caps), 0);

	/* v2: dependency=SCHED scope=CPU target=3 sched=DEADLINE */
	i = 4;
	memcpy(set + 8, &i, 4);
	i = 2;
	memcpy(set + 12, &i, 4);
	i = 3;
	memcpy(set + 16, &i, 4);
	memcpy(set + 24, &caller, 8);
	i = 1;
	memcpy(set + 32, &i, 4);
	rec.data = set;
	rec.size = sizeof(set);
	CU_ASSERT_EQUAL_FATAL(ts_decode(&d, &rec, &v2), 1);

	/* v3: target=3 sched=DEADLINE prev_sched=CFS */
	i = 3;
	memcpy(change + 8, &i, 4);
	i = 1;
	memcpy(change + 12, &i, 4);
	i = 3;
	memcpy(change + 16, &i, 4);
	memcpy(change + 24, &caller, 8);
	rec.data = change;
	rec.size = sizeof(change);
	CU_ASSERT_EQUAL_FATAL(ts_decode(&d, &rec, &v3), 1);

	CU_ASSERT_EQUAL(v3.kind, TS_EV_DEP_SET);
	CU_ASSERT_EQUAL(v3.kind, v2.kind);
	CU_ASSERT_EQUAL(v3.dep.dependency, v2.dep.dependency);
	CU_ASSERT_EQUAL(v3.dep.scope, TS_SCOPE_CPU);
	CU_ASSERT_EQUAL(v3.dep.scope, v2.dep.scope);
	CU_ASSERT_EQUAL(v3.dep.target, 3);
	CU_ASSERT_EQUAL(v3.dep.sched, 1);
	CU_ASSERT_EQUAL(v3.dep.sched, v2.dep.sched);
	CU_ASSERT_EQUAL(v3.dep.caller, caller);
	/* v3 says which sub-reason ended, so the reasons can be timed */
	CU_ASSERT_EQUAL(v3.dep.sched_change, 1);
	CU_ASSERT_EQUAL(v3.dep.prev_sched, 3);
	CU_ASSERT_EQUAL(v2.dep.sched_change, 0);
	/* timing them takes the clears too, which this source lacks */
	CU_ASSERT_EQUAL(caps.sched_split, 0);

	rec.size = 20;		/* the caller lies past the record */
	CU_ASSERT_EQUAL(ts_decode(&d, &rec, &v3), -1);
	tep_free(tep);
}

/* a change of SCHED at cpu: set (prev -1: the bit was clear), changed, or cleared */
static void sched_dep(int from, uint64_t ts, int cpu, int kind, int sched, int prev)
{
	feed(&(struct ts_event){ .kind = kind, .cpu = from, .ts = ts, .pid = 100,
				 .dep = { .dependency = 1u << 2, .scope = TS_SCOPE_CPU,
					  .target = cpu, .sched = sched,
					  .sched_change = prev >= 0, .prev_sched = prev } });
}

/* one case of test_sched_split: SCHED events at CPU 2 in a window of 1 s */
struct split_case {
	const char *what;
	struct { int from; uint64_t ts; int kind, sched, prev; } ev[4];
	int nr;
	int timed;			/* ts_sched_split()'s answer */
	uint64_t deadline, rr, cfs;	/* and its times, when timed */
	int detail;			/* ts_sched_detail() */
};

static const struct split_case split_cases[] = {
	{ "another CPU's set and clear come first, though they were last",
	  { { 0, 950 * MS, TS_EV_DEP_SET, 3, -1 }, { 0, 960 * MS, TS_EV_DEP_CLEAR, 3, -1 },
	    { 2, 100 * MS, TS_EV_DEP_SET, 1, -1 }, { 2, 900 * MS, TS_EV_DEP_CLEAR, 1, -1 } }, 4,
	  1, 800 * MS, 0, 10 * MS, 1 },
	{ "a change while the bit stays set ends one stretch and starts another",
	  { { 2, 100 * MS, TS_EV_DEP_SET, 3, -1 }, { 2, 200 * MS, TS_EV_DEP_SET, 2, 3 },
	    { 2, 700 * MS, TS_EV_DEP_CLEAR, 2, -1 } }, 3,
	  1, 0, 500 * MS, 100 * MS, 2 },
	{ "set before the window, and another still set at its end",
	  { { 2, 800 * MS, TS_EV_DEP_SET, 3, -1 }, { 2, 300 * MS, TS_EV_DEP_CLEAR, 1, -1 } }, 2,
	  1, 300 * MS, 0, 200 * MS, 1 },
	{ "one sub-reason held at both edges: CFS, DEADLINE for 600 ms, CFS again",
	  { { 2, 800 * MS, TS_EV_DEP_SET, 3, 1 }, { 2, 200 * MS, TS_EV_DEP_SET, 1, 3 } }, 2,
	  1, 600 * MS, 0, 400 * MS, 1 },
	{ "a change unseen: CFS to the end and DEADLINE from the start overlap",
	  { { 2, 100 * MS, TS_EV_DEP_SET, 3, -1 }, { 2, 500 * MS, TS_EV_DEP_CLEAR, 1, -1 } }, 2,
	  0, 0, 0, 0, 3 },
	{ "two sets unmatched: two stretches held at the end",
	  { { 2, 100 * MS, TS_EV_DEP_SET, 3, -1 }, { 2, 900 * MS, TS_EV_DEP_SET, 1, -1 } }, 2,
	  0, 0, 0, 0, 1 },
	{ "a sub-reason past the table",
	  { { 2, 100 * MS, TS_EV_DEP_SET, TS_NR_SCHED_SPLIT, -1 },
	    { 2, 200 * MS, TS_EV_DEP_CLEAR, TS_NR_SCHED_SPLIT, -1 } }, 2,
	  0, 0, 0, 0, TS_NR_SCHED_SPLIT },
};

/*
 * SCHED's sub-reasons by time: the one that held the bit longest names it,
 * whatever order the CPUs' events come in; stretches held at the window's
 * edges end there; a source that cannot time them, lost events, or
 * stretches that do not add up (an event missing) fall back to the last
 * one set.
 */
static void test_sched_split(void)
{
	uint64_t ns[TS_NR_SCHED_SPLIT];

	for (size_t i = 0; i < sizeof(split_cases) / sizeof(split_cases[0]); i++) {
		const struct split_case *k = &split_cases[i];
		int timed;

		stream_start(0, 1, 0);
		for (int e = 0; e < k->nr; e++)
			sched_dep(k->ev[e].from, k->ev[e].ts, 2, k->ev[e].kind, k->ev[e].sched,
				  k->ev[e].prev);
		ts_analysis_finish(&an, 1 * S);
		timed = ts_sched_split(&an, an.cpus[2], ns);
		if (timed != k->timed ||
		    (timed && (ns[1] != k->deadline || ns[2] != k->rr || ns[3] != k->cfs ||
			       ns[0] + ns[4] + ns[5] + ns[6] + ns[7])) ||
		    ts_sched_detail(&an, an.cpus[2]) != k->detail)
			fprintf(stderr, "sched split: %s: timed %d, %llu/%llu/%llu ns, detail %d\n",
				k->what, timed, (unsigned long long)ns[1], (unsigned long long)ns[2],
				(unsigned long long)ns[3], ts_sched_detail(&an, an.cpus[2]));
		CU_ASSERT_EQUAL(timed, k->timed);
		if (timed && k->timed) {
			CU_ASSERT_EQUAL(ns[1], k->deadline);
			CU_ASSERT_EQUAL(ns[2], k->rr);
			CU_ASSERT_EQUAL(ns[3], k->cfs);
			CU_ASSERT_EQUAL(ns[0] + ns[4] + ns[5] + ns[6] + ns[7], 0);
		}
		CU_ASSERT_EQUAL(ts_sched_detail(&an, an.cpus[2]), k->detail);
		if (i == 0)
			CU_ASSERT_EQUAL(an.cpus[2]->sched_detail, 3);	/* the last set */
		ts_analysis_free(&an);
	}

	/* no event of SCHED at the CPU (another CPU's only): held all along or never */
	stream_start(0, 1, 0);
	switch_to(2, 10 * MS, 100, "spin");
	sched_dep(0, 100 * MS, 1, TS_EV_DEP_SET, 3, -1);
	ts_analysis_finish(&an, 1 * S);
	CU_ASSERT_EQUAL(ts_sched_split(&an, an.cpus[1], ns), 1);
	CU_ASSERT_EQUAL(ts_sched_split(&an, an.cpus[2], ns), 0);
	ts_analysis_free(&an);

	/* events lost on any CPU: a lost pair of edges would leave it adding up */
	stream_start(0, 1, 0);
	sched_dep(2, 100 * MS, 2, TS_EV_DEP_SET, 3, -1);
	sched_dep(2, 200 * MS, 2, TS_EV_DEP_CLEAR, 3, -1);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 0, .ts = 300 * MS,
				 .lost = { .count = 3 } });
	ts_analysis_finish(&an, 1 * S);
	CU_ASSERT_EQUAL(ts_sched_split(&an, an.cpus[2], ns), 0);
	ts_analysis_free(&an);

	/* a source without tick_dep_sched (series v2): a change is a set */
	stream_start(0, 1, 0);
	an.caps.sched_split = 0;
	sched_dep(2, 100 * MS, 2, TS_EV_DEP_SET, 1, -1);
	sched_dep(2, 900 * MS, 2, TS_EV_DEP_CLEAR, 1, -1);
	sched_dep(2, 950 * MS, 2, TS_EV_DEP_SET, 3, -1);
	ts_analysis_finish(&an, 1 * S);
	CU_ASSERT_EQUAL(ts_sched_split(&an, an.cpus[2], ns), 0);
	CU_ASSERT_EQUAL(ts_sched_detail(&an, an.cpus[2]), 3);
	ts_analysis_free(&an);

	/* a time range: the stretches are cut at its edges */
	stream_start(0, 1, 0);
	ts_analysis_set_range(&an, 200 * MS, 600 * MS);
	sched_dep(2, 100 * MS, 2, TS_EV_DEP_SET, 1, -1);		/* before: not counted */
	sched_dep(2, 300 * MS, 2, TS_EV_DEP_SET, 3, 1);		/* DEADLINE -> CFS */
	sched_dep(2, 700 * MS, 2, TS_EV_DEP_CLEAR, 3, -1);		/* after */
	ts_analysis_finish(&an, 1 * S);
	CU_ASSERT_EQUAL_FATAL(ts_sched_split(&an, an.cpus[2], ns), 1);
	CU_ASSERT_EQUAL(ns[1], 100 * MS);
	CU_ASSERT_EQUAL(ns[3], 300 * MS);
	ts_analysis_free(&an);
}

/*
 * The causes' events decode to what they name: an IRQ with its
 * __data_loc name (bounds-checked: a location past the record is a bad
 * record), work queued for another CPU, a work item's function; a
 * stream without the exits can count but not time.
 */
static void test_decode_causes(void)
{
	struct tep_handle *tep = tep_alloc();
	unsigned char irq[24] = { 50 }, queue[40] = { 51 }, work[24] = { 52 };
	struct tep_record rec = { .ts = 1000, .cpu = 3 };
	struct ts_decoder d = { 0 };
	unsigned long long v;
	struct ts_event ev;
	struct ts_caps caps;
	unsigned int loc;
	int n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, tick_stop_fmt, strlen(tick_stop_fmt), "timer"), 0);
	parse_clean(tep, irq_entry_fmt, "irq");
	parse_clean(tep, queue_fmt, "workqueue");
	parse_clean(tep, work_start_fmt, "workqueue");
	CU_ASSERT_EQUAL_FATAL(ts_decoder_init(&d, tep, &caps), 0);
	CU_ASSERT_EQUAL(caps.causes, 1u << TS_CAUSE_WORK | 1u << TS_CAUSE_IRQ);
	CU_ASSERT_EQUAL(caps.cause_exits, 0);
	CU_ASSERT(caps.queue);

	n = 4;
	memcpy(irq + 8, &n, 4);
	loc = 16 | 6 << 16;		/* "ttyS0" and its NUL at offset 16 */
	memcpy(irq + 12, &loc, 4);
	memcpy(irq + 16, "ttyS0", 6);
	rec.data = irq;
	rec.size = sizeof(irq);
	CU_ASSERT_EQUAL_FATAL(ts_decode(&d, &rec, &ev), 1);
	CU_ASSERT_EQUAL(ev.kind, TS_EV_CAUSE);
	CU_ASSERT_EQUAL(ev.cause.type, TS_CAUSE_IRQ);
	CU_ASSERT_EQUAL(ev.cause.key, 4);
	CU_ASSERT_EQUAL(ev.cause.exit, 0);
	CU_ASSERT_STRING_EQUAL(ev.cause.name, "ttyS0");
	loc = 20 | 6 << 16;		/* runs past the record */
	memcpy(irq + 12, &loc, 4);
	CU_ASSERT_EQUAL(ts_decode(&d, &rec, &ev), -1);

	v = 0xffffffff81000300ULL;
	memcpy(queue + 16, &v, 8);
	n = 1;
	memcpy(queue + 32, &n, 4);
	rec.data = queue;
	rec.size = sizeof(queue);
	rec.cpu = 0;
	CU_ASSERT_EQUAL_FATAL(ts_decode(&d, &rec, &ev), 1);
	CU_ASSERT_EQUAL(ev.kind, TS_EV_QUEUE);
	CU_ASSERT_EQUAL(ev.queue.function, v);
	CU_ASSERT_EQUAL(ev.queue.target, 1);
	CU_ASSERT_EQUAL(ev.queue.in_irq, 0);
	CU_ASSERT_EQUAL(ev.cpu, 0);
	/* common_flags: queued in a hardirq, then a softirq, then an NMI */
	for (int i = 0; i < 3; i++) {
		queue[2] = (unsigned char[]){ 0x08, 0x10, 0x40 }[i];
		CU_ASSERT_EQUAL_FATAL(ts_decode(&d, &rec, &ev), 1);
		CU_ASSERT_EQUAL(ev.queue.in_irq, 1);
	}
	queue[2] = 0x01;	/* irqs off, in a task: not an interrupt */
	CU_ASSERT_EQUAL_FATAL(ts_decode(&d, &rec, &ev), 1);
	CU_ASSERT_EQUAL(ev.queue.in_irq, 0);
	queue[2] = 0;

	v = 0xffff888001234000ULL;
	memcpy(work + 8, &v, 8);
	v = 0xffffffff81000300ULL;
	memcpy(work + 16, &v, 8);
	rec.data = work;
	rec.size = sizeof(work);
	CU_ASSERT_EQUAL_FATAL(ts_decode(&d, &rec, &ev), 1);
	CU_ASSERT_EQUAL(ev.kind, TS_EV_CAUSE);
	CU_ASSERT_EQUAL(ev.cause.type, TS_CAUSE_WORK);
	CU_ASSERT_EQUAL(ev.cause.key, v);
	CU_ASSERT_EQUAL(ev.cause.inst, 0xffff888001234000ULL);
	tep_free(tep);
}

/*
 * The decoder's table of event ids: a record of no interest is 0 (not a
 * bad record, even when short for every format), an event in the table
 * decodes, and an event whose id no kernel has (past 16 bits, a crafted
 * file) is not taken for the one it names: that cause is unknown, not
 * routed by a compare.
 */
static void test_decode_routes(void)
{
	struct tep_handle *tep = tep_alloc();
	unsigned char other[8] = { 77 }, irq[24] = { 50 };
	struct tep_record rec = { .ts = 1000, .cpu = 3 };
	struct ts_decoder d = { 0 };
	struct ts_event ev;
	struct ts_caps caps;
	char wide[1024];
	int n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, tick_stop_fmt, strlen(tick_stop_fmt), "timer"), 0);
	parse_clean(tep, irq_entry_fmt, "irq");
	snprintf(wide, sizeof(wide), "name: workqueue_execute_start\nID: 70000\n%s",
		 strstr(work_start_fmt, "format:"));
	parse_clean(tep, wide, "workqueue");
	CU_ASSERT_EQUAL_FATAL(ts_decoder_init(&d, tep, &caps), 0);
	CU_ASSERT_EQUAL(caps.causes, 1u << TS_CAUSE_IRQ);	/* the wide id: unknown */

	rec.data = other;
	rec.size = sizeof(other);
	CU_ASSERT_EQUAL(ts_decode(&d, &rec, &ev), 0);
	CU_ASSERT_EQUAL(d.bad_records, 0);
	n = 4;
	memcpy(irq + 8, &n, 4);
	n = 16 | 6 << 16;
	memcpy(irq + 12, &n, 4);
	memcpy(irq + 16, "ttyS0", 6);
	rec.data = irq;
	rec.size = sizeof(irq);
	CU_ASSERT_EQUAL(ts_decode(&d, &rec, &ev), 1);
	CU_ASSERT_EQUAL(ev.kind, TS_EV_CAUSE);
	CU_ASSERT_EQUAL(ev.cause.type, TS_CAUSE_IRQ);
	rec.size = 12;			/* short for irq_handler_entry: bad */
	CU_ASSERT_EQUAL(ts_decode(&d, &rec, &ev), -1);
	CU_ASSERT_EQUAL(d.bad_records, 1);
	tep_free(tep);
}

/* sched_switch as the kernel writes its format (without the long print fmt) */
static const char switch_fmt[] =
	"name: sched_switch\nID: 60\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n";

/*
 * A switch read at the offsets checked once (decode.c's fast path) is the
 * event read field by field: pids with the sign bit set, a name of all 16
 * bytes (cut to 15), a record one byte short refused by both.
 */
static void test_decode_switch_fast(void)
{
	struct tep_handle *tep = tep_alloc();
	unsigned char raw[64] = { 60 };
	struct tep_record rec = { .ts = 1000, .cpu = 3, .data = raw, .size = sizeof(raw) };
	struct ts_decoder fast = { 0 }, slow;
	struct ts_event a, b;
	struct ts_caps caps;
	int32_t v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, tick_stop_fmt, strlen(tick_stop_fmt), "timer"),
			      0);
	parse_clean(tep, switch_fmt, "sched");
	CU_ASSERT_EQUAL_FATAL(ts_decoder_init(&fast, tep, &caps), 0);
	CU_ASSERT(caps.sched_switch);
	CU_ASSERT_EQUAL_FATAL(fast.sw_end, 60);
	CU_ASSERT(fast.type_at && fast.pid_at);
	slow = fast;
	slow.type_at = 0;
	slow.pid_at = 0;
	slow.sw_end = 0;
	v = (int32_t)0x80000001;
	memcpy(raw + 4, &v, 4);
	memcpy(raw + 8, "abcdefghijklmnop", 16);
	v = -5;
	memcpy(raw + 24, &v, 4);
	memcpy(raw + 40, "b\0garbage", 10);
	v = (int32_t)0x80000002;
	memcpy(raw + 56, &v, 4);
	CU_ASSERT_EQUAL(ts_decode(&fast, &rec, &a), 1);
	CU_ASSERT_EQUAL(ts_decode(&slow, &rec, &b), 1);
	CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof(a)), 0);
	CU_ASSERT_EQUAL(a.kind, TS_EV_SWITCH);
	CU_ASSERT_EQUAL(a.pid, (int32_t)0x80000001);
	CU_ASSERT_EQUAL(a.sw.prev_pid, -5);
	CU_ASSERT_EQUAL(a.sw.next_pid, (int32_t)0x80000002);
	CU_ASSERT_STRING_EQUAL(a.sw.prev_comm, "abcdefghijklmno");
	CU_ASSERT_STRING_EQUAL(a.sw.next_comm, "b");
	rec.size = fast.sw_end - 1;
	CU_ASSERT_EQUAL(ts_decode(&fast, &rec, &a), -1);
	CU_ASSERT_EQUAL(ts_decode(&slow, &rec, &b), -1);
	CU_ASSERT_EQUAL(fast.bad_records, 1);
	CU_ASSERT_EQUAL(slow.bad_records, 1);
	tep_free(tep);
}

/*
 * The start snapshot's reading of /proc/timer_list: the CPUs in any order,
 * an offline CPU's state ignored for the count, the read over once every
 * online CPU has its state (what follows, a tick device or a later CPU
 * section, is not read), and a CPU the file lacks left unknown after the
 * whole file.
 */
static void test_timer_list(void)
{
	static const char text[] =
		"Timer List Version: v0.9\n"
		"cpu: 3\n clock 0:\n  .get_time:   ktime_get\n"
		"  .tick_stopped   : 1\n  .idle_jiffies   : 4294\n"
		"cpu: 1\n  .tick_stopped   : 0\n"
		"cpu: 2\n  .tick_stopped   : 1\n"
		"cpu: 0\n  .tick_stopped   : 0\n"
		"cpu: 1\n  .tick_stopped   : 1\n"
		"Tick Device: mode:     1\n";
	struct ts_cpuset online;
	int stopped[TS_MAX_CPUS];
	FILE *f;

	for (int i = 0; i < TS_MAX_CPUS; i++)
		stopped[i] = -1;
	CU_ASSERT_EQUAL(ts_cpuset_parse(&online, "0-1,3"), 0);
	f = fmemopen((void *)text, sizeof(text) - 1, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(ts_timer_list_stopped(f, &online, stopped), 3);
	CU_ASSERT(stopped[3] == 1 && stopped[1] == 0 && stopped[2] == 1 && stopped[0] == 0);
	/* stopped at CPU 0's line: the second section of CPU 1 is not read */
	CU_ASSERT_FALSE(feof(f));
	fclose(f);
	/* a CPU without .tick_stopped (no NO_HZ_COMMON): the whole file, and unknown */
	for (int i = 0; i < TS_MAX_CPUS; i++)
		stopped[i] = -1;
	CU_ASSERT_EQUAL(ts_cpuset_parse(&online, "0-4"), 0);
	f = fmemopen((void *)text, sizeof(text) - 1, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(ts_timer_list_stopped(f, &online, stopped), 4);
	CU_ASSERT(feof(f));
	CU_ASSERT_EQUAL(stopped[4], -1);
	CU_ASSERT_EQUAL(stopped[1], 1);		/* its last section */
	fclose(f);
}

/* Write text to root/rel, making the directories on the way. */
static void put_file(const char *root, const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* A test's reader for cgroup.c: a file under the root ctx names. */
static int read_in_root(void *ctx, const char *file, char *buf, size_t len)
{
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", (const char *)ctx, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (int)n;
}

/*
 * The one cpu.max reader (the recorder's and the audit's): the innermost
 * quota on the task's path, "max" and malformed levels passed over, the
 * root cgroup never read, a task without cgroup v2 or gone unknown, and a
 * host without cgroup v2 mounted unknown to the recorder.
 */
/* Both series' SCHED sub-reasons by name; an unknown value by its number. */
static void test_sched_names(void)
{
	static const char * const want[] = {
		"NONE", "DEADLINE", "RR", "CFS", "FAIR_SERVER", "CFS_BANDWIDTH", "SCX",
	};

	for (int i = 0; i < (int)(sizeof(want) / sizeof(want[0])); i++)
		CU_ASSERT_STRING_EQUAL(ts_sched_name(i), want[i]);
	CU_ASSERT_STRING_EQUAL(ts_sched_name(7), "SCHED_7");
	CU_ASSERT_STRING_EQUAL(ts_sched_name(-1), "SCHED_-1");
}

static void test_cgroup_cpu_max(void)
{
	char root[] = "/tmp/tickstat-cgroup-XXXXXX";
	static const struct {
		int pid;
		int ret;
		int64_t quota;
		uint64_t period;
	} cases[] = {
		{ 10, 0, 50000, 100000 },	/* /a/b is max, /a has the quota */
		{ 11, 0, -1, 0 },		/* max all the way up */
		{ 12, -1, 0, 0 },		/* cgroup v1 only */
		{ 13, -1, 0, 0 },		/* gone */
		{ 14, 0, 50000, 100000 },	/* /a/bad is malformed: /a's */
		{ 15, 0, 20000, 50000 },	/* its own group's, with the file's newline */
		{ 16, 0, -1, 0 },		/* in the root cgroup, whose cpu.max is ignored */
	};
	struct ts_cpu_max m;
	int64_t quota;
	uint64_t period;
	char cmd[64];

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	put_file(root, "/proc/10/cgroup", "1:name=systemd:/x\n0::/a/b\n");
	put_file(root, "/proc/11/cgroup", "0::/c\n");
	put_file(root, "/proc/12/cgroup", "1:cpu:/x\n");
	put_file(root, "/proc/14/cgroup", "0::/a/bad\n");
	put_file(root, "/proc/15/cgroup", "0::/d\n");
	put_file(root, "/proc/16/cgroup", "0::/\n");
	put_file(root, "/sys/fs/cgroup/cpu.max", "1000 100000\n");
	put_file(root, "/sys/fs/cgroup/a/cpu.max", "50000 100000\n");
	put_file(root, "/sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
	put_file(root, "/sys/fs/cgroup/a/bad/cpu.max", "garbage\n");
	put_file(root, "/sys/fs/cgroup/c/cpu.max", "max 100000\n");
	put_file(root, "/sys/fs/cgroup/d/cpu.max", "20000 50000\n");
	/* without cgroup v2 mounted (no cgroup.controllers): unknown */
	CU_ASSERT_EQUAL(ts_cgroup_cpu_max(root, 10, &quota, &period), -1);
	put_file(root, "/sys/fs/cgroup/cgroup.controllers", "cpu memory\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		quota = 7;
		period = 7;
		CU_ASSERT_EQUAL(ts_cgroup_cpu_max(root, cases[i].pid, &quota, &period),
				cases[i].ret);
		if (cases[i].ret)
			continue;
		CU_ASSERT_EQUAL(quota, cases[i].quota);
		CU_ASSERT_EQUAL(period, cases[i].period);
	}
	/* where it was read, for the audit's evidence: named as on the system */
	CU_ASSERT_EQUAL(ts_cgroup_find_cpu_max("/proc/10/cgroup", read_in_root, root, &m), 1);
	CU_ASSERT_STRING_EQUAL(m.cgroup, "/a");
	CU_ASSERT_STRING_EQUAL(m.file, "/sys/fs/cgroup/a/cpu.max");
	CU_ASSERT_STRING_EQUAL(m.value, "50000 100000");
	CU_ASSERT_EQUAL(ts_cgroup_find_cpu_max("/proc/11/cgroup", read_in_root, root, &m), 0);
	CU_ASSERT_EQUAL(m.quota_us, -1);
	CU_ASSERT_STRING_EQUAL(m.file, "");
	CU_ASSERT_EQUAL(ts_cgroup_find_cpu_max("/proc/13/cgroup", read_in_root, root, &m), -1);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* ---- histogram ---- */

static void test_hist_exact_small(void)
{
	struct ts_hist h = { 0 };

	for (uint64_t v = 1; v <= 7; v++)
		ts_hist_add(&h, v);
	CU_ASSERT_EQUAL(h.count, 7);
	CU_ASSERT_EQUAL(h.min, 1);
	CU_ASSERT_EQUAL(h.max, 7);
	CU_ASSERT_EQUAL(h.total, 28);
	CU_ASSERT_EQUAL(ts_hist_percentile(&h, 50), 4);
	CU_ASSERT_EQUAL(ts_hist_percentile(&h, 100), 7);
}

static void test_hist_error_bound(void)
{
	struct ts_hist h = { 0 };

	/* 1..100000 us: the true p50 is 50000 us, p90 90000 us */
	for (uint64_t v = 1; v <= 100000; v++)
		ts_hist_add(&h, v * 1000);
	uint64_t p50 = ts_hist_percentile(&h, 50), p90 = ts_hist_percentile(&h, 90);

	CU_ASSERT(p50 >= 50000000ULL && p50 <= 50000000ULL * 1125 / 1000);
	CU_ASSERT(p90 >= 90000000ULL && p90 <= 90000000ULL * 1125 / 1000);
	CU_ASSERT_EQUAL(ts_hist_percentile(&h, 100), 100000000ULL);
	CU_ASSERT(ts_hist_percentile(&h, 0.0001) >= 1000 && ts_hist_percentile(&h, 0.0001) <= 1125);
}

static void test_hist_log2(void)
{
	struct ts_hist h = { 0 };
	uint64_t sum = 0;

	ts_hist_add(&h, 0);
	ts_hist_add(&h, 1);
	ts_hist_add(&h, 1023);
	ts_hist_add(&h, 1024);
	ts_hist_add(&h, UINT64_MAX);
	CU_ASSERT_EQUAL(ts_hist_log2_count(&h, 0), 1);
	CU_ASSERT_EQUAL(ts_hist_log2_count(&h, 1), 1);
	CU_ASSERT_EQUAL(ts_hist_log2_count(&h, 10), 1);	/* 512..1023 */
	CU_ASSERT_EQUAL(ts_hist_log2_count(&h, 11), 1);	/* 1024..2047 */
	CU_ASSERT_EQUAL(ts_hist_log2_count(&h, 64), 1);
	for (int p = 0; p <= 64; p++)
		sum += ts_hist_log2_count(&h, p);
	CU_ASSERT_EQUAL(sum, h.count);
	CU_ASSERT_EQUAL(ts_hist_percentile(&(struct ts_hist){ 0 }, 50), 0);
}

/* ---- CPU lists ---- */

static void test_cpuset(void)
{
	struct ts_cpuset s;
	char buf[64];

	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "1-3,5\n"), 0);
	CU_ASSERT_EQUAL(ts_cpuset_count(&s), 4);
	CU_ASSERT(ts_cpuset_has(&s, 5) && !ts_cpuset_has(&s, 4));
	ts_cpuset_format(&s, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "1-3,5");
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, ""), 0);
	CU_ASSERT(ts_cpuset_empty(&s));
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "1-"), -1);
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "3-1"), -1);
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "a"), -1);
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "1,,2"), -1);
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "99999"), -1);
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "1,"), -1);
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "1\n2"), -1);
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, ",1"), -1);
	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "1-2,4\n"), 0);
}

/*
 * A list longer than its buffer ends in "..." after a whole element, never
 * in a cut number; TS_CPUSET_TEXT_MAX holds the longest of 1024 CPUs; and
 * the pieces ts_cpuset_format_from() cuts a list into are its union.
 */
static void test_cpuset_long(void)
{
	struct ts_cpuset s, back, piece;
	char buf[TS_CPUSET_TEXT_MAX], small[8];
	size_t n;
	int from = 0, pieces = 0;

	CU_ASSERT_EQUAL(ts_cpuset_parse(&s, "1-3,5,100-200"), 0);
	CU_ASSERT_EQUAL(ts_cpuset_format(&s, small, sizeof(small)), 13);
	CU_ASSERT_STRING_EQUAL(small, "1-3,...");
	CU_ASSERT_EQUAL(ts_cpuset_format(&s, small, 4), 13);
	CU_ASSERT_STRING_EQUAL(small, "...");
	/* the longest lists: a pair and a gap ("1000-1001,"), every other CPU */
	for (int step = 2; step <= 3; step++) {
		memset(&s, 0, sizeof(s));
		for (int c = 0; c < TS_CPUSET_WORDS * 64; c++)
			if (c % step != step - 1)
				ts_cpuset_add(&s, c);
		n = ts_cpuset_format(&s, buf, sizeof(buf));
		CU_ASSERT(n > 2000 && n < sizeof(buf));
		CU_ASSERT_EQUAL(strlen(buf), n);
		CU_ASSERT_EQUAL(ts_cpuset_parse(&back, buf), 0);
		CU_ASSERT_EQUAL(memcmp(&back, &s, sizeof(s)), 0);
		memset(&back, 0, sizeof(back));
		from = 0;
		pieces = 0;
		do {
			char part[512];

			from = ts_cpuset_format_from(&s, from, part, sizeof(part));
			/* each piece as full as whole elements make it, but the last */
			CU_ASSERT(strlen(part) < sizeof(part) && (from < 0 || strlen(part) > 500));
			CU_ASSERT_EQUAL(ts_cpuset_parse(&piece, part), 0);
			for (int w = 0; w < TS_CPUSET_WORDS; w++) {
				CU_ASSERT_FALSE(back.bits[w] & piece.bits[w]);
				back.bits[w] |= piece.bits[w];
			}
			pieces++;
		} while (from >= 0 && pieces < 100);
		CU_ASSERT(pieces >= 4 && pieces <= 8);
		CU_ASSERT_EQUAL(memcmp(&back, &s, sizeof(s)), 0);
	}
	/* an empty list is one empty piece */
	memset(&s, 0, sizeof(s));
	CU_ASSERT_EQUAL(ts_cpuset_format_from(&s, 0, small, sizeof(small)), -1);
	CU_ASSERT_STRING_EQUAL(small, "");
}

/* Numbers as users write them, and nothing else strtod() would take */
static void test_parse_numbers(void)
{
	static const char * const bad[] = {
		"", " 1", "1 ", "+1", "-1", "1e3", "0x10", "0x1p3", "inf", "INF", "nan",
		"infinity", "1.", ".5", "1.2.3", "1,5", "1_000", "\xd9\xa1",
		"1000000000000000000000000000000000000000000000000000000000000000000000000000000"
		"0000000000000000000000000000000000000000000000000000000000000000000000000000000"
		"0000000000000000000000000000000000000000000000000000000000000000000000000000000"
		"0000000000000000000000000000000000000000000000000000000000000000000000000000000",
	};
	double d;
	uint64_t n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(ts_parse_double(bad[i], &d), -1);
	CU_ASSERT_EQUAL(ts_parse_double("99.9", &d), 0);
	CU_ASSERT_DOUBLE_EQUAL(d, 99.9, 1e-9);
	CU_ASSERT_EQUAL(ts_parse_double("007", &d), 0);
	CU_ASSERT_DOUBLE_EQUAL(d, 7, 1e-9);
	CU_ASSERT_EQUAL(ts_parse_double("0", &d), 0);
	CU_ASSERT_EQUAL(ts_parse_dec("18446744073709551615", &n), 0);
	CU_ASSERT_EQUAL(ts_parse_dec("18446744073709551616", &n), -1);
	CU_ASSERT_EQUAL(ts_parse_dec("0x10", &n), -1);
	CU_ASSERT_EQUAL(ts_parse_dec("-1", &n), -1);
	CU_ASSERT_EQUAL(ts_parse_dec("", &n), -1);
}

/* Durations: a number and a unit, or seconds; exact ns; overflow and garbage refused */
static void test_parse_duration(void)
{
	static const char * const bad[] = {
		"", "s", "ms", " 1s", "1s ", "1 s", "+1s", "-1s", "1e3", "1e3s", "0x10s", "inf",
		"nan", "1.", "1.s", ".5s", "1.2.3s", "1,5s", "1S", "1sec", "1min", "1 m", "1mm",
		"1ss", "1s5", "1m30s", "5y", "1\n", "\xd9\xa1s",
		/* more than UINT64_MAX ns: in the number, in the multiplication, in the sum */
		"18446744073709551616ns", "18446744074s", "213504d", "18446744073.709551616",
		"99999999999999999999999999999999999999999999999999s",
	};
	static const struct { const char *text; uint64_t ns; } good[] = {
		{ "30", 30000000000ULL }, { "30s", 30000000000ULL }, { "1m", 60000000000ULL },
		{ "500ms", 500000000 }, { "0.1", 100000000 }, { "1.5h", 5400000000000ULL },
		{ "2d", 172800000000000ULL }, { "250us", 250000 }, { "7ns", 7 }, { "007s", 7000000000ULL },
		{ "0", 0 }, { "0.5ns", 0 }, { "0.000000001", 1 },
		{ "1.0000000000000000000000001s", 1000000000 },
		{ "18446744073709551615ns", UINT64_MAX }, { "18446744073.709551615", UINT64_MAX },
	};
	uint64_t ns;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ns = 42;
		CU_ASSERT_EQUAL(ts_parse_duration(bad[i], &ns), -1);
		CU_ASSERT_EQUAL(ns, 42);	/* untouched on an error */
		if (ts_parse_duration(bad[i], &ns) != -1)
			fprintf(stderr, "taken: '%s'\n", bad[i]);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ns = 42;
		CU_ASSERT_EQUAL(ts_parse_duration(good[i].text, &ns), 0);
		if (ns != good[i].ns)
			fprintf(stderr, "'%s': %" PRIu64 " ns, not %" PRIu64 "\n", good[i].text, ns,
				good[i].ns);
		CU_ASSERT_EQUAL(ns, good[i].ns);
	}
}

/* --pretty: indented, strings (with their escapes, braces and commas) untouched */
static void test_json_pretty(void)
{
	static const char in[] = "{\"a\":1,\"b\":[],\"c\":{},\"d\":[1,{\"e\":\"x,{}[]:\\\"y\"}],"
				 "\"f\":null}\n";
	static const char want[] = "{\n  \"a\": 1,\n  \"b\": [],\n  \"c\": {},\n  \"d\": [\n    1,\n"
				   "    {\n      \"e\": \"x,{}[]:\\\"y\"\n    }\n  ],\n  \"f\": null\n}\n";
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	ts_json_pretty(m, in, strlen(in));
	fclose(m);
	CU_ASSERT_STRING_EQUAL(buf, want);
	if (strcmp(buf, want))
		fprintf(stderr, "pretty:\n%s", buf);
	free(buf);
}

/* ---- the state machine on synthetic streams ---- */

/* a refusal: SCHED at CPU scope (patched) or as 6.1 reports it */
static void stop_sched(int cpu, uint64_t ts)
{
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = cpu, .ts = ts, .pid = task[cpu],
				 .stop = { .success = 0, .dependency = 1 << 2,
					   .has_scopes = an.caps.scopes,
					   .deps = { 0, 1 << 2, 0, 0 } } });
}

static void restart(int cpu, uint64_t ts, int cause)
{
	feed(&(struct ts_event){ .kind = TS_EV_TICK_RESTART, .cpu = cpu, .ts = ts,
				 .pid = task[cpu], .restart = { .stopped_ns = -1, .cause = cause } });
}

static void tick(int cpu, uint64_t ts)
{
	feed(&(struct ts_event){ .kind = TS_EV_TICK, .cpu = cpu, .ts = ts, .pid = task[cpu] });
}

static const struct ts_reason *find(const struct ts_cpu *c, const char *name)
{
	for (int i = 0; i < c->nr_reasons; i++)
		if (ts_reason_matches(&c->reasons[i], name))
			return &c->reasons[i];
	return NULL;
}

/* The time a reason held the tick; UINT64_MAX when the CPU has no such reason. */
static uint64_t reason_ns(const struct ts_cpu *c, const char *name)
{
	const struct ts_reason *r = find(c, name);

	return r ? r->time_ns : UINT64_MAX;
}

/* Patched: busy task, a second task holds the tick 1 s, then it stops. */
static void test_patched_two_tasks(void)
{
	const struct ts_reason *r;
	struct ts_metrics m;
	struct ts_cpu *c;

	stream_start(0, 1, 0);
	switch_to(1, 0, 100, NULL);				/* busy from 0 */
	stop_ok(1, 100 * MS);			/* stopped from 0.1 s */
	stop_sched(1, 1 * S);			/* a second task: refused... */
	restart(1, 1 * S + 1000, TS_RESTART_DEPENDENCY);	/* ...and restarted */
	for (uint64_t t = 1 * S + 4 * MS; t < 2 * S; t += 4 * MS) {
		tick(1, t);
		stop_sched(1, t + 1000);
	}
	stop_ok(1, 2 * S);			/* one task again */
	ts_analysis_finish(&an, 3 * S);

	c = an.cpus[1];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(m.window_ns, 3 * S);
	/* a stop is traced when a running tick stops: it ran since the start */
	CU_ASSERT_EQUAL(m.unknown_ns, 0);
	CU_ASSERT_EQUAL(m.stopped_ns, 900 * MS + 1000 + 1 * S);
	CU_ASSERT_EQUAL(m.running_ns, 100 * MS + 1 * S - 1000);
	CU_ASSERT_EQUAL(m.busy_ns, m.stopped_ns + m.running_ns);
	CU_ASSERT_EQUAL(c->ticks, 249);
	r = find(c, "SCHED@CPU");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->time_ns, 1 * S - 1000);	/* from the restart on */
	CU_ASSERT_EQUAL(r->events, 250);
	CU_ASSERT_EQUAL(reason_ns(c, "UNREPORTED"), 100 * MS);	/* before the first stop */
	CU_ASSERT_EQUAL(c->stopped.count, 1);		/* 0.1 s .. 1 s + 1 us */
	CU_ASSERT_EQUAL(c->stopped.max, 900 * MS + 1000);
	CU_ASSERT_EQUAL(c->stopped_open, 1);		/* cut by the window end */
	CU_ASSERT_EQUAL(c->restarts[TS_RESTART_DEPENDENCY], 1);
	ts_analysis_free(&an);
}

/*
 * A CPU's state allocated ahead (ts_analysis_reserve_cpu, before the
 * window) is the state its first use would make: the same figures, and a
 * CPU reserved without events is not reported.
 */
static void test_reserved_cpu_state(void)
{
	struct ts_metrics m[2];
	uint64_t ticks[2];

	for (int reserve = 0; reserve < 2; reserve++) {
		stream_start(0, 1, 0);
		if (reserve) {
			CU_ASSERT_EQUAL(ts_analysis_reserve_cpu(&an, 1), 0);
			CU_ASSERT_EQUAL(ts_analysis_reserve_cpu(&an, 5), 0);
			CU_ASSERT_EQUAL(ts_analysis_reserve_cpu(&an, 1), 0);	/* once */
			CU_ASSERT_EQUAL(ts_analysis_reserve_cpu(&an, TS_MAX_CPUS), -1);
			CU_ASSERT_PTR_NULL(an.cpus[1]);
			CU_ASSERT_PTR_NOT_NULL(an.spare[1]);
			CU_ASSERT_EQUAL(an.nr_cpus, 0);
		}
		switch_to(1, 0, 100, NULL);
		if (reserve)
			CU_ASSERT_PTR_NULL(an.spare[1]);	/* taken by the first use */
		stop_ok(1, 100 * MS);
		stop_sched(1, 1 * S);
		restart(1, 1 * S + 1000, TS_RESTART_DEPENDENCY);
		tick(1, 1 * S + 4 * MS);
		stop_ok(1, 2 * S);
		ts_analysis_finish(&an, 3 * S);
		ts_metrics_of(&an, an.cpus[1], &m[reserve]);
		ticks[reserve] = an.cpus[1]->ticks;
		CU_ASSERT_PTR_NULL(an.cpus[5]);			/* no event: not reported */
		CU_ASSERT_EQUAL(an.nr_cpus, 2);
		ts_analysis_free(&an);			/* frees the spare of CPU 5 */
	}
	CU_ASSERT_EQUAL(m[1].window_ns, m[0].window_ns);
	CU_ASSERT_EQUAL(m[1].stopped_ns, m[0].stopped_ns);
	CU_ASSERT_EQUAL(m[1].running_ns, m[0].running_ns);
	CU_ASSERT_EQUAL(m[1].unknown_ns, m[0].unknown_ns);
	CU_ASSERT_EQUAL(m[1].busy_ns, m[0].busy_ns);
	CU_ASSERT_EQUAL(ticks[1], ticks[0]);
	CU_ASSERT_EQUAL(m[0].stopped_ns, 900 * MS + 1000 + 1 * S);
}

/* Stock: no restart event: the refusal itself ends the stopped interval. */
static void test_stock_inferred_restart(void)
{
	struct ts_cpu *c;

	stream_start(0, 0, 0);
	switch_to(2, 0, 100, NULL);
	stop_ok(2, 10 * MS);
	stop_sched(2, 510 * MS);
	stop_ok(2, 610 * MS);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[2];
	CU_ASSERT_EQUAL(c->stopped.count, 1);
	CU_ASSERT_EQUAL(c->stopped.max, 500 * MS);
	CU_ASSERT_EQUAL(reason_ns(c, "SCHED@UNKNOWN"), 100 * MS);
	CU_ASSERT_PTR_NULL(find(c, "SCHED@CPU"));
	ts_analysis_free(&an);
}

/* Stock, a housekeeping CPU: leaving idle restarts the tick silently. */
static void test_stock_idle_exit(void)
{
	struct ts_cpu *c;

	stream_start(0, 0, 0);
	ts_analysis_set_nohz_full(&an, 0, 0);
	switch_to(0, 0, 0, NULL);				/* idle */
	stop_ok(0, 1 * MS);
	switch_to(0, 201 * MS, 7, NULL);			/* busy: tick restarted */
	ts_analysis_finish(&an, 301 * MS);
	c = an.cpus[0];
	CU_ASSERT_EQUAL(c->stopped.count, 1);
	CU_ASSERT_EQUAL(c->stopped.max, 200 * MS);
	CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_BUSY], 100 * MS);
	CU_ASSERT_EQUAL(reason_ns(c, "NOT_NOHZ_FULL"), 100 * MS);
	CU_ASSERT_STRING_EQUAL(ts_comm_get(&an, 7), "task7");
	ts_analysis_free(&an);
}

/* Lost events: the gap before them is unknown, and counted. */
static void test_lost_events(void)
{
	struct ts_metrics m;
	struct ts_cpu *c;

	stream_start(0, 1, 0);
	switch_to(3, 0, 100, NULL);
	stop_ok(3, 0);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 3, .ts = 600 * MS,
				 .lost = { .count = 42 } });
	stop_ok(3, 700 * MS);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[3];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->lost_events, 42);
	CU_ASSERT_EQUAL(m.unknown_ns, 700 * MS);	/* from the last event to the next state */
	CU_ASSERT_EQUAL(m.stopped_ns, 300 * MS);
	CU_ASSERT_EQUAL(c->stopped.count, 0);		/* no interval measured across a gap */
	ts_analysis_free(&an);
}

/*
 * A time range that ends inside a gap: the loss is stamped after the
 * range, with the first event after the gap, but the gap began inside it.
 * From the CPU's last event to the range's end the state is unknown, and
 * the events lost count; not so for a CPU whose last event came after.
 */
/* a patched kernel's stream read over [from, to), CPU 1 stopped from 100 ms (to > 100 ms) */
static void range_stream(uint64_t from, uint64_t to)
{
	stream_start(0, 1, 0);
	an.range_start = from;
	an.range_end = to;
	switch_to(1, 0, 100, NULL);
	stop_ok(1, 100 * MS);
}

static void test_lost_range_edges(void)
{
	struct ts_metrics m;
	struct ts_cpu *c;

	range_stream(0, 400 * MS);
	switch_to(3, 0, 100, NULL);
	stop_ok(3, 100 * MS);
	switch_to(2, 0, 200, NULL);
	stop_ok(2, 50 * MS);
	switch_to(2, 500 * MS, 201, NULL);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 3, .ts = 600 * MS,
				 .lost = { .count = 42 } });
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 2, .ts = 600 * MS,
				 .lost = { .count = 7 } });
	stop_ok(3, 700 * MS);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[3];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->lost_events, 42);
	CU_ASSERT_EQUAL(m.window_ns, 400 * MS);
	CU_ASSERT_EQUAL(m.running_ns, 100 * MS);
	CU_ASSERT_EQUAL(m.stopped_ns, 0);
	CU_ASSERT_EQUAL(m.unknown_ns, 300 * MS);	/* since its last event, at 100 ms */
	CU_ASSERT_EQUAL(c->stopped.count, 0);
	c = an.cpus[2];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->lost_events, 0);		/* its gap began after the range */
	CU_ASSERT_EQUAL(m.stopped_ns, 350 * MS);
	CU_ASSERT_EQUAL(m.unknown_ns, 0);
	ts_analysis_free(&an);

	/*
	 * A gap that ended before the range's start leaves the state unknown
	 * until an event tells, and is not counted (CPU 1); a bad page's gap
	 * has no known end, so it is (CPU 2).
	 */
	range_stream(200 * MS, 400 * MS);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 1, .ts = 150 * MS,
				 .lost = { .count = 5, .missed = 1 } });
	stop_ok(1, 250 * MS);
	switch_to(2, 0, 200, NULL);
	stop_ok(2, 100 * MS);
	ts_analysis_bad_page(&an, 2);
	stop_ok(2, 300 * MS);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[1];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->lost_events + c->lost_unknown + c->missed_events, 0);
	CU_ASSERT_EQUAL(c->stopped_open, 1);		/* the one from 250 ms, cut by the end */
	CU_ASSERT_EQUAL(m.unknown_ns, 50 * MS);
	CU_ASSERT_EQUAL(m.stopped_ns, 150 * MS);
	c = an.cpus[2];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->lost_unknown, 1);
	CU_ASSERT_EQUAL(m.unknown_ns, 100 * MS);
	CU_ASSERT_EQUAL(m.stopped_ns, 100 * MS);
	ts_analysis_free(&an);

	/*
	 * A bad page's gap that ended before the range (CPU 1) is not
	 * counted; one after an event past the range (CPU 2) neither, and
	 * the start falls back as in the whole report; a loss after a failed
	 * decision past the range (CPU 3) leaves the start to the fallback
	 * (no snapshot: unknown), as the whole report does.
	 */
	range_stream(200 * MS, 400 * MS);
	ts_analysis_bad_page(&an, 1);
	stop_ok(1, 150 * MS);
	switch_to(2, 0, 200, NULL);
	tick(2, 500 * MS);
	ts_analysis_bad_page(&an, 2);
	stop_ok(2, 600 * MS);
	switch_to(3, 0, 300, NULL);
	stop_sched(3, 500 * MS);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 3, .ts = 600 * MS,
				 .lost = { .count = 3, .missed = 1 } });
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[1];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->lost_unknown, 0);
	CU_ASSERT_EQUAL(m.stopped_ns, 200 * MS);
	c = an.cpus[2];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->lost_unknown, 0);
	CU_ASSERT_EQUAL(m.unknown_ns, 200 * MS);	/* the gap let nothing tell the start */
	c = an.cpus[3];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->lost_events, 0);
	CU_ASSERT_EQUAL(m.running_ns, 0);
	CU_ASSERT_EQUAL(m.unknown_ns, 200 * MS);
	ts_analysis_free(&an);
}

/*
 * CPU 3's losses: a page's count of overwritten events (40), two full
 * pages' gaps without one, a page that failed its checks and a record too
 * short (neither is the ring buffer's overwriting); the kernel's overrun
 * counter at the end (overrun < 0: none), a time range (range 1: its
 * start, 2: its end) or a watcher.  CPU 2 beside it, with a gap of its
 * own and a counter of its own (1000), must not change what CPU 3 gets.
 */
static struct ts_cpu *losses(int64_t overrun, int range, int watcher)
{
	stream_start(0, 1, 0);
	if (watcher)
		ts_analysis_keep_gaps_unsized(&an);
	switch_to(3, 0, 100, NULL);
	switch_to(2, 0, 200, NULL);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 3, .ts = 300 * MS,
				 .lost = { .count = 40, .missed = 1 } });
	for (int i = 0; i < 2; i++)
		feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 3, .ts = (500 + i) * MS,
					 .lost = { .count = 0, .missed = 1 } });
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 2, .ts = 500 * MS,
				 .lost = { .count = 0, .missed = 1 } });
	ts_analysis_bad_page(&an, 3);
	ts_analysis_bad_record(&an, 3, 700 * MS);
	if (overrun >= 0)
		ts_analysis_count_overrun(&an, 3, overrun);
	ts_analysis_count_overrun(&an, 2, 1000);
	if (range == 1)
		an.range_start = 1;
	if (range == 2)
		an.range_end = 900 * MS;
	ts_analysis_finish(&an, 1 * S);
	return an.cpus[3];
}

/*
 * A gap the ring buffer left unsized (a full page has no room for the
 * count) is sized by the kernel's overrun counter at the end: every
 * event the buffer overwrote, here 100, 60 of them in that gap.  Not
 * without the counter, nor with one below what the pages said, nor for a
 * part of the recording or a watcher: the gap then stays of unknown size.
 */
static void test_lost_gaps_sized(void)
{
	struct ts_cpu *c = losses(100, 0, 0);

	CU_ASSERT_EQUAL(c->lost_events, 100 + 1);	/* the short record is one */
	CU_ASSERT_EQUAL(c->lost_unknown, 1);		/* the bad page */
	CU_ASSERT_EQUAL(c->missed_gaps_sized, 2);
	CU_ASSERT_EQUAL(an.cpus[2]->lost_events, 1000);
	CU_ASSERT_EQUAL(an.cpus[2]->lost_unknown, 0);
	ts_analysis_free(&an);
	/* the counter holds the 40 and the gaps' one event each at least: 42 */
	c = losses(42, 0, 0);
	CU_ASSERT_EQUAL(c->lost_events, 42 + 1);
	CU_ASSERT_EQUAL(c->lost_unknown, 1);
	ts_analysis_free(&an);
	for (int i = 0; i < 5; i++) {
		static const int64_t overrun[] = { -1, 41, 100, 100, 100 };

		c = losses(overrun[i], i == 2 ? 1 : i == 3 ? 2 : 0, i == 4);
		CU_ASSERT_EQUAL(c->lost_events, 40 + 1);
		CU_ASSERT_EQUAL(c->lost_unknown, 3);
		CU_ASSERT_EQUAL(c->missed_gaps_sized, 0);
		ts_analysis_free(&an);
	}
}

/*
 * The start snapshot holds where no event tells the state, part by part,
 * unless an event before it may have changed that part.
 */
static void test_snapshot(void)
{
	stream_start(0, 1, 0);
	ts_analysis_set_snapshot(&an, 5 * MS);
	for (int cpu = 1; cpu <= 3; cpu++) {
		task[cpu] = 100;
		ts_analysis_set_initial(&an, cpu, TS_TICK_STOPPED, TS_IDLE_BUSY);
	}
	tick(1, 1 * MS);			/* a stopped tick's timer fires too: nothing told */
	retain(2, 2 * MS, 8);			/* NEED_RESCHED before the snapshot: void */
	retain(3, 8 * MS, 8);			/* after it: the snapshot held */
	ts_analysis_finish(&an, 1 * S);
	CU_ASSERT_EQUAL(an.cpus[1]->time[TS_TICK_STOPPED][TS_IDLE_BUSY], 1 * S);
	CU_ASSERT_EQUAL(an.cpus[1]->stopped_open, 1);
	CU_ASSERT_EQUAL(an.cpus[1]->ticks_stopped, 1);
	CU_ASSERT_EQUAL(an.cpus[2]->time[TS_TICK_UNKNOWN][TS_IDLE_BUSY], 1 * S);
	CU_ASSERT_EQUAL(an.cpus[3]->time[TS_TICK_STOPPED][TS_IDLE_BUSY], 1 * S);
	ts_analysis_free(&an);
}

/*
 * Stock: a switch before the snapshot voids the tick part only where a switch
 * can restart the tick silently, outside nohz_full.  The idle part is told
 * by the first switch: the task leaving ran since the start.
 */
static void test_snapshot_stock_switch(void)
{
	stream_start(0, 0, 0);
	ts_analysis_set_snapshot(&an, 5 * MS);
	ts_analysis_set_nohz_full(&an, 0, 0);
	ts_analysis_set_nohz_full(&an, 1, 1);
	for (int cpu = 0; cpu <= 1; cpu++) {
		ts_analysis_set_initial(&an, cpu, TS_TICK_STOPPED, TS_IDLE_IDLE);
		switch_to(cpu, 1 * MS, 7, NULL);		/* a kworker runs... */
		switch_to(cpu, 2 * MS, 0, NULL);		/* ...and the CPU is idle again */
	}
	ts_analysis_finish(&an, 1 * S);
	CU_ASSERT_EQUAL(an.cpus[1]->time[TS_TICK_STOPPED][TS_IDLE_BUSY], 1 * MS);
	CU_ASSERT_EQUAL(an.cpus[1]->time[TS_TICK_STOPPED][TS_IDLE_IDLE], 1 * S - 1 * MS);
	CU_ASSERT_EQUAL(an.cpus[0]->time[TS_TICK_UNKNOWN][TS_IDLE_IDLE], 1 * S - 1 * MS);
	CU_ASSERT_EQUAL(an.cpus[0]->time[TS_TICK_STOPPED][TS_IDLE_IDLE], 0);
	ts_analysis_free(&an);
}

/* The first timeline span of a CPU. */
static int first_span(int cpu, struct ts_segment *seg)
{
	struct ts_timeline_iter *it = calloc(1, sizeof(*it));
	int r;

	while ((r = ts_timeline_next(&an, it, seg)) == 1)
		if (seg->cpu == cpu && !seg->no_span)
			break;
	free(it);
	return r == 1;
}

/*
 * The start from the trace: a CPU's first switch from idle says it was idle
 * since the window start, whatever the snapshot said (it is read after
 * tracing starts, and a thread's R state is not running); a stop, traced
 * only when a running tick stops, says the tick ran since the start.
 */
static void test_start_switch_from_idle(void)
{
	struct ts_segment seg;
	struct ts_metrics m;
	struct ts_cpu *c;

	stream_start(0, 1, 0);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	ts_analysis_set_snapshot(&an, 5 * MS);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	switch_to(1, 300 * MS, 100, NULL);
	stop_ok(1, 400 * MS);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[1];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_IDLE], 300 * MS);
	CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_BUSY], 100 * MS);
	CU_ASSERT_EQUAL(c->time[TS_TICK_STOPPED][TS_IDLE_BUSY], 600 * MS);
	CU_ASSERT_EQUAL(m.state_unknown_ns, 0);
	CU_ASSERT_EQUAL(c->stopped_open, 1);		/* only the one the window's end cuts */
	CU_ASSERT_FATAL(first_span(1, &seg));
	CU_ASSERT(seg.start == 0 && seg.end == 300 * MS && seg.idle == TS_IDLE_IDLE &&
		  seg.tick == TS_TICK_RUNNING && seg.task == 0);
	ts_analysis_free(&an);
}

/* a cause's entry (exit 0) or exit (1) on cpu, in the task it runs */
static void cause_at(int cpu, uint64_t ts, int type, int exit, uint64_t key)
{
	struct ts_event ev = { .kind = TS_EV_CAUSE, .cpu = cpu, .ts = ts, .pid = task[cpu],
			       .cause = { .type = type, .exit = exit, .key = key, .inst = key } };

	if (type == TS_CAUSE_IRQ)
		snprintf(ev.cause.name, sizeof(ev.cause.name), "dev%llu", (unsigned long long)key);
	feed(&ev);
}

/*
 * The causes on the CSV timeline: a row each, with its exit (also when a
 * span ended inside it, the row then already written), in time order
 * among the CPU's spans and ticks; a stretch with more causes than a
 * segment holds is split, its sums unchanged, none left off.
 */
static void test_timeline_causes(void)
{
	char *buf = NULL, *line, *next;
	uint64_t last = 0;
	size_t len = 0;
	int causes = 0, stopped_spans = 0;
	struct ts_cpu *c;
	FILE *f;

	stream_start(0, 1, 1);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	switch_to(1, 0, 100, NULL);
	stop_ok(1, 100 * MS);
	cause_at(1, 200 * MS, TS_CAUSE_IRQ, 0, 4);
	cause_at(1, 200 * MS + 10000, TS_CAUSE_IRQ, 1, 4);
	cause_at(1, 300 * MS - 10000, TS_CAUSE_IRQ, 0, 4);	/* the IRQ restarts the tick */
	restart(1, 300 * MS, TS_RESTART_DEPENDENCY);
	tick(1, 300 * MS + 5000);				/* the stopped span is written */
	cause_at(1, 300 * MS + 10000, TS_CAUSE_IRQ, 1, 4);
	stop_ok(1, 400 * MS);
	for (int i = 0; i < 1500; i++) {
		cause_at(1, 500 * MS + i * 100000ULL, TS_CAUSE_HRTIMER, 0, 0x1000);
		cause_at(1, 500 * MS + i * 100000ULL + 10000, TS_CAUSE_HRTIMER, 1, 0x1000);
	}
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[1];
	CU_ASSERT_EQUAL(c->time[TS_TICK_STOPPED][TS_IDLE_BUSY], 800 * MS);
	CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_BUSY], 200 * MS);
	CU_ASSERT_EQUAL(c->tl_causes_dropped, 0);

	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(ts_output_csv(f, &an), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\ncause,1,200000000,200010000,,,irq:4 dev4,100\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\ncause,1,299990000,300010000,,,irq:4 dev4,100\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\ncause,1,500000000,500010000,,,hrtimer:0x1000,100\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\ncause,1,649900000,649910000,,,hrtimer:0x1000,100\n"));
	/* rows of the CPU in time order, every one counted */
	for (line = strchr(buf, '\n') + 1; line && *line; line = next) {
		unsigned long long start;
		char kind[16];

		next = strchr(line, '\n');
		if (next)
			next++;
		if (sscanf(line, "%15[a-z],1,%llu,", kind, &start) != 2)
			continue;
		CU_ASSERT(start >= last);
		last = start;
		causes += !strcmp(kind, "cause");
		stopped_spans += !strcmp(kind, "span") && strstr(line, ",stopped,") &&
				 start >= 400 * MS;
	}
	CU_ASSERT_EQUAL(causes, 1502);
	CU_ASSERT(stopped_spans >= 2);		/* split when its causes filled a segment */
	free(buf);
	ts_analysis_free(&an);

	/* while the state is open, TS_SEG_MAX_CAUSES wait for it; the rest are counted */
	stream_start(0, 1, 1);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	task[1] = 100;
	for (int i = 0; i < TS_SEG_MAX_CAUSES + 76; i++)
		cause_at(1, 1 * MS + i * 10000ULL, TS_CAUSE_HRTIMER, 0, 0x1000);
	stop_ok(1, 500 * MS);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[1];
	CU_ASSERT_EQUAL(c->tl_causes_dropped, 76);
	CU_ASSERT_EQUAL(c->causes[0].count, TS_SEG_MAX_CAUSES + 76);	/* the report's */
	buf = NULL;
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(ts_output_csv(f, &an), 0);
	fclose(f);
	causes = 0;
	for (line = buf; (line = strstr(line, "\ncause,1,")); line++)
		causes++;
	CU_ASSERT_EQUAL(causes, TS_SEG_MAX_CAUSES);
	free(buf);
	ts_analysis_free(&an);
}

/* A first switch from a task: busy since the start, that task's time. */
static void test_start_switch_from_busy(void)
{
	struct ts_segment seg;
	struct ts_metrics m;
	struct ts_cpu *c;

	stream_start(0, 1, 0);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	task[2] = 77;
	switch_to(2, 200 * MS, 0, NULL);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[2];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(ts_cpu_idle_ns(c, TS_IDLE_BUSY), 200 * MS);
	CU_ASSERT_EQUAL(ts_cpu_idle_ns(c, TS_IDLE_IDLE), 800 * MS);
	CU_ASSERT_EQUAL(ts_cpu_idle_ns(c, TS_IDLE_UNKNOWN), 0);
	CU_ASSERT_EQUAL(c->nr_tasks, 1);
	CU_ASSERT(c->tasks[0].pid == 77 && c->tasks[0].run_ns == 200 * MS);
	/* no tick event, no snapshot: the tick state stays unknown, and says so */
	CU_ASSERT_EQUAL(m.unknown_ns, 1 * S);
	CU_ASSERT_EQUAL(m.state_unknown_ns, 1 * S);
	CU_ASSERT_FATAL(first_span(2, &seg));
	CU_ASSERT(seg.end == 200 * MS && seg.idle == TS_IDLE_BUSY && seg.task == 77);
	ts_analysis_free(&an);
}

/*
 * The tick's first event: a restart says it was stopped since the start (an
 * open interval, cut by the window start), and a tick interrupt before it
 * fired while stopped; a failed decision followed by anything but a
 * restart says it was running.
 */
static void test_start_restart_first(void)
{
	struct ts_cpu *c;

	stream_start(0, 1, 0);
	task[3] = task[4] = 100;
	tick(3, 100 * MS);
	stop_sched(3, 500 * MS);
	restart(3, 500 * MS + 1000, TS_RESTART_DEPENDENCY);
	stop_sched(4, 10 * MS);
	tick(4, 14 * MS);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[3];
	CU_ASSERT_EQUAL(c->time[TS_TICK_STOPPED][TS_IDLE_BUSY], 500 * MS + 1000);
	CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_BUSY], 500 * MS - 1000);
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(c, TS_TICK_UNKNOWN), 0);
	CU_ASSERT_EQUAL(c->ticks_stopped, 1);
	CU_ASSERT_EQUAL(c->stopped_open, 1);
	CU_ASSERT_EQUAL(c->open_total_ns, 500 * MS + 1000);
	CU_ASSERT_EQUAL(c->restarts[TS_RESTART_DEPENDENCY], 1);
	CU_ASSERT_EQUAL(reason_ns(c, "SCHED@CPU"), 500 * MS - 1000);
	c = an.cpus[4];
	CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_BUSY], 1 * S);
	CU_ASSERT_EQUAL(reason_ns(c, "SCHED@CPU"), 1 * S - 10 * MS);
	CU_ASSERT_EQUAL(reason_ns(c, "UNREPORTED"), 10 * MS);
	CU_ASSERT_EQUAL(c->ticks_stopped, 0);
	CU_ASSERT_EQUAL(c->stopped_open, 0);
	ts_analysis_free(&an);
}

/*
 * A tick interrupt first: its task says the idle state, not the tick's
 * (a stopped tick's timer fires at the next timer event); the tick event
 * after it does.  Only where every restart is traced: a stock kernel's
 * stop says nothing of the time before it.
 */
static void test_start_tick_first(void)
{
	struct ts_cpu *c;

	for (int patched = 1; patched >= 0; patched--) {
		stream_start(0, patched, 0);
		tick(1, 10 * MS);
		stop_ok(1, 20 * MS);
		tick(2, 10 * MS);
		retain(2, 20 * MS, 1);		/* TIMER_DUE: traced only while the tick runs */
		ts_analysis_finish(&an, 100 * MS);
		c = an.cpus[1];
		CU_ASSERT_EQUAL(ts_cpu_idle_ns(c, TS_IDLE_IDLE), 100 * MS);
		CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_IDLE], patched ? 20 * MS : 0);
		CU_ASSERT_EQUAL(c->time[TS_TICK_UNKNOWN][TS_IDLE_IDLE], patched ? 0 : 20 * MS);
		CU_ASSERT_EQUAL(c->ticks_stopped, 0);
		c = an.cpus[2];
		CU_ASSERT_EQUAL(c->time[TS_TICK_RUNNING][TS_IDLE_IDLE], patched ? 100 * MS : 80 * MS);
		ts_analysis_free(&an);
	}
}

/*
 * What no event tells stays unknown and is shown: the share of the window
 * whose tick or idle state is unknown covers what busy and idle time do
 * not; without sched_switch the snapshot's idle state holds only when it
 * was read; after a gap, who ran is unknown until the next event names it.
 */
static void test_start_unknown_shown(void)
{
	struct ts_segment seg;
	struct ts_metrics m;
	struct ts_cpu *c;

	stream_start(0, 1, 0);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	task[1] = 100;
	for (uint64_t t = 4 * MS; t < 1 * S; t += 4 * MS)
		tick(1, t);			/* nothing says the tick state */
	ts_analysis_add_cpu(&an, 2);		/* no event at all */
	switch_to(3, 0, 100, NULL);
	stop_ok(3, 0);
	ts_analysis_bad_page(&an, 3);		/* a gap from its last event, at 0 */
	stop_ok(3, 600 * MS);
	ts_analysis_finish(&an, 1 * S);
	ts_metrics_of(&an, an.cpus[1], &m);
	CU_ASSERT_EQUAL(m.unknown_ns, 1 * S);
	CU_ASSERT_EQUAL(m.busy_ns, 0);
	CU_ASSERT_DOUBLE_EQUAL(m.state_unknown_share, 1.0, 1e-12);
	CU_ASSERT(m.busy_tickless_share < 0);
	ts_metrics_of(&an, an.cpus[2], &m);
	CU_ASSERT_EQUAL(m.state_unknown_ns, 1 * S);
	c = an.cpus[3];
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(c->time[TS_TICK_UNKNOWN][TS_IDLE_UNKNOWN], 600 * MS);
	CU_ASSERT_EQUAL(m.state_unknown_ns, 600 * MS);
	CU_ASSERT_EQUAL(m.busy_ns + m.idle_ns + m.state_unknown_ns, m.window_ns);
	CU_ASSERT(c->nr_tasks == 1 && c->tasks[0].run_ns == 400 * MS);
	CU_ASSERT_FATAL(first_span(3, &seg));
	CU_ASSERT(seg.idle == TS_IDLE_UNKNOWN && seg.task == -1 && seg.end == 600 * MS);
	ts_analysis_free(&an);

	/* no sched_switch: the snapshot's idle state holds only when it was read */
	stream_start(0, 1, 0);
	an.caps.sched_switch = 0;
	ts_analysis_set_snapshot(&an, 5 * MS);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	restart(2, 100 * MS, TS_RESTART_DEPENDENCY);	/* the tick part is still told */
	ts_analysis_finish(&an, 1 * S);
	CU_ASSERT_EQUAL(an.cpus[2]->time[TS_TICK_STOPPED][TS_IDLE_UNKNOWN], 100 * MS);
	ts_metrics_of(&an, an.cpus[1], &m);
	CU_ASSERT_EQUAL(m.unknown_ns, 0);
	CU_ASSERT_EQUAL(m.idle_unknown_ns, 1 * S);
	CU_ASSERT_DOUBLE_EQUAL(m.state_unknown_share, 1.0, 1e-12);
	CU_ASSERT(m.busy_tickless_share < 0);
	ts_analysis_free(&an);
}

/*
 * Memory stays bounded while nothing tells the tick state: after many
 * switches, or a stretch's worth of ticks, the start falls back to the
 * snapshot, and the timeline stays in time order.
 */
static void bounded_stream(int timeline)
{
	stream_start(0, 1, 0);
	if (timeline)
		CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	ts_analysis_set_snapshot(&an, 5 * MS);
	ts_analysis_set_initial(&an, 1, TS_TICK_RUNNING, TS_IDLE_BUSY);
	ts_analysis_set_initial(&an, 2, TS_TICK_RUNNING, TS_IDLE_BUSY);
	task[1] = task[2] = 100;
	for (int i = 1; i <= 3 * TS_MAX_OPEN; i++)
		switch_to(1, i * MS, i % 2 ? 200 : 100, NULL);
	for (int i = 1; i <= TS_SEG_MAX_TICKS + 100; i++)
		tick(2, i * MS);
}

static void test_start_bounded(void)
{
	struct ts_timeline_iter *it = calloc(1, sizeof(*it));
	uint64_t last = 0, ticks = 0, spans_ns = 0, without[2][TS_NR_TICK][TS_NR_IDLE];
	int out_of_order = 0;
	struct ts_segment seg;
	struct ts_cpu *c;

	/* the numbers do not depend on keeping a timeline (--csv) */
	bounded_stream(0);
	ts_analysis_finish(&an, 2 * S);
	memcpy(without[0], an.cpus[1]->time, sizeof(without[0]));
	memcpy(without[1], an.cpus[2]->time, sizeof(without[1]));
	ts_analysis_free(&an);
	bounded_stream(1);
	c = an.cpus[1];
	CU_ASSERT(!c->tick_open && c->tick == TS_TICK_RUNNING);
	c = an.cpus[2];
	CU_ASSERT(!c->tick_open && c->tick == TS_TICK_RUNNING);
	ts_analysis_finish(&an, 2 * S);
	CU_ASSERT_EQUAL(memcmp(without[0], an.cpus[1]->time, sizeof(without[0])), 0);
	CU_ASSERT_EQUAL(memcmp(without[1], an.cpus[2]->time, sizeof(without[1])), 0);
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(an.cpus[1], TS_TICK_RUNNING), 2 * S);
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(an.cpus[2], TS_TICK_RUNNING), 2 * S);
	while (ts_timeline_next(&an, it, &seg) == 1) {
		if (seg.cpu != 2)
			continue;
		if (!seg.no_span) {
			out_of_order += seg.start < last;
			last = seg.start;
			spans_ns += seg.end - seg.start;
		}
		for (int i = 0; i < seg.nr_ticks; i++) {
			out_of_order += seg.ticks[i] < last || seg.ticks[i] < seg.start ||
					seg.ticks[i] > seg.end;
			last = seg.ticks[i];
			ticks++;
		}
	}
	CU_ASSERT_EQUAL(out_of_order, 0);
	CU_ASSERT_EQUAL(ticks, TS_SEG_MAX_TICKS + 100);
	CU_ASSERT_EQUAL(spans_ns, 2 * S);
	free(it);
	ts_analysis_free(&an);
}

/*
 * A slow snapshot: more switches than TS_MAX_OPEN before it was read keep
 * the start open until it is (or until an event tells), and so the
 * snapshot holds from the window start when nothing changed the tick.
 * Seen at 64 vCPUs: 67 switches in the 355 ms the snapshot took left a CPU
 * whose tick stayed stopped unknown for the whole window.  Past
 * TS_MAX_OPEN_PENDING the start falls back as before: memory stays bounded.
 */
static void test_start_slow_snapshot(void)
{
	const int before = 3 * TS_MAX_OPEN;	/* a switch a ms up to the snapshot */
	const int ticks = 2 * TS_SEG_MAX_TICKS;	/* CPU 4's, 0.1 ms apart, before it too */
	struct ts_timeline_iter *it = calloc(1, sizeof(*it));
	int timeline_ticks = 0;
	struct ts_segment seg;
	struct ts_metrics m;
	struct ts_cpu *c;

	stream_start(0, 1, 0);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	ts_analysis_set_snapshot(&an, 400 * MS);
	for (int cpu = 1; cpu <= 4; cpu++) {
		task[cpu] = 100;
		ts_analysis_set_initial(&an, cpu, cpu == 2 ? TS_TICK_RUNNING : TS_TICK_STOPPED,
					TS_IDLE_BUSY);
	}
	for (int i = 1; i <= before; i++)
		for (int cpu = 1; cpu <= 3; cpu++)
			switch_to(cpu, i * MS, i % 2 ? 200 : 100, NULL);
	/* CPU 1: nothing more.  CPU 2: its tick restarted before the snapshot */
	restart(2, 300 * MS, 0);
	/* CPU 3: a refusal that may have changed it before the snapshot: it cannot hold */
	retain(3, 350 * MS, 8);
	/* CPU 4: a stopped tick's timer fires too, and says nothing */
	for (int i = 1; i <= ticks; i++)
		tick(4, i * 100000ULL);
	c = an.cpus[1];
	CU_ASSERT(c->tick_open && c->nr_open == before);
	/* after the snapshot the bounds are TS_MAX_OPEN and TS_SEG_MAX_TICKS again */
	switch_to(1, 450 * MS, 100, NULL);
	CU_ASSERT(!c->tick_open && c->tick == TS_TICK_STOPPED);
	tick(4, 450 * MS);
	CU_ASSERT(!an.cpus[4]->tick_open && an.cpus[4]->tick == TS_TICK_STOPPED);
	ts_analysis_finish(&an, 1 * S);
	ts_metrics_of(&an, c, &m);
	CU_ASSERT_EQUAL(m.unknown_ns, 0);
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(c, TS_TICK_STOPPED), 1 * S);
	CU_ASSERT_PTR_NULL(c->open_more);
	c = an.cpus[2];		/* stopped up to the restart, whatever the snapshot read after it */
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(c, TS_TICK_STOPPED), 300 * MS);
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(c, TS_TICK_RUNNING), 700 * MS);
	c = an.cpus[3];
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(c, TS_TICK_UNKNOWN), 1 * S);
	c = an.cpus[4];
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(c, TS_TICK_STOPPED), 1 * S);
	CU_ASSERT_EQUAL(c->ticks_stopped, ticks + 1);
	CU_ASSERT_PTR_NULL(c->open_ticks);
	while (ts_timeline_next(&an, it, &seg) == 1)
		timeline_ticks += seg.cpu == 4 ? seg.nr_ticks : 0;
	CU_ASSERT_EQUAL(timeline_ticks, ticks + 1);
	free(it);
	ts_analysis_free(&an);

	stream_start(0, 1, 0);
	ts_analysis_set_snapshot(&an, 10 * S);
	task[1] = 100;
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	for (int i = 1; i <= TS_MAX_OPEN_PENDING + 10; i++)
		switch_to(1, i * 1000ULL, i % 2 ? 200 : 100, NULL);	/* a switch a us */
	c = an.cpus[1];
	CU_ASSERT(!c->tick_open && c->tick == TS_TICK_UNKNOWN);
	CU_ASSERT_PTR_NULL(c->open_more);
	ts_analysis_finish(&an, 11 * S);
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(c, TS_TICK_UNKNOWN), 11 * S);
	ts_analysis_free(&an);
}

/* A time range counts only what lies inside it. */
static void test_range(void)
{
	struct ts_cpu *c;

	ts_analysis_init(&an);
	an.caps.tick_stop = an.caps.restart = an.caps.scopes = 1;
	ts_analysis_set_range(&an, 1 * S, 2 * S);
	ts_analysis_set_start(&an, 0);
	switch_to(1, 0, 100, NULL);
	stop_sched(1, 0);
	for (uint64_t t = 4 * MS; t < 3 * S; t += 4 * MS) {
		tick(1, t);
		stop_sched(1, t);
	}
	ts_analysis_finish(&an, 3 * S);
	c = an.cpus[1];
	CU_ASSERT_EQUAL(ts_cpu_window_ns(&an), 1 * S);
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(c, TS_TICK_RUNNING), 1 * S);
	CU_ASSERT_EQUAL(c->ticks, 250);
	CU_ASSERT_EQUAL(find(c, "SCHED")->events, 250);
	ts_analysis_free(&an);
}

/*
 * A range and the stream's span: the window is where they overlap; a
 * stopped interval the range cuts counts as open with only its inside part.
 */
static void test_range_cuts(void)
{
	struct ts_cpu *c;

	/* the range starts before the data: the window starts with the data */
	ts_analysis_init(&an);
	an.caps.tick_stop = an.caps.restart = an.caps.scopes = 1;
	ts_analysis_set_range(&an, 1 * S, 5 * S);
	ts_analysis_set_start(&an, 2 * S);
	switch_to(1, 2 * S, 100, NULL);
	stop_ok(1, 3 * S);			/* stopped from 3 s ... */
	stop_sched(1, 6 * S);			/* ... to 6 s, past the range */
	restart(1, 6 * S + 1000, TS_RESTART_DEPENDENCY);
	stop_ok(1, 7 * S);			/* after the range: ignored */
	ts_analysis_finish(&an, 8 * S);
	c = an.cpus[1];
	CU_ASSERT_EQUAL(an.win_start, 2 * S);
	CU_ASSERT_EQUAL(an.win_end, 5 * S);
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(c, TS_TICK_STOPPED), 2 * S);
	CU_ASSERT_EQUAL(c->stopped.count, 0);
	CU_ASSERT_EQUAL(c->stopped_open, 1);
	CU_ASSERT_EQUAL(c->open_total_ns, 2 * S);
	CU_ASSERT_EQUAL(c->stop_success, 1);
	ts_analysis_free(&an);

	/* stopped before the range: open, counted from the range start */
	ts_analysis_init(&an);
	an.caps.tick_stop = an.caps.restart = an.caps.scopes = 1;
	ts_analysis_set_range(&an, 4 * S, 5 * S);
	ts_analysis_set_start(&an, 0);
	stop_ok(2, 1 * S);
	stop_sched(2, 4500 * MS);
	restart(2, 4500 * MS, TS_RESTART_DEPENDENCY);
	stop_ok(2, 4600 * MS);			/* stopped again, past the range end */
	ts_analysis_finish(&an, 9 * S);
	c = an.cpus[2];
	CU_ASSERT_EQUAL(c->stopped_open, 2);
	CU_ASSERT_EQUAL(c->open_total_ns, 500 * MS + 400 * MS);
	CU_ASSERT(c->open_total_ns <= ts_cpu_window_ns(&an));
	ts_analysis_free(&an);

	/* a range outside the data: an empty window */
	ts_analysis_init(&an);
	ts_analysis_set_range(&an, 1, 2);
	ts_analysis_set_start(&an, 4 * S);
	stop_ok(1, 4 * S);
	ts_analysis_finish(&an, 5 * S);
	CU_ASSERT_EQUAL(ts_cpu_window_ns(&an), 0);
	CU_ASSERT_EQUAL(an.data_start, 4 * S);
	CU_ASSERT_EQUAL(an.data_end, 5 * S);
	ts_analysis_free(&an);
}

/* The timeline: each CPU's spans and ticks in time order, long spans split. */
static void test_timeline_order(void)
{
	struct ts_timeline_iter *it = calloc(1, sizeof(*it));
	uint64_t last_start[4] = { 0 };
	int spans = 0, ticks = 0, out_of_order = 0, tick_outside = 0;
	const int n = TS_SEG_MAX_TICKS + 10;
	struct ts_segment s;

	stream_start(0, 1, 0);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	switch_to(1, 0, 100, NULL);
	stop_sched(1, 0);
	for (int i = 1; i <= n; i++) {
		tick(1, i * 4 * MS);
		stop_sched(1, i * 4 * MS + 1000);
	}
	stop_ok(1, (n + 1) * 4 * MS);
	tick(1, (n + 2) * 4 * MS);		/* the timer fires, the tick stays stopped */
	ts_analysis_finish(&an, (n + 10) * 4 * MS);
	/* read back only after the analysis is finished */
	while (ts_timeline_next(&an, it, &s) == 1) {
		if (!s.no_span) {
			out_of_order += s.start < last_start[s.cpu];
			last_start[s.cpu] = s.start;
			spans++;
		}
		for (int i = 0; i < s.nr_ticks; i++) {
			out_of_order += s.ticks[i] < last_start[s.cpu];
			tick_outside += s.ticks[i] < s.start || s.ticks[i] > s.end;
			last_start[s.cpu] = s.ticks[i];
			ticks++;
		}
	}
	CU_ASSERT_EQUAL(ticks, n + 1);
	CU_ASSERT_EQUAL(out_of_order, 0);
	CU_ASSERT_EQUAL(tick_outside, 0);
	CU_ASSERT_EQUAL(spans, 3);		/* running (split once), stopped */
	free(it);
	ts_analysis_free(&an);
}

/*
 * Co-runners: the task each event names (common_pid) ran since the CPU's
 * previous event; time with the tick held, and held by SCHED, per task.
 */
static void test_co_runners(void)
{
	const struct ts_task_time *t;
	int order[TS_MAX_TASKS];
	struct ts_cpu *c;

	stream_start(0, 1, 0);
	ts_analysis_set_initial(&an, 2, TS_TICK_UNKNOWN, TS_IDLE_BUSY);
	/* task 100 alone and tickless, then 200 joins: SCHED for 100 ms */
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = 2, .ts = 10 * MS, .pid = 100,
				 .stop = { .success = 1 } });
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = 2, .ts = 500 * MS, .pid = 100,
				 .stop = { .dependency = 1 << 2, .has_scopes = 1,
					   .deps = { 0, 1 << 2, 0, 0 } } });
	restart(2, 500 * MS, TS_RESTART_DEPENDENCY);
	for (int i = 0; i < 10; i++) {
		uint64_t t0 = 500 * MS + i * 10 * MS;
		struct ts_event ev = { .kind = TS_EV_SWITCH, .cpu = 2, .ts = t0 + 5 * MS,
				       .pid = 100, .sw = { .prev_pid = 100, .next_pid = 200 } };

		feed(&ev);
		ev.ts = t0 + 10 * MS;
		ev.pid = 200;
		ev.sw.prev_pid = 200;
		ev.sw.next_pid = 100;
		feed(&ev);
		/* the refusal after the switch: SCHED still holds the tick */
		feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = 2, .ts = t0 + 10 * MS,
					 .pid = 100, .stop = { .dependency = 1 << 2, .has_scopes = 1,
							      .deps = { 0, 1 << 2, 0, 0 } } });
	}
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = 2, .ts = 600 * MS, .pid = 100,
				 .stop = { .success = 1 } });
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[2];
	CU_ASSERT_EQUAL_FATAL(ts_task_order(c, order), 2);
	t = &c->tasks[order[0]];
	CU_ASSERT_EQUAL(t->pid, 100);
	CU_ASSERT_EQUAL(t->run_ns, 1 * S - 50 * MS);	/* the first event names it */
	CU_ASSERT_EQUAL(t->held_ns, 10 * MS + 50 * MS);	/* the tick ran before the first stop */
	t = &c->tasks[order[1]];
	CU_ASSERT_EQUAL(t->pid, 200);
	CU_ASSERT_EQUAL(t->run_ns, 50 * MS);
	CU_ASSERT_EQUAL(t->held_ns, 50 * MS);
	/* switches change the task, not the reasons, within a SCHED stretch */
	CU_ASSERT_EQUAL(t->sched_ns, 50 * MS);
	ts_analysis_free(&an);
}

static void cause(int cpu, uint64_t ts, int type, int exit, uint64_t key, uint64_t inst)
{
	struct ts_event ev = { .kind = TS_EV_CAUSE, .cpu = cpu, .ts = ts, .pid = task[cpu],
			       .cause = { .type = type, .exit = exit, .key = key, .inst = inst } };

	if (type == TS_CAUSE_IRQ)
		snprintf(ev.cause.name, sizeof(ev.cause.name), "dev%llu", (unsigned long long)key);
	feed(&ev);
}

static const struct ts_cause *find_cause(const struct ts_cpu *c, int type, uint64_t key)
{
	for (int i = 0; i < c->nr_causes; i++)
		if (c->causes[i].type == type && c->causes[i].key == key)
			return &c->causes[i];
	return NULL;
}

/*
 * Causes: counted per function, IRQ or vector; whether the tick was
 * stopped or running at entry; time from entry to the exit of the same
 * instance, across nesting and the tick's own hrtimer exit; queued work.
 */
static void test_causes(void)
{
	const struct ts_cause *k;
	struct ts_cpu *c;
	char name[64];

	stream_start(0, 1, 0);
	an.caps.causes = (1u << TS_NR_CAUSE_TYPES) - 1;
	an.caps.cause_exits = an.caps.causes;
	an.caps.queue = 1;
	ts_analysis_set_initial(&an, 1, TS_TICK_UNKNOWN, TS_IDLE_BUSY);
	task[1] = 100;
	/* stopped, then SCHED restarts it; it stops again at 100 ms */
	stop_ok(1, 1 * MS);
	stop_sched(1, 1 * MS + 500000);
	restart(1, 1 * MS + 500000, TS_RESTART_DEPENDENCY);
	/* work queued from CPU 0 by pid 7, run on CPU 1 while the tick runs */
	feed(&(struct ts_event){ .kind = TS_EV_QUEUE, .cpu = 0, .ts = 2 * MS, .pid = 7,
				 .queue = { .function = 0xf00, .target = 1 } });
	cause(1, 3 * MS, TS_CAUSE_WORK, 0, 0xf00, 0xa1);
	/* an IRQ inside the work item, and its softirq */
	cause(1, 4 * MS, TS_CAUSE_IRQ, 0, 4, 4);
	cause(1, 4 * MS + 10000, TS_CAUSE_IRQ, 1, 0, 4);
	cause(1, 4 * MS + 20000, TS_CAUSE_SOFTIRQ, 0, 1, 1);
	/* the tick's own hrtimer exit: its entry was not a cause, nothing pairs */
	cause(1, 4 * MS + 25000, TS_CAUSE_HRTIMER, 1, 0, 0xdead);
	cause(1, 4 * MS + 30000, TS_CAUSE_SOFTIRQ, 1, 0, 1);
	cause(1, 5 * MS, TS_CAUSE_WORK, 1, 0, 0xa1);
	stop_ok(1, 100 * MS);
	/* with the tick stopped: an hrtimer twice, the IRQ once */
	for (int i = 0; i < 2; i++) {
		cause(1, (200 + i) * MS, TS_CAUSE_HRTIMER, 0, 0xb00, 0xc1);
		cause(1, (200 + i) * MS + 5000, TS_CAUSE_HRTIMER, 1, 0, 0xc1);
	}
	cause(1, 300 * MS, TS_CAUSE_IRQ, 0, 4, 4);
	cause(1, 300 * MS + 10000, TS_CAUSE_IRQ, 1, 0, 4);
	/* an entry whose exit is lost in a gap: counted, never timed */
	cause(1, 400 * MS, TS_CAUSE_TIMER, 0, 0xd00, 0xe1);
	feed(&(struct ts_event){ .kind = TS_EV_LOST, .cpu = 1, .ts = 401 * MS, .lost = { 3 } });
	cause(1, 402 * MS, TS_CAUSE_TIMER, 1, 0, 0xe1);
	ts_analysis_finish(&an, 1 * S);

	c = an.cpus[1];
	CU_ASSERT_EQUAL_FATAL(c->nr_causes, 5);
	k = find_cause(c, TS_CAUSE_WORK, 0xf00);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->count, 1);
	CU_ASSERT_EQUAL(k->held, 1);
	CU_ASSERT_EQUAL(k->stopped, 0);
	CU_ASSERT_EQUAL(k->time_ns, 2 * MS);	/* nested interrupts included */
	CU_ASSERT_EQUAL(k->queued, 1);
	CU_ASSERT_EQUAL(k->queuer_pid, 7);
	CU_ASSERT_EQUAL(k->queuer_cpu, 0);
	k = find_cause(c, TS_CAUSE_IRQ, 4);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->count, 2);
	CU_ASSERT_EQUAL(k->held, 1);
	CU_ASSERT_EQUAL(k->stopped, 1);
	CU_ASSERT_EQUAL(k->timed, 2);
	CU_ASSERT_EQUAL(k->time_ns, 20000);
	ts_cause_name(&an, k, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "4 dev4");
	k = find_cause(c, TS_CAUSE_SOFTIRQ, 1);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->time_ns, 10000);
	ts_cause_name(&an, k, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "TIMER");
	k = find_cause(c, TS_CAUSE_HRTIMER, 0xb00);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->count, 2);
	CU_ASSERT_EQUAL(k->stopped, 2);
	CU_ASSERT_EQUAL(k->time_ns, 10000);
	ts_cause_name(&an, k, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "0xb00");	/* no symbol known: the address */
	k = find_cause(c, TS_CAUSE_TIMER, 0xd00);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->count, 1);
	CU_ASSERT_EQUAL(k->timed, 0);
	CU_ASSERT_EQUAL(k->time_ns, 0);
	/* work queued for a CPU the source does not cover is not invented */
	CU_ASSERT_PTR_NULL(an.cpus[5]);
	ts_analysis_free(&an);
}

/* Causes beyond the table are summed per type; the known types follow the recorder. */
static void test_causes_bounded(void)
{
	struct ts_cpu *c;
	uint64_t total = 0;

	stream_start(0, 1, 0);
	an.caps.causes = 1u << TS_CAUSE_HRTIMER | 1u << TS_CAUSE_IRQ;
	an.caps.cause_exits = an.caps.causes;
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	task[1] = 100;
	for (int i = 0; i < TS_MAX_CAUSES + 10; i++)
		for (int n = 0; n <= i % 3; n++)
			cause(1, (uint64_t)(i * 10 + n + 1) * MS, TS_CAUSE_HRTIMER, 0,
			      0x1000 + i, 0x1000 + i);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[1];
	CU_ASSERT_EQUAL(c->nr_causes, TS_MAX_CAUSES);
	for (int i = 0; i < c->nr_causes; i++)
		total += c->causes[i].count;
	total += c->causes_other[TS_CAUSE_HRTIMER].count;
	CU_ASSERT(c->causes_other[TS_CAUSE_HRTIMER].count > 0);
	CU_ASSERT_EQUAL(c->causes_other[TS_CAUSE_HRTIMER].type, TS_CAUSE_HRTIMER);
	/* every entry counted once, in the table or in "other" */
	{
		uint64_t want = 0;

		for (int i = 0; i < TS_MAX_CAUSES + 10; i++)
			want += i % 3 + 1;
		CU_ASSERT_EQUAL(total, want);
	}
	CU_ASSERT_EQUAL(ts_analysis_causes_known(&an), an.caps.causes);
	/* a tickstat recording made without causes: nothing is known */
	ts_analysis_set_causes_recorded(&an, 0);
	CU_ASSERT_EQUAL(ts_analysis_causes_known(&an), 0);
	/* a recorder that enabled irq only */
	ts_analysis_set_causes_recorded(&an, 1 << TS_CAUSE_IRQ);
	CU_ASSERT_EQUAL(ts_analysis_causes_known(&an), 1u << TS_CAUSE_IRQ);
	ts_analysis_free(&an);
}

/* A record too short for its format is a lost event, never silence. */
static void test_bad_record(void)
{
	stream_start(0, 1, 0);
	switch_to(1, 0, 100, NULL);
	stop_ok(1, 0);
	ts_analysis_bad_record(&an, 1, 500 * MS);
	stop_ok(1, 600 * MS);
	ts_analysis_finish(&an, 1 * S);
	CU_ASSERT_EQUAL(an.bad_records, 1);
	CU_ASSERT_EQUAL(an.cpus[1]->lost_events, 1);
	/* as any loss: unknown from the last event before it to the next */
	CU_ASSERT_EQUAL(ts_cpu_tick_ns(an.cpus[1], TS_TICK_UNKNOWN), 600 * MS);
	ts_analysis_free(&an);
}

/* Values a newer kernel may send are named by number, not dropped. */
static void test_unknown_values(void)
{
	struct ts_cpu *c;
	char name[48];

	stream_start(0, 1, 0);
	feed(&(struct ts_event){ .kind = TS_EV_TICK_RETAIN, .cpu = 1, .ts = 1,
				 .retain = { .reason = 42 } });
	feed(&(struct ts_event){ .kind = TS_EV_TICK_STOP, .cpu = 1, .ts = 2,
				 .stop = { .has_scopes = 1, .dependency = 1 << 9,
					   .deps = { 1 << 9 } } });
	ts_analysis_finish(&an, 10);
	c = an.cpus[1];
	CU_ASSERT_PTR_NOT_NULL(find(c, "RETAIN_42"));
	CU_ASSERT_PTR_NOT_NULL(find(c, "DEP_BIT9@GLOBAL"));
	CU_ASSERT_STRING_EQUAL(ts_reason_name(find(c, "DEP_BIT9"), name, sizeof(name)), "DEP_BIT9");
	CU_ASSERT_EQUAL(ts_analysis_event(&an, &(struct ts_event){ .kind = TS_EV_TICK,
								   .cpu = TS_MAX_CPUS }), -1);
	ts_analysis_free(&an);
}

/* ---- check ---- */

static void test_check(void)
{
	struct ts_cpuset only2;
	struct ts_check_opts o;
	struct ts_verdict v;

	stream_start(0, 1, 0);
	switch_to(1, 0, 100, NULL);
	stop_ok(1, 0);
	switch_to(2, 0, 0, NULL);
	stop_ok(2, 0);
	ts_analysis_finish(&an, 1 * S);
	ts_check_opts_init(&o);
	o.min_busy_share = 99;
	o.max_tick_rate = 1;
	CU_ASSERT_EQUAL(ts_check_add_forbid(&o, "posix_timer"), 0);
	CU_ASSERT_EQUAL(ts_check_add_forbid(&o, "POSIX_TIMERS"), -1);
	CU_ASSERT_EQUAL(o.nr_forbid, 1);
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_EQUAL(v.failed, 0);
	/* CPU 2 was idle all along: the busy share is not applicable */
	int na = 0;

	for (int i = 0; i < v.nr; i++)
		na += v.items[i].cpu == 2 && v.items[i].status == TS_NOT_APPLICABLE;
	CU_ASSERT_EQUAL(na, 1);
	ts_verdict_free(&v);
	CU_ASSERT_STRING_EQUAL(v.error, "");
	ts_verdict_free(&v);
	/* no tick events: a rate limit can be evaluated nowhere, so no verdict */
	an.caps.tick_expiry = 0;
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error, "--max-tick-rate could not be evaluated"));
	ts_verdict_free(&v);
	/* only the idle CPU: the busy share can be evaluated nowhere */
	an.caps.tick_expiry = 1;
	ts_cpuset_parse(&only2, "2");
	ts_analysis_select_cpus(&an, &only2);
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error, "--min-busy-tickless could not be evaluated"));
	ts_verdict_free(&v);
	ts_analysis_free(&an);
}

/* The verdict of the one item of option on cpu, or -1 when there is none. */
static int status_of(const struct ts_verdict *v, int cpu, const char *option)
{
	for (int i = 0; i < v->nr; i++)
		if (v->items[i].cpu == cpu && !strcmp(v->items[i].option, option))
			return v->items[i].status;
	return -1;
}

/* A reason as the state machine would have charged it, put straight in. */
static void charge(struct ts_cpu *c, int class, int scope, int value, uint64_t ns)
{
	c->reasons[c->nr_reasons++] = (struct ts_reason){ .class = class, .scope = scope,
							  .value = value, .time_ns = ns,
							  .events = 1 };
}

/* Run check with these --forbid items; returns the verdict (free it). */
static void forbid_run(const char *items, struct ts_verdict *v)
{
	struct ts_check_opts o;
	char list[256], *save = NULL;

	ts_check_opts_init(&o);
	o.max_unknown = 100;
	snprintf(list, sizeof(list), "%s", items);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		CU_ASSERT_EQUAL(ts_check_add_forbid(&o, t), 0);
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, v), 0);
}

/*
 * --forbid on what a kernel can and cannot show.  A stock kernel names one
 * dependency per decision, at no scope: a named scope is N/A where the
 * reason held at an unknown one, and any other dependency named may hide
 * the one forbidden.  No tick_retain: no retain reason can be checked.
 */
static void test_check_forbid_stock(void)
{
	struct ts_verdict v;

	stream_start(0, 0, 0);
	switch_to(1, 0, 100, NULL);
	stop_sched(1, 10 * MS);		/* SCHED at an unknown scope */
	switch_to(2, 0, 100, NULL);
	stop_ok(2, 10 * MS);		/* never a dependency */
	ts_analysis_finish(&an, 1 * S);
	forbid_run("SCHED,SCHED@CPU,SCHED@UNKNOWN,POSIX_TIMER,TIMER_DUE,RCU,UNREPORTED", &v);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid SCHED"), TS_FAIL);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid SCHED@CPU"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid SCHED@UNKNOWN"), TS_FAIL);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid POSIX_TIMER"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid TIMER_DUE"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid RCU"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid SCHED@CPU"), TS_PASS);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid POSIX_TIMER"), TS_PASS);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid UNREPORTED"), TS_PASS);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid TIMER_DUE"), TS_NOT_APPLICABLE);
	/*
	 * SCHED failed: what may be hidden elsewhere does not void it; an
	 * item N/A on every CPU (TIMER_DUE) still does
	 */
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error, "--forbid TIMER_DUE could not be evaluated on any"));
	ts_verdict_free(&v);
	/* SCHED@CPU may have held CPU 1's tick unseen: no verdict, though CPU 2 passed */
	forbid_run("SCHED@CPU", &v);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error,
					"--forbid SCHED@CPU could not be evaluated on CPU 1,"));
	ts_verdict_free(&v);
	forbid_run("POSIX_TIMER", &v);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error,
					"--forbid POSIX_TIMER could not be evaluated on CPU 1,"));
	ts_verdict_free(&v);
	/* a FAIL stands beside what may have been hidden elsewhere */
	forbid_run("SCHED,POSIX_TIMER", &v);
	CU_ASSERT_EQUAL(v.failed, 1);
	CU_ASSERT_STRING_EQUAL(v.error, "");
	ts_verdict_free(&v);
	/* TIMER_DUE is N/A everywhere: no verdict */
	forbid_run("TIMER_DUE", &v);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error, "--forbid TIMER_DUE could not be evaluated on any"));
	ts_verdict_free(&v);
	/* a CPU outside nohz_full: its dependencies are never checked */
	an.cpus[2]->nohz_full = 0;
	forbid_run("POSIX_TIMER,NOT_NOHZ_FULL", &v);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid POSIX_TIMER"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid NOT_NOHZ_FULL"), TS_PASS);
	/* and whether CPU 1 is nohz_full is not known */
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid NOT_NOHZ_FULL"), TS_NOT_APPLICABLE);
	ts_verdict_free(&v);
	/* N/A only where the kernel never checks it: CPU 1's verdict stands */
	forbid_run("SCHED", &v);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid SCHED"), TS_FAIL);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid SCHED"), TS_NOT_APPLICABLE);
	CU_ASSERT_STRING_EQUAL(v.error, "");
	ts_verdict_free(&v);
	ts_analysis_free(&an);
}

/*
 * Probes on a stock kernel: the first scope holding a dependency, with all
 * its bits, and the later scopes unread; idle refusals only, some of them
 * of a reason the probes could not read (IDLE_REFUSED).
 */
static void test_check_forbid_probes(void)
{
	struct ts_verdict v;
	struct ts_cpu *c;

	stream_start(0, 0, 0);
	an.caps.check_scopes = 1;
	an.caps.retain = 1;
	an.caps.probes.parts = 1 << TS_PART_RETAIN | 1 << TS_PART_SCOPES;
	switch_to(1, 0, 100, NULL);
	stop_ok(1, 10 * MS);
	c = an.cpus[1];
	charge(c, TS_RC_DEP, TS_SCOPE_CPU, 2, 5 * MS);		/* SCHED@CPU */
	charge(c, TS_RC_RETAIN, TS_SCOPE_UNKNOWN, 8, 1 * MS);	/* NEED_RESCHED */
	switch_to(2, 0, 100, NULL);
	stop_ok(2, 10 * MS);
	c = an.cpus[2];
	charge(c, TS_RC_RETAIN, TS_SCOPE_UNKNOWN, TS_RETAIN_IDLE_REFUSED, 1 * MS);
	ts_analysis_finish(&an, 1 * S);
	forbid_run("SCHED@CPU,POSIX_TIMER@GLOBAL,POSIX_TIMER@CPU,POSIX_TIMER@PROCESS,"
		   "POSIX_TIMER,NEED_RESCHED,SOFTIRQ,TIMER_DUE,IDLE_REFUSED", &v);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid SCHED@CPU"), TS_FAIL);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid POSIX_TIMER@GLOBAL"), TS_PASS);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid POSIX_TIMER@CPU"), TS_PASS);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid POSIX_TIMER@PROCESS"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid POSIX_TIMER"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid NEED_RESCHED"), TS_FAIL);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid SOFTIRQ"), TS_PASS);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid TIMER_DUE"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid SOFTIRQ"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid IDLE_REFUSED"), TS_FAIL);
	ts_verdict_free(&v);
	/*
	 * A retain reason the probes could not tell on a housekeeping CPU
	 * (the idle loop keeps its tick there too) is no pass beside a pass
	 */
	an.cpus[2]->nohz_full = 0;
	forbid_run("SOFTIRQ", &v);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid SOFTIRQ"), TS_PASS);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error,
					"--forbid SOFTIRQ could not be evaluated on CPU 2,"));
	ts_verdict_free(&v);
	ts_analysis_free(&an);
}

/* The detail of the one item of option on cpu, or "" when there is none. */
static const char *detail_of(const struct ts_verdict *v, int cpu, const char *option)
{
	for (int i = 0; i < v->nr; i++)
		if (v->items[i].cpu == cpu && !strcmp(v->items[i].option, option))
			return v->items[i].detail;
	return "";
}

/*
 * --max-unknown counts the time whose tick or idle state is unknown (the
 * table's unknown column), the idle part only where sched_switch is traced:
 * without it the idle state is unknown everywhere, and counting it would
 * fail every CPU whatever the tick did.
 */
static void test_check_max_unknown(void)
{
	struct ts_check_opts o;
	struct ts_verdict v;
	struct ts_cpu *c;

	ts_check_opts_init(&o);
	stream_start(0, 1, 0);
	task[1] = 100;
	switch_to(1, 0, 100, NULL);
	stop_ok(1, 0);
	ts_analysis_finish(&an, 1 * S);
	c = an.cpus[1];
	CU_ASSERT_EQUAL_FATAL(c->time[TS_TICK_STOPPED][TS_IDLE_BUSY], 1 * S);
	/* the tick state known, the idle state not for 100 ms of it */
	c->time[TS_TICK_STOPPED][TS_IDLE_BUSY] -= 100 * MS;
	c->time[TS_TICK_STOPPED][TS_IDLE_UNKNOWN] += 100 * MS;
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--max-unknown"), TS_FAIL);
	CU_ASSERT_STRING_EQUAL(detail_of(&v, 1, "--max-unknown"),
			       "tick or idle state unknown 10.000% of the window, maximum 5.000%");
	ts_verdict_free(&v);
	/* no sched_switch: the tick state alone, and the detail says so */
	an.caps.sched_switch = 0;
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--max-unknown"), TS_PASS);
	CU_ASSERT_PTR_NOT_NULL(strstr(detail_of(&v, 1, "--max-unknown"),
				      "tick state unknown 0.000% of the window (no sched:sched_switch events"));
	ts_verdict_free(&v);
	/* where the tick state is unknown too, it counts */
	c->time[TS_TICK_STOPPED][TS_IDLE_UNKNOWN] -= 100 * MS;
	c->time[TS_TICK_UNKNOWN][TS_IDLE_UNKNOWN] += 100 * MS;
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--max-unknown"), TS_FAIL);
	ts_verdict_free(&v);
	ts_analysis_free(&an);
}

/*
 * Nothing to check: an empty window, CPUs none of which has data, time
 * going back; no sched_switch: no busy or idle share; lost events a source
 * cannot count.
 */
static void test_check_no_data(void)
{
	struct ts_check_opts o;
	struct ts_verdict v;

	ts_check_opts_init(&o);
	o.max_unknown = 100;
	stream_start(5 * S, 1, 0);
	ts_analysis_add_cpu(&an, 1);
	ts_analysis_finish(&an, 5 * S);
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error, "window is empty"));
	ts_verdict_free(&v);
	ts_analysis_free(&an);

	stream_start(0, 1, 0);
	ts_analysis_add_cpu(&an, 1);		/* covered, no event, no state */
	switch_to(2, 0, 0, NULL);
	stop_ok(2, 0);
	ts_analysis_finish(&an, 1 * S);
	an.cpus[2]->active = 0;
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error, "no data of the CPUs checked (CPU 1"));
	ts_verdict_free(&v);
	/* with CPU 2, which has data, CPU 1's rate and reasons are N/A */
	an.cpus[2]->active = 1;
	o.max_tick_rate = 1;
	CU_ASSERT_EQUAL(ts_check_add_forbid(&o, "SCHED"), 0);
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_STRING_EQUAL(v.error, "");
	CU_ASSERT_EQUAL(status_of(&v, 1, "--max-tick-rate"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 1, "--forbid SCHED"), TS_NOT_APPLICABLE);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--forbid SCHED"), TS_PASS);
	ts_verdict_free(&v);
	/* a source that cannot count lost events cannot show there were none */
	ts_analysis_lost_uncounted(&an, "no statistics");
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_EQUAL(status_of(&v, 2, "lost-events"), TS_NOT_APPLICABLE);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error, "give --allow-lost"));
	ts_verdict_free(&v);
	o.allow_lost = 1;
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_EQUAL(status_of(&v, 2, "lost-events"), TS_PASS);
	ts_verdict_free(&v);
	/* busy and idle shares need sched_switch */
	an.caps.sched_switch = 0;
	o.min_idle_share = 50;
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_EQUAL(status_of(&v, 2, "--min-idle-tickless"), TS_NOT_APPLICABLE);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error, "--min-idle-tickless could not be evaluated"));
	ts_verdict_free(&v);
	an.caps.sched_switch = 1;
	ts_analysis_time_backwards(&an, "CPU 2, page 3");
	CU_ASSERT_EQUAL(ts_check_run(&an, &o, &v), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.error, "time goes back in 1 ring-buffer page (first: CPU 2, page 3)"));
	ts_verdict_free(&v);
	ts_analysis_free(&an);
}

/* Duplicate --forbid items, and the CPUs a source covers */
static void test_check_forbid_twice(void)
{
	struct ts_check_opts o;

	ts_check_opts_init(&o);
	CU_ASSERT_EQUAL(ts_check_add_forbid(&o, "SCHED"), 0);
	CU_ASSERT_EQUAL(ts_check_add_forbid(&o, "sched"), -3);
	CU_ASSERT_EQUAL(ts_check_add_forbid(&o, "SCHED@CPU"), 0);
	CU_ASSERT_EQUAL(ts_check_add_forbid(&o, "Sched@cpu"), -3);
	CU_ASSERT_EQUAL(ts_check_add_forbid(&o, "RCU"), 0);
	CU_ASSERT_EQUAL(ts_check_add_forbid(&o, "RCU@CPU"), 0);
	CU_ASSERT_EQUAL(o.nr_forbid, 4);
	ts_analysis_init(&an);
	CU_ASSERT(!ts_analysis_covers(&an, 3));
	ts_analysis_cover(&an, 3);
	ts_analysis_cover(&an, 1023);
	ts_analysis_cover(&an, 1024);		/* out of range: ignored */
	CU_ASSERT(ts_analysis_covers(&an, 3) && ts_analysis_covers(&an, 1023));
	CU_ASSERT(!ts_analysis_covers(&an, 2) && !ts_analysis_covers(&an, 1024) &&
		  !ts_analysis_covers(&an, -1));
	ts_analysis_free(&an);
}

/* --forbid names: every reason, any case, a scope only on dependencies */
static void test_reason_spec(void)
{
	struct ts_reason_spec sp;
	char list[1024];

	CU_ASSERT_EQUAL(ts_reason_spec_parse("SCHED@cpu", &sp), 0);
	CU_ASSERT(sp.dep == 2 && sp.retain < 0 && sp.none < 0 && sp.scope == TS_SCOPE_CPU);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("timer_due", &sp), 0);
	CU_ASSERT(sp.dep < 0 && sp.retain == 1 && sp.scope == -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("NOT_NOHZ_FULL", &sp), 0);
	CU_ASSERT(sp.none == TS_NONE_NOT_NOHZ_FULL);
	/* RCU is a dependency and a retain reason; with a scope, the dependency */
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RCU", &sp), 0);
	CU_ASSERT(sp.dep == 4 && sp.retain == 2);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RCU@CPU", &sp), 0);
	CU_ASSERT(sp.dep == 4 && sp.retain < 0);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("DEP_BIT9@GLOBAL", &sp), 0);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RETAIN_42", &sp), 0);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("POSIX_TIMERS", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("SCHED@NOWHERE", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("TIMER_DUE@CPU", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("", &sp), -1);
	/* numbered names: only values a kernel can send that have no name */
	CU_ASSERT_EQUAL(ts_reason_spec_parse("DEP_BIT6", &sp), 0);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("dep_bit31@task", &sp), 0);
	CU_ASSERT(sp.dep == 31 && sp.scope == TS_SCOPE_TASK);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("DEP_BIT32", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("DEP_BIT999999", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("DEP_BIT2", &sp), -1);	/* that is SCHED */
	CU_ASSERT_EQUAL(ts_reason_spec_parse("DEP_BIT07", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("DEP_BIT+7", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("DEP_BIT", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RETAIN_12", &sp), 0);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RETAIN_99", &sp), 0);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RETAIN_0", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RETAIN_1", &sp), -1);	/* TIMER_DUE */
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RETAIN_100", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RETAIN_-3", &sp), -1);
	CU_ASSERT_EQUAL(ts_reason_spec_parse("RETAIN_12x", &sp), -1);
	ts_reason_name_list(list, sizeof(list));
	CU_ASSERT_PTR_NOT_NULL(strstr(list, "POSIX_TIMER, PERF_EVENTS"));
	CU_ASSERT_PTR_NOT_NULL(strstr(list, "TIMEKEEPING"));
	CU_ASSERT_PTR_NOT_NULL(strstr(list, "UNREPORTED, NOT_NOHZ_FULL"));
}

/* ---- pages whose time goes back ---- */

static const char header_page_fmt[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

/* A ring-buffer page of stock tick_stop refusals (16 bytes each) at ts + deltas. */
struct page_build {
	unsigned char b[4096];
	size_t len;
};

static void page_start(struct page_build *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->b, &ts, 8);
	p->len = 16;
}

static void page_put32(struct page_build *p, uint32_t v)
{
	memcpy(p->b + p->len, &v, 4);
	p->len += 4;
}

static void page_event(struct page_build *p, uint32_t delta)
{
	page_put32(p, delta << 5 | 4);			/* type_len 4: 16 bytes */
	page_put32(p, 41);				/* common_type: tick_stop */
	page_put32(p, 100);				/* common_pid */
	page_put32(p, 0);				/* success */
	page_put32(p, 1 << 2);				/* dependency: SCHED */
}

/* An absolute time stamp (the kernel's TIME_STAMP record) */
static void page_stamp(struct page_build *p, uint64_t ts)
{
	page_put32(p, (uint32_t)(ts & ((1 << 27) - 1)) << 5 | 31);
	page_put32(p, (uint32_t)(ts >> 27));
}

static void page_end(struct page_build *p)
{
	uint64_t commit = p->len - 16;

	memcpy(p->b + 8, &commit, 8);
}

/* A stream of tick_stop pages into a fresh analysis whose window starts at 1000 ns */
static void page_stream(struct ts_stream *st)
{
	ts_analysis_init(&an);
	CU_ASSERT_EQUAL_FATAL(ts_stream_init(st, &an, 4096, 8), 0);
	CU_ASSERT_EQUAL(ts_stream_header_page(st, header_page_fmt, strlen(header_page_fmt)), 0);
	CU_ASSERT_EQUAL(ts_stream_format(st, "timer", tick_stop_fmt, strlen(tick_stop_fmt)), 0);
	CU_ASSERT_EQUAL_FATAL(ts_stream_ready(st), 0);
	ts_analysis_set_start(&an, 1000);
}

/*
 * The ring buffer writes a CPU's events in time order: a page older than
 * the CPU's previous one (pages out of order), or with an event older than
 * the one before it in the page, is dropped and counted, and the analysis
 * says where; the pages after it are read as usual.
 */
static void test_time_backwards(void)
{
	struct ts_stream st;
	struct page_build p;

	page_stream(&st);

	page_start(&p, 1000);				/* page 0: 1000, 1010 */
	page_event(&p, 0);
	page_event(&p, 10);
	page_end(&p);
	CU_ASSERT_EQUAL(ts_stream_page(&st, 1, p.b, sizeof(p.b)), 0);
	page_start(&p, 900);				/* page 1: older than page 0 */
	page_event(&p, 0);
	page_end(&p);
	st.where = (struct ts_page_where){ .set = 1, .page = 1, .offset = 8192 };
	CU_ASSERT_EQUAL(ts_stream_page(&st, 1, p.b, sizeof(p.b)), 0);
	CU_ASSERT_EQUAL(an.backward_pages, 1);
	CU_ASSERT_EQUAL(an.bad_pages, 1);
	CU_ASSERT_STRING_EQUAL(an.backward_first,
			       "CPU 1, page 1 (file offset 8192): an event at 0.000000900 s after one at 0.000001010 s");
	page_start(&p, 2000);				/* page 2: 2000, then 1500 */
	page_event(&p, 0);
	page_stamp(&p, 1500);
	page_event(&p, 0);
	page_end(&p);
	CU_ASSERT_EQUAL(ts_stream_page(&st, 1, p.b, sizeof(p.b)), 0);
	CU_ASSERT_EQUAL(an.backward_pages, 2);
	CU_ASSERT_EQUAL(an.bad_pages, 2);
	page_start(&p, 3000);				/* page 3: in order again */
	page_event(&p, 0);
	page_stamp(&p, 3500);				/* forward: fine */
	page_event(&p, 0);
	page_end(&p);
	CU_ASSERT_EQUAL(ts_stream_page(&st, 1, p.b, sizeof(p.b)), 0);
	page_start(&p, 100);				/* another CPU has its own order */
	page_event(&p, 0);
	page_end(&p);
	CU_ASSERT_EQUAL(ts_stream_page(&st, 2, p.b, sizeof(p.b)), 0);
	CU_ASSERT_EQUAL(an.backward_pages, 2);
	CU_ASSERT_STRING_EQUAL(an.backward_first,
			       "CPU 1, page 1 (file offset 8192): an event at 0.000000900 s after one at 0.000001010 s");
	/*
	 * page 4: back to time 0, which is also what "not gone back" was
	 * once told by: dropped whole, not cut short with a stale record
	 */
	page_start(&p, 4000);
	page_event(&p, 0);
	page_stamp(&p, 0);
	page_event(&p, 0);
	page_end(&p);
	CU_ASSERT_EQUAL(ts_stream_page(&st, 1, p.b, sizeof(p.b)), 0);
	CU_ASSERT_EQUAL(an.backward_pages, 3);
	CU_ASSERT_EQUAL(an.bad_pages, 3);
	/* pages 0 and 3 only: two refusals and two, and no more */
	CU_ASSERT_EQUAL(an.cpus[1]->stop_fail, 4);
	CU_ASSERT_EQUAL(an.cpus[1]->lost_unknown, 3);
	ts_stream_free(&st);
	ts_analysis_free(&an);
}

/* A page's header flags: events were lost before it, and (stored) how many follow its events */
static void page_end_missed(struct page_build *p, int stored, uint64_t count)
{
	uint64_t commit = (p->len - 16) | 1ULL << 31 | (stored ? 1ULL << 30 : 0);

	memcpy(p->b + 8, &commit, 8);
	if (stored)
		memcpy(p->b + p->len, &count, 8);
}

/*
 * Events lost before a page that holds no record are lost all the same:
 * a page of padding only (a discarded event the kernel could not take
 * back), and an empty one.  Their loss counts after the CPU's last event
 * (the header's time of a page without events passes no check), sized
 * where the kernel stored the count.
 */
static void test_missed_without_records(void)
{
	struct ts_stream st;
	struct page_build p;

	page_stream(&st);

	page_start(&p, 2000);				/* one event, nothing lost */
	page_event(&p, 0);
	page_end(&p);
	CU_ASSERT_EQUAL(ts_stream_page(&st, 1, p.b, sizeof(p.b)), 0);
	CU_ASSERT_EQUAL(an.cpus[1]->lost_events, 0);
	page_start(&p, 3000);				/* padding only, 40 lost */
	page_put32(&p, 5 << 5 | 29);			/* RB_TYPE_PADDING, 12 bytes */
	page_put32(&p, 8);
	page_put32(&p, 0);
	page_end_missed(&p, 1, 40);
	CU_ASSERT_EQUAL(ts_stream_page(&st, 1, p.b, sizeof(p.b)), 0);
	CU_ASSERT_EQUAL(an.cpus[1]->lost_events, 40);
	CU_ASSERT_EQUAL(an.cpus[1]->lost_unknown, 0);
	CU_ASSERT_EQUAL(an.cpus[1]->missed_events, 40);
	page_start(&p, 1000000000);			/* empty, its count not stored, */
	page_end_missed(&p, 0, 0);			/* a time no check could pass */
	CU_ASSERT_EQUAL(ts_stream_page(&st, 1, p.b, sizeof(p.b)), 0);
	CU_ASSERT_EQUAL(an.cpus[1]->last_ts, 2000);	/* the loss after the last event */
	CU_ASSERT_EQUAL(an.cpus[1]->lost_events, 40);
	CU_ASSERT_EQUAL(an.cpus[1]->lost_unknown, 1);
	CU_ASSERT_EQUAL(an.cpus[1]->missed_gaps, 1);
	CU_ASSERT_EQUAL(an.bad_pages, 0);
	page_start(&p, 4000);				/* empty, no flag: nothing lost */
	page_end(&p);
	CU_ASSERT_EQUAL(ts_stream_page(&st, 1, p.b, sizeof(p.b)), 0);
	CU_ASSERT_EQUAL(an.cpus[1]->lost_unknown, 1);
	CU_ASSERT_EQUAL(an.cpus[1]->lost_events, 40);
	ts_stream_free(&st);
	ts_analysis_free(&an);
}

/*
 * The start mark's boot id (a recording's; the live report applies the
 * same marks): kept for the report's identity.  A value that is not a boot
 * id as the kernel writes it makes the mark one that does not parse, as
 * any bad value does; a mark without it (an older recording) leaves the
 * boot unknown.
 */
static void test_mark_boot_id(void)
{
	static const struct {
		const char *id;		/* NULL: no boot_id key */
		int ok;
	} cases[] = {
		{ "0c5a6a4e-4f3a-4c1b-9d55-2f1a3d1b7e20", 1 },
		{ NULL, 1 },
		{ "0C5A6A4E-4F3A-4C1B-9D55-2F1A3D1B7E20", 0 },	/* the kernel writes lowercase */
		{ "0c5a6a4e-4f3a-4c1b-9d55-2f1a3d1b7e2", 0 },	/* short */
		{ "0c5a6a4e-4f3a-4c1b-9d55-2f1a3d1b7e200", 0 },	/* long */
		{ "0c5a6a4e4f3a-4c1b-9d55-2f1a3d1b7e20-", 0 },	/* a dash misplaced */
		{ "0c5a6a4e-4f3a-4c1b-9d55-2f1a3d1b7g20", 0 },	/* not hex */
		{ "", 0 },
	};
	char mark[256];
	struct ts_stream st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *id = cases[i].id;

		ts_analysis_init(&an);
		CU_ASSERT_EQUAL_FATAL(ts_stream_init(&st, &an, 4096, 8), 0);
		snprintf(mark, sizeof(mark),
			 TS_MARK_PREFIX "start: cpus=0-3 nohz_full=1-3 monitored=1-3%s%s",
			 id ? " boot_id=" : "", id ? id : "");
		CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), cases[i].ok ? 0 : -1);
		CU_ASSERT_STRING_EQUAL(an.boot_id, id && cases[i].ok ? id : "");
		CU_ASSERT_EQUAL(ts_is_boot_id(id ? id : ""), id && cases[i].ok);
		ts_stream_free(&st);
		ts_analysis_free(&an);
	}
}

/*
 * A start mark's CPU lists in pieces (session.c cuts a list that does not
 * fit a mark, as every other CPU of 1024 does): the union of the pieces,
 * and the nohz_full list whole.
 */
static void test_mark_cpu_list_pieces(void)
{
	char piece[512], mark[TS_MARK_MAX + 1], whole[TS_CPUSET_TEXT_MAX];
	struct ts_cpuset odd;
	struct ts_stream st;
	int from = 0, pieces = 0;

	memset(&odd, 0, sizeof(odd));
	for (int c = 1; c < TS_MAX_CPUS; c += 2)
		ts_cpuset_add(&odd, c);
	ts_analysis_init(&an);
	CU_ASSERT_EQUAL_FATAL(ts_stream_init(&st, &an, 4096, 8), 0);
	snprintf(mark, sizeof(mark), TS_MARK_PREFIX "start: cpus=0-%d", TS_MAX_CPUS - 1);
	CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), 0);
	do {
		from = ts_cpuset_format_from(&odd, from, piece, sizeof(piece));
		snprintf(mark, sizeof(mark), TS_MARK_PREFIX "start: nohz_full=%s", piece);
		CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), 0);
		snprintf(mark, sizeof(mark), TS_MARK_PREFIX "start: monitored=%s", piece);
		CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), 0);
		pieces++;
	} while (from >= 0);
	CU_ASSERT(pieces > 1);
	for (int c = 0; c < TS_MAX_CPUS; c++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(an.cpus[c]);
		CU_ASSERT_EQUAL(an.cpus[c]->active, c % 2);
		CU_ASSERT_EQUAL(an.cpus[c]->nohz_full, c % 2);
	}
	ts_cpuset_format(&odd, whole, sizeof(whole));
	CU_ASSERT_STRING_EQUAL(an.nohz_full, whole);
	ts_stream_free(&st);
	ts_analysis_free(&an);
}

/*
 * A monitor's recording keeps the tick events of the monitored CPUs only
 * (ticks=): the others are not CPUs it has data of, though their
 * sched_switch events are in it; without ticks= every online CPU is.
 */
static void test_mark_ticks_limit_cover(void)
{
	static const struct { const char *start; int cpu0, cpu1, cpu3; } cases[] = {
		{ "cpus=0-3 nohz_full=1-3 monitored=1-3", 1, 1, 1 },
		{ "cpus=0-3 nohz_full=1-3 monitored=1-3 ticks=1-3", 0, 1, 1 },
		{ "ticks=1 cpus=0-3 monitored=1,3", 0, 1, 0 },	/* in any order */
	};
	char mark[TS_MARK_MAX + 1];
	struct ts_stream st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ts_analysis_init(&an);
		CU_ASSERT_EQUAL_FATAL(ts_stream_init(&st, &an, 4096, 8), 0);
		snprintf(mark, sizeof(mark), TS_MARK_PREFIX "start: %s", cases[i].start);
		CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), 0);
		ts_analysis_cover(&an, 0);	/* its sched_switch events came */
		CU_ASSERT_EQUAL(ts_analysis_covers(&an, 0), cases[i].cpu0);
		CU_ASSERT_EQUAL(ts_analysis_covers(&an, 1), cases[i].cpu1);
		CU_ASSERT_EQUAL(ts_analysis_covers(&an, 3), cases[i].cpu3);
		CU_ASSERT(!ts_analysis_covers(&an, 4));
		ts_stream_free(&st);
		ts_analysis_free(&an);
	}
}

/*
 * The marks' cause types and co-runner quotas: a start mark without causes
 * (an older recorder) counts none; a quota is QUOTA/PERIOD or max, and a
 * bad one makes the mark one that does not parse.
 */
static void test_mark_causes_quotas(void)
{
	static const struct {
		const char *tokens;
		int ok;
		int causes;		/* causes_recorded after a start mark */
	} starts[] = {
		{ "", 1, 0 },
		{ " causes=none", 1, 0 },
		{ " causes=work,irq", 1, 1 << TS_CAUSE_WORK | 1 << TS_CAUSE_IRQ },
		{ " causes=work,newer", 1, 1 << TS_CAUSE_WORK },	/* a newer recorder's type */
		{ " causes=work,,irq", 1, 1 << TS_CAUSE_WORK | 1 << TS_CAUSE_IRQ },
	};
	static const struct {
		const char *token;
		int ok;
		int64_t quota;
		uint64_t period;
	} quotas[] = {
		{ "quota.66=50000/100000", 1, 50000, 100000 },
		{ "quota.67=max", 1, -1, 0 },
		{ "quota.68=50000/0", 0, 0, 0 },
		{ "quota.69=50000", 0, 0, 0 },
		{ "quota.0=max", 0, 0, 0 },
		{ "quota.70=1/2x", 0, 0, 0 },
	};
	char mark[256];
	struct ts_stream st;

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		ts_analysis_init(&an);
		CU_ASSERT_EQUAL_FATAL(ts_stream_init(&st, &an, 4096, 8), 0);
		snprintf(mark, sizeof(mark), TS_MARK_PREFIX "start: cpus=0-3 monitored=1-3%s",
			 starts[i].tokens);
		CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), starts[i].ok ? 0 : -1);
		CU_ASSERT_EQUAL(an.causes_recorded, starts[i].causes);
		ts_stream_free(&st);
		ts_analysis_free(&an);
	}
	for (size_t i = 0; i < sizeof(quotas) / sizeof(quotas[0]); i++) {
		const struct ts_quota *q;
		int pid;

		ts_analysis_init(&an);
		CU_ASSERT_EQUAL_FATAL(ts_stream_init(&st, &an, 4096, 8), 0);
		snprintf(mark, sizeof(mark), TS_MARK_PREFIX "end: end_ns=5 %s", quotas[i].token);
		CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), quotas[i].ok ? 0 : -1);
		CU_ASSERT_EQUAL(sscanf(quotas[i].token, "quota.%d", &pid), 1);
		q = ts_analysis_quota(&an, pid);
		CU_ASSERT_EQUAL(q != NULL, quotas[i].ok);
		if (q && quotas[i].ok) {
			CU_ASSERT_EQUAL(q->quota_us, quotas[i].quota);
			CU_ASSERT_EQUAL(q->period_us, quotas[i].period);
		}
		ts_stream_free(&st);
		ts_analysis_free(&an);
	}
}

/*
 * The pid map under the quota tables: every pid found after insertion
 * whatever the order (pids that collide in their home slot too), indexes
 * in order of insertion, and a full map that refuses the next pid and
 * counts it where the caller keeps count, never silently.
 */
static void test_pidmap(void)
{
	static struct ts_pidmap m;
	int added, i, pid;

	memset(&m, 0, sizeof(m));
	CU_ASSERT_EQUAL(ts_pidmap_find(&m, 1), -1);
	CU_ASSERT_EQUAL(ts_pidmap_insert(&m, 0, &added), -1);
	CU_ASSERT_EQUAL(ts_pidmap_insert(&m, -5, &added), -1);
	CU_ASSERT_EQUAL(ts_pidmap_find(&m, 0), -1);
	/* pids 1024 apart, in steps that share home slots, and sequential ones */
	for (i = 0; i < TS_PIDMAP_MAX; i++) {
		pid = i % 2 ? 1 + i * 1024 : 100000 + i;
		CU_ASSERT_EQUAL(ts_pidmap_insert(&m, pid, &added), i);
		CU_ASSERT_EQUAL(added, 1);
	}
	CU_ASSERT_EQUAL(m.nr, TS_PIDMAP_MAX);
	for (i = TS_PIDMAP_MAX - 1; i >= 0; i--) {
		pid = i % 2 ? 1 + i * 1024 : 100000 + i;
		CU_ASSERT_EQUAL(ts_pidmap_find(&m, pid), i);
		CU_ASSERT_EQUAL(ts_pidmap_insert(&m, pid, &added), i);
		CU_ASSERT_EQUAL(added, 0);
	}
	CU_ASSERT_EQUAL(ts_pidmap_find(&m, 99999), -1);
	CU_ASSERT_EQUAL(ts_pidmap_insert(&m, 99999, &added), -1);	/* full */
	CU_ASSERT_EQUAL(added, 0);
	CU_ASSERT_EQUAL(m.nr, TS_PIDMAP_MAX);

	/* the analysis' quota table over it: full means unknown and counted */
	ts_analysis_init(&an);
	for (i = 0; i < TS_MAX_QUOTAS; i++)
		CU_ASSERT_EQUAL(ts_analysis_set_quota(&an, 1000 + i * 7, i, 100000), 0);
	CU_ASSERT_EQUAL(ts_analysis_set_quota(&an, 1000, 5, 100000), 0);	/* an update */
	CU_ASSERT_EQUAL(an.nr_quotas, TS_MAX_QUOTAS);
	CU_ASSERT_EQUAL(ts_analysis_quota(&an, 1000)->quota_us, 5);
	CU_ASSERT_EQUAL(ts_analysis_quota(&an, 1000 + 511 * 7)->quota_us, 511);
	CU_ASSERT_EQUAL(an.quotas_dropped, 0);
	CU_ASSERT_EQUAL(ts_analysis_set_quota(&an, 2, -1, 0), -1);
	CU_ASSERT_PTR_NULL(ts_analysis_quota(&an, 2));
	CU_ASSERT_EQUAL(an.quotas_dropped, 1);
	ts_analysis_free(&an);
}

/* Fletcher's sums by the book, one word at a time from s: what ts_fletcher128() must equal */
static struct ts_sum fletcher128_from(struct ts_sum s, const unsigned char *p, size_t len)
{

	for (size_t i = 0; i < len; i += 4) {
		uint32_t w = 0;

		for (size_t k = 0; k < 4 && i + k < len; k++)
			w |= (uint32_t)p[i + k] << (8 * k);
		s.a += w;
		s.b += s.a;
	}
	return s;
}

static struct ts_sum fletcher128_reference(const unsigned char *p, size_t len)
{
	return fletcher128_from((struct ts_sum){ 0, 0 }, p, len);
}

static struct ts_sum fletcher128_of(const void *p, size_t len)
{
	struct ts_sum s = { 0, 0 };

	ts_fletcher128(&s, p, len);
	return s;
}

/* The pages' sum: by hand, in parts, against the reference, as text, and what it tells */
static void test_page_sum(void)
{
	static unsigned char big[300000];
	struct ts_sum s, r;
	char text[TS_SUM_TEXT];

	/* "abcde": a = 0x64636261 + 0x65, b = 0x64636261 + a */
	s = fletcher128_of("abcde", 5);
	CU_ASSERT(s.a == 0x646362c6 && s.b == 0xc8c6c527);
	ts_sum_text(TS_SUM_FLETCHER128, &s, text);
	CU_ASSERT_STRING_EQUAL(text, "00000000c8c6c52700000000646362c6");
	CU_ASSERT_EQUAL(ts_sum_parse(TS_SUM_FLETCHER128, text, &r), 0);
	CU_ASSERT(ts_sum_same(&r, &s));
	/* the text exactly: its length, lower-case hex only */
	{
		static const char *const bad[] = {
			"00000000c8c6c52700000000646362c",	/* a digit short */
			"00000000C8C6C52700000000646362C6",	/* upper case */
			"-0000000c8c6c52700000000646362c6",	/* a sign */
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			CU_ASSERT_EQUAL(ts_sum_parse(TS_SUM_FLETCHER128, bad[i], &r), -1);
	}
	CU_ASSERT_EQUAL(ts_sum_parse(TS_SUM_CRC32, "aeef2a50", &r), 0);
	CU_ASSERT_EQUAL(ts_sum_parse(TS_SUM_CRC32, "0aeef2a50", &r), -1);
	/* page after page: the same as all at once */
	s = fletcher128_of("abcd", 4);
	ts_fletcher128(&s, "efgh", 4);
	r = fletcher128_of("abcdefgh", 8);
	CU_ASSERT(ts_sum_same(&s, &r));
	/* a long buffer: all ones, then a ramp */
	memset(big, 0xff, sizeof(big) / 2);
	for (size_t i = sizeof(big) / 2; i < sizeof(big); i++)
		big[i] = (unsigned char)(i * 7);
	r = fletcher128_reference(big, sizeof(big));
	s = fletcher128_of(big, sizeof(big));
	CU_ASSERT(ts_sum_same(&s, &r));
	/* every length and alignment, alone and after a page (the lanes and the rest) */
	for (size_t len = 0; len < 70; len++) {
		for (size_t off = 0; off < 4; off++) {
			s = fletcher128_of(big + sizeof(big) / 2 + off, len);
			r = fletcher128_reference(big + sizeof(big) / 2 + off, len);
			CU_ASSERT(ts_sum_same(&s, &r));
			s = fletcher128_of(big + sizeof(big) / 2 - 4096 + off, 4096);
			ts_fletcher128(&s, big + sizeof(big) / 2 + off, len);
			r = fletcher128_reference(big + sizeof(big) / 2 - 4096 + off, 4096 + len);
			CU_ASSERT(ts_sum_same(&s, &r));
		}
	}
	/* both sums past 2^64 within a page: from just under it, the lanes and the rest */
	for (size_t len = 4096; len < 4096 + 8; len++) {
		const struct ts_sum near = { UINT64_MAX - 5, UINT64_MAX - 1000 };

		s = near;
		ts_fletcher128(&s, big, len);
		r = fletcher128_from(near, big, len);
		CU_ASSERT(ts_sum_same(&s, &r));
		CU_ASSERT(s.a < near.a && s.b < near.b);	/* both wrapped */
	}
	r = fletcher128_reference(big, sizeof(big));
	s = (struct ts_sum){ 0, 0 };
	for (size_t off = 0; off < sizeof(big); off += 4096) {
		size_t len = sizeof(big) - off < 4096 ? sizeof(big) - off : 4096;

		ts_fletcher128(&s, big + off, len);
	}
	CU_ASSERT(ts_sum_same(&s, &r));
	/*
	 * what it tells: two words swapped, and a word of ones become zeros
	 * (which Fletcher-64's sums modulo 2^32 - 1 would not tell)
	 */
	s = fletcher128_of("efghabcd", 8);
	r = fletcher128_of("abcdefgh", 8);
	CU_ASSERT(!ts_sum_same(&s, &r));
	{
		static const uint32_t ones[2] = { 0x81100000, 0xffffffff };
		static const uint32_t zeros[2] = { 0x81100000, 0 };
		struct ts_sum x = fletcher128_of(ones, 8), y = fletcher128_of(zeros, 8);

		CU_ASSERT(!ts_sum_same(&x, &y));
	}
	/* the kinds a recording's start mark names */
	s = (struct ts_sum){ 0, 0 };
	ts_sum_add(TS_SUM_CRC32, &s, "abcdefgh", 8);
	CU_ASSERT(s.a == 0xaeef2a50 && s.b == 0);
	CU_ASSERT_STRING_EQUAL(ts_sum_name(TS_SUM_FLETCHER128), "Fletcher-128");
	{
		enum ts_sum_kind k = TS_SUM_CRC32;

		CU_ASSERT_EQUAL(ts_sum_kind_parse("fletcher128", &k), 0);
		CU_ASSERT_EQUAL(k, TS_SUM_FLETCHER128);
		CU_ASSERT_EQUAL(ts_sum_kind_parse("adler32", &k), -1);
	}
}

/* The recorder's count of tasks whose quota it could not keep: read, added up, checked. */
static void test_mark_quotas_dropped(void)
{
	static const struct {
		const char *tokens;
		int ok;
		uint64_t dropped;
	} cases[] = {
		{ "", 1, 0 },
		{ " quotas_dropped=3", 1, 3 },
		{ " quotas_dropped=3 quota.66=max", 1, 3 },
		{ " quotas_dropped=x", 0, 0 },
		{ " quotas_dropped=-1", 0, 0 },
	};
	char mark[256];
	struct ts_stream st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ts_analysis_init(&an);
		CU_ASSERT_EQUAL_FATAL(ts_stream_init(&st, &an, 4096, 8), 0);
		snprintf(mark, sizeof(mark), TS_MARK_PREFIX "end: end_ns=5%s", cases[i].tokens);
		CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), cases[i].ok ? 0 : -1);
		if (cases[i].ok)
			CU_ASSERT_EQUAL(an.quotas_dropped, cases[i].dropped);
		ts_stream_free(&st);
		ts_analysis_free(&an);
	}
	/* a live session counted them as they came: its end mark adds none */
	ts_analysis_init(&an);
	CU_ASSERT_EQUAL_FATAL(ts_stream_init(&st, &an, 4096, 8), 0);
	st.quotas_written = 1;
	ts_analysis_count_quotas_dropped(&an, 3);
	snprintf(mark, sizeof(mark), TS_MARK_PREFIX "end: end_ns=5 quotas_dropped=3");
	CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), 0);
	CU_ASSERT_EQUAL(an.quotas_dropped, 3);
	ts_stream_free(&st);
	ts_analysis_free(&an);
}

/*
 * The end mark's losses no page marks (unplaced.CPU): lost on their CPU,
 * with its state as its events say; and the stats text they come from.
 */
static void test_mark_unplaced(void)
{
	static const char stats[] = "entries: 0\noverrun: 7\ncommit overrun: 2\nbytes: 0\n"
				    "dropped events: 3\nread events: 9\n"
				    "CPU: 3\ncommit overrun: 5\n";
	char mark[256];
	struct ts_stream st;

	CU_ASSERT_EQUAL(ts_stats_unplaced(stats), 5);		/* up to the next CPU's block */
	CU_ASSERT_EQUAL(ts_stats_unplaced("CPU: 3\ncommit overrun: 5\n"), 5);
	ts_analysis_init(&an);
	CU_ASSERT_EQUAL_FATAL(ts_stream_init(&st, &an, 4096, 8), 0);
	snprintf(mark, sizeof(mark), TS_MARK_PREFIX "end: end_ns=5 overrun.2=0 unplaced.2=5");
	CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), 0);
	CU_ASSERT_EQUAL(an.unplaced, 5);
	CU_ASSERT_PTR_NOT_NULL_FATAL(an.cpus[2]);
	CU_ASSERT_EQUAL(an.cpus[2]->lost_events, 5);
	snprintf(mark, sizeof(mark), TS_MARK_PREFIX "end: end_ns=5 unplaced.2=x");
	CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), -1);
	ts_stream_free(&st);
	ts_analysis_free(&an);
}

/* ---- readers on fixtures captured in the guest ---- */

static int read_any(const char *path, struct ts_analysis *a, char *err)
{
	ts_analysis_init(a);
	return ts_read_file(path, a, err, 256);
}

/* ---- the doctor's audit in a recording (docrec.c) ---- */

/* each token of the marks fits a mark, as the recorder's splitter needs */
static int tokens_fit(const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (n + strlen(TS_MARK_PREFIX "doctor: ") > TS_MARK_MAX)
			return 0;
		p += n;
		p += strspn(p, " ");
	}
	return 1;
}

static void same_finding(const struct ts_finding *x, const struct ts_finding *y)
{
	CU_ASSERT_PTR_EQUAL(x->kind, y->kind);
	CU_ASSERT_EQUAL(memcmp(&x->cpus, &y->cpus, sizeof(x->cpus)), 0);
	CU_ASSERT_STRING_EQUAL(x->message, y->message);
	CU_ASSERT_STRING_EQUAL(x->remedy, y->remedy);
	CU_ASSERT_EQUAL_FATAL(x->nr_ev, y->nr_ev);
	for (int e = 0; e < x->nr_ev; e++) {
		CU_ASSERT_STRING_EQUAL(x->ev[e].file, y->ev[e].file);
		CU_ASSERT_STRING_EQUAL(x->ev[e].value, y->ev[e].value);
	}
	CU_ASSERT_EQUAL(x->key.irq, y->key.irq);
	CU_ASSERT_EQUAL(x->key.pid, y->key.pid);
	CU_ASSERT_STRING_EQUAL(x->key.name, y->key.name);
	CU_ASSERT_STRING_EQUAL(x->key.cgroup, y->key.cgroup);
}

/*
 * The guest's audit through the marks and back: every finding, note and
 * unread file as audited, in output order; the command line whole.
 */
static void test_doctor_marks_round_trip(void)
{
	char root[512];
	struct ts_audit a, back;
	char *text;
	int *idx;

	snprintf(root, sizeof(root), "%s/doctor/guest", fixtures);
	CU_ASSERT_EQUAL_FATAL(ts_audit_run(&a, root), 0);
	CU_ASSERT_FATAL(a.nr > 3);
	/* CPU lists longer than a mark, in pieces */
	memset(&a.nohz_full, 0, sizeof(a.nohz_full));
	for (int c = 1; c < TS_CPUSET_WORDS * 64; c += 2)
		ts_cpuset_add(&a.nohz_full, c);
	a.f[0].cpus = a.nohz_full;
	/* a command line longer than a mark, in pieces */
	memset(a.cmdline, 'x', 900);
	snprintf(a.cmdline + 900, sizeof(a.cmdline) - 900, "%s", " nohz_full=1-3 % \xc3\xa9");
	text = ts_doctor_marks(&a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT(tokens_fit(text));
	ts_analysis_init(&an);
	CU_ASSERT_EQUAL_FATAL(ts_doctor_mark(&an, text), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_doctor_stored(&an));
	CU_ASSERT_EQUAL(ts_doctor_stored(&an)->dropped, 0);
	CU_ASSERT_EQUAL_FATAL(ts_doctor_joined(&an, &back), 0);
	idx = ts_audit_order(&a);
	CU_ASSERT_EQUAL_FATAL(back.nr, a.nr);
	for (int i = 0; i < a.nr; i++) {
		same_finding(&back.f[i], &a.f[idx[i]]);
		CU_ASSERT_EQUAL(back.f[i].seen, -1);	/* no CPU of it in this analysis */
	}
	CU_ASSERT_STRING_EQUAL(back.cmdline, a.cmdline);
	CU_ASSERT_STRING_EQUAL(back.release, a.release);
	CU_ASSERT_EQUAL(memcmp(&back.nohz_full, &a.nohz_full, sizeof(a.nohz_full)), 0);
	CU_ASSERT_EQUAL(memcmp(&back.housekeeping, &a.housekeeping, sizeof(a.housekeeping)), 0);
	CU_ASSERT_EQUAL_FATAL(back.nr_notes, a.nr_notes);
	for (int i = 0; i < a.nr_notes; i++)
		CU_ASSERT_STRING_EQUAL(back.notes[i].text, a.notes[i].text);
	CU_ASSERT_EQUAL_FATAL(back.nr_unread, a.nr_unread);
	for (int i = 0; i < a.nr_unread; i++)
		CU_ASSERT_STRING_EQUAL(back.unread[i].file, a.unread[i].file);
	free(idx);
	free(text);
	ts_audit_free(&back);
	ts_audit_free(&a);
	ts_analysis_free(&an);
}

/*
 * A host with more findings than a recording keeps: errors first, at most
 * TS_DOCTOR_MAX_STORED and the byte budget, the rest counted as dropped.
 */
static void test_doctor_marks_bounded(void)
{
	struct ts_audit a;
	const struct ts_doctor_rec *r;
	char *text;

	memset(&a, 0, sizeof(a));
	a.root = "";
	for (int i = 0; i < 400; i++) {
		struct ts_finding *f = ts_audit_add(&a, i == 399 ? "housekeeping-none" :
						    "kthread-on-isolated", NULL, "%%%% %0200d", i);

		ts_finding_remedy(f, "%0250d", i);
		f->key.pid = i;
	}
	text = ts_doctor_marks(&a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT(strlen(text) <= TS_DOCTOR_MARK_BUDGET + 1024);
	ts_analysis_init(&an);
	CU_ASSERT_EQUAL_FATAL(ts_doctor_mark(&an, text), 0);
	r = ts_doctor_stored(&an);
	CU_ASSERT(r->declared > 0 && r->declared <= TS_DOCTOR_MAX_STORED);
	CU_ASSERT_EQUAL(r->declared + r->dropped, 400);
	/* the error, found last, is kept first */
	CU_ASSERT_STRING_EQUAL(r->a.f[0].kind->id, "housekeeping-none");
	free(text);
	ts_audit_free(&a);
	ts_analysis_free(&an);
}

/* marks that do not parse are refused, not half applied in silence */
static void test_doctor_marks_bad(void)
{
	static const char * const bad[] = {
		"f0.id=cpuidle",			/* a finding before findings= */
		"findings=1 f1.id=cpuidle",		/* beyond the slots declared */
		"findings=1 f0.msg=%G0",		/* a bad escape */
		"findings=1 f0.msg=a%00b",		/* a NUL */
		"findings=1 findings=1",		/* a second audit */
		"findings=100000",			/* beyond any recorder's bound */
		"findings=1 f0.id=cpuidle f0.id=cpuidle",
		"findings=1 f0.ev1.file=x",		/* evidence out of order */
		"cmdline.1=x",				/* a piece missing */
		"noequals",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ts_analysis_init(&an);
		CU_ASSERT_EQUAL(ts_doctor_mark(&an, bad[i]), -1);
		ts_analysis_free(&an);
	}
	/* sixteen whole pieces of the command line would not leave room for its NUL */
	ts_analysis_init(&an);
	{
		char *t = malloc(16 * 270), *w = t;

		for (int i = 0; i < 16; i++) {
			w += sprintf(w, "cmdline.%d=", i);
			memset(w, 'y', 256);
			w += 256;
			*w++ = ' ';
		}
		w[-1] = '\0';
		CU_ASSERT_EQUAL(ts_doctor_mark(&an, t), -1);
		free(t);
	}
	ts_analysis_free(&an);
	/* a later version's keys and ids are passed over */
	ts_analysis_init(&an);
	CU_ASSERT_EQUAL(ts_doctor_mark(&an, "future=1 findings=1 f0.id=new-kind f0.future=2 "
					     "f0.ev0=x"), 0);
	CU_ASSERT_EQUAL(ts_doctor_unknown(&an), 1);
	ts_analysis_free(&an);
}

/*
 * The join on co-runners: a kernel thread's run time on its CPUs, a
 * quota's task's time with SCHED holding the tick; not on a CPU the
 * recording lacks, nor for a pid the recording knows under another name.
 */
static void test_doctor_join_tasks(void)
{
	struct ts_audit j;
	const char *unit;
	char how[160];

	stream_start(0, 1, 0);
	ts_analysis_set_initial(&an, 2, TS_TICK_UNKNOWN, TS_IDLE_BUSY);
	task[2] = 100;
	stop_ok(2, 10 * MS);
	stop_sched(2, 500 * MS);
	restart(2, 500 * MS, TS_RESTART_DEPENDENCY);
	switch_to(2, 505 * MS, 200, NULL);
	switch_to(2, 530 * MS, 100, NULL);
	stop_sched(2, 530 * MS);
	stop_ok(2, 600 * MS);
	switch_to(2, 700 * MS, 200, NULL);
	switch_to(2, 710 * MS, 100, NULL);
	ts_analysis_finish(&an, 1 * S);
	CU_ASSERT_EQUAL_FATAL(ts_doctor_mark(&an,
		"findings=5 f0.id=cgroup-cpu-quota f0.cpus=2 f0.pid=200 f0.name=task200 "
		"f0.cgroup=/q f1.id=kthread-on-isolated f1.cpus=2 f1.pid=200 f1.name=task200 "
		"f2.id=kthread-on-isolated f2.cpus=3 f2.pid=200 f2.name=task200 "
		"f3.id=kthread-on-isolated f3.cpus=2 f3.pid=200 f3.name=other "
		"f4.id=timer-migration f4.cpus="), 0);
	CU_ASSERT_EQUAL_FATAL(ts_doctor_joined(&an, &j), 0);
	CU_ASSERT_EQUAL_FATAL(j.nr, 5);
	CU_ASSERT_EQUAL(j.f[0].seen, 25 * MS);		/* with SCHED: 505 to 530 ms */
	CU_ASSERT_STRING_EQUAL(j.f[0].seen_unit, "ns");
	CU_ASSERT_EQUAL(j.f[1].seen, 35 * MS);		/* ran: and 700 to 710 ms */
	CU_ASSERT_EQUAL(j.f[2].seen, -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(j.f[2].seen_how, "none of CPU 3"));
	CU_ASSERT_EQUAL(j.f[3].seen, -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(j.f[3].seen_how, "pid 200 is task200"));
	CU_ASSERT_EQUAL(j.f[4].seen, -1);
	/*
	 * What each CPU's diagnosis asks: the same worked out now (the marks
	 * came after the finish here) as settled once (a recording's come first)
	 */
	CU_ASSERT(!ts_doctor_stored(&an)->settled);
	for (int i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(ts_doctor_seen_at(&an, i), j.f[i].seen);
	ts_doctor_settle(&an);
	CU_ASSERT(ts_doctor_stored(&an)->settled);
	for (int i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(ts_doctor_seen_at(&an, i), j.f[i].seen);
	CU_ASSERT_EQUAL(ts_doctor_seen_at(&an, 5), -1);
	CU_ASSERT_EQUAL(ts_doctor_seen_at(&an, -1), -1);
	/* without sched_switch no task is known to have run */
	an.caps.sched_switch = 0;
	CU_ASSERT_EQUAL(ts_doctor_seen(&an, &j.f[1], &unit, how, sizeof(how)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(how, "sched_switch"));
	ts_audit_free(&j);
	ts_analysis_free(&an);
}


/*
 * The join settled when the analysis finishes (a recording's doctor marks
 * come first) follows the CPUs the report keeps (-C), and a finding stored
 * after it is worked out: a kernel thread that ran on CPU 3 only is not
 * seen once the report keeps CPU 2 alone.
 */
static void test_doctor_settled(void)
{
	static const char first[] =
		"findings=2 f0.id=kthread-on-isolated f0.cpus=2-3 f0.pid=200 f0.name=task200";
	static const char second[] =
		"f1.id=kthread-on-isolated f1.cpus=2 f1.pid=100 f1.name=task100";
	struct ts_cpuset only2 = { 0 };
	const struct ts_doctor_rec *rec;
	char how[160];
	const char *unit;

	stream_start(0, 1, 0);
	CU_ASSERT_EQUAL_FATAL(ts_doctor_mark(&an, first), 0);
	ts_analysis_set_initial(&an, 2, TS_TICK_UNKNOWN, TS_IDLE_BUSY);
	ts_analysis_set_initial(&an, 3, TS_TICK_UNKNOWN, TS_IDLE_BUSY);
	switch_to(3, 100 * MS, 200, NULL);
	switch_to(3, 200 * MS, 100, NULL);
	switch_to(2, 250 * MS, 100, NULL);
	stop_ok(2, 300 * MS);
	ts_analysis_finish(&an, 1 * S);
	rec = ts_doctor_stored(&an);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
	CU_ASSERT(rec->settled);
	CU_ASSERT_EQUAL(ts_doctor_seen_at(&an, 0), 100 * MS);
	ts_cpuset_add(&only2, 2);
	ts_analysis_select_cpus(&an, &only2);
	CU_ASSERT(rec->settled);
	CU_ASSERT_EQUAL(ts_doctor_seen_at(&an, 0), 0);
	CU_ASSERT_EQUAL(ts_doctor_seen(&an, &rec->a.f[0], &unit, how, sizeof(how)), 0);
	/* the second finding's mark after the finish: worked out when asked */
	CU_ASSERT_EQUAL(ts_doctor_seen_at(&an, 1), -1);
	CU_ASSERT_EQUAL_FATAL(ts_doctor_mark(&an, second), 0);
	CU_ASSERT(!rec->settled);
	CU_ASSERT_EQUAL(rec->a.nr, 2);
	CU_ASSERT(ts_doctor_seen_at(&an, 1) > 0);
	CU_ASSERT_EQUAL(ts_doctor_seen_at(&an, 0), 0);
	ts_analysis_free(&an);
}

static void test_fixture_patched(void)
{
	struct ts_analysis a;
	const struct ts_reason *r;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(read_any(fixture("patched.dat"), &a, err), 0);
	CU_ASSERT(a.caps.scopes && a.caps.restart && a.caps.dep_events && a.caps.retain);
	CU_ASSERT_STRING_EQUAL(a.kernel, "6.1.192");
	CU_ASSERT_STRING_EQUAL(a.nohz_full, "1-3");
	CU_ASSERT(a.cpus[1]->active && a.cpus[2]->active && a.cpus[3]->active);
	CU_ASSERT(!a.cpus[0]->active);
	CU_ASSERT_EQUAL(a.cpus[1]->ticks, 0);
	r = NULL;
	for (int i = 0; i < a.cpus[2]->nr_reasons; i++)
		if (ts_reason_matches(&a.cpus[2]->reasons[i], "SCHED@CPU"))
			r = &a.cpus[2]->reasons[i];
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(r->time_ns > 400 * MS && r->time_ns < 700 * MS);
	CU_ASSERT_STRING_EQUAL(a.source_kind, "recording");
	CU_ASSERT_EQUAL(a.cpus[2]->sched_detail, 3);	/* CFS */
	CU_ASSERT(a.nr_culprits > 0);
	ts_analysis_free(&a);
}

/* trace-cmd convert makes it version 7 with zstd: the same recording, the same report. */
static void test_fixture_converted(void)
{
	struct ts_analysis a, b;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(read_any(fixture("patched.dat"), &a, err), 0);
	CU_ASSERT_EQUAL_FATAL(read_any(fixture("patched-v7.dat"), &b, err), 0);
	CU_ASSERT_STRING_EQUAL(b.source_kind, "recording");
	CU_ASSERT_EQUAL(a.win_start, b.win_start);
	CU_ASSERT_EQUAL(a.win_end, b.win_end);
	for (int c = 1; c <= 3; c++) {
		CU_ASSERT_EQUAL(a.cpus[c]->ticks, b.cpus[c]->ticks);
		CU_ASSERT_EQUAL(memcmp(a.cpus[c]->time, b.cpus[c]->time, sizeof(a.cpus[c]->time)), 0);
	}
	ts_analysis_free(&a);
	ts_analysis_free(&b);
}

static void test_fixture_stock(void)
{
	struct ts_analysis a;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(read_any(fixture("stock.dat"), &a, err), 0);
	CU_ASSERT(a.caps.tick_stop && !a.caps.scopes && !a.caps.restart && !a.caps.dep_events);
	CU_ASSERT_EQUAL(a.nr_culprits, 0);
	ts_analysis_free(&a);
}

/*
 * A co-runner that never switched in the window is named by the
 * recording's command lines (the recorder read them from /proc): the pids
 * wanted there are searched, sorted, for each line.
 */
static void test_fixture_named_by_cmdlines(void)
{
	struct ts_analysis a;
	const char *name;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(read_any(fixture("lone-task-6.12.dat"), &a, err), 0);
	CU_ASSERT_FATAL(a.nr_cpus > 1 && a.cpus[1] && a.cpus[1]->nr_tasks == 1);
	name = ts_comm_get(&a, a.cpus[1]->tasks[0].pid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(name);
	CU_ASSERT_STRING_EQUAL(name, "spin");
	ts_analysis_free(&a);
}

/* trace-cmd's file of the same run, over the same window, agrees. */
static void test_fixture_tracedat_agrees(void)
{
	const char *kernels[] = { "patched", "stock" };

	for (int k = 0; k < 2; k++) {
		struct ts_analysis a, b;
		char name[64], err[256];

		snprintf(name, sizeof(name), "%s.dat", kernels[k]);
		CU_ASSERT_EQUAL_FATAL(read_any(fixture(name), &a, err), 0);
		ts_analysis_init(&b);
		ts_analysis_set_range(&b, a.win_start, a.win_end);
		for (int c = 1; c <= 3; c++)
			ts_analysis_set_nohz_full(&b, c, 1);
		snprintf(name, sizeof(name), "%s-trace-cmd.dat", kernels[k]);
		CU_ASSERT_EQUAL_FATAL(ts_read_file(fixture(name), &b, err, sizeof(err)), 0);
		CU_ASSERT_STRING_EQUAL(b.source_kind, "trace.dat");
		for (int c = 2; c <= 3; c++) {
			int64_t d = (int64_t)a.cpus[c]->ticks - (int64_t)b.cpus[c]->ticks;

			CU_ASSERT(d >= -2 && d <= 2);
			d = (int64_t)a.cpus[c]->stop_fail - (int64_t)b.cpus[c]->stop_fail;
			CU_ASSERT(d >= -2 && d <= 2);
		}
		ts_analysis_free(&a);
		ts_analysis_free(&b);
	}
}

static void test_fixture_lost(void)
{
	struct ts_analysis a;
	struct ts_check_opts o;
	struct ts_verdict v;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(read_any(fixture("lost.dat"), &a, err), 0);
	/* two gaps the pages did not size, of the 2007 events the kernel counted */
	CU_ASSERT_EQUAL(a.cpus[2]->lost_events, 2007);
	CU_ASSERT_EQUAL(a.cpus[2]->lost_unknown, 0);
	CU_ASSERT_EQUAL(a.cpus[2]->missed_gaps_sized, 2);
	ts_check_opts_init(&o);
	o.max_unknown = 100;
	CU_ASSERT_EQUAL(ts_check_run(&a, &o, &v), 0);
	CU_ASSERT_EQUAL(v.failed, 1);			/* lost-events */
	ts_verdict_free(&v);
	o.allow_lost = 1;
	CU_ASSERT_EQUAL(ts_check_run(&a, &o, &v), 0);
	CU_ASSERT_EQUAL(v.failed, 0);
	ts_verdict_free(&v);
	ts_analysis_free(&a);
}

/*
 * A trace-cmd record stopped before writing CPU 3's last 81 events (its
 * saved statistics count them; the file does not have them): they are lost,
 * and CPU 3 is unknown after its last recorded event, at 12.000208292 s.
 * CPU 0's ring buffer overwrote 110 events: the records say so themselves.
 */
static void test_fixture_unflushed(void)
{
	const uint64_t last = 12000208292ULL, span = 2000000000ULL;
	struct ts_analysis a;
	char err[256];

	ts_analysis_init(&a);
	CU_ASSERT_EQUAL_FATAL(ts_read_file(fixture("unflushed.dat"), &a, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(a.cpus[3]->lost_events, 81);
	CU_ASSERT_EQUAL(a.cpus[0]->lost_events, 110);
	CU_ASSERT_EQUAL(a.cpus[1]->lost_events + a.cpus[2]->lost_events, 0);
	ts_analysis_free(&a);

	/* after that event: CPU 3 unknown throughout, CPU 2 known */
	ts_analysis_init(&a);
	ts_analysis_set_range(&a, last + 1, last + 1 + span);
	CU_ASSERT_EQUAL_FATAL(ts_read_file(fixture("unflushed.dat"), &a, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(a.cpus[3]->lost_events, 81);
	CU_ASSERT_EQUAL(a.cpus[3]->time[TS_TICK_UNKNOWN][0] + a.cpus[3]->time[TS_TICK_UNKNOWN][1] +
			a.cpus[3]->time[TS_TICK_UNKNOWN][2], span);
	CU_ASSERT(a.cpus[2]->time[TS_TICK_UNKNOWN][0] + a.cpus[2]->time[TS_TICK_UNKNOWN][1] +
		  a.cpus[2]->time[TS_TICK_UNKNOWN][2] < span);
	ts_analysis_free(&a);

	/* up to it: nothing is missing */
	ts_analysis_init(&a);
	ts_analysis_set_range(&a, last - span, last);
	CU_ASSERT_EQUAL_FATAL(ts_read_file(fixture("unflushed.dat"), &a, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(a.cpus[3]->lost_events, 0);
	ts_analysis_free(&a);
}

/*
 * Every fixture's report accounts for the whole window: busy, idle and the
 * time whose tick or idle state is unknown add up to it, the timeline's
 * unknown spans to that, and no span names a task while the idle state is
 * unknown.  patched.dat's CPU 2 is idle from the start to its first switch
 * at 1.48 s, which the snapshot, read 1.5 s after the start, could not say.
 */
static void test_fixture_unknown_shown(void)
{
	static const char * const files[] = {
		"patched.dat", "patched-v7.dat", "stock.dat", "lost.dat", "patched-trace-cmd.dat",
		"stock-trace-cmd.dat", "unflushed.dat",
	};

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct ts_timeline_iter *it = calloc(1, sizeof(*it));
		uint64_t unknown[TS_MAX_CPUS] = { 0 };
		int named = 0, first2 = 1;
		struct ts_segment seg;
		struct ts_analysis a;
		char err[256];

		ts_analysis_init(&a);
		CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&a), 0);
		CU_ASSERT_EQUAL_FATAL(ts_read_file(fixture(files[f]), &a, err, sizeof(err)), 0);
		while (ts_timeline_next(&a, it, &seg) == 1) {
			if (seg.no_span)
				continue;
			if (seg.tick == TS_TICK_UNKNOWN || seg.idle == TS_IDLE_UNKNOWN)
				unknown[seg.cpu] += seg.end - seg.start;
			named += seg.idle == TS_IDLE_UNKNOWN && seg.task >= 0;
			named += seg.idle == TS_IDLE_IDLE && seg.task != 0;
			named += seg.idle == TS_IDLE_BUSY && seg.task == 0;
			if (f == 0 && seg.cpu == 2 && first2) {
				CU_ASSERT(seg.start == a.win_start && seg.end == a.win_start + 1478562577 &&
					  seg.tick == TS_TICK_STOPPED && seg.idle == TS_IDLE_IDLE &&
					  seg.task == 0);
				first2 = 0;
			}
		}
		CU_ASSERT_EQUAL(named, 0);
		for (int i = 0; i < a.nr_cpus; i++) {
			const struct ts_cpu *c = a.cpus[i];
			struct ts_metrics m;

			if (!c || !c->active)
				continue;
			ts_metrics_of(&a, c, &m);
			CU_ASSERT_EQUAL(m.busy_ns + m.idle_ns + m.state_unknown_ns, m.window_ns);
			CU_ASSERT_EQUAL(unknown[i], m.state_unknown_ns);
			CU_ASSERT_DOUBLE_EQUAL(m.state_unknown_share,
					       (double)m.state_unknown_ns / m.window_ns, 1e-12);
			if (m.state_unknown_ns != unknown[i])
				fprintf(stderr, "%s CPU %d: timeline unknown %" PRIu64 " ns, report %" PRIu64 " ns\n",
					files[f], i, unknown[i], m.state_unknown_ns);
		}
		if (f == 0) {
			struct ts_metrics m;

			ts_metrics_of(&a, a.cpus[2], &m);
			CU_ASSERT_EQUAL(m.state_unknown_ns, 0);
			CU_ASSERT_FALSE(first2);
		}
		free(it);
		ts_analysis_free(&a);
	}
}

/* ---- broken recordings: an error, never a crash ---- */

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	buf = malloc(*len);
	CU_ASSERT_EQUAL(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

static int read_bytes(const unsigned char *buf, size_t len, char *err)
{
	char path[] = "/tmp/tickstat-unit.XXXXXX";
	struct ts_analysis a;
	int fd = mkstemp(path), ret;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL((size_t)write(fd, buf, len), len);
	close(fd);
	ts_analysis_init(&a);
	ret = ts_read_file(path, &a, err, 256);
	ts_analysis_free(&a);
	unlink(path);
	return ret;
}

/* Every cut of a file, tickstat's or trace-cmd's (v7, zstd), is an error with a reason. */
static void test_truncated(void)
{
	static const char * const files[] = { "patched.dat", "patched-trace-cmd.dat" };

	for (int f = 0; f < 2; f++) {
		size_t len;
		unsigned char *buf = slurp(fixture(files[f]), &len);
		char err[256];
		int errors = 0, cuts = 0;

		for (size_t cut = 0; cut < len; cut += 1 + cut / 8, cuts++) {
			if (read_bytes(buf, cut, err))
				errors++;
			else
				fprintf(stderr, "%s cut at %zu of %zu reads\n", files[f], cut, len);
		}
		CU_ASSERT_EQUAL(errors, cuts);
		CU_ASSERT_EQUAL(read_bytes(buf, len, err), 0);
		CU_ASSERT_EQUAL(read_bytes(buf, len - 1, err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "truncated"));
		free(buf);
	}
}

static size_t find_text(const unsigned char *buf, size_t len, const char *what)
{
	size_t n = strlen(what);

	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(buf + i, what, n))
			return i;
	CU_FAIL_FATAL("fixture lacks an expected string");
	return 0;
}

/* A wrong version, a changed page, a changed mark, a removed page. */
static void test_bad_version_and_pages(void)
{
	size_t len, at;
	unsigned char *buf = slurp(fixture("patched.dat"), &len);
	unsigned char *copy = malloc(len);
	char err[256];

	memcpy(copy, buf, len);
	copy[10] = '9';				/* version "9" */
	CU_ASSERT_EQUAL(read_bytes(copy, len, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "version '9'"));

	/* one byte of an event's payload in the last page of CPU 2 */
	memcpy(copy, buf, len);
	at = find_text(copy, len, "tickstat v1 ready");
	copy[at + 20] ^= 1;			/* inside a start mark: "start_ns" */
	CU_ASSERT_EQUAL(read_bytes(copy, len, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "corrupt recording"));

	memcpy(copy, buf, len);
	at = find_text(copy, len, "tickstat v1 done");
	copy[at + 25] ^= 1;			/* the done mark's count or CRC */
	CU_ASSERT_EQUAL(read_bytes(copy, len, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "corrupt recording"));

	memcpy(copy, buf, len);
	at = find_text(copy, len, "tickstat v1 initial");
	memcpy(copy + at + 13, "ended", 5);	/* the snapshot mark is damaged */
	CU_ASSERT_EQUAL(read_bytes(copy, len, err), -1);

	/* an event's field, far from any mark: the page sum finds it */
	memcpy(copy, buf, len);
	at = len - 4096 * 3 + 100;		/* inside one of the last CPU's pages */
	copy[at] ^= 0x10;
	CU_ASSERT_EQUAL(read_bytes(copy, len, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "corrupt recording"));
	free(copy);
	free(buf);
}

/* Random bytes flipped anywhere: the reader must not crash (ASan watches). */
static void test_corrupt_bytes(void)
{
	size_t len;
	unsigned char *buf = slurp(fixture("patched-trace-cmd.dat"), &len);
	unsigned char *copy = malloc(len);
	char err[256];

	srand(1);
	for (int round = 0; round < 200; round++) {
		memcpy(copy, buf, len);
		for (int k = 0; k < 8; k++)
			copy[rand() % len] ^= 1 << (rand() % 8);
		read_bytes(copy, len, err);
	}
	CU_PASS("survived 200 corrupted copies");
	free(copy);
	free(buf);
}

/* The resolver: lines cut anywhere, the nearest symbol below, both tick names. */
static void test_ksym(void)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81100000 t tick_nohz_handler\n"
		"ffffffff81100200 T activate_task\n"
		"ffffffff81100300 d some_data\n"
		"ffffffff81100400 T dequeue_task_fair\n"
		"garbage line\n"
		"ffffffffc0001000 t mod_fn\t[mod]\n";
	struct ts_ksym_query *q = calloc(1, sizeof(*q));
	const struct ts_ksym *s;
	char name[200];

	ts_ksym_query_init(q);
	ts_ksym_want(q, 0xffffffff81100217ULL);
	ts_ksym_want(q, 0xffffffffc0001004ULL);
	ts_ksym_want(q, 0x10);
	for (size_t i = 0; i < sizeof(text) - 1; i += 7)	/* pieces of 7 bytes */
		ts_ksym_feed(q, text + i, sizeof(text) - 1 - i < 7 ? sizeof(text) - 1 - i : 7);
	ts_ksym_end(q);
	CU_ASSERT_EQUAL(q->tick_fn, 0xffffffff81100000ULL);
	CU_ASSERT_STRING_EQUAL(q->tick_name, "tick_nohz_handler");
	s = ts_ksym_get(q, 0xffffffff81100217ULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	ts_ksym_format(s, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "activate_task+0x17");
	CU_ASSERT_STRING_EQUAL(s->next_name, "dequeue_task_fair");	/* data skipped */
	s = ts_ksym_get(q, 0xffffffffc0001004ULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s->name, "mod_fn");
	CU_ASSERT_PTR_NULL(ts_ksym_get(q, 0x10));
	CU_ASSERT_EQUAL(q->bad_lines, 1);
	CU_ASSERT(ts_is_tick_fn_name("tick_sched_timer") && ts_is_tick_fn_name("tick_nohz_handler"));

	/* 6.1 has both names: tick_nohz_handler is its low-res handler there */
	ts_ksym_query_init(q);
	ts_ksym_feed(q, text, 63);		/* up to tick_nohz_handler's line */
	ts_ksym_feed(q, "ffffffff81100100 t tick_sched_timer\n", 36);
	ts_ksym_feed(q, text + 63, sizeof(text) - 1 - 63);
	ts_ksym_end(q);
	CU_ASSERT_STRING_EQUAL(q->tick_name, "tick_sched_timer");
	CU_ASSERT_STRING_EQUAL(q->tick_next_name, "activate_task");
	free(q);
}

int main(int argc, char **argv)
{
	static const struct ts_unit_test tests[] = {
		{ "hist: exact below 8", test_hist_exact_small },
		{ "hist: percentile error within 12.5%", test_hist_error_bound },
		{ "hist: log2 buckets", test_hist_log2 },
		{ "cpuset: parse and format", test_cpuset },
		{ "cpuset: long lists, cut or in pieces", test_cpuset_long },
		{ "decode: the tick's hrtimer by either name", test_decode_tick_names },
		{ "state: patched, two tasks then one", test_patched_two_tasks },
		{ "state: a CPU's state reserved ahead is the same", test_reserved_cpu_state },
		{ "state: stock, restart inferred from a refusal", test_stock_inferred_restart },
		{ "state: stock, idle exit on a housekeeping CPU", test_stock_idle_exit },
		{ "state: lost events make a gap unknown", test_lost_events },
		{ "state: gaps at a time range's edges", test_lost_range_edges },
		{ "state: the overrun counter sizes unsized gaps", test_lost_gaps_sized },
		{ "state: start snapshot", test_snapshot },
		{ "state: start snapshot, stock switch", test_snapshot_stock_switch },
		{ "start: a first switch from idle", test_start_switch_from_idle },
		{ "start: a first switch from a task", test_start_switch_from_busy },
		{ "start: a restart or a refusal first", test_start_restart_first },
		{ "start: a tick interrupt first", test_start_tick_first },
		{ "start: what nothing tells is unknown, and shown", test_start_unknown_shown },
		{ "start: memory bounded while nothing tells", test_start_bounded },
		{ "start: a slow snapshot still holds from the start", test_start_slow_snapshot },
		{ "state: time range", test_range },
		{ "state: time range cut against the data", test_range_cuts },
		{ "state: timeline in time order per CPU", test_timeline_order },
		{ "state: an undecodable record is a lost event", test_bad_record },
		{ "state: co-runners", test_co_runners },
		{ "causes: counts, tick state, time, queued work", test_causes },
		{ "causes: decoded from their events' formats", test_decode_causes },
		{ "decode: v3's tick_dep_sched is v2's reason-change tick_dep_set",
		  test_decode_dep_sched },
		{ "state: SCHED's sub-reasons by time, in any order", test_sched_split },
		{ "marks: a start mark's CPU lists in pieces", test_mark_cpu_list_pieces },
		{ "marks: ticks= limits the CPUs a recording has data of",
		  test_mark_ticks_limit_cover },
		{ "marks: cause types recorded, co-runner quotas", test_mark_causes_quotas },
		{ "pidmap: O(1) quota lookups, bounded, a full map counted", test_pidmap },
		{ "decode: one table lookup routes a record, wide ids none", test_decode_routes },
		{ "decode: a switch at offsets checked once, as field by field",
		  test_decode_switch_fast },
		{ "snapshot: each CPU's tick from /proc/timer_list, read no further",
		  test_timer_list },
		{ "cgroup: one cpu.max reader, the innermost quota", test_cgroup_cpu_max },
		{ "names: SCHED sub-reasons of the 6.1 and 6.12 series", test_sched_names },
		{ "timeline: causes as rows, their exits, split when full", test_timeline_causes },
		{ "marks: quotas the recorder dropped are counted", test_mark_quotas_dropped },
		{ "marks: losses no page marks", test_mark_unplaced },
		{ "pages: their sum by hand, in parts, as text, what it tells", test_page_sum },
		{ "causes: bounded, known per recorder", test_causes_bounded },
		{ "state: unknown values named by number", test_unknown_values },
		{ "check: pass, not applicable, no verdict", test_check },
		{ "check: reason names", test_reason_spec },
		{ "check: --forbid on a stock kernel", test_check_forbid_stock },
		{ "check: --forbid with probes", test_check_forbid_probes },
		{ "check: --max-unknown, tick or idle state", test_check_max_unknown },
		{ "check: nothing to check, or not all of it", test_check_no_data },
		{ "check: the same item twice; the CPUs covered", test_check_forbid_twice },
		{ "parse: numbers", test_parse_numbers },
		{ "parse: durations", test_parse_duration },
		{ "output: JSON pretty-printed", test_json_pretty },
		{ "ringpage: every kind of record and its time", test_ringpage_kinds },
		{ "ringpage: missed events", test_ringpage_missed },
		{ "ringpage: lengths that lie", test_ringpage_lies },
		{ "datwrite: the spool's runs, back in the file", test_spool_round_trip },
		{ "stream: pages whose time goes back", test_time_backwards },
		{ "stream: a loss before a page without records", test_missed_without_records },
		{ "stream: the start mark's boot id", test_mark_boot_id },
		{ "doctor: the audit through the marks and back", test_doctor_marks_round_trip },
		{ "doctor: the marks are bounded", test_doctor_marks_bounded },
		{ "doctor: marks that do not parse", test_doctor_marks_bad },
		{ "doctor: joined with co-runners", test_doctor_join_tasks },
		{ "doctor: the join settled, and again", test_doctor_settled },
		{ "fixture: patched recording", test_fixture_patched },
		{ "fixture: stock recording", test_fixture_stock },
		{ "fixture: a co-runner named by the command lines", test_fixture_named_by_cmdlines },
		{ "fixture: a recording converted to v7 by trace-cmd", test_fixture_converted },
		{ "fixture: trace.dat agrees with the recording", test_fixture_tracedat_agrees },
		{ "fixture: lost events fail the check", test_fixture_lost },
		{ "fixture: trace.dat with unwritten events", test_fixture_unflushed },
		{ "fixture: no hidden unknown time in any report", test_fixture_unknown_shown },
		{ "broken: every truncation is an error", test_truncated },
		{ "broken: version, marks, a page's bytes", test_bad_version_and_pages },
		{ "ksym: streamed kallsyms, the tick's function", test_ksym },
		{ "broken: corrupted bytes do not crash", test_corrupt_bytes },
	};

	if (argc != 2) {
		fprintf(stderr, "usage: unit-tests FIXTURE_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	return ts_unit_run("tickstat", tests, sizeof(tests) / sizeof(tests[0]));
}
