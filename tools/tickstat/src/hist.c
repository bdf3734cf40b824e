// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - log-linear duration histogram (see hist.h).
 */
#include "hist.h"

/* Bucket of a value: values below TS_HIST_SUB get a bucket each. */
static int bucket_of(uint64_t val)
{
	int msb, shift;

	if (val < TS_HIST_SUB)
		return (int)val;
	msb = 63 - __builtin_clzll(val);
	shift = msb - TS_HIST_SUB_BITS;
	return (msb - TS_HIST_SUB_BITS + 1) * TS_HIST_SUB +
	       (int)((val >> shift) & (TS_HIST_SUB - 1));
}

/* Largest value that falls into a bucket. */
static uint64_t bucket_upper(int b)
{
	int group = b / TS_HIST_SUB, sub = b % TS_HIST_SUB;
	int shift;

	if (group == 0)
		return (uint64_t)b;
	shift = group - 1;
	if (group + TS_HIST_SUB_BITS - 1 >= 63 && sub == TS_HIST_SUB - 1)
		return UINT64_MAX;
	return (((uint64_t)(TS_HIST_SUB + sub + 1)) << shift) - 1;
}

/* ts_hist_add - count one value */
void ts_hist_add(struct ts_hist *h, uint64_t val)
{
	if (!h->count || val < h->min)
		h->min = val;
	if (val > h->max)
		h->max = val;
	h->count++;
	h->total += val;
	h->bucket[bucket_of(val)]++;
}

/*
 * ts_hist_percentile - the value below or at which pct percent of the
 * values lie, read from the buckets and clamped to [min, max]; 0 when empty.
 */
uint64_t ts_hist_percentile(const struct ts_hist *h, double pct)
{
	uint64_t rank, seen = 0, val;

	if (!h->count)
		return 0;
	rank = (uint64_t)(pct / 100.0 * (double)h->count + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (int b = 0; b < TS_HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= rank) {
			val = bucket_upper(b);
			if (val > h->max)
				val = h->max;
			if (val < h->min)
				val = h->min;
			return val;
		}
	}
	return h->max;
}

/*
 * ts_hist_log2_count - how many values v satisfy 2^(power-1) <= v < 2^power
 * (power 0 counts the zeros).
 */
uint64_t ts_hist_log2_count(const struct ts_hist *h, int power)
{
	uint64_t lo, hi, n = 0;

	if (power < 0 || power > 64)
		return 0;
	lo = power ? 1ULL << (power - 1) : 0;
	hi = power == 64 ? UINT64_MAX : (1ULL << power) - 1;
	if (power == 0)
		hi = 0;
	for (int b = 0; b < TS_HIST_BUCKETS; b++) {
		uint64_t up = bucket_upper(b);

		if (up >= lo && up <= hi)
			n += h->bucket[b];
	}
	return n;
}
