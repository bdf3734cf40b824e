/* SPDX-License-Identifier: GPL-2.0 */
/*
 * datwrite.h - write a trace.dat (trace-cmd.dat.v6(5)) from raw pages.
 *
 * Pages arrive interleaved across CPUs while recording; a trace.dat keeps
 * each CPU's pages together.  They are spooled to a temporary file beside
 * the output and copied into place at the end, so memory stays bounded.
 * Pages that follow each other in the caller's memory are written to the
 * spool with one call: the caller keeps them until ts_dw_flush().
 */
#ifndef TICKSTAT_DATWRITE_H
#define TICKSTAT_DATWRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pagesum.h"

struct ts_dw_cpu {
	uint32_t *pages;		/* page numbers in the spool */
	uint32_t nr, cap;
	struct ts_sum sum;		/* fletcher128 of its pages so far */
};

struct ts_dw_format {
	struct ts_dw_format *next;
	char system[64];
	char *text;
	size_t len;
};

/*
 * How ts_dw_finish() copies the spool into the file: the first way that
 * works, in this order.  The file is a regular file (outfile.h); the spool
 * is beside it, or in TMPDIR when its folder takes no file.
 */
enum ts_dw_copy {
	TS_DW_COPY_RANGE,		/* copy_file_range(): on the same file system */
	TS_DW_COPY_SENDFILE,		/* sendfile(): on another one, or an older kernel */
	TS_DW_COPY_READ,		/* pread() and fwrite(): neither (an O_APPEND file) */
};

struct ts_datwrite {
	FILE *out;
	int spool;			/* unlinked temporary file */
	int page_size;
	int long_size;
	int nr_cpus;			/* CPU numbers 0..nr_cpus-1 get a data slot */
	struct ts_dw_cpu *cpu;
	uint32_t spooled;
	/* pages not yet written: contiguous in the caller's memory and the spool */
	const unsigned char *run;
	uint32_t run_pages, run_first;
	struct ts_dw_format *formats, **formats_tail;
	int error;			/* errno of the first failure */
	enum ts_dw_copy copy_from;	/* the first way ts_dw_finish() tries (0; tests) */
	enum ts_dw_copy copied_by;	/* the way it took */
};

/* The parts of the header the recorder gathers. */
struct ts_dw_meta {
	const char *header_page, *header_event;
	size_t header_page_len, header_event_len;
	const char *kallsyms;		/* kallsyms lines (the symbols the file needs) */
	size_t kallsyms_len;
	const char *cmdlines;		/* "PID COMM" lines */
	size_t cmdlines_len;
	const char *uname;
	const char *trace_clock;	/* the trace_clock file: "... [mono] ..." */
	const char *clock;		/* the clock in use: "mono" */
	const char *recorder;		/* "tickstat VERSION" */
	char **cpustat;			/* per CPU, its stats file, or NULL */
};

int ts_dw_init(struct ts_datwrite *w, FILE *out, const char *path, int page_size,
	       int long_size, int nr_cpus);
int ts_dw_format(struct ts_datwrite *w, const char *system, const char *text, size_t len);
int ts_dw_page(struct ts_datwrite *w, int cpu, const void *page);
int ts_dw_flush(struct ts_datwrite *w);
void ts_dw_sum(const struct ts_datwrite *w, int cpu, uint64_t *count, struct ts_sum *sum);
int ts_dw_finish(struct ts_datwrite *w, const struct ts_dw_meta *m);
void ts_dw_free(struct ts_datwrite *w);

#endif
