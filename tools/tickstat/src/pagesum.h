/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pagesum.h - the sum of a recording's pages that its end marks carry, so
 * that a reader can tell a damaged or mismatched page.
 *
 * Recordings are summed with Fletcher's checksum over 32-bit words with
 * two 64-bit sums (fletcher128); those of a tickstat before it with zlib's
 * CRC-32, which a reader still checks.  The start mark says which
 * (page_sum=).
 */
#ifndef TICKSTAT_PAGESUM_H
#define TICKSTAT_PAGESUM_H

#include <stddef.h>
#include <stdint.h>

enum ts_sum_kind {
	TS_SUM_CRC32,		/* no page_sum= in the start mark */
	TS_SUM_FLETCHER128,	/* page_sum=fletcher128 */
};

/* a running sum: Fletcher's a and b; a CRC-32 in a alone (b stays 0) */
struct ts_sum {
	uint64_t a, b;
};

/* "CPU=COUNT:" then this many hex digits, and a NUL */
#define TS_SUM_TEXT	33

void ts_fletcher128(struct ts_sum *s, const void *buf, size_t len);
void ts_sum_add(enum ts_sum_kind kind, struct ts_sum *s, const void *buf, size_t len);
void ts_sum_text(enum ts_sum_kind kind, const struct ts_sum *s, char text[TS_SUM_TEXT]);
int ts_sum_parse(enum ts_sum_kind kind, const char *text, struct ts_sum *s);
int ts_sum_same(const struct ts_sum *x, const struct ts_sum *y);
const char *ts_sum_name(enum ts_sum_kind kind);
int ts_sum_kind_parse(const char *name, enum ts_sum_kind *kind);

#endif
