// SPDX-License-Identifier: GPL-2.0
/*
 * unit_ringpage.c - the page walker (ringpage.c) on pages built by hand:
 * each kind of record the kernel writes, the missed-events count, and each
 * way a page can lie about its lengths.
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "ringpage.h"
#include "unit_ringpage.h"

#define PAGE	4096
#define HDR	16			/* u64 time stamp, 64-bit commit */

struct page {
	unsigned char b[PAGE];
	uint32_t len;
};

static void start(struct page *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->b, &ts, 8);
	p->len = HDR;
}

static void put32(struct page *p, uint32_t v)
{
	memcpy(p->b + p->len, &v, 4);
	p->len += 4;
}

/* a record of type_len words of data: its first word is id */
static void small(struct page *p, uint32_t delta, uint32_t words, uint32_t id)
{
	put32(p, delta << 5 | words);
	put32(p, id);
	for (uint32_t i = 1; i < words; i++)
		put32(p, i);
}

static void commit(struct page *p, uint64_t flags)
{
	uint64_t c = (p->len - HDR) | flags;

	memcpy(p->b + 8, &c, 8);
}

static struct ts_ring_record recs[PAGE / 8 + 1];

static int parse(struct page *p, struct ts_ring_page *rp)
{
	memset(rp, 0, sizeof(*rp));
	rp->recs = recs;
	rp->max_recs = sizeof(recs) / sizeof(recs[0]);
	return ts_ring_page_parse(rp, p->b, PAGE, 8);
}

static uint32_t id_of(const struct ts_ring_record *r)
{
	uint32_t v;

	memcpy(&v, r->data, 4);
	return v;
}

/* every kind of record, and the time each one leaves */
void test_ringpage_kinds(void)
{
	struct ts_ring_page rp;
	struct page p;

	start(&p, 1000);
	small(&p, 5, 2, 11);			/* 1005, 8 bytes */
	put32(&p, 7 << 5 | 30);			/* time extend: + (3 << 27) + 7 */
	put32(&p, 3);
	small(&p, 0, 1, 12);			/* at the extended time */
	put32(&p, 9 << 5 | 29);			/* a discarded event: 12 bytes, + 9 */
	put32(&p, 12);
	put32(&p, 0xdead);
	put32(&p, 0xbeef);
	put32(&p, 1 << 5 | 0);			/* type_len 0: its length in a word */
	put32(&p, 4 + 120);			/* the length word and 120 bytes */
	put32(&p, 13);
	p.len += 116;
	put32(&p, 2 << 5 | 31);			/* absolute: (1 << 27) | 2 */
	put32(&p, 1);
	small(&p, 4, 1, 14);
	commit(&p, 0);
	CU_ASSERT_EQUAL(parse(&p, &rp), 0);
	CU_ASSERT_EQUAL(rp.nr_recs, 4);
	CU_ASSERT_EQUAL(rp.missed, 0);
	CU_ASSERT_EQUAL(id_of(&recs[0]), 11);
	CU_ASSERT_EQUAL(recs[0].size, 8);
	CU_ASSERT_EQUAL(recs[0].ts, 1005);
	CU_ASSERT_EQUAL(id_of(&recs[1]), 12);
	CU_ASSERT_EQUAL(recs[1].size, 4);
	CU_ASSERT_EQUAL(recs[1].ts, 1005 + (3ULL << 27) + 7);
	CU_ASSERT_EQUAL(id_of(&recs[2]), 13);
	CU_ASSERT_EQUAL(recs[2].size, 120);
	CU_ASSERT_EQUAL(recs[2].ts, 1005 + (3ULL << 27) + 7 + 9 + 1);
	CU_ASSERT_EQUAL(id_of(&recs[3]), 14);
	CU_ASSERT_EQUAL(recs[3].ts, (1ULL << 27) + 2 + 4);
	/* an empty page has no records */
	start(&p, 1);
	commit(&p, 0);
	CU_ASSERT_EQUAL(parse(&p, &rp), 0);
	CU_ASSERT_EQUAL(rp.nr_recs, 0);
}

/* the events the kernel lost before the page: counted, or only flagged */
void test_ringpage_missed(void)
{
	struct ts_ring_page rp;
	struct page p;

	start(&p, 1);
	small(&p, 0, 1, 1);
	commit(&p, 1ULL << 31 | 1ULL << 30);
	memcpy(p.b + p.len, &(uint64_t){ 4242 }, 8);
	CU_ASSERT_EQUAL(parse(&p, &rp), 0);
	CU_ASSERT_EQUAL(rp.missed, 1);
	CU_ASSERT_EQUAL(rp.missed_count, 4242);
	CU_ASSERT_EQUAL(rp.nr_recs, 1);
	commit(&p, 1ULL << 31);			/* flagged, the count not stored */
	CU_ASSERT_EQUAL(parse(&p, &rp), 0);
	CU_ASSERT_EQUAL(rp.missed, 1);
	CU_ASSERT_EQUAL(rp.missed_count, 0);
	/* a page that starts with a time extend still says it missed some */
	start(&p, 1);
	put32(&p, 30);
	put32(&p, 1);
	small(&p, 0, 1, 1);
	commit(&p, 1ULL << 31 | 1ULL << 30);
	memcpy(p.b + p.len, &(uint64_t){ 7 }, 8);
	CU_ASSERT_EQUAL(parse(&p, &rp), 0);
	CU_ASSERT_EQUAL(rp.missed_count, 7);
}

/* each length that lies is an error, never a read past the page */
void test_ringpage_lies(void)
{
	struct ts_ring_page rp;
	struct page p;

	start(&p, 1);				/* data past the commit */
	small(&p, 0, 4, 1);
	p.len -= 4;
	commit(&p, 0);
	CU_ASSERT_EQUAL(parse(&p, &rp), -1);
	start(&p, 1);				/* type_len 0, shorter than its word */
	put32(&p, 0);
	put32(&p, 3);
	commit(&p, 0);
	CU_ASSERT_EQUAL(parse(&p, &rp), -1);
	start(&p, 1);				/* type_len 0, past the page */
	put32(&p, 0);
	put32(&p, 0xfffffff0);
	commit(&p, 0);
	CU_ASSERT_EQUAL(parse(&p, &rp), -1);
	start(&p, 1);				/* a commit larger than the page */
	small(&p, 0, 1, 1);
	commit(&p, PAGE);
	CU_ASSERT_EQUAL(parse(&p, &rp), -1);
	start(&p, 1);				/* a header cut by the commit */
	small(&p, 0, 1, 1);
	p.len += 2;
	commit(&p, 0);
	CU_ASSERT_EQUAL(parse(&p, &rp), -1);
	start(&p, 1);				/* a time extend cut by the commit */
	put32(&p, 30);
	commit(&p, 0);
	CU_ASSERT_EQUAL(parse(&p, &rp), -1);
	/* padding that runs past the commit ends the page, as kbuffer did */
	start(&p, 1);
	small(&p, 0, 1, 1);
	put32(&p, 29);
	put32(&p, 0xffff);
	commit(&p, 0);
	CU_ASSERT_EQUAL(parse(&p, &rp), 0);
	CU_ASSERT_EQUAL(rp.nr_recs, 1);
	/* more records than the caller has room for */
	start(&p, 1);
	for (int i = 0; i < 10; i++)
		small(&p, 0, 1, i);
	commit(&p, 0);
	memset(&rp, 0, sizeof(rp));
	rp.recs = recs;
	rp.max_recs = 9;
	CU_ASSERT_EQUAL(ts_ring_page_parse(&rp, p.b, PAGE, 8), -1);
	/* a page of 32-bit longs */
	start(&p, 5);
	p.len = 12;
	small(&p, 1, 1, 77);
	memcpy(p.b + 8, &(uint32_t){ p.len - 12 }, 4);
	memset(&rp, 0, sizeof(rp));
	rp.recs = recs;
	rp.max_recs = 9;
	CU_ASSERT_EQUAL(ts_ring_page_parse(&rp, p.b, PAGE, 4), 0);
	CU_ASSERT_EQUAL(rp.nr_recs, 1);
	CU_ASSERT_EQUAL(id_of(&recs[0]), 77);
	CU_ASSERT_EQUAL(recs[0].ts, 6);
}
