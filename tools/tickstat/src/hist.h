/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - bounded-memory histogram of durations.
 *
 * Log-linear buckets: each power of two is split into TS_HIST_SUB equal
 * parts, so a percentile read from the buckets is within 1/TS_HIST_SUB of
 * the true value (12.5%); min, max, count and total are exact.
 */
#ifndef TICKSTAT_HIST_H
#define TICKSTAT_HIST_H

#include <stdint.h>

#define TS_HIST_SUB_BITS	3
#define TS_HIST_SUB		(1 << TS_HIST_SUB_BITS)
#define TS_HIST_BUCKETS		(64 * TS_HIST_SUB)

struct ts_hist {
	uint64_t count;
	uint64_t total;
	uint64_t min;
	uint64_t max;
	uint64_t bucket[TS_HIST_BUCKETS];
};

void ts_hist_add(struct ts_hist *h, uint64_t val);
uint64_t ts_hist_percentile(const struct ts_hist *h, double pct);
uint64_t ts_hist_log2_count(const struct ts_hist *h, int power);

#endif
