/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pagesum.h - the sum of a recording's pages that its end marks carry, so
 * that a reader can tell a damaged or mismatched page.
 *
 * Recordings are summed with Fletcher's checksum over 32-bit words
 * (Fletcher-64); those of a tickstat before it with zlib's CRC-32, which a
 * reader still checks.  The start mark says which (page_sum=).
 */
#ifndef TICKSTAT_PAGESUM_H
#define TICKSTAT_PAGESUM_H

#include <stddef.h>
#include <stdint.h>

enum ts_page_sum_kind {
	TS_SUM_CRC32,		/* no page_sum= in the start mark */
	TS_SUM_FLETCHER64,	/* page_sum=fletcher64 */
};

uint64_t ts_fletcher64(uint64_t sum, const void *buf, size_t len);
uint64_t ts_page_sum(enum ts_page_sum_kind kind, uint64_t sum, const void *buf, size_t len);
const char *ts_page_sum_name(enum ts_page_sum_kind kind);
int ts_page_sum_parse(const char *name, enum ts_page_sum_kind *kind);

#endif
