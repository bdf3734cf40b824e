// SPDX-License-Identifier: GPL-2.0
/*
 * ksym.c - kernel addresses to names, by streaming through kallsyms text.
 *
 * Debian's /proc/kallsyms has about 200,000 lines (10 MB): a table of all of
 * them would cost more memory than a whole report may use.  A query names
 * the few addresses wanted (the callers of tick dependencies) and keeps, for
 * each, the closest text symbol at or below it and the first one above it
 * (so that a trace.dat's kallsyms subset resolves the same way elsewhere).
 * The tick's own hrtimer function is found by its name, which the running
 * kernel decides: tick_sched_timer up to 6.8, tick_nohz_handler from 6.9.
 */
#include <stdio.h>
#include <string.h>

#include "ksym.h"

static const char * const tick_fn_names[] = { "tick_sched_timer", "tick_nohz_handler" };

/* Looked up by name: the two tick functions, and where trace markers come from. */
static const char * const named[3] = { "tick_sched_timer", "tick_nohz_handler",
				       "tracing_mark_write" };

/* ts_is_tick_fn_name - is this the name of the tick's hrtimer function? */
int ts_is_tick_fn_name(const char *name)
{
	for (size_t i = 0; i < sizeof(tick_fn_names) / sizeof(tick_fn_names[0]); i++)
		if (!strcmp(name, tick_fn_names[i]))
			return 1;
	return 0;
}

void ts_ksym_query_init(struct ts_ksym_query *q)
{
	memset(q, 0, sizeof(*q));
}

/* ts_ksym_want - ask for the symbol of addr.  Returns 0, or -1 when full. */
int ts_ksym_want(struct ts_ksym_query *q, uint64_t addr)
{
	for (int i = 0; i < q->nr; i++)
		if (q->sym[i].want == addr)
			return 0;
	if (q->nr == TS_KSYM_MAX)
		return -1;
	q->sym[q->nr++].want = addr;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * A label that marks where a part of the text starts or ends, like
 * __sched_text_start: it shares its address with the first function there,
 * which is the better name.
 */
static int is_label(const char *name, size_t n)
{
	static const char * const ends[] = { "_text_start", "_text_end" };
	static const char * const starts[] = { "__start_", "__stop_", "_stext", "_etext", "_sinittext" };

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t k = strlen(ends[i]);

		if (n >= k && !memcmp(name + n - k, ends[i], k))
			return 1;
	}
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (n >= strlen(starts[i]) && !memcmp(name, starts[i], strlen(starts[i])))
			return 1;
	return 0;
}

/* A text symbol: t or T (and w/W, weak ones, which are code too). */
static int is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/*
 * One line "ADDR TYPE NAME[\t[MODULE]]": the address in hex, a type letter,
 * the name up to white space.  Anything else is counted and skipped.
 */
static void one_line(struct ts_ksym_query *q, const char *p, size_t len)
{
	const char *end = p + len, *name;
	uint64_t addr = 0;
	size_t n;
	char type;
	int digits = 0;

	q->lines++;
	while (p < end && hexval(*p) >= 0 && digits < 17) {
		addr = addr << 4 | hexval(*p++);
		digits++;
	}
	if (!digits || digits > 16 || end - p < 3 || p[0] != ' ' || p[2] != ' ') {
		q->bad_lines++;
		return;
	}
	type = p[1];
	name = p + 3;
	for (n = 0; name + n < end && name[n] != '\t' && name[n] != ' '; n++)
		;
	if (!n || n >= TS_KSYM_NAME) {
		q->bad_lines++;
		return;
	}
	if (!addr || !is_text(type))
		return;
	for (int k = 0; k < 3; k++) {
		struct ts_ksym *c = &q->cand[k];

		if (!c->addr && n == strlen(named[k]) && !memcmp(name, named[k], n)) {
			c->addr = c->want = addr;
			c->type = type;
			memcpy(c->name, name, n);
			c->name[n] = '\0';
		} else if (c->addr && addr > c->addr && (!c->next || addr < c->next)) {
			c->next = addr;
			c->next_type = type;
			memcpy(c->next_name, name, n);
			c->next_name[n] = '\0';
		}
	}
	for (int i = 0; i < q->nr; i++) {
		struct ts_ksym *s = &q->sym[i];

		if (addr <= s->want && (addr > s->addr || (addr == s->addr &&
		    (!s->name[0] || (is_label(s->name, strlen(s->name)) && !is_label(name, n)))))) {
			s->addr = addr;
			s->type = type;
			memcpy(s->name, name, n);
			s->name[n] = '\0';
		} else if (addr > s->want && (!s->next || addr < s->next)) {
			s->next = addr;
			s->next_type = type;
			memcpy(s->next_name, name, n);
			s->next_name[n] = '\0';
		}
	}
}

/*
 * ts_ksym_feed - a piece of kallsyms text, cut anywhere; lines cut between
 * two pieces are joined.  A line longer than any kallsyms line is skipped.
 */
void ts_ksym_feed(struct ts_ksym_query *q, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p;

		if (q->carry_len || !nl) {
			if (q->carry_len + n < sizeof(q->carry)) {
				memcpy(q->carry + q->carry_len, p, n);
				q->carry_len += n;
			} else {
				q->carry_len = sizeof(q->carry);	/* too long: drop it */
			}
			if (nl) {
				if (q->carry_len < sizeof(q->carry))
					one_line(q, q->carry, q->carry_len);
				else
					q->bad_lines++;
				q->carry_len = 0;
			}
		} else {
			one_line(q, p, n);
		}
		p = nl ? nl + 1 : end;
	}
}

/*
 * ts_ksym_end - the text ended: a last line without a newline counts too;
 * the tick's function is decided.
 */
void ts_ksym_end(struct ts_ksym_query *q)
{
	const struct ts_ksym *c = q->cand[0].addr ? &q->cand[0] : &q->cand[1];

	if (q->carry_len && q->carry_len < sizeof(q->carry))
		one_line(q, q->carry, q->carry_len);
	q->carry_len = 0;
	q->tick_fn = c->addr;
	q->tick_type = c->type;
	snprintf(q->tick_name, sizeof(q->tick_name), "%.31s", c->name);
	q->tick_next = c->next;
	q->tick_next_type = c->next_type;
	snprintf(q->tick_next_name, sizeof(q->tick_next_name), "%s", c->next_name);
}

/* ts_ksym_scan_file - run the query over a kallsyms file (/proc/kallsyms) */
int ts_ksym_scan_file(struct ts_ksym_query *q, const char *path)
{
	char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		ts_ksym_feed(q, buf, n);
	ts_ksym_end(q);
	fclose(f);
	return 0;
}

/* ts_ksym_get - the result for an address asked, if a symbol holds it */
const struct ts_ksym *ts_ksym_get(const struct ts_ksym_query *q, uint64_t addr)
{
	for (int i = 0; i < q->nr; i++)
		if (q->sym[i].want == addr)
			return q->sym[i].addr ? &q->sym[i] : NULL;
	return NULL;
}

/* ts_ksym_format - "function+0xoff" */
int ts_ksym_format(const struct ts_ksym *s, char *buf, size_t len)
{
	return snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(s->want - s->addr));
}
