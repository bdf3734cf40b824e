// SPDX-License-Identifier: GPL-2.0
/*
 * unit_spool.c - the trace.dat writer's spool (datwrite.c): pages of two
 * CPUs, interleaved, in runs of one buffer and page by page out of a
 * reused one, come back in the file each CPU's in order and byte for
 * byte, with the count and sum the end marks take; copied into the file
 * each way ts_dw_finish() has (copy_file_range, sendfile, read and
 * write), and into a file opened to append, which takes only the last;
 * and each CPU's ring-buffer statistics after its "CPU: n" line.
 */
#define _GNU_SOURCE		/* memmem */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "datfile.h"
#include "datwrite.h"
#include "pagesum.h"
#include "unit_spool.h"

#define PAGE	4096
#define PAGES	40

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

/* page k of the test: its header says it holds 8 bytes; the rest is k */
static void fill(unsigned char *p, int k)
{
	uint64_t ts = 1000 + k, commit = 8;

	memset(p, k, PAGE);
	memcpy(p, &ts, 8);
	memcpy(p + 8, &commit, 8);
}

static int no_format(void *ctx, const char *system, const char *text, size_t len)
{
	(void)ctx, (void)system, (void)text, (void)len;
	return 0;
}

/* the first way tried (from), whether the file is opened to append, the way expected */
static void spool_round_trip(enum ts_dw_copy from, int append, enum ts_dw_copy way)
{
	static unsigned char batch[16 * PAGE], one[PAGE], back[PAGE];
	int order[2][PAGES], nr[2] = { 0, 0 }, k = 0;
	struct ts_sum sums[2] = { { 0, 0 }, { 0, 0 } };
	char path[] = "/tmp/tickstat-unit-spool-XXXXXX";
	char stat0[] = "entries: 0\noverrun: 5\n", stat1[] = "entries: 0\noverrun: 7\n";
	char *stats[2] = { stat0, stat1 };
	struct ts_dw_meta m = {
		.cpustat = stats,
		.header_page = header_page, .header_page_len = sizeof(header_page) - 1,
		.header_event = "", .kallsyms = "", .cmdlines = "",
		.uname = "Linux test 6.1.0 x86_64", .trace_clock = "[mono] local",
		.clock = "mono", .recorder = "tickstat unit",
	};
	struct ts_datwrite w;
	struct ts_datfile df;
	int fd = mkstemp(path);
	FILE *out;

	CU_ASSERT_FATAL(fd >= 0);
	if (append) {
		close(fd);
		fd = open(path, O_WRONLY | O_APPEND);
	}
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL_FATAL(ts_dw_init(&w, out, path, PAGE, 8, 2), 0);
	w.copy_from = from;
	while (k < PAGES) {
		/* a batch of 1 to 7 pages of one CPU, then one page alone */
		int cpu = k % 2, n = 1 + k % 7, i;

		for (i = 0; i < n && k < PAGES; i++, k++) {
			fill(batch + i * PAGE, k);
			CU_ASSERT_EQUAL(ts_dw_page(&w, cpu, batch + i * PAGE), 0);
			order[cpu][nr[cpu]++] = k;
			ts_fletcher128(&sums[cpu], batch + i * PAGE, 24);
		}
		if (k % 3)	/* else the next page ends the run by not following it */
			CU_ASSERT_EQUAL(ts_dw_flush(&w), 0);
		if (k < PAGES) {
			fill(one, k);
			CU_ASSERT_EQUAL(ts_dw_page(&w, !cpu, one), 0);
			order[!cpu][nr[!cpu]++] = k++;
			ts_fletcher128(&sums[!cpu], one, 24);
			CU_ASSERT_EQUAL(ts_dw_flush(&w), 0);
		}
	}
	for (int c = 0; c < 2; c++) {
		struct ts_sum sum;
		uint64_t count;

		ts_dw_sum(&w, c, &count, &sum);
		CU_ASSERT_EQUAL(count, (uint64_t)nr[c]);
		CU_ASSERT(ts_sum_same(&sum, &sums[c]));
	}
	CU_ASSERT_EQUAL_FATAL(ts_dw_finish(&w, &m), 0);
	CU_ASSERT_EQUAL(w.copied_by, way);
	ts_dw_free(&w);
	fclose(out);
	CU_ASSERT_EQUAL_FATAL(ts_dat_open(&df, path, no_format, NULL), 0);
	CU_ASSERT_EQUAL(df.nr_cpus, 2);
	/* each CPU's statistics after its "CPU: n" line, as trace-cmd writes them */
	for (int c = 0; c < 2; c++) {
		char want[64];
		int n = snprintf(want, sizeof(want), "CPU: %d\n%s", c, stats[c]);

		CU_ASSERT_PTR_NOT_NULL(memmem(df.cpustats, df.cpustats_len, want, n));
	}
	for (int i = 0; i < df.nr_cpus; i++) {
		int cpu = df.cpus[i].cpu;

		CU_ASSERT_EQUAL(df.cpus[i].data.size, (uint64_t)nr[cpu] * PAGE);
		for (int j = 0; j < nr[cpu]; j++) {
			unsigned char want[PAGE];

			fill(want, order[cpu][j]);
			CU_ASSERT_EQUAL(pread(df.fd, back, PAGE, df.cpus[i].data.off +
					      (uint64_t)j * PAGE), PAGE);
			CU_ASSERT_EQUAL(memcmp(back, want, PAGE), 0);
		}
	}
	ts_dat_close(&df);
	unlink(path);
}

void test_spool_round_trip(void)
{
	spool_round_trip(TS_DW_COPY_RANGE, 0, TS_DW_COPY_RANGE);
	spool_round_trip(TS_DW_COPY_SENDFILE, 0, TS_DW_COPY_SENDFILE);
	spool_round_trip(TS_DW_COPY_READ, 0, TS_DW_COPY_READ);
	/* neither copy_file_range() nor sendfile() writes to an O_APPEND file */
	spool_round_trip(TS_DW_COPY_RANGE, 1, TS_DW_COPY_READ);
}
