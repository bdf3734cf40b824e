// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_tracedat.c - libFuzzer target: any bytes as an input file (a
 * trace.dat: tickstat's recording or trace-cmd's, v6 or v7, compressed).
 *
 * Built with -DTS_FUZZING, which skips the pages' sum check so that
 * mutated inputs reach the reports behind it.
 * The reader must return an error or a report; a crash, a leak or
 * undefined behaviour is a bug (ASan and UBSan watch; make fuzz runs with
 * UBSAN_OPTIONS=halt_on_error=1, so a UBSan report is a finding).  Every
 * formatter runs on what was read, as report and check would: the table,
 * JSON and Prometheus with and without a verdict, the verdict's table and
 * JUnit, and the CSV of the timeline the analysis keeps (--csv).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis.h"
#include "check.h"
#include "output.h"
#include "tracedat.h"

/*
 * LeakSanitizer's suppressions: libtraceevent 1.7.1 (Debian 12) leaks a
 * few bytes inside tep_parse_event() on some malformed formats, the handle
 * freed (an hrtimer_start format whose field reads "enum LOCAL_PR_FMT
 * mode", with an empty print fmt: 5 bytes, in a program that calls that
 * and tep_free() only), which the fuzzer found in make check.  Not
 * tickstat's.  The suppression also hides the events of a handle tickstat
 * would forget to free; the unit tests catch that, with LeakSanitizer and
 * no suppression, on every fixture (56198 leaks when stream.c skipped its
 * tep_free()).
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct ts_output_opts oo = { .top = 5 };
	struct ts_analysis an;
	struct ts_check_opts co;
	struct ts_verdict v;
	char path[64], err[256];
	int fd = memfd_create("trace.dat", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ts_analysis_init(&an);
	/* as --csv does: the timeline kept while reading, written at the end */
	if (ts_analysis_keep_timeline(&an)) {
		ts_analysis_free(&an);
		close(fd);
		return 0;
	}
	if (!ts_read_file(path, &an, err, sizeof(err))) {
		/* what a report would do with it */
		ts_output_table(devnull, &an, &oo);
		ts_output_json(devnull, &an, &oo, NULL);
		ts_output_prometheus(devnull, &an, NULL);
		ts_output_csv(devnull, &an);
		/* and a check */
		ts_check_opts_init(&co);
		if (!ts_check_run(&an, &co, &v)) {
			ts_output_json(devnull, &an, &oo, &v);
			ts_output_prometheus(devnull, &an, &v);
			ts_verdict_table(devnull, &v);
			ts_verdict_junit(devnull, &v);
			ts_verdict_free(&v);
		}
	}
	ts_analysis_free(&an);
	close(fd);
	return 0;
}
