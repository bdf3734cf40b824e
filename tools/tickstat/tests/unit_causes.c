// SPDX-License-Identifier: GPL-2.0
/*
 * unit_causes.c - the x86 vectors and who armed the timers: the recorder's
 * filters, decoding from the guests' own formats (tests/fixtures/formats),
 * the analysis, the outputs, the start mark and the diagnosis.
 *
 * usage: causes-unit-tests FIXTURE_DIR
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "causeout.h"
#include "decode.h"
#include "diagnosis.h"
#include "filter.h"
#include "format.h"
#include "metrics.h"
#include "stream.h"
#include "unit_formats.h"
#include "unit_run.h"
#include "unit_stream.h"

static const char *fixtures;

/* ---- the filters, evaluated as the kernel would ---- */

/*
 * A small evaluator of the filters the builders write: "F == N", "F >= N",
 * "F <= N", "F & N" (true when any bit of N is set: OP_BAND), "!", "&&",
 * "||" and parentheses, with && binding tighter, as trace_events_filter.c
 * parses them.  Any other text is an error (*bad).
 */
struct eval {
	const char *p;
	unsigned long long v;
	int bad;
};

static void skip(struct eval *e)
{
	while (*e->p == ' ')
		e->p++;
}

static int eval_or(struct eval *e);

static int eval_unary(struct eval *e)
{
	unsigned long long n;
	char op[3] = "";
	char *end;

	skip(e);
	if (*e->p == '!' && e->p[1] != '=') {
		e->p++;
		return !eval_unary(e);
	}
	if (*e->p == '(') {
		int r;

		e->p++;
		r = eval_or(e);
		skip(e);
		if (*e->p != ')')
			e->bad = 1;
		else
			e->p++;
		return r;
	}
	while (isalpha((unsigned char)*e->p))
		e->p++;			/* the field: every filter here has one */
	skip(e);
	for (int i = 0; i < 2 && strchr("=<>&", *e->p); i++)
		op[i] = *e->p++;
	skip(e);
	n = strtoull(e->p, &end, 0);
	if (end == e->p)
		e->bad = 1;
	e->p = end;
	if (!strcmp(op, "=="))
		return e->v == n;
	if (!strcmp(op, ">="))
		return e->v >= n;
	if (!strcmp(op, "<="))
		return e->v <= n;
	if (!strcmp(op, "&"))
		return !!(e->v & n);
	e->bad = 1;
	return 0;
}

static int eval_and(struct eval *e)
{
	int r = eval_unary(e);

	for (skip(e); !strncmp(e->p, "&&", 2); skip(e)) {
		e->p += 2;
		r = eval_unary(e) && r;
	}
	return r;
}

static int eval_or(struct eval *e)
{
	int r = eval_and(e);

	for (skip(e); !strncmp(e->p, "||", 2); skip(e)) {
		e->p += 2;
		r = eval_and(e) || r;
	}
	return r;
}

/* Does filter pass value v?  -1 when it does not parse. */
static int eval(const char *filter, unsigned long long v)
{
	struct eval e = { .p = filter, .v = v };
	int r = eval_or(&e);

	skip(&e);
	return e.bad || *e.p ? -1 : r;
}

/*
 * The timer_start filter passes exactly the timers whose flags name a CPU
 * of the set, whatever the flag bits above TIMER_CPUMASK (migrating,
 * deferrable, pinned, irqsafe, the wheel's index), for sets of every
 * shape: one CPU, CPU 0, ranges, scattered, the last CPUs, all of them up
 * to a power of two; the CPU filter passes exactly the set's CPUs.
 */
static void test_filters(void)
{
	static const char * const sets[] = {
		"1-3", "0", "1", "2", "0-3", "1-7", "5", "3-1023", "0-1023", "1,3,5", "2-5,9,12-13",
		"1023", "511-512", "0,2,4,6,8,10,12,14", "1-2,4-6,63-64,100",
	};
	static const unsigned int high[] = { 0, 0x40000, 0x100000, 0x200000 | 7u << 22,
					     0x80000 | 1023u << 22 };
	char buf[4096];
	struct ts_cpuset set;

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		int wrong = 0, bad = 0;

		CU_ASSERT_EQUAL_FATAL(ts_cpuset_parse(&set, sets[i]), 0);
		CU_ASSERT_EQUAL_FATAL(ts_filter_timer_target(&set, buf, sizeof(buf)), 0);
		CU_ASSERT(strlen(buf) < 4096);	/* the kernel's limit: a page */
		for (unsigned int cpu = 0; cpu < 2048; cpu++)
			for (size_t h = 0; h < sizeof(high) / sizeof(high[0]); h++) {
				int r = eval(buf, cpu | high[h]);

				bad += r < 0;
				wrong += r != ts_cpuset_has(&set, (int)cpu);
			}
		/* a CPU number only the mask's last bits hold */
		wrong += eval(buf, TS_TIMER_CPUMASK) != 0;
		if (wrong || bad)
			fprintf(stderr, "set %s: filter %s: %d wrong, %d bad\n", sets[i], buf, wrong,
				bad);
		CU_ASSERT_EQUAL(wrong, 0);
		CU_ASSERT_EQUAL(bad, 0);

		CU_ASSERT_EQUAL_FATAL(ts_filter_cpus(&set, "CPU", buf, sizeof(buf)), 0);
		wrong = 0;
		for (unsigned int cpu = 0; cpu < 1100; cpu++)
			wrong += eval(buf, cpu) != ts_cpuset_has(&set, (int)cpu);
		CU_ASSERT_EQUAL(wrong, 0);
	}
	/* nothing to pass, or no room: an error, never a filter that passes all */
	memset(&set, 0, sizeof(set));
	CU_ASSERT_EQUAL(ts_filter_timer_target(&set, buf, sizeof(buf)), -1);
	CU_ASSERT_EQUAL(ts_filter_cpus(&set, "CPU", buf, sizeof(buf)), -1);
	CU_ASSERT_EQUAL(ts_cpuset_parse(&set, "1,3,5"), 0);
	CU_ASSERT_EQUAL(ts_filter_timer_target(&set, buf, 40), -1);
	/* the measured guest's: CPUs 1-3 of 4 */
	CU_ASSERT_EQUAL(ts_cpuset_parse(&set, "1-3"), 0);
	CU_ASSERT_EQUAL(ts_filter_timer_target(&set, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "!(flags & 262140) && ((flags & 1 && !(flags & 2)) || (flags & 2))");
}

/* ---- decoding, from the guests' formats ---- */

/* Parse the guest's format of system/name (tests/fixtures/formats/VERSION); its id */
static int guest_format(struct tep_handle *tep, const char *version, const char *system,
			const char *name)
{
	char path[512], *text, *clean;
	struct tep_event *ev;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/formats/%s/%s/%s", fixtures, version, system, name);
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	text = calloc(1, 16384);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	len = fread(text, 1, 16383, f);
	fclose(f);
	clean = ts_format_clean(text, len, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(clean);
	CU_ASSERT_EQUAL(tep_parse_event(tep, clean, strlen(clean), system), 0);
	free(clean);
	free(text);
	ev = tep_find_event_by_name(tep, system, name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	return ev->id;
}

/* tick_stop, which the decoder needs first, under an id none of the guests' formats has */
static void tick_stop(struct tep_handle *tep)
{
	char fmt[sizeof(tick_stop_fmt) + 8];

	snprintf(fmt, sizeof(fmt), "name: tick_stop\nID: 9999\n%s", strstr(tick_stop_fmt, "format:"));
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, fmt, strlen(fmt), "timer"), 0);
}

static const char * const vectors[] = {
	"local_timer", "reschedule", "call_function", "call_function_single", "irq_work",
	"x86_platform_ipi", "spurious_apic", "error_apic", "thermal_apic", "threshold_apic",
	"deferred_error_apic",
};

/* A record: id, common_flags, pid, then the payload at offset 8 */
static struct tep_record *record(unsigned char *buf, int size, int id, int flags, int cpu)
{
	static struct tep_record rec;

	memset(buf, 0, size);
	buf[0] = id & 0xff;
	buf[1] = id >> 8;
	buf[2] = flags;
	buf[4] = 42;			/* common_pid */
	rec = (struct tep_record){ .ts = 5000, .cpu = cpu, .data = buf, .size = size };
	return &rec;
}

/*
 * Each kernel's formats: every vector kind decodes by its kind, its exit
 * pairs by the vector number; timer_start names the CPU its flags carry
 * (6.12 moved flags past bucket_expiry), its common_flags say interrupt
 * context; hrtimer_start names the CPU it is on, and the tick's own is no
 * event of ours; a record short for its format is bad.
 */
static void test_decode(void)
{
	static const char * const versions[] = { "6.1", "6.12" };
	static const unsigned long long tick = 0xffffffff81100000ULL, fn = 0xffffffff81200000ULL;

	for (size_t v = 0; v < sizeof(versions) / sizeof(versions[0]); v++) {
		struct tep_handle *tep = tep_alloc();
		int id[TS_NR_VECTORS][2], tstart, hstart, flags_at;
		unsigned long long timer = 0xffff888000300000ULL;
		unsigned char buf[64];
		struct ts_decoder d = { .tick_fn = tick };
		struct tep_record *rec;
		struct ts_event ev;
		struct ts_caps caps;
		unsigned int flags;

		tick_stop(tep);
		for (int k = 0; k < TS_NR_VECTORS; k++)
			for (int x = 0; x < 2; x++) {
				char name[64];

				snprintf(name, sizeof(name), "%s_%s", vectors[k], x ? "exit" : "entry");
				id[k][x] = guest_format(tep, versions[v], "irq_vectors", name);
			}
		guest_format(tep, versions[v], "timer", "hrtimer_expire_entry");
		guest_format(tep, versions[v], "timer", "hrtimer_expire_exit");
		guest_format(tep, versions[v], "timer", "timer_expire_entry");
		guest_format(tep, versions[v], "timer", "timer_expire_exit");
		tstart = guest_format(tep, versions[v], "timer", "timer_start");
		hstart = guest_format(tep, versions[v], "timer", "hrtimer_start");
		d.tick_fn = tick;
		CU_ASSERT_EQUAL_FATAL(ts_decoder_init(&d, tep, &caps), 0);
		CU_ASSERT_EQUAL(caps.vectors, (1u << TS_NR_VECTORS) - 1);
		CU_ASSERT(caps.causes & (1u << TS_CAUSE_VECTOR));
		CU_ASSERT(caps.cause_exits & (1u << TS_CAUSE_VECTOR));
		CU_ASSERT_EQUAL(caps.armers, 1u << TS_CAUSE_TIMER | 1u << TS_CAUSE_HRTIMER);

		for (int k = 0; k < TS_NR_VECTORS; k++)
			for (int x = 0; x < 2; x++) {
				int n = 0xf0 + k;

				rec = record(buf, 12, id[k][x], 0x08, 3);
				memcpy(buf + 8, &n, 4);
				CU_ASSERT_EQUAL_FATAL(ts_decode(&d, rec, &ev), 1);
				CU_ASSERT_EQUAL(ev.kind, TS_EV_CAUSE);
				CU_ASSERT_EQUAL(ev.cause.type, TS_CAUSE_VECTOR);
				CU_ASSERT_EQUAL(ev.cause.key, (uint64_t)k);
				CU_ASSERT_EQUAL(ev.cause.inst, (uint64_t)n);
				CU_ASSERT_EQUAL(ev.cause.exit, x);
				CU_ASSERT_EQUAL(ev.cpu, 3);
				rec->size = 10;		/* the vector lies past the record */
				CU_ASSERT_EQUAL(ts_decode(&d, rec, &ev), -1);
			}

		/* timer_start on CPU 0 for CPU 5: pinned, wheel index 3; in a softirq */
		flags_at = !strcmp(versions[v], "6.1") ? 40 : 48;
		rec = record(buf, flags_at + 4, tstart, 0x10, 0);
		memcpy(buf + 8, &timer, 8);
		memcpy(buf + 16, &fn, 8);
		flags = 0x00100000 | 3u << 22 | 5;
		memcpy(buf + flags_at, &flags, 4);
		CU_ASSERT_EQUAL_FATAL(ts_decode(&d, rec, &ev), 1);
		CU_ASSERT_EQUAL(ev.kind, TS_EV_ARM);
		CU_ASSERT_EQUAL(ev.arm.type, TS_CAUSE_TIMER);
		CU_ASSERT_EQUAL(ev.arm.function, fn);
		CU_ASSERT_EQUAL(ev.arm.inst, timer);
		CU_ASSERT_EQUAL(ev.arm.target, 5);
		CU_ASSERT_EQUAL(ev.arm.in_irq, 1);
		CU_ASSERT_EQUAL(ev.pid, 42);
		CU_ASSERT_EQUAL(ev.cpu, 0);
		rec->size = flags_at + 2;	/* the flags cut */
		CU_ASSERT_EQUAL(ts_decode(&d, rec, &ev), -1);

		/* hrtimer_start on CPU 2, in a task; the tick's is no event */
		rec = record(buf, 48, hstart, 0, 2);
		memcpy(buf + 8, &timer, 8);
		memcpy(buf + 16, &fn, 8);
		CU_ASSERT_EQUAL_FATAL(ts_decode(&d, rec, &ev), 1);
		CU_ASSERT_EQUAL(ev.kind, TS_EV_ARM);
		CU_ASSERT_EQUAL(ev.arm.type, TS_CAUSE_HRTIMER);
		CU_ASSERT_EQUAL(ev.arm.target, 2);
		CU_ASSERT_EQUAL(ev.arm.in_irq, 0);
		memcpy(buf + 16, &tick, 8);
		CU_ASSERT_EQUAL(ts_decode(&d, rec, &ev), 0);
		CU_ASSERT_EQUAL(d.bad_records, TS_NR_VECTORS * 2 + 1);
		tep_free(tep);
	}
}

/*
 * What a source lacks is unknown: a kernel without some vector kinds (a
 * configuration without MCE or thermal vectors) counts the others; without
 * any, the type is unknown; without the expiries of a timer type, who armed
 * it is of no use and unknown; without the tick's function, hrtimers and
 * their armers are.
 */
static void test_decode_partial(void)
{
	struct tep_handle *tep = tep_alloc();
	struct ts_decoder d = { .tick_fn = 0 };
	struct ts_caps caps;

	tick_stop(tep);
	guest_format(tep, "6.1", "irq_vectors", "reschedule_entry");
	guest_format(tep, "6.1", "irq_vectors", "reschedule_exit");
	guest_format(tep, "6.1", "irq_vectors", "call_function_single_entry");
	guest_format(tep, "6.1", "timer", "timer_start");
	guest_format(tep, "6.1", "timer", "hrtimer_start");
	guest_format(tep, "6.1", "timer", "hrtimer_expire_entry");
	CU_ASSERT_EQUAL_FATAL(ts_decoder_init(&d, tep, &caps), 0);
	CU_ASSERT_EQUAL(caps.vectors, 1u << TS_VEC_RESCHEDULE | 1u << TS_VEC_CALL_FUNCTION_SINGLE);
	CU_ASSERT(caps.causes & (1u << TS_CAUSE_VECTOR));
	/* call_function_single has no exit here: the kinds are counted, not timed */
	CU_ASSERT_FALSE(caps.cause_exits & (1u << TS_CAUSE_VECTOR));
	CU_ASSERT_EQUAL(caps.armers, 0);
	tep_free(tep);

	tep = tep_alloc();
	tick_stop(tep);
	guest_format(tep, "6.12", "timer", "timer_expire_entry");
	guest_format(tep, "6.12", "timer", "timer_start");
	CU_ASSERT_EQUAL_FATAL(ts_decoder_init(&d, tep, &caps), 0);
	CU_ASSERT_FALSE(caps.causes & (1u << TS_CAUSE_VECTOR));
	CU_ASSERT_EQUAL(caps.vectors, 0);
	CU_ASSERT_EQUAL(caps.armers, 1u << TS_CAUSE_TIMER);
	tep_free(tep);
}

/* ---- the analysis ---- */

static void arm(int cpu, uint64_t ts, int type, uint64_t fn, uint64_t inst, int target, int irq)
{
	feed(&(struct ts_event){ .kind = TS_EV_ARM, .cpu = cpu, .ts = ts, .pid = task[cpu],
				 .arm = { .type = type, .function = fn, .inst = inst,
					  .target = target, .in_irq = irq } });
}

static void queue(int cpu, uint64_t ts, uint64_t fn, int target, int irq)
{
	feed(&(struct ts_event){ .kind = TS_EV_QUEUE, .cpu = cpu, .ts = ts, .pid = task[cpu],
				 .queue = { .function = fn, .target = target, .in_irq = irq } });
}

static void cause(int cpu, uint64_t ts, int type, int exit, uint64_t key, uint64_t inst)
{
	feed(&(struct ts_event){ .kind = TS_EV_CAUSE, .cpu = cpu, .ts = ts, .pid = task[cpu],
				 .cause = { .type = type, .exit = exit, .key = key, .inst = inst } });
}

static const struct ts_cause *find(int cpu, int type, uint64_t key)
{
	const struct ts_cpu *c = an.cpus[cpu];

	for (int i = 0; c && i < c->nr_causes; i++)
		if (c->causes[i].type == type && c->causes[i].key == key)
			return &c->causes[i];
	return NULL;
}

/* The armers as the reports show them: "name:count,..." */
static const char *armers(const struct ts_cause *k)
{
	static char buf[512];
	struct ts_armer by[TS_MAX_ARMERS];
	int n = ts_armers_of(&an, k, by);
	size_t used = 0;
	char name[128];

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		ts_armer_name(&an, &by[i], name, sizeof(name));
		used += snprintf(buf + used, sizeof(buf) - used, "%s%s:%llu", i ? "," : "", name,
				 (unsigned long long)by[i].count);
	}
	return buf;
}

/*
 * The vectors: counted by kind, while the tick was stopped or ran, timed
 * by the exit of the same vector number; named by kind.
 */
static void test_vectors(void)
{
	const struct ts_cause *k;
	char name[64];

	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	task[1] = 66;
	for (int i = 0; i < 3; i++) {
		cause(1, (10 + i) * MS, TS_CAUSE_VECTOR, 0, TS_VEC_RESCHEDULE, 0xfd);
		/* an IPI nested in it: paired by its own number */
		cause(1, (10 + i) * MS + 500, TS_CAUSE_VECTOR, 0, TS_VEC_IRQ_WORK, 0xf6);
		cause(1, (10 + i) * MS + 700, TS_CAUSE_VECTOR, 1, TS_VEC_IRQ_WORK, 0xf6);
		cause(1, (10 + i) * MS + 1000, TS_CAUSE_VECTOR, 1, TS_VEC_RESCHEDULE, 0xfd);
	}
	ts_analysis_finish(&an, 1 * S);
	k = find(1, TS_CAUSE_VECTOR, TS_VEC_RESCHEDULE);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->count, 3);
	CU_ASSERT_EQUAL(k->stopped, 3);
	CU_ASSERT_EQUAL(k->timed, 3);
	CU_ASSERT_EQUAL(k->time_ns, 3000);
	ts_cause_name(&an, k, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "reschedule");
	k = find(1, TS_CAUSE_VECTOR, TS_VEC_IRQ_WORK);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->time_ns, 600);
	CU_ASSERT_EQUAL(ts_analysis_vectors_known(&an), (1u << TS_NR_VECTORS) - 1);
	/* a recording made without vectors: no kind is known */
	ts_analysis_set_causes_recorded(&an, 1 << TS_CAUSE_IRQ);
	CU_ASSERT_EQUAL(ts_analysis_vectors_known(&an), 0);
	ts_analysis_free(&an);
}

/*
 * Who armed a timer: the arming counts on the CPU it fires on, from any
 * CPU (add_timer_on() from CPU 0), before or after that CPU's events are
 * read (a file is read CPU by CPU); a timer that re-arms itself in its
 * callback, an hrtimer restarted right after its exit (HRTIMER_RESTART);
 * armed in a softirq, in a work item (task context), in interrupt context
 * with no cause traced there; the tick's own is not decoded at all.
 */
static void test_armers(void)
{
	const struct ts_cause *k;

	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	ts_analysis_set_initial(&an, 2, TS_TICK_STOPPED, TS_IDLE_BUSY);
	switch_to(2, 1 * MS, 66, "app");
	/* CPU 2's expiries first: the timer fires 3 times, re-arming itself twice */
	for (int i = 0; i < 3; i++) {
		uint64_t t = (100 + 10 * i) * MS;

		cause(2, t, TS_CAUSE_TIMER, 0, 0xf1, 0xa0);
		if (i < 2)
			arm(2, t + 100, TS_CAUSE_TIMER, 0xf1, 0xa0, 2, 1);
		cause(2, t + 200, TS_CAUSE_TIMER, 1, 0, 0xa0);
	}
	/* an hrtimer restarted after its exit, twice; then armed from an interrupt */
	for (int i = 0; i < 2; i++) {
		uint64_t t = (200 + 10 * i) * MS;

		cause(2, t, TS_CAUSE_HRTIMER, 0, 0xf2, 0xb0);
		cause(2, t + 100, TS_CAUSE_HRTIMER, 1, 0, 0xb0);
		arm(2, t + 200, TS_CAUSE_HRTIMER, 0xf2, 0xb0, 2, 1);
	}
	cause(2, 300 * MS, TS_CAUSE_VECTOR, 0, TS_VEC_CALL_FUNCTION_SINGLE, 0xfb);
	cause(2, 300 * MS + 100, TS_CAUSE_VECTOR, 1, TS_VEC_CALL_FUNCTION_SINGLE, 0xfb);
	arm(2, 300 * MS + 200, TS_CAUSE_HRTIMER, 0xf2, 0xb0, 2, 1);	/* not right after its exit */
	/* another timer armed in the TIMER softirq, and one in a work item */
	cause(2, 400 * MS, TS_CAUSE_SOFTIRQ, 0, 1, 1);
	arm(2, 400 * MS + 100, TS_CAUSE_TIMER, 0xf3, 0xa1, 2, 1);
	cause(2, 400 * MS + 200, TS_CAUSE_SOFTIRQ, 1, 0, 1);
	cause(2, 500 * MS, TS_CAUSE_WORK, 0, 0xf4, 0xc0);
	arm(2, 500 * MS + 100, TS_CAUSE_TIMER, 0xf3, 0xa1, 2, 0);
	cause(2, 500 * MS + 200, TS_CAUSE_WORK, 1, 0, 0xc0);
	/* then CPU 0's: the first arming of the timer, by ctl, for CPU 2 */
	switch_to(0, 1 * MS, 70, "ctl");
	arm(0, 50 * MS, TS_CAUSE_TIMER, 0xf1, 0xa0, 2, 0);
	/* for CPU 5, which the source does not cover: left out */
	arm(0, 60 * MS, TS_CAUSE_TIMER, 0xf1, 0xa9, 5, 0);
	ts_analysis_finish(&an, 1 * S);

	k = find(2, TS_CAUSE_TIMER, 0xf1);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->count, 3);
	CU_ASSERT_EQUAL(k->armed, 3);
	CU_ASSERT_STRING_EQUAL(armers(k), "itself:2,ctl(70)@0:1");
	k = find(2, TS_CAUSE_HRTIMER, 0xf2);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->armed, 3);
	CU_ASSERT_STRING_EQUAL(armers(k), "itself:2,interrupt@2:1");
	k = find(2, TS_CAUSE_TIMER, 0xf3);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->count, 0);		/* armed, never fired */
	CU_ASSERT_STRING_EQUAL(armers(k), "softirq TIMER@2:1,work 0xf4@2:1");
	CU_ASSERT_PTR_NULL(an.cpus[5]);
	CU_ASSERT_EQUAL(ts_analysis_armers_known(&an), 1u << TS_CAUSE_TIMER | 1u << TS_CAUSE_HRTIMER);
	ts_analysis_set_armers_recorded(&an, 0);	/* a tickstat before armers */
	CU_ASSERT_EQUAL(ts_analysis_armers_known(&an), 0);
	ts_analysis_free(&an);
}

/*
 * Tasks arm under their name (a shell's children: one armer, by the name
 * the trace last gave them, the pid of most armings), the first few armers
 * are kept and the rest summed; a work item whose exit is not traced is no
 * context (it would stay open for good).
 */
static void test_armers_bounded(void)
{
	const struct ts_cause *k;
	uint64_t t = 10 * MS;

	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	/* 3 children of sh: armed as "sh", renamed usleep at their switch out */
	for (int pid = 100; pid < 103; pid++) {
		switch_to(1, t, pid, "sh");
		arm(1, t + 100, TS_CAUSE_HRTIMER, 0xf5, 0xd0, 1, 0);
		feed(&(struct ts_event){ .kind = TS_EV_SWITCH, .cpu = 1, .ts = t + 200, .pid = pid,
					 .sw = { .prev_pid = pid, .next_pid = 0,
						 .prev_comm = "usleep", .next_comm = "swapper/1" } });
		task[1] = 0;
		t += MS;
	}
	/* one that ran under its new name already */
	switch_to(1, t, 103, "usleep");
	arm(1, t + 100, TS_CAUSE_HRTIMER, 0xf5, 0xd0, 1, 0);
	/* 5 tasks of other names: 2 more armers fill the 4, 3 are summed */
	for (int pid = 200; pid < 205; pid++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "app%d", pid);
		switch_to(1, t + MS, pid, comm);
		arm(1, t + MS + 100, TS_CAUSE_HRTIMER, 0xf5, 0xd0, 1, 0);
		t += MS;
	}
	ts_analysis_finish(&an, 1 * S);
	k = find(1, TS_CAUSE_HRTIMER, 0xf5);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(k->armed, 9);
	CU_ASSERT_EQUAL(k->nr_armers, TS_MAX_ARMERS);
	CU_ASSERT_EQUAL(k->armers_other, 3);
	/* "sh" (3, the last pid 102) and "usleep" (1) are usleep now: one, the pid of most */
	CU_ASSERT_STRING_EQUAL(armers(k), "usleep(102)@1:4,app200(200)@1:1,app201(201)@1:1");

	ts_analysis_free(&an);

	/* work not timed: no context */
	stream_start(0, 1, 1);
	an.caps.cause_exits &= ~(1u << TS_CAUSE_WORK);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	switch_to(1, 1 * MS, 40, "kworker/1:1");
	cause(1, 2 * MS, TS_CAUSE_WORK, 0, 0xf4, 0xc0);
	arm(1, 3 * MS, TS_CAUSE_TIMER, 0xf3, 0xa1, 1, 0);
	ts_analysis_finish(&an, 1 * S);
	k = find(1, TS_CAUSE_TIMER, 0xf3);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_STRING_EQUAL(armers(k), "kworker/1:1(40)@1:1");
	ts_analysis_free(&an);
}

/* ---- the outputs ---- */

static char *capture_json(const struct ts_cpu *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ts_json_causes(f, &an, c);
	fclose(f);
	return buf;
}

static char *capture_table(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ts_table_causes(f, &an, 20);
	fclose(f);
	return buf;
}

/*
 * The JSON's armed, armed_by and armed_by_other, null when unknown; a
 * vector's row; the vector kinds the source lacks; the table's by column
 * and its unknown lines.
 */
static void test_outputs(void)
{
	char *j, *t;

	stream_start(0, 1, 1);
	an.caps.vectors &= ~(1u << TS_VEC_THERMAL_APIC);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	switch_to(0, 1 * MS, 70, "ctl");
	arm(0, 5 * MS, TS_CAUSE_TIMER, 0xf1, 0xa0, 1, 0);
	cause(1, 10 * MS, TS_CAUSE_TIMER, 0, 0xf1, 0xa0);
	arm(1, 10 * MS + 100, TS_CAUSE_TIMER, 0xf1, 0xa0, 1, 1);
	cause(1, 10 * MS + 200, TS_CAUSE_TIMER, 1, 0, 0xa0);
	cause(1, 20 * MS, TS_CAUSE_VECTOR, 0, TS_VEC_RESCHEDULE, 0xfd);
	cause(1, 20 * MS + 100, TS_CAUSE_VECTOR, 1, TS_VEC_RESCHEDULE, 0xfd);
	/* work queued by ctl, and work queued in an interrupt that hit ctl */
	queue(0, 30 * MS, 0xe1, 1, 0);
	cause(1, 31 * MS, TS_CAUSE_WORK, 0, 0xe1, 0xb0);
	cause(1, 31 * MS + 100, TS_CAUSE_WORK, 1, 0, 0xb0);
	queue(0, 40 * MS, 0xe2, 1, 1);
	cause(1, 41 * MS, TS_CAUSE_WORK, 0, 0xe2, 0xb1);
	cause(1, 41 * MS + 100, TS_CAUSE_WORK, 1, 0, 0xb1);
	ts_analysis_finish(&an, 1 * S);
	ts_caller_set(&an, 0xf1, "ctl_timer_fn");
	ts_caller_set(&an, 0xe1, "ctl_work_fn");
	ts_caller_set(&an, 0xe2, "irq_work_fn");

	j = capture_json(an.cpus[1]);
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "{\"name\":\"ctl_timer_fn\",\"address\":\"0xf1\",\"count\":1,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"armed\":2,\"armed_by\":[{\"context\":\"task\",\"cpu\":0,"
				      "\"count\":1,\"pid\":70,\"comm\":\"ctl\"},{\"context\":\"itself\","
				      "\"cpu\":1,\"count\":1}],\"armed_by_other\":0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "{\"name\":\"reschedule\",\"row\":\"RES\",\"count\":1,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"unknown_kinds\":[\"thermal_apic\"]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"queued\":1,\"queued_by\":{\"context\":\"task\","
				      "\"pid\":70,\"comm\":\"ctl\",\"cpu\":0}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"queued\":1,\"queued_by\":{\"context\":\"interrupt\","
				      "\"pid\":null,\"comm\":null,\"cpu\":0}"));
	free(j);
	t = capture_table();
	CU_ASSERT_PTR_NOT_NULL(strstr(t, " ctl(70)@0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, " interrupt@0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "# unknown: vector kinds thermal_apic: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, " ctl_timer_fn "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "       2 ctl(70)@0 (1), itself (1)\n"));
	CU_ASSERT_PTR_NULL(strstr(t, "who armed"));
	free(t);

	/* a recording of a tickstat before armers and vectors */
	ts_analysis_set_armers_recorded(&an, 0);
	ts_analysis_set_causes_recorded(&an, 1 << TS_CAUSE_TIMER);
	j = capture_json(an.cpus[1]);
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"armed\":null,\"armed_by\":null,\"armed_by_other\":null"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"vector\":null"));
	free(j);
	t = capture_table();
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "# unknown: who armed the timers: the recording was made without them"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, ", vector causes: the recording was made without causes"));
	CU_ASSERT_PTR_NULL(strstr(t, "ctl(70)@0"));	/* no armers where they are unknown */
	free(t);
	ts_analysis_free(&an);
}

/* ---- the start mark ---- */

/*
 * armers=: the types whose arming the recorder traced; a start mark
 * without it is a tickstat's before armers (none known); one split in two
 * marks keeps what its first part said (causes and armers); a source with
 * no mark is not a recording (-1: its formats tell).
 */
static void test_marks(void)
{
	static const struct {
		const char *marks[2];
		int causes, armers;
	} cases[] = {
		{ { " causes=timer,hrtimer,vector armers=timer,hrtimer", NULL },
		  1 << TS_CAUSE_TIMER | 1 << TS_CAUSE_HRTIMER | 1 << TS_CAUSE_VECTOR,
		  1 << TS_CAUSE_TIMER | 1 << TS_CAUSE_HRTIMER },
		{ { " causes=timer armers=none", NULL }, 1 << TS_CAUSE_TIMER, 0 },
		{ { " causes=timer armers=hrtimer,newer", NULL }, 1 << TS_CAUSE_TIMER,
		  1 << TS_CAUSE_HRTIMER },
		{ { " causes=timer", NULL }, 1 << TS_CAUSE_TIMER, 0 },
		{ { " causes=timer armers=timer", " nohz_full=1-3" }, 1 << TS_CAUSE_TIMER,
		  1 << TS_CAUSE_TIMER },
		{ { " nohz_full=1-3", " causes=timer armers=timer" }, 1 << TS_CAUSE_TIMER,
		  1 << TS_CAUSE_TIMER },
	};
	char mark[256];
	struct ts_stream st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ts_analysis_init(&an);
		CU_ASSERT_EQUAL_FATAL(ts_stream_init(&st, &an, 4096, 8), 0);
		CU_ASSERT_EQUAL(an.armers_recorded, -1);
		for (int m = 0; m < 2 && cases[i].marks[m]; m++) {
			snprintf(mark, sizeof(mark), TS_MARK_PREFIX "start: cpus=0-3 monitored=1-3%s",
				 cases[i].marks[m]);
			CU_ASSERT_EQUAL(ts_stream_mark(&st, 0, mark, strlen(mark)), 0);
		}
		CU_ASSERT_EQUAL(an.causes_recorded, cases[i].causes);
		CU_ASSERT_EQUAL(an.armers_recorded, cases[i].armers);
		ts_stream_free(&st);
		ts_analysis_free(&an);
	}
}

/* ---- the diagnosis ---- */

/*
 * A tickless CPU: IPIs at 100 a second or more are an IPI storm, named
 * with their kind's remedy and cookbook row; the local APIC timer's vector
 * carries the timers, and is named only when no timer is; a timer is named
 * with who armed it, and that it re-arms itself.
 */
static void test_diagnosis(void)
{
	struct ts_diagnosis d;

	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	task[1] = 66;
	for (int i = 0; i < 150; i++) {
		cause(1, (10 + 6 * i) * MS, TS_CAUSE_VECTOR, 0, TS_VEC_LOCAL_TIMER, 0xec);
		cause(1, (10 + 6 * i) * MS + 100, TS_CAUSE_VECTOR, 1, TS_VEC_LOCAL_TIMER, 0xec);
		cause(1, (11 + 6 * i) * MS, TS_CAUSE_VECTOR, 0, TS_VEC_RESCHEDULE, 0xfd);
		cause(1, (11 + 6 * i) * MS + 100, TS_CAUSE_VECTOR, 1, TS_VEC_RESCHEDULE, 0xfd);
	}
	ts_analysis_finish(&an, 1 * S);
	ts_diagnose(&an, an.cpus[1], &d);
	CU_ASSERT_STRING_EQUAL(d.cause, "vector");
	CU_ASSERT_STRING_EQUAL(d.anchor, "cause-vector-reschedule");
	CU_ASSERT_PTR_NOT_NULL(strstr(d.line, "interrupted 150 times by IPI reschedule while tickless "
					      "(an IPI storm: 150 a second): keep what wakes tasks"));
	ts_analysis_free(&an);

	/* 50 IPIs a second: no storm; a timer, armed remotely, re-arming itself */
	stream_start(0, 1, 1);
	ts_analysis_set_initial(&an, 1, TS_TICK_STOPPED, TS_IDLE_BUSY);
	task[1] = 66;
	switch_to(0, 1 * MS, 70, "ctl");
	arm(0, 2 * MS, TS_CAUSE_TIMER, 0xf1, 0xa0, 1, 0);
	for (int i = 0; i < 60; i++) {
		uint64_t t = (10 + 15 * i) * MS;

		cause(1, t, TS_CAUSE_VECTOR, 0, TS_VEC_LOCAL_TIMER, 0xec);
		cause(1, t + 100, TS_CAUSE_TIMER, 0, 0xf1, 0xa0);
		arm(1, t + 200, TS_CAUSE_TIMER, 0xf1, 0xa0, 1, 1);
		cause(1, t + 300, TS_CAUSE_TIMER, 1, 0, 0xa0);
		cause(1, t + 400, TS_CAUSE_VECTOR, 1, TS_VEC_LOCAL_TIMER, 0xec);
		if (i < 50) {
			cause(1, t + MS, TS_CAUSE_VECTOR, 0, TS_VEC_CALL_FUNCTION, 0xfc);
			cause(1, t + MS + 100, TS_CAUSE_VECTOR, 1, TS_VEC_CALL_FUNCTION, 0xfc);
		}
	}
	ts_analysis_finish(&an, 1 * S);
	ts_caller_set(&an, 0xf1, "ctl_timer_fn");
	ts_diagnose(&an, an.cpus[1], &d);
	CU_ASSERT_STRING_EQUAL(d.cause, "timer");
	CU_ASSERT_PTR_NOT_NULL(strstr(d.line, "interrupted 60 times by timer ctl_timer_fn while "
					      "tickless, armed by ctl(70)@0 (1 of 61 armings); it "
					      "re-arms itself: "));
	CU_ASSERT_PTR_NULL(strstr(d.line, "storm"));
	ts_analysis_free(&an);
}

int main(int argc, char **argv)
{
	static const struct ts_unit_test tests[] = {
		{ "filters: timer_start's target and the CPU, as the kernel evaluates them",
		  test_filters },
		{ "decode: vectors and armings from the 6.1 and 6.12 guests' formats", test_decode },
		{ "decode: what a source lacks is unknown", test_decode_partial },
		{ "vectors: by kind, timed by their number", test_vectors },
		{ "armers: remote, itself, restarted, in a cause, in an interrupt", test_armers },
		{ "armers: by name, bounded, no context without exits", test_armers_bounded },
		{ "outputs: armed_by, unknown kinds, the table", test_outputs },
		{ "marks: armers= and a start mark in parts", test_marks },
		{ "diagnosis: IPI storms and a timer's armer", test_diagnosis },
	};

	if (argc != 2) {
		fprintf(stderr, "usage: causes-unit-tests FIXTURE_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	return ts_unit_run("causes", tests, sizeof(tests) / sizeof(tests[0]));
}
