/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stream.h - the path from raw ring-buffer pages to the analysis.
 *
 * The live session and the trace.dat reader hand the same things to a
 * stream: the header_page format, event formats, raw sub-buffers per CPU.
 * tickstat's own metadata travels in the pages too, as trace markers
 * (ftrace:print events, "tickstat v1 KIND: key=value ..."): the stream
 * applies them, so a recording's report and the live report are the same
 * code on the same bytes.  docs/recording-format.md lists the marks.
 */
#ifndef TICKSTAT_STREAM_H
#define TICKSTAT_STREAM_H

#include <stdint.h>
#include <stdio.h>

#include <traceevent/event-parse.h>

#include "analysis.h"
#include "decode.h"
#include "pagesum.h"
#include "ringpage.h"

#define TS_MARK_PREFIX		"tickstat v1 "
#define TS_MARK_MAX		1000	/* the kernel keeps 1 KiB of a marker */

/* What the end marks say about the pages each CPU wrote before them. */
struct ts_page_sum {
	uint64_t count;
	struct ts_sum sum;		/* of the kind ts_stream.page_sum says */
	int known;
};

struct ts_stream {
	struct ts_analysis *an;
	struct tep_handle *tep;
	struct ts_decoder dec;
	unsigned char *pagebuf;		/* a short page, padded */
	struct ts_ring_page rp;		/* the page's records, as one walk found them */
	int ready;			/* decoder built */
	int page_size;
	int long_size;
	uint64_t tick_fn;		/* the tick's hrtimer function, 0 unknown */

	/* tickstat's marks */
	int start_seen;			/* "start" applied */
	int have_start;			/* "ready" applied: the snapshot holds */
	int initial_count;		/* CPU states the "initial" marks gave */
	int nohz_pieces;		/* nohz_full= tokens read: a long list has several */
	int end_cpu;			/* the CPU whose pages carry the end marks, -1 */
	int end_marks;			/* "end" and "pages" marks seen */
	uint32_t end_crc;		/* their texts' CRC-32, for "done" */
	enum ts_sum_kind page_sum;	/* the pages' sum, from the start mark */
	char page_sum_unknown[32];	/* a sum named there that this tickstat does not know */
	int done;			/* "done" seen and consistent */
	uint64_t end_ns;
	struct ts_page_sum *sums;	/* per CPU, from the "pages" marks */
	int marks_bad;			/* a mark that does not parse */
	/*
	 * the live session applied its "quotas" marks as it wrote them, and
	 * counted the tasks past its table as they came (the end mark's
	 * quotas_dropped is not added again)
	 */
	int quotas_written;

	uint64_t pages;
	uint64_t records;
	uint64_t last_ts;		/* of the last record analysed */
	struct ts_cpu_pages {
		uint64_t pages;		/* pages of the CPU seen */
		uint64_t last_ts;	/* its last event taken, 0 none */
	} *cpu_pages;			/* per CPU */
	/*
	 * The reader's name of the next page, for a message: its number and
	 * where in the file, put in words only when a message needs them (a
	 * snprintf() a page was a twentieth of a report).  set 0: none.
	 */
	struct ts_page_where {
		int set;
		int compressed;		/* the page of the CPU's compressed data */
		int page;
		uint64_t offset;	/* in the file, when not compressed */
	} where;
	char err[256];

	/*
	 * Called with each task a switch puts on a CPU, as it is decoded
	 * (before the analysis may hold it back): the recorder looks up what
	 * /proc tells of a task while it still exists.  NULL: none.
	 */
	void (*task_seen)(void *ctx, int cpu, int pid);
	void *task_seen_ctx;
};

int ts_stream_init(struct ts_stream *s, struct ts_analysis *an, int page_size, int long_size);
void ts_stream_free(struct ts_stream *s);
int ts_stream_header_page(struct ts_stream *s, const char *text, size_t len);
int ts_stream_format(struct ts_stream *s, const char *system, const char *text, size_t len);
int ts_stream_ready(struct ts_stream *s);
int ts_stream_page(struct ts_stream *s, int cpu, void *page, uint32_t len);
int ts_stream_mark(struct ts_stream *s, int cpu, const char *text, size_t len);
enum { TS_START_LOOK, TS_START_MORE, TS_START_FIRST_TS };
int ts_stream_start_marks(struct ts_stream *s, int cpu, void *page, uint32_t len,
			  int mode, uint64_t *first_ts);

int ts_stream_wants_event(const char *system, const char *name);

#endif
