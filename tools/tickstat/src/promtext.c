// SPDX-License-Identifier: GPL-2.0
/*
 * promtext.c - the Prometheus text exposition format (see promtext.h).
 *
 * Seconds are written from whole nanoseconds as an exact decimal
 * ("12.000345678"), so that a counter read twice differs by exactly what
 * the state machine charged in between, whatever its size.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "promtext.h"
#include "text.h"

static void grow(struct ts_prom *p, size_t need)
{
	size_t cap = p->cap ? p->cap : 4096;
	char *b;

	while (cap < p->len + need + 1)
		cap *= 2;
	if (cap == p->cap)
		return;
	b = realloc(p->buf, cap);
	if (!b) {
		p->oom = 1;
		return;
	}
	p->buf = b;
	p->cap = cap;
}

static void put(struct ts_prom *p, const char *s, size_t n)
{
	grow(p, n);
	if (p->oom)
		return;
	memcpy(p->buf + p->len, s, n);
	p->len += n;
	p->buf[p->len] = '\0';
}

static void puts_(struct ts_prom *p, const char *s)
{
	put(p, s, strlen(s));
}

static void printf_(struct ts_prom *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void printf_(struct ts_prom *p, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		put(p, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* ts_prom_reset - empty the text, keeping its memory for the next update */
void ts_prom_reset(struct ts_prom *p)
{
	p->len = 0;
	p->oom = 0;
	if (p->buf)
		p->buf[0] = '\0';
}

void ts_prom_free(struct ts_prom *p)
{
	free(p->buf);
	memset(p, 0, sizeof(*p));
}

/*
 * Escape a HELP text (backslash, newline) or a label value (also the
 * double quote), as the format asks.  The format is UTF-8, and a scraper
 * rejects the whole exposition for one invalid byte: a task name that is
 * not UTF-8 has each such byte as U+FFFD.
 */
static void escaped(struct ts_prom *p, const char *s, int quote)
{
	while (*s) {
		uint32_t cp;
		int n = ts_utf8_len(s, &cp);

		if (!n) {
			puts_(p, "\xef\xbf\xbd");	/* U+FFFD */
			n = 1;
		} else if (*s == '\\')
			puts_(p, "\\\\");
		else if (*s == '\n')
			puts_(p, "\\n");
		else if (*s == '"' && quote)
			puts_(p, "\\\"");
		else
			put(p, s, n);
		s += n;
	}
}

/* ts_prom_family - the HELP and TYPE lines that start a family */
void ts_prom_family(struct ts_prom *p, const char *name, const char *type, const char *help)
{
	puts_(p, "# HELP ");
	puts_(p, name);
	puts_(p, " ");
	escaped(p, help, 0);
	puts_(p, "\n# TYPE ");
	puts_(p, name);
	puts_(p, " ");
	puts_(p, type);
	puts_(p, "\n");
}

static void name_labels(struct ts_prom *p, const char *name, const char * const *labels)
{
	puts_(p, name);
	if (!labels || !labels[0]) {
		puts_(p, " ");
		return;
	}
	puts_(p, "{");
	for (int i = 0; labels[i] && labels[i + 1]; i += 2) {
		if (i)
			puts_(p, ",");
		puts_(p, labels[i]);
		puts_(p, "=\"");
		escaped(p, labels[i + 1], 1);
		puts_(p, "\"");
	}
	puts_(p, "} ");
}

/* ts_prom_u64 - a sample with an integer value */
void ts_prom_u64(struct ts_prom *p, const char *name, const char * const *labels, uint64_t v)
{
	name_labels(p, name, labels);
	printf_(p, "%" PRIu64 "\n", v);
}

/* ts_prom_seconds - a sample of whole nanoseconds, written as exact seconds */
void ts_prom_seconds(struct ts_prom *p, const char *name, const char * const *labels,
		     uint64_t ns)
{
	name_labels(p, name, labels);
	printf_(p, "%" PRIu64 ".%09" PRIu64 "\n", ns / (uint64_t)1000000000, ns % (uint64_t)1000000000);
}

/* ts_prom_double - a sample with a floating-point value (NaN and infinities as the format spells them) */
void ts_prom_double(struct ts_prom *p, const char *name, const char * const *labels, double v)
{
	name_labels(p, name, labels);
	if (isnan(v))
		puts_(p, "NaN\n");
	else if (isinf(v))
		puts_(p, v > 0 ? "+Inf\n" : "-Inf\n");
	else
		printf_(p, "%.12g\n", v);
}
