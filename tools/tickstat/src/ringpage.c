// SPDX-License-Identifier: GPL-2.0
/*
 * ringpage.c - the records of one ring-buffer page, in one walk.
 *
 * libtraceevent's kbuffer walks a page an event at a time, through calls
 * and function pointers per event, and the stream walked each page twice
 * with it (once to check the times, once more for the missed events): about
 * 220 instructions an event, a fifth of tickstat's work per event
 * (docs/performance.md).  The page format is small and stable
 * (include/linux/ring_buffer.h, kernel/trace/ring_buffer.c), so one walk
 * here gives every record, its time, and the missed events, and checks
 * every length against the page as it goes.
 */
#include <string.h>

#include "ringpage.h"

#define RB_COMMIT_MASK		((1U << 27) - 1)
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)
#define RB_TS_SHIFT		27
/* an absolute time stamp lacks the top 5 bits: they stay the page's */
#define RB_TS_MSB		(0xf8ULL << 56)

enum {
	RB_TYPE_PADDING = 29,
	RB_TYPE_TIME_EXTEND = 30,
	RB_TYPE_TIME_STAMP = 31,
};

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));	/* little-endian host and data */
	return v;
}

static uint64_t get_long(const unsigned char *p, int long_size)
{
	uint64_t v = 0;

	memcpy(&v, p, long_size == 8 ? 8 : 4);
	return v;
}

/* ts_ring_commit - the bytes of events a page's header says it holds */
uint32_t ts_ring_commit(const void *page, int long_size)
{
	return get_long((const unsigned char *)page + 8, long_size) & RB_COMMIT_MASK;
}

/*
 * ts_page_used - the bytes of a page its header says are in use (header,
 * events, and the missed-events count the kernel may store after them),
 * at most the page: what the end marks' page sums cover.  The rest is
 * padding, which no reader interprets.
 */
uint32_t ts_page_used(const void *page, uint32_t page_size, int long_size)
{
	uint64_t flags = get_long((const unsigned char *)page + 8, long_size);
	uint64_t used = 8 + (long_size == 8 ? 8 : 4) + (flags & RB_COMMIT_MASK) +
			((flags & RB_MISSED_STORED) ? long_size : 0);

	return used < page_size ? used : page_size;
}

/*
 * ts_ring_page_parse - every record of a page of page_size bytes, in order,
 * into rp->recs.  Returns 0; -1 for a page whose events do not fit it: a
 * length that leaves the committed bytes, a negative one, a header past the
 * page, or more records than rp->max_recs.  Padding and time stamps are
 * not records; they move the time, as the kernel wrote them.
 */
int ts_ring_page_parse(struct ts_ring_page *rp, const void *page, uint32_t page_size,
		       int long_size)
{
	const unsigned char *base = page;
	const uint32_t hdr = 8 + (long_size == 8 ? 8 : 4);
	uint64_t flags, ts;
	uint32_t size, off;

	rp->nr_recs = 0;
	rp->missed = 0;
	rp->missed_count = 0;
	if (page_size < hdr)
		return -1;
	memcpy(&ts, base, sizeof(ts));
	flags = get_long(base + 8, long_size);
	size = flags & RB_COMMIT_MASK;
	if (size > page_size - hdr)
		return -1;
	if (flags & RB_MISSED_EVENTS) {
		rp->missed = 1;
		/* the count follows the events, when the kernel had room */
		if ((flags & RB_MISSED_STORED) && hdr + size + long_size <= page_size)
			rp->missed_count = get_long(base + hdr + size, long_size);
	}
	/* off: from the start of the events; the page ends at size */
	for (off = 0; off < size;) {
		uint32_t word, type_len, delta, data;
		uint64_t length;

		if (off + 4 > size)
			return -1;
		word = get32(base + hdr + off);
		type_len = word & 31;
		delta = word >> 5;
		data = off + 4;
		switch (type_len) {
		case RB_TYPE_PADDING:
			/* a discarded event keeps its time delta and its length */
			if (data + 4 > size)
				return 0;	/* the page's tail */
			ts += delta;
			length = get32(base + hdr + data);
			off = data + length > size ? size : (uint32_t)(data + length);
			continue;
		case RB_TYPE_TIME_EXTEND:
		case RB_TYPE_TIME_STAMP:
			if (data + 4 > size)
				return -1;
			length = ((uint64_t)get32(base + hdr + data) << RB_TS_SHIFT) + delta;
			ts = type_len == RB_TYPE_TIME_STAMP ? length | (ts & RB_TS_MSB) : ts + length;
			off = data + 4;
			continue;
		case 0:
			if (data + 4 > size)
				return -1;
			length = get32(base + hdr + data);
			if (length < 4)
				return -1;
			length = (length - 4 + 3) & ~3ULL;
			data += 4;
			break;
		default:
			length = type_len * 4;
			break;
		}
		if (data + length > size || rp->nr_recs >= rp->max_recs)
			return -1;
		ts += delta;
		rp->recs[rp->nr_recs++] = (struct ts_ring_record){
			.data = base + hdr + data, .size = (int)length, .ts = ts };
		off = data + length;
	}
	return 0;
}
