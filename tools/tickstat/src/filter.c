// SPDX-License-Identifier: GPL-2.0
/*
 * filter.c - ftrace event filters that pass the monitored CPUs only, so
 * that the housekeeping CPUs' events never reach the ring buffers
 * (docs/metrics.md, "Causes").  The kernel takes a filter of up to a page
 * (trace_events.c): the builders fail rather than cut one short.
 */
#include <stdarg.h>
#include <stdio.h>

#include "filter.h"

/* Append to a filter; -1 when it does not fit. */
static int add(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *used)
		return -1;
	*used += n;
	return 0;
}

/*
 * ts_filter_cpus - a filter that passes the CPUs of set, on the field
 * named: "(F >= 1 && F <= 3) || F == 5".  Returns 0, or -1 when the set is
 * empty or too scattered for the buffer.
 */
int ts_filter_cpus(const struct ts_cpuset *set, const char *field, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int lo = 0; lo < TS_CPUSET_WORDS * 64; lo++) {
		int hi = lo;

		if (!ts_cpuset_has(set, lo))
			continue;
		while (hi + 1 < TS_CPUSET_WORDS * 64 && ts_cpuset_has(set, hi + 1))
			hi++;
		if (lo == hi ? add(buf, len, &used, "%s%s == %d", used ? " || " : "", field, lo) :
		    add(buf, len, &used, "%s(%s >= %d && %s <= %d)", used ? " || " : "", field, lo,
			field, hi))
			return -1;
		lo = hi;
	}
	return used ? 0 : -1;
}

/* Is [lo, lo + n) all in set? */
static int all_in(const struct ts_cpuset *set, int lo, int n)
{
	for (int c = lo; c < lo + n; c++)
		if (!ts_cpuset_has(set, c))
			return 0;
	return 1;
}

/*
 * One aligned block of 2^j CPUs from lo, among CPUs of `bits` bits: the
 * bits above j must be lo's.  An ftrace filter has no mask-and-compare:
 * "flags & M" is true when any bit of M is set (trace_events_filter.c,
 * OP_BAND), so each bit that must be set is a test of its own, and those
 * that must be clear are one: "flags & 4 && !(flags & 3)".
 */
static int block(char *buf, size_t len, size_t *used, int lo, int j, int bits)
{
	unsigned int clear = 0;
	int sep = 0;

	for (int b = j; b < bits; b++) {
		if (!(lo & (1 << b)))
			clear |= 1u << b;
		else if (add(buf, len, used, "%sflags & %u", sep++ ? " && " : "", 1u << b))
			return -1;
	}
	if (clear && add(buf, len, used, "%s!(flags & %u)", sep ? " && " : "", clear))
		return -1;
	return 0;
}

/*
 * ts_filter_timer_target - a filter on timer:timer_start that passes the
 * timers armed for a CPU of set, from any CPU: the low bits of their flags
 * (TIMER_CPUMASK) name the CPU whose base holds them.  The bits above the
 * highest CPU of the set must all be clear, "!(flags & HIGH)"; the CPUs of
 * the set, cut into the largest aligned blocks of 2^j, each fix the bits
 * above j.  A range of CPUs takes at most two blocks per bit.  Returns 0,
 * or -1 when the set is empty or does not fit.
 */
int ts_filter_timer_target(const struct ts_cpuset *set, char *buf, size_t len)
{
	int top = ts_cpuset_max(set), bits = 0, blocks = 0;
	unsigned int high;
	size_t used = 0;

	buf[0] = '\0';
	if (top < 0 || (unsigned int)top > TS_TIMER_CPUMASK)
		return -1;
	while (top >> bits)
		bits++;
	high = TS_TIMER_CPUMASK & ~((1u << bits) - 1);
	if (high && add(buf, len, &used, "!(flags & %u)", high))
		return -1;
	if (all_in(set, 0, 1 << bits))
		return used ? 0 : -1;	/* every CPU below: the bits above say it all */
	for (int lo = 0; lo <= top;) {
		int j = 0;

		if (!ts_cpuset_has(set, lo)) {
			lo++;
			continue;
		}
		while (j < bits && !(lo & (1 << j)) && all_in(set, lo, 2 << j))
			j++;
		if (add(buf, len, &used, "%s(", !blocks ? (used ? " && (" : "(") : " || ") ||
		    block(buf, len, &used, lo, j, bits) || add(buf, len, &used, ")"))
			return -1;
		blocks++;
		lo += 1 << j;
	}
	return add(buf, len, &used, ")");
}
