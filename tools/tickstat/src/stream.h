/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stream.h - the path from raw ring-buffer pages to the analysis.
 *
 * The live recorder and the recording reader both hand the same things
 * to a stream: metadata text, the header_page format, event formats, raw
 * sub-buffers per CPU, and the end metadata.  With a writer attached, the
 * stream also saves each of them, so a recording is exactly what the live
 * report saw.
 */
#ifndef TICKSTAT_STREAM_H
#define TICKSTAT_STREAM_H

#include <stdint.h>
#include <stdio.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "analysis.h"
#include "decode.h"

#define TS_REC_MAGIC		"TICKSTAT"
#define TS_REC_VERSION		1
#define TS_REC_MAX_SECTION	(64u << 20)

enum ts_section {
	TS_SEC_META = 1,	/* key=value text: what, where, when */
	TS_SEC_HEADER_PAGE = 2,	/* events/header_page */
	TS_SEC_FORMAT = 3,	/* "system\n" + events/system/name/format */
	TS_SEC_PAGE = 4,	/* the used part of a raw ring-buffer sub-buffer */
	TS_SEC_END = 5,		/* key=value text: end, losses, symbols, comms */
};

struct ts_stream {
	struct ts_analysis *an;
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	struct ts_decoder dec;
	unsigned char *pagebuf;		/* a short saved page, padded */
	int ready;			/* decoder built (first page seen) */
	int page_size;
	int long_size;
	int have_meta;
	int have_end;
	uint64_t tick_fn;
	uint64_t end_ns;		/* the recording's end, from its END section */
	FILE *out;			/* optional: the recording being written */
	int out_error;
	uint64_t pages;
	uint64_t records;
	uint64_t rb_overrun;		/* from the ring buffer's own stats */
	char err[256];
};

int ts_stream_init(struct ts_stream *s, struct ts_analysis *an, FILE *out);
void ts_stream_free(struct ts_stream *s);
int ts_stream_meta(struct ts_stream *s, const char *text, uint32_t len);
int ts_stream_header_page(struct ts_stream *s, const char *text, uint32_t len);
int ts_stream_format(struct ts_stream *s, const char *text, uint32_t len);
int ts_stream_page(struct ts_stream *s, int cpu, void *page, uint32_t len);
int ts_stream_end(struct ts_stream *s, const char *text, uint32_t len);

int ts_read_recording(const char *path, struct ts_analysis *an, char *err, size_t errlen);
int ts_is_recording(const char *path);

#endif
