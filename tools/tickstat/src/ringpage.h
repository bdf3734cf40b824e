/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringpage.h - the records of one ring-buffer sub-buffer (page), in one walk.
 *
 * A page is the kernel's: a 64-bit time stamp, a commit word of the kernel's
 * long size (the bytes of events, and flags for missed events), then the
 * events, each a 32-bit header (type_len:5, time_delta:27) and its data
 * (include/linux/ring_buffer.h).  Little-endian only, as every reader of
 * tickstat's (the readers refuse others).  Nothing in a page is trusted.
 */
#ifndef TICKSTAT_RINGPAGE_H
#define TICKSTAT_RINGPAGE_H

#include <stdint.h>

/* One record: its data (from its event id on), its size, its time. */
struct ts_ring_record {
	const void *data;
	int size;
	uint64_t ts;
};

/* A parsed page: its records, and the events the kernel lost before it. */
struct ts_ring_page {
	struct ts_ring_record *recs;	/* the caller's array ... */
	int max_recs;			/* ... of this many */
	int nr_recs;
	int missed;			/* events lost before the page */
	uint64_t missed_count;		/* how many, when the kernel stored it */
};

uint32_t ts_ring_commit(const void *page, int long_size);
uint32_t ts_page_used(const void *page, uint32_t page_size, int long_size);
int ts_ring_page_parse(struct ts_ring_page *rp, const void *page, uint32_t page_size,
		       int long_size);

#endif
