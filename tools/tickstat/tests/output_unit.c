// SPDX-License-Identifier: GPL-2.0
/*
 * output_unit.c - host-side unit tests (CUnit) of what the outputs make of
 * text from the data (text.c): UTF-8 kept, control characters and invalid
 * bytes escaped in JSON, the table, CSV and Prometheus labels; the CSV of a
 * fixture's timeline, and the identity JSON and CSV share, under ASan and
 * UBSan.
 *
 * usage: output-unit-tests FIXTURE_DIR
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "analysis.h"
#include "output.h"
#include "promtext.h"
#include "text.h"
#include "tracedat.h"
#include "unit_run.h"
#include "util.h"

static const char *fixtures;

/* What fn writes for s, in a string the caller frees. */
static char *written(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s);
	fclose(f);
	return buf;
}

static void expect_written(void (*fn)(FILE *, const char *), const char *in, const char *want)
{
	char *got = written(fn, in);

	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "\n  for '%s': want '%s', got '%s'\n", in, want, got);
	free(got);
}

static void test_utf8(void)
{
	uint32_t cp;

	CU_ASSERT_EQUAL(ts_utf8_len("a", &cp), 1);
	CU_ASSERT_EQUAL(ts_utf8_len("\xc3\xa9", &cp), 2);		/* é */
	CU_ASSERT_EQUAL(cp, 0xe9);
	CU_ASSERT_EQUAL(ts_utf8_len("\xe7\xba\xbf", &cp), 3);		/* 线 */
	CU_ASSERT_EQUAL(cp, 0x7ebf);
	CU_ASSERT_EQUAL(ts_utf8_len("\xf0\x9f\x98\x80", &cp), 4);	/* U+1F600 */
	CU_ASSERT_EQUAL(cp, 0x1f600);
	CU_ASSERT_EQUAL(ts_utf8_len("\x80", &cp), 0);			/* a stray continuation */
	CU_ASSERT_EQUAL(ts_utf8_len("\xc3", &cp), 0);			/* cut at the end */
	CU_ASSERT_EQUAL(ts_utf8_len("\xe7\xba", &cp), 0);
	CU_ASSERT_EQUAL(ts_utf8_len("\xc0\x80", &cp), 0);		/* overlong NUL */
	CU_ASSERT_EQUAL(ts_utf8_len("\xe0\x80\xaf", &cp), 0);		/* overlong / */
	CU_ASSERT_EQUAL(ts_utf8_len("\xed\xa0\x80", &cp), 0);		/* a surrogate */
	CU_ASSERT_EQUAL(ts_utf8_len("\xf4\x90\x80\x80", &cp), 0);	/* beyond U+10FFFF */
	CU_ASSERT_EQUAL(ts_utf8_len("\xff", &cp), 0);
}

static void test_json_string(void)
{
	expect_written(ts_json_string, "cputimer", "\"cputimer\"");
	expect_written(ts_json_string, "caf\xc3\xa9", "\"caf\xc3\xa9\"");
	expect_written(ts_json_string, "\xe7\xba\xbf\xe7\xa8\x8b", "\"\xe7\xba\xbf\xe7\xa8\x8b\"");
	expect_written(ts_json_string, "a\"b\\c", "\"a\\\"b\\\\c\"");
	expect_written(ts_json_string, "a\nb\tc\x1b[2J", "\"a\\u000ab\\u0009c\\u001b[2J\"");
	expect_written(ts_json_string, "\x7f\xc2\x9b", "\"\\u007f\\u009b\"");	/* DEL, C1 CSI */
	expect_written(ts_json_string, "\xe2\x80\xa8", "\"\\u2028\"");
	/* each byte not in a valid sequence is U+FFFD */
	expect_written(ts_json_string, "a\xff" "b", "\"a\\ufffdb\"");
	expect_written(ts_json_string, "\xe7\xba", "\"\\ufffd\\ufffd\"");	/* cut at 15 bytes */
	expect_written(ts_json_string, "\xc0\x80", "\"\\ufffd\\ufffd\"");
	expect_written(ts_json_string, "", "\"\"");
}

static void test_text_safe(void)
{
	char buf[64];

	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, sizeof(buf), "kworker/3:1"), "kworker/3:1");
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, sizeof(buf), "caf\xc3\xa9"), "caf\xc3\xa9");
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, sizeof(buf), "a\nb\tc"), "a\\x0ab\\x09c");
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, sizeof(buf), "\x1b[2J"), "\\x1b[2J");
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, sizeof(buf), "\xc2\x9b" "1m"), "\\xc2\\x9b1m");
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, sizeof(buf), "\x7f"), "\\x7f");
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, sizeof(buf), "a\xff"), "a\\xff");
	/* a backslash is doubled: "\x0a" typed by a task cannot pass for a newline */
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, sizeof(buf), "\\x0a"), "\\\\x0a");
	/* cut to fit, never inside an escape or a character */
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, 6, "\n\n"), "\\x0a");
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, 3, "a\xc3\xa9"), "a");
	CU_ASSERT_STRING_EQUAL(ts_text_safe(buf, sizeof(buf), NULL), "");
}

static void test_csv_field(void)
{
	expect_written(ts_csv_field, "SCHED@CPU+POSIX_TIMER@PROCESS", "SCHED@CPU+POSIX_TIMER@PROCESS");
	expect_written(ts_csv_field, "a,b", "\"a,b\"");
	expect_written(ts_csv_field, "say \"hi\"", "\"say \"\"hi\"\"\"");
	expect_written(ts_csv_field, "a\nb", "\"a\nb\"");
	expect_written(ts_csv_field, "a\rb", "\"a\rb\"");
	expect_written(ts_csv_field, " lead", "\" lead\"");
	expect_written(ts_csv_field, "", "");
}

/* Prometheus label values: escaped as the format says, and valid UTF-8. */
static void test_prom_labels(void)
{
	const char *labels[] = { "comm", "a\"b\\c\nd\xff" "caf\xc3\xa9", NULL };
	struct ts_prom p = { 0 };

	ts_prom_u64(&p, "x", labels, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p.buf);
	CU_ASSERT_STRING_EQUAL(p.buf, "x{comm=\"a\\\"b\\\\c\\nd\xef\xbf\xbd" "caf\xc3\xa9\"} 1\n");
	ts_prom_free(&p);
}

/*
 * The CSV of a recording's timeline: segments without ticks were written
 * with fwrite(NULL, 8, 0), which UBSan reports (tickstat-unit.test fails on
 * any "runtime error").
 */
static void test_csv_fixture(void)
{
	struct ts_analysis an;
	char path[512], err[256], *buf = NULL, *line;
	size_t len = 0;
	int rows = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/patched.dat", fixtures);
	ts_analysis_init(&an);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(&an), 0);
	CU_ASSERT_EQUAL_FATAL(ts_read_file(path, &an, err, sizeof(err)), 0);
	f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(ts_output_csv(f, &an), 0);
	fclose(f);
	CU_ASSERT(!strncmp(buf, "kind,cpu,start_ns,end_ns,tick,idle,reasons,task\n", 48));
	for (line = buf; (line = strchr(line, '\n')); line++)
		rows++;
	CU_ASSERT(rows > 50);
	free(buf);
	ts_analysis_free(&an);
}

/* A fixture read as report reads it, the timeline kept; range[1] 0: no --time-range. */
static void read_fixture(struct ts_analysis *an, const char *name, const uint64_t *range)
{
	char path[512], err[256];

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	ts_analysis_init(an);
	CU_ASSERT_EQUAL_FATAL(ts_analysis_keep_timeline(an), 0);
	if (range && range[1])
		ts_analysis_set_range(an, range[0], range[1]);
	CU_ASSERT_EQUAL_FATAL(ts_read_file(path, an, err, sizeof(err)), 0);
	ts_analysis_report_covered(an);
}

/* What a formatter writes of an analysis, in a string the caller frees. */
static char *formatted(const struct ts_analysis *an, int csv)
{
	struct ts_output_opts o = { .top = 5 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (csv) {
		CU_ASSERT_EQUAL(ts_output_csv(f, an), 0);
	} else {
		ts_output_json(f, an, &o, NULL);
	}
	fclose(f);
	return buf;
}

/*
 * The report's identity: in the JSON (window.id) and in the CSV's first
 * row, beside the window's absolute times and the CPUs reported; the same
 * for one data set read from two files (a recording and trace-cmd's
 * conversion of it), another for other CPUs, another nohz_full, another
 * time range, another boot.
 */
static void test_report_id(void)
{
	static const uint64_t range[2] = { 12000000000ULL, 13000000000ULL };
	char id[TS_REPORT_ID_LEN], other[TS_REPORT_ID_LEN], want[128], *json, *csv;
	struct ts_analysis an, v7;
	struct ts_cpuset two;

	read_fixture(&an, "patched.dat", NULL);
	read_fixture(&v7, "patched-v7.dat", NULL);
	ts_report_id(&an, id, sizeof(id));
	CU_ASSERT_EQUAL(strspn(id, "0123456789abcdef"), 16);
	CU_ASSERT_EQUAL(strlen(id), 16);
	ts_report_id(&v7, other, sizeof(other));
	CU_ASSERT_STRING_EQUAL(id, other);

	json = formatted(&an, 0);
	snprintf(want, sizeof(want), "\"snapshot_ns\":12617758211,\"id\":\"%s\"}", id);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"boot_id\":null"));
	free(json);
	csv = formatted(&an, 1);
	snprintf(want, sizeof(want), "kind,cpu,start_ns,end_ns,tick,idle,reasons,task\n"
		 "window,1-3,11111974977,14729098452,,,%s,\nspan,", id);
	CU_ASSERT_EQUAL(strncmp(csv, want, strlen(want)), 0);
	CU_ASSERT_PTR_NULL(strstr(strstr(csv, "\nwindow,") + 1, "\nwindow,"));	/* one */
	free(csv);

	/* -C 2: other CPUs, another identity; the CSV names them, only their rows follow */
	ts_cpuset_parse(&two, "2");
	ts_analysis_select_cpus(&v7, &two);
	ts_report_id(&v7, other, sizeof(other));
	CU_ASSERT_STRING_NOT_EQUAL(id, other);
	csv = formatted(&v7, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, "\nwindow,2,11111974977,14729098452,,,"));
	CU_ASSERT_PTR_NULL(strstr(csv, "\nspan,1,"));
	CU_ASSERT_PTR_NULL(strstr(csv, "\nspan,3,"));
	CU_ASSERT_PTR_NULL(strstr(csv, "\ntick,3,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, "\nspan,2,"));
	free(csv);
	ts_analysis_free(&v7);

	/* whether a CPU reported is nohz_full (--nohz-full of a trace.dat) */
	read_fixture(&v7, "patched-v7.dat", NULL);
	ts_analysis_set_nohz_full(&v7, 2, 0);
	ts_report_id(&v7, other, sizeof(other));
	CU_ASSERT_STRING_NOT_EQUAL(id, other);
	ts_analysis_free(&v7);

	/* the boot: a recording of another boot with the same times is other data */
	read_fixture(&v7, "patched-v7.dat", NULL);
	CU_ASSERT_EQUAL(ts_analysis_set_boot_id(&v7, "0c5a6a4e-4f3a-4c1b-9d55-2f1a3d1b7e20"), 0);
	ts_report_id(&v7, other, sizeof(other));
	CU_ASSERT_STRING_NOT_EQUAL(id, other);
	json = formatted(&v7, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"boot_id\":\"0c5a6a4e-4f3a-4c1b-9d55-2f1a3d1b7e20\""));
	free(json);
	ts_analysis_free(&v7);

	/* a time range: its window, absolute, and another identity */
	read_fixture(&v7, "patched-v7.dat", range);
	ts_report_id(&v7, other, sizeof(other));
	CU_ASSERT_STRING_NOT_EQUAL(id, other);
	csv = formatted(&v7, 1);
	snprintf(want, sizeof(want), "\nwindow,1-3,12000000000,13000000000,,,%s,\n", other);
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, want));
	free(csv);
	ts_analysis_free(&v7);
	ts_analysis_free(&an);
}

/* The table of an analysis, in a string the caller frees. */
static char *table_of(const struct ts_analysis *an)
{
	struct ts_output_opts o = { .top = 5 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ts_output_table(f, an, &o);
	fclose(f);
	return buf;
}

/*
 * A section the kernel's events leave unknown names the next step: on a
 * stock recording without probes, --probes and the patched kernel; where
 * the probes were used and still could not see it, the patched kernel
 * only; on the patched kernel, no next step at all.
 */
static void test_next_steps(void)
{
	static const char * const probes =
		"# unknown: this kernel has no timer:tick_restart event\n"
		"# next: to see restarts, record with --probes auto, or on the patched kernel";
	static const char * const deps =
		"# unknown: this kernel has no timer:tick_dep_set event\n"
		"# next: to see who set dependencies, record with --probes auto, or on the patched kernel";
	struct ts_analysis an;
	char *t;

	read_fixture(&an, "stock.dat", NULL);
	t = table_of(&an);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, probes));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, deps));
	free(t);
	an.caps.probes.used = 1;
	t = table_of(&an);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "# next: to see restarts, record on the patched kernel: "
				      "the probes could not stand in here\n"));
	CU_ASSERT_PTR_NULL(strstr(t, "--probes auto"));
	free(t);
	ts_analysis_free(&an);

	read_fixture(&an, "patched.dat", NULL);
	t = table_of(&an);
	CU_ASSERT_PTR_NULL(strstr(t, "# next:"));
	free(t);
	ts_analysis_free(&an);
}

int main(int argc, char **argv)
{
	static const struct ts_unit_test tests[] = {
		{ "text: UTF-8 sequences", test_utf8 },
		{ "text: JSON strings", test_json_string },
		{ "text: the table's escapes", test_text_safe },
		{ "text: CSV fields", test_csv_field },
		{ "text: Prometheus label values", test_prom_labels },
		{ "csv: a fixture's timeline", test_csv_fixture },
		{ "json, csv: the report's identity", test_report_id },
		{ "table: next steps where a section is unknown", test_next_steps },
	};

	if (argc != 2) {
		fprintf(stderr, "usage: output-unit-tests FIXTURE_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	return ts_unit_run("output", tests, sizeof(tests) / sizeof(tests[0]));
}
