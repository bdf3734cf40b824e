// SPDX-License-Identifier: GPL-2.0
/*
 * probe_unit.c - host-side unit tests (CUnit) of the idle-entry refusals
 * that tickstat reads from its probes on can_stop_idle_tick() (probedec.c):
 * the reason of each refusal, in the kernel's order, and one refusal per
 * idle period when a cpuidle governor asks first.  The guests have no
 * cpuidle driver, so the governor's path is tested here only.
 *
 * usage: probe-unit-tests
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "analysis.h"
#include "decode.h"
#include "unit_run.h"
#include "unit_formats.h"

#define SLEEP_LENGTH	0xffffffff81000000ULL	/* tick_nohz_get_sleep_length() */
#define STOP_PATH	0xffffffff81000400ULL	/* __tick_nohz_idle_stop_tick() */

enum { NEED_RESCHED = 8, SOFTIRQ, TIMEKEEPING, NO_TIMEKEEPER = 6, NOHZ_INACTIVE = 7 };

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n" \
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"

/* As the kernel writes a kprobe event's format: the fetch args packed. */
static const char check_fmt[] =
	"name: idle_check\nID: 50\nformat:\n" COMMON
	"\tfield:s32 cpu;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 caller;\toffset:20;\tsize:8;\tsigned:0;\n"
	"\tfield:s32 mode;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:s64 entry;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:u64 tif;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:u16 softirq;\toffset:48;\tsize:2;\tsigned:0;\n"
	"\tfield:s32 tdc;\toffset:50;\tsize:4;\tsigned:1;\n"
	"\tfield:u8 full;\toffset:54;\tsize:1;\tsigned:0;\n"
	"\tfield:u64 online0;\toffset:55;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"(%lx) cpu=%d\", REC->__probe_ip, REC->cpu\n";
/* a kernel that keeps the NOHZ mode in flag bits: no mode field */
static const char check_nomode_fmt[] =
	"name: idle_check\nID: 50\nformat:\n" COMMON
	"\tfield:s32 cpu;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 caller;\toffset:20;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 entry;\toffset:28;\tsize:8;\tsigned:1;\n"
	"\tfield:u64 tif;\toffset:36;\tsize:8;\tsigned:0;\n"
	"\tfield:u16 softirq;\toffset:44;\tsize:2;\tsigned:0;\n"
	"\tfield:s32 tdc;\toffset:46;\tsize:4;\tsigned:1;\n"
	"\tfield:u8 full;\toffset:50;\tsize:1;\tsigned:0;\n"
	"\tfield:u64 online0;\toffset:51;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"(%lx) cpu=%d\", REC->__probe_ip, REC->cpu\n";
static const char ret_fmt[] =
	"name: idle_ret\nID: 51\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long __probe_func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long __probe_ret_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u8 ret;\toffset:24;\tsize:1;\tsigned:0;\n\n"
	"print fmt: \"(%lx <- %lx) ret=%u\", REC->__probe_func, REC->__probe_ret_ip, REC->ret\n";

/* What the entry probe reads. */
struct entry {
	int cpu;
	unsigned long long caller;
	int mode;		/* 0 NOHZ_MODE_INACTIVE */
	long long entrytime;
	unsigned long long tif;
	unsigned int softirq;
	int tdc, full;
	unsigned long long online;
};

struct fixture {
	struct tep_handle *tep;
	struct ts_decoder d;
	struct ts_caps caps;
	uint64_t ts;
};

static void setup(struct fixture *f, const char *check, const char * const *marks)
{
	char token[128];

	memset(f, 0, sizeof(*f));
	f->tep = tep_alloc();
	CU_ASSERT_PTR_NOT_NULL_FATAL(f->tep);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(f->tep, tick_stop_fmt, strlen(tick_stop_fmt),
					      "timer"), 0);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(f->tep, check, strlen(check), "tickstat_1"), 0);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(f->tep, ret_fmt, strlen(ret_fmt), "tickstat_1"), 0);
	CU_ASSERT_EQUAL_FATAL(ts_decoder_init(&f->d, f->tep, &f->caps), 0);
	CU_ASSERT(f->caps.retain);
	for (int i = 0; marks[i]; i++) {
		snprintf(token, sizeof(token), "%s", marks[i]);
		CU_ASSERT_EQUAL(ts_probedec_mark(&f->d.probes, token), 0);
	}
}

/* Put v into the record's field name (little-endian, its size). */
static void put(struct tep_event *ev, unsigned char *data, const char *name,
		unsigned long long v)
{
	struct tep_format_field *fl = tep_find_any_field(ev, name);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fl);
	for (int i = 0; i < fl->size; i++)
		data[fl->offset + i] = (unsigned char)(v >> (8 * i));
}

/*
 * One call of can_stop_idle_tick(): its entry, then its return ret.
 * Returns the refusal's reason, or 0 when no tick_retain came of it.
 */
static int call(struct fixture *f, const struct entry *e, int ret)
{
	struct tep_event *check = tep_find_event_by_name(f->tep, "tickstat_1", "idle_check");
	struct tep_event *back = tep_find_event_by_name(f->tep, "tickstat_1", "idle_ret");
	unsigned char a[64] = { 0 }, b[32] = { 0 };
	struct tep_record ra = { .cpu = e->cpu, .size = sizeof(a), .data = a };
	struct tep_record rb = { .cpu = e->cpu, .size = sizeof(b), .data = b };
	struct ts_event ev;

	put(check, a, "common_type", check->id);
	put(check, a, "cpu", e->cpu);
	put(check, a, "caller", e->caller);
	if (tep_find_field(check, "mode"))
		put(check, a, "mode", e->mode);
	put(check, a, "entry", e->entrytime);
	put(check, a, "tif", e->tif);
	put(check, a, "softirq", e->softirq);
	put(check, a, "tdc", e->tdc);
	put(check, a, "full", e->full);
	put(check, a, "online0", e->online);
	put(back, b, "common_type", back->id);
	put(back, b, "ret", ret);
	ra.ts = f->ts += 1000;
	rb.ts = f->ts += 1000;
	CU_ASSERT_EQUAL(ts_decode(&f->d, &ra, &ev), 0);		/* the entry: nothing yet */
	if (ts_decode(&f->d, &rb, &ev) != 1)
		return 0;
	CU_ASSERT_EQUAL(ev.kind, TS_EV_TICK_RETAIN);
	CU_ASSERT_EQUAL(ev.cpu, e->cpu);
	return ev.retain.reason;
}

static const char * const marks_61[] = {
	"nohz_inactive=0", "tif_need_resched=3",
	"fn.tick_nohz_get_sleep_length=0xffffffff81000000+0x100", NULL,
};

/* An idle CPU 1 of a nohz_full system where CPU 0 keeps the time: nothing holds. */
static struct entry quiet(int cpu)
{
	return (struct entry){ .cpu = cpu, .caller = STOP_PATH, .mode = 2, .entrytime = 1,
			       .tdc = 0, .full = 1, .online = 0xf };
}

/* The first condition that holds names the refusal, in the kernel's order. */
static void test_reasons(void)
{
	struct fixture f;
	struct entry e;

	setup(&f, check_fmt, marks_61);
	e = quiet(1);
	e.tif = 1 << 3;
	e.softirq = 0x200;
	CU_ASSERT_EQUAL(call(&f, &e, 0), NEED_RESCHED);	/* before the softirq */
	e = quiet(1);
	e.softirq = 0x200;
	CU_ASSERT_EQUAL(call(&f, &e, 0), SOFTIRQ);
	e = quiet(0);
	CU_ASSERT_EQUAL(call(&f, &e, 0), TIMEKEEPING);
	e = quiet(1);
	e.tdc = -1;
	CU_ASSERT_EQUAL(call(&f, &e, 0), NO_TIMEKEEPER);
	e = quiet(0);
	e.full = 0;	/* without nohz_full CPUs the timekeeper may stop its tick */
	CU_ASSERT_EQUAL(call(&f, &e, 0), TS_RETAIN_IDLE_REFUSED);
	e = quiet(1);
	e.mode = 0;
	e.tif = 1 << 3;
	CU_ASSERT_EQUAL(call(&f, &e, 0), NOHZ_INACTIVE);
	/* a pending softirq on the timekeeper: which one refused cannot be told */
	e = quiet(0);
	e.softirq = 0x2;
	CU_ASSERT_EQUAL(call(&f, &e, 0), TS_RETAIN_IDLE_REFUSED);
	/* nothing held at the entry: need_resched() set since, say */
	e = quiet(1);
	CU_ASSERT_EQUAL(call(&f, &e, 0), TS_RETAIN_IDLE_REFUSED);
	/* allowed: no event; offline: none either, as the patched kernel */
	e = quiet(1);
	e.tif = 1 << 3;
	CU_ASSERT_EQUAL(call(&f, &e, 1), 0);
	e.online = 0xd;
	CU_ASSERT_EQUAL(call(&f, &e, 0), 0);
	tep_free(f.tep);
}

/*
 * A governor's tick_nohz_get_sleep_length() refusal and the stop path's
 * of the same idle period (the same idle_entrytime) count once; a later
 * period's refusal on a path without the governor counts again.
 */
static void test_governor_once(void)
{
	struct fixture f;
	struct entry e = quiet(2);

	setup(&f, check_fmt, marks_61);
	e.tif = 1 << 3;
	e.caller = SLEEP_LENGTH + 0x40;
	e.entrytime = 100;
	CU_ASSERT_EQUAL(call(&f, &e, 0), NEED_RESCHED);
	e.caller = STOP_PATH;
	CU_ASSERT_EQUAL(call(&f, &e, 0), 0);			/* the same decision */
	e.caller = SLEEP_LENGTH + 0x40;
	e.entrytime = 200;
	CU_ASSERT_EQUAL(call(&f, &e, 0), NEED_RESCHED);	/* the governor keeps the tick */
	e.caller = STOP_PATH;
	e.entrytime = 300;					/* forced idle, no governor */
	CU_ASSERT_EQUAL(call(&f, &e, 0), NEED_RESCHED);
	CU_ASSERT_EQUAL(call(&f, &e, 0), NEED_RESCHED);	/* and again: both count */
	/* the governor's call allowed the stop: the stop path's refusal counts */
	e.caller = SLEEP_LENGTH + 0x40;
	e.entrytime = 400;
	CU_ASSERT_EQUAL(call(&f, &e, 1), 0);
	e.caller = STOP_PATH;
	CU_ASSERT_EQUAL(call(&f, &e, 0), NEED_RESCHED);
	tep_free(f.tep);
}

/*
 * Without a mode field the mode comes from the start (nohz_active); a CPU
 * any entry shows offline has its mode reset, so its refusals are no longer
 * told; so is a CPU that was not in NOHZ mode at the start.
 */
static void test_mode_from_start(void)
{
	static const char * const marks[] = {
		"tif_need_resched=3", "nohz_active.0=0x7",
		"fn.tick_nohz_get_sleep_length=0xffffffff81000000+0x100", NULL,
	};
	struct fixture f;
	struct entry e = quiet(1);

	setup(&f, check_nomode_fmt, marks);
	e.tif = 1 << 3;
	CU_ASSERT_EQUAL(call(&f, &e, 0), NEED_RESCHED);
	e.cpu = 3;
	CU_ASSERT_EQUAL(call(&f, &e, 0), TS_RETAIN_IDLE_REFUSED);	/* not in NOHZ mode */
	e.cpu = 2;
	e.online = 0xd;					/* CPU 2 sees CPU 1 offline */
	CU_ASSERT_EQUAL(call(&f, &e, 0), NEED_RESCHED);
	e.cpu = 1;
	e.online = 0xf;					/* back online */
	CU_ASSERT_EQUAL(call(&f, &e, 0), TS_RETAIN_IDLE_REFUSED);
	tep_free(f.tep);
}

/* Marks that do not parse are refused; a kernel without NO_HZ_FULL has no "full". */
static void test_marks(void)
{
	static const char * const bad[] = {
		"nohz_inactive=x", "tif_need_resched=64", "nohz_active.16=0x1",
		"nohz_active.0=12", "no_nohz_full=", NULL,
	};
	static const char * const marks[] = {
		"nohz_inactive=0", "tif_need_resched=3", "no_nohz_full=1",
		"fn.tick_nohz_get_sleep_length=0xffffffff81000000+0x100", NULL,
	};
	static const char * const none[] = { NULL };
	struct fixture f;
	char token[64];

	setup(&f, check_fmt, none);
	for (int i = 0; bad[i]; i++) {
		snprintf(token, sizeof(token), "%s", bad[i]);
		CU_ASSERT_EQUAL(ts_probedec_mark(&f.d.probes, token), -1);
	}
	tep_free(f.tep);
	/* no nohz_full CPUs: a pending softirq alone refused */
	setup(&f, check_fmt, marks);
	{
		struct entry e = quiet(1);

		e.full = 0;
		e.softirq = 0x8;
		CU_ASSERT_EQUAL(call(&f, &e, 0), SOFTIRQ);
	}
	tep_free(f.tep);
}

int main(void)
{
	static const struct ts_unit_test tests[] = {
		{ "idle refusals: the first condition names it", test_reasons },
		{ "idle refusals: a governor's and the stop path's count once", test_governor_once },
		{ "idle refusals: NOHZ mode from the start, reset offline", test_mode_from_start },
		{ "idle refusals: marks checked", test_marks },
	};

	return ts_unit_run("tickstat probes", tests, sizeof(tests) / sizeof(tests[0]));
}
