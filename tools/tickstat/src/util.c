// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - messages, CPU lists and small helpers.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

int ts_verbose;

/* err_msg - a one-line error on stderr, prefixed with the program name */
void err_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("tickstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* info_msg - progress on stderr, unless -q */
void info_msg(const char *fmt, ...)
{
	va_list ap;

	if (ts_verbose < 0)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void debug_msg(const char *fmt, ...)
{
	va_list ap;

	if (ts_verbose < 1)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/*
 * ts_cpuset_parse - parse a kernel CPU list ("1-3,5"); an empty string or
 * "\n" is the empty set.  Returns 0, or -1 on a malformed list.
 */
int ts_cpuset_parse(struct ts_cpuset *set, const char *list)
{
	const char *p = list;

	memset(set, 0, sizeof(*set));
	/* a newline may end the list (sysfs writes one), nothing may follow it */
	if (strchr(list, '\n') && strchr(list, '\n')[1])
		return -1;
	while (*p && *p != '\n') {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			return -1;
		errno = 0;
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			b = strtol(end + 1, &end, 10);
		}
		if (errno || a < 0 || b < a || b >= TS_CPUSET_WORDS * 64)
			return -1;
		for (long c = a; c <= b; c++)
			ts_cpuset_add(set, (int)c);
		p = end;
		if (*p == ',' && isdigit((unsigned char)p[1]))
			p++;		/* "1,": a comma must lead to a number */
		else if (*p && *p != '\n')
			return -1;
	}
	return 0;
}

/* one element of a list: CPU c, or c-e */
static int element(char *buf, size_t len, int first, int c, int e)
{
	if (e == c)
		return snprintf(buf, len, "%s%d", first ? "" : ",", c);
	return snprintf(buf, len, "%s%d-%d", first ? "" : ",", c, e);
}

/*
 * ts_cpuset_format_from - the CPUs from "from" on, in whole elements while
 * they fit buf.  Returns the first CPU left out, or -1 when the list got to
 * its end: a long list cut into pieces that each fit a mark, to be read
 * back as the union of the pieces.  An element takes at most 10 bytes
 * ("1000-1023,"): a buf of fewer than 11 that cannot hold the first one
 * gets "" and -1, so that a caller's loop ends.
 */
int ts_cpuset_format_from(const struct ts_cpuset *set, int from, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = from < 0 ? 0 : from; c < TS_CPUSET_WORDS * 64; c++) {
		int e = c, n;

		if (!ts_cpuset_has(set, c))
			continue;
		while (ts_cpuset_has(set, e + 1))
			e++;
		n = element(buf + used, len - used, !used, c, e);
		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0';
			return used ? c : -1;
		}
		used += n;
		c = e;
	}
	return -1;
}

/*
 * ts_cpuset_format - the kernel's list notation, "" when empty.  A list
 * that does not fit len ends in "..." after its last whole element, never
 * in a cut number ("0-3,5,..."; "..." alone).  Returns the length of the
 * whole list: len must be more for all of it (TS_CPUSET_TEXT_MAX always is).
 */
size_t ts_cpuset_format(const struct ts_cpuset *set, char *buf, size_t len)
{
	char whole[TS_CPUSET_TEXT_MAX], *cut;
	size_t n;

	ts_cpuset_format_from(set, 0, whole, sizeof(whole));
	n = strlen(whole);
	if (!len)
		return n;
	if (n < len) {
		memcpy(buf, whole, n + 1);
		return n;
	}
	/* the whole elements before a comma that leaves room for ",..." */
	whole[len > 4 ? len - 4 : 0] = '\0';
	cut = strrchr(whole, ',');
	if (cut)
		cut[1] = '\0';
	else
		whole[0] = '\0';
	snprintf(buf, len, "%s...", whole);
	return n;
}

int ts_cpuset_has(const struct ts_cpuset *set, int cpu)
{
	if (cpu < 0 || cpu >= TS_CPUSET_WORDS * 64)
		return 0;
	return !!(set->bits[cpu / 64] & (1ULL << (cpu % 64)));
}

void ts_cpuset_add(struct ts_cpuset *set, int cpu)
{
	if (cpu >= 0 && cpu < TS_CPUSET_WORDS * 64)
		set->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

int ts_cpuset_empty(const struct ts_cpuset *set)
{
	return ts_cpuset_count(set) == 0;
}

/* ts_cpuset_max - the highest CPU in the set, or -1 */
int ts_cpuset_max(const struct ts_cpuset *set)
{
	for (int c = TS_CPUSET_WORDS * 64 - 1; c >= 0; c--)
		if (ts_cpuset_has(set, c))
			return c;
	return -1;
}

int ts_cpuset_count(const struct ts_cpuset *set)
{
	int n = 0;

	for (int i = 0; i < TS_CPUSET_WORDS; i++)
		n += __builtin_popcountll(set->bits[i]);
	return n;
}

/* ts_parse_u64 - a whole decimal or 0x number; -1 on anything else */
int ts_parse_u64(const char *s, uint64_t *val)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*val = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/*
 * ts_parse_dec - a whole decimal number, as users write them ("010" is
 * ten); -1 on anything else
 */
int ts_parse_dec(const char *s, uint64_t *val)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*val = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/*
 * ts_parse_double - a number as users write one on a command line: digits,
 * optionally a point and more digits ("99.9", "10", "0.5").  Everything
 * strtod() would also take is refused, because none of it is meant: a
 * sign, an exponent, hex floats, inf and nan, spaces, an empty string.
 * Returns 0, or -1 (also for a value too large to be finite).
 */
int ts_parse_double(const char *s, double *val)
{
	const char *p = s;
	char *end;

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return -1;
	errno = 0;
	*val = strtod(s, &end);
	return errno || *end || !isfinite(*val) ? -1 : 0;
}

/* the units of a duration, in ns; a bare number is seconds */
static const struct {
	const char *name;
	uint64_t ns;
} duration_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	{ "m", 60000000000ULL }, { "h", 3600000000000ULL }, { "d", 86400000000000ULL },
};

/*
 * ts_parse_duration - a duration as users write one on a command line: a
 * number as ts_parse_double() takes it, then at once a unit (ns, us, ms,
 * s, m, h, d) or none for seconds: "30", "30s", "1m", "500ms", "1.5h".
 * In whole ns, digits below 1 ns dropped.  Everything else is -1: no
 * number, another unit, a space, a sign, more than UINT64_MAX ns (about
 * 584 years).  Whole numbers of ns are computed exactly, not through a
 * double, so "0.1" is 100000000 ns.
 */
int ts_parse_duration(const char *s, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, scale = 1, unit = 0, total;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++)
		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
			return -1;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return -1;
		/* 18 digits keep frac * unit / scale in 128 bits; the rest is below 1 ns */
		for (; isdigit((unsigned char)*p); p++) {
			if (scale < 1000000000000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
		}
	}
	if (!*p) {
		unit = 1000000000;
	} else {
		for (size_t i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++)
			if (!strcmp(p, duration_units[i].name))
				unit = duration_units[i].ns;
		if (!unit)
			return -1;
	}
	if (__builtin_mul_overflow(whole, unit, &total) ||
	    __builtin_add_overflow(total, (uint64_t)((unsigned __int128)frac * unit / scale),
				   &total))
		return -1;
	*ns = total;
	return 0;
}

static void json_newline(FILE *f, int depth)
{
	fputc('\n', f);
	for (int i = 0; i < depth; i++)
		fputs("  ", f);
}

/*
 * ts_json_pretty - write the compact JSON text of len bytes to f indented:
 * a member or an element a line, two spaces a level, "key": value, empty
 * objects and arrays as {} and [].  Strings are copied as they are (their
 * escapes included); whitespace outside them is dropped.  The text is
 * tickstat's own output, so it is not validated: an unbalanced text gives
 * an unbalanced result.  Ends with a newline.
 */
void ts_json_pretty(FILE *f, const char *json, size_t len)
{
	int depth = 0, in_str = 0;

	for (size_t i = 0; i < len; i++) {
		char c = json[i];

		if (in_str) {
			fputc(c, f);
			if (c == '\\' && i + 1 < len)
				fputc(json[++i], f);
			else if (c == '"')
				in_str = 0;
			continue;
		}
		switch (c) {
		case '"':
			in_str = 1;
			fputc(c, f);
			break;
		case '{':
		case '[':
			fputc(c, f);
			if (i + 1 < len && (json[i + 1] == '}' || json[i + 1] == ']')) {
				fputc(json[++i], f);
				break;
			}
			json_newline(f, ++depth);
			break;
		case '}':
		case ']':
			json_newline(f, --depth);
			fputc(c, f);
			break;
		case ',':
			fputc(c, f);
			json_newline(f, depth);
			break;
		case ':':
			fputs(": ", f);
			break;
		case ' ':
		case '\n':
		case '\t':
		case '\r':
			break;
		default:
			fputc(c, f);
		}
	}
	fputc('\n', f);
}

/* ts_now_ns - CLOCK_MONOTONIC, the clock tickstat records events with */
uint64_t ts_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/*
 * ts_is_boot_id - is s a boot id as the kernel writes it
 * (/proc/sys/kernel/random/boot_id, without the newline): a UUID of
 * lowercase hex digits, 8-4-4-4-12?
 */
int ts_is_boot_id(const char *s)
{
	static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

	for (size_t i = 0; i < sizeof(shape); i++) {
		if (shape[i] == 'x' ? !strchr("0123456789abcdef", s[i]) || !s[i] : s[i] != shape[i])
			return 0;
	}
	return 1;
}

/* The first slot to probe for pid: Fibonacci hashing spreads sequential pids. */
static unsigned int pidmap_home(int pid)
{
	return ((uint32_t)pid * 2654435769u) >> (32 - 10) & (TS_PIDMAP_SLOTS - 1);
}

_Static_assert(TS_PIDMAP_SLOTS == 1 << 10, "pidmap_home() shifts for 1024 slots");

/*
 * The slot that holds pid, or the empty one that ends its probe sequence:
 * the map is at most half full, so there always is one.
 */
static unsigned int pidmap_slot(const struct ts_pidmap *m, int pid)
{
	unsigned int s = pidmap_home(pid);

	while (m->slot[s].pid && m->slot[s].pid != pid)
		s = (s + 1) & (TS_PIDMAP_SLOTS - 1);
	return s;
}

/* ts_pidmap_find - the index stored for pid, or -1 (O(1) expected) */
int ts_pidmap_find(const struct ts_pidmap *m, int pid)
{
	unsigned int s;

	if (pid <= 0)
		return -1;
	s = pidmap_slot(m, pid);
	return m->slot[s].pid ? m->slot[s].idx : -1;
}

/*
 * ts_pidmap_insert - pid's index: the one stored, or the next free one
 * (0, 1, 2, ... in order of insertion, *added set).  Returns -1 for a bad
 * pid or when TS_PIDMAP_MAX pids are in: the caller counts what it drops.
 */
int ts_pidmap_insert(struct ts_pidmap *m, int pid, int *added)
{
	unsigned int s;

	*added = 0;
	if (pid <= 0)
		return -1;
	s = pidmap_slot(m, pid);
	if (m->slot[s].pid)
		return m->slot[s].idx;
	if (m->nr == TS_PIDMAP_MAX)
		return -1;
	m->slot[s].pid = pid;
	m->slot[s].idx = m->nr++;
	*added = 1;
	return m->slot[s].idx;
}

/*
 * ts_opt_given_value - getopt_long() refused arg, a long option: was it
 * given a value ("--quiet=1"), where it takes none?  (getopt sets optopt
 * alike for that and for a missing value.)
 */
int ts_opt_given_value(const char *arg)
{
	return arg && !strncmp(arg, "--", 2) && strchr(arg, '=');
}
