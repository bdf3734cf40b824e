// SPDX-License-Identifier: GPL-2.0
/*
 * output_unit.c - host-side unit tests (CUnit) of what the outputs make of
 * text from the data (text.c): UTF-8 kept, control characters and invalid
 * bytes escaped in JSON, the table, CSV and Prometheus labels; and the CSV
 * of a fixture's timeline, under ASan and UBSan.
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

int main(int argc, char **argv)
{
	static const struct ts_unit_test tests[] = {
		{ "text: UTF-8 sequences", test_utf8 },
		{ "text: JSON strings", test_json_string },
		{ "text: the table's escapes", test_text_safe },
		{ "text: CSV fields", test_csv_field },
		{ "text: Prometheus label values", test_prom_labels },
		{ "csv: a fixture's timeline", test_csv_fixture },
	};

	if (argc != 2) {
		fprintf(stderr, "usage: output-unit-tests FIXTURE_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	return ts_unit_run("output", tests, sizeof(tests) / sizeof(tests[0]));
}
