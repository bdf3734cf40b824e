// SPDX-License-Identifier: GPL-2.0
/*
 * format.c - rebuild event format texts from what they must contain.
 *
 * A recording carries the kernel's format files so that reports run
 * anywhere; but libtraceevent's parser is not written for hostile input
 * (a corrupted print fmt crashed it in our fuzzing).  tickstat never
 * prints events, so it keeps only "name:", "ID:" and the field lines, each
 * checked against a strict shape, and gives libtraceevent an empty print
 * fmt.  Anything else is an error.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

#define MAX_DECL	128

struct out {
	char *buf;
	size_t len, cap;
};

static int put(struct out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		size_t cap = (o->cap + n) * 2 + 64;
		char *b = realloc(o->buf, cap);

		if (!b)
			return -1;
		o->buf = b;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
	return 0;
}

static int decl_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == ' ' || c == '*' ||
	       c == '[' || c == ']';
}

/*
 * A declaration is "TYPE... NAME" or "TYPE... NAME[N]": type words of
 * identifiers and '*', one space apart, then an identifier.
 */
static int decl_ok(const char *d, const char *end)
{
	const char *name = end, *p;
	int words = 0;

	while (name > d && name[-1] != ' ')
		name--;
	if (name == d || name[-1] != ' ')
		return 0;
	p = name;
	if (!(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	if (p + 2 == end && p[0] == '[' && p[1] == ']')
		p += 2;		/* a dynamic array, as ftrace:print's "char buf[]" */
	if (p < end) {
		if (*p++ != '[' || p == end || !isdigit((unsigned char)*p))
			return 0;
		while (p < end && isdigit((unsigned char)*p))
			p++;
		if (p + 1 != end || *p != ']')
			return 0;
	}
	for (p = d; p < name - 1; words++) {
		if (*p == '*') {
			p++;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			while (p < name - 1 && (isalnum((unsigned char)*p) || *p == '_'))
				p++;
			/* the type of a __data_loc string: "__data_loc char[] name" */
			if (p + 2 <= name - 1 && p[0] == '[' && p[1] == ']')
				p += 2;
		} else {
			return 0;
		}
		if (p < name - 1 && *p++ != ' ')
			return 0;
	}
	return words > 0;
}

/* Parse "NAME:NUMBER;" at *p, never reading past end; advance past it. */
static int number_item(const char **p, const char *end, const char *name, long *val)
{
	size_t n = strlen(name);
	const char *q;
	int neg = 0;
	long v = 0;

	if ((size_t)(end - *p) < n + 2 || strncmp(*p, name, n) || (*p)[n] != ':')
		return -1;
	q = *p + n + 1;
	if (q < end && *q == '-')
		neg = 1, q++;
	if (q >= end || !isdigit((unsigned char)*q))
		return -1;
	while (q < end && isdigit((unsigned char)*q)) {
		v = v * 10 + (*q++ - '0');
		if (v > 1 << 20)
			return -1;
	}
	if (q >= end || *q != ';')
		return -1;
	*val = neg ? -v : v;
	if (*val < -1)
		return -1;
	*p = q + 1;
	return 0;
}

/*
 * The fields tickstat reads, and the ones libtraceevent needs.  A field of
 * any other name is dropped before parsing: libtraceevent treats some names
 * specially (a field named STA_PR_FMT made it leak in our fuzzing), and
 * tickstat has no use for fields it does not know.
 */
static const char * const known_fields[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"success", "dependency", "global_deps", "cpu_deps", "task_deps", "process_deps",
	"reason", "delta_ns", "stopped_ns", "idle", "idle_loop", "cause", "scope", "target", "sched",
	"prev_sched",
	"caller", "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm",
	"next_pid", "next_prio", "hrtimer", "now", "function", "ip", "buf",
	/* the causes' events (decode.c) */
	"work", "timer", "irq", "name", "vec", "vector", "flags",
	/* tickstat's probe events (probedec.c), and prev_cpuN, onlineN */
	"bit", "prev", "mask", "dep", "cpu", "mode", "tif", "softirq", "tdc", "full", "entry",
	"ret",
	/* header_page */
	"timestamp", "commit", "overwrite", "data",
};

static int known_field(const char *name, size_t len)
{
	const char *bracket = memchr(name, '[', len);

	if (bracket)
		len = bracket - name;
	if (len > 8 && len < 12 && !strncmp(name, "prev_cpu", 8) &&
	    strspn(name + 8, "0123456789") == len - 8)
		return 1;
	if (len > 6 && len < 9 && !strncmp(name, "online", 6) &&
	    strspn(name + 6, "0123456789") == len - 6)
		return 1;
	for (size_t i = 0; i < sizeof(known_fields) / sizeof(known_fields[0]); i++)
		if (strlen(known_fields[i]) == len && !strncmp(known_fields[i], name, len))
			return 1;
	return 0;
}

/*
 * One field line: "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;" (signed
 * is absent on old kernels).  Appends its clean form.
 */
static int field_line(const char *p, const char *end, struct out *o)
{
	const char *decl, *semi;
	long off, size, sign = -1;
	char line[MAX_DECL + 96];

	if (end - p < 7 || strncmp(p, "\tfield:", 7))
		return -1;
	decl = p + 7;
	semi = memchr(decl, ';', end - decl);
	if (!semi || semi == decl || semi - decl > MAX_DECL)
		return -1;
	for (const char *c = decl; c < semi; c++)
		if (!decl_char(*c))
			return -1;
	if (!decl_ok(decl, semi))
		return -1;
	p = semi + 1;
	if (p >= end || *p++ != '\t' || number_item(&p, end, "offset", &off) ||
	    p >= end || *p++ != '\t' || number_item(&p, end, "size", &size))
		return -1;
	if (p < end && *p == '\t') {
		p++;
		if (number_item(&p, end, "signed", &sign) || sign < 0 || sign > 1)
			return -1;
	}
	if (p != end || off < 0 || size < 0)
		return -1;
	{
		const char *name = semi;

		while (name > decl && name[-1] != ' ')
			name--;
		if (!known_field(name, semi - name))
			return 0;	/* well-formed, but not for us: leave it out */
	}
	snprintf(line, sizeof(line), "\tfield:%.*s;\toffset:%ld;\tsize:%ld;", (int)(semi - decl),
		 decl, off, size);
	if (put(o, line, strlen(line)))
		return -1;
	if (sign >= 0) {
		snprintf(line, sizeof(line), "\tsigned:%ld;", sign);
		if (put(o, line, strlen(line)))
			return -1;
	}
	return put(o, "\n", 1);
}

static int ident_line(const char *p, const char *end, const char *key, int digits,
		      struct out *o)
{
	size_t n = strlen(key);

	if ((size_t)(end - p) <= n || strncmp(p, key, n))
		return -1;
	for (const char *c = p + n; c < end; c++)
		if (digits ? !isdigit((unsigned char)*c) : !(isalnum((unsigned char)*c) || *c == '_'))
			return -1;
	if (end - (p + n) > 64)
		return -1;
	return put(o, p, end - p) || put(o, "\n", 1);
}

/*
 * ts_format_clean - the checked, print-less form of an event format (or,
 * with header_page, of events/header_page).  Returns a malloc()ed string,
 * or NULL when the text does not have the expected shape.
 */
char *ts_format_clean(const char *text, size_t len, int header_page)
{
	const char *p = text, *end = text + len;
	struct out o = { 0 };
	int state = header_page ? 3 : 0, fields = 0;

	/* state: 0 name, 1 ID, 2 "format:", 3 fields, 4 print fmt seen */
	while (p < end && state < 4) {
		const char *nl = memchr(p, '\n', end - p), *eol = nl ? nl : end;
		int bad = 0;

		if (state == 0)
			bad = ident_line(p, eol, "name: ", 0, &o), state = 1;
		else if (state == 1)
			bad = ident_line(p, eol, "ID: ", 1, &o), state = 2;
		else if (state == 2)
			bad = eol - p != 7 || strncmp(p, "format:", 7) || put(&o, "format:\n", 8),
			state = 3;
		else if (eol == p)
			bad = put(&o, "\n", 1);	/* ends the common fields: keep it */
		else if (!header_page && eol - p >= 10 && !strncmp(p, "print fmt:", 10))
			state = 4;
		else if (header_page && eol - p > 8 && !strncmp(p, "\tfield: ", 8)) {
			/* header_page writes "field: TYPE" with a space */
			char tmp[MAX_DECL + 96];

			if (eol - p >= (long)sizeof(tmp))
				bad = 1;
			else {
				snprintf(tmp, sizeof(tmp), "\tfield:%.*s", (int)(eol - p - 8), p + 8);
				bad = field_line(tmp, tmp + strlen(tmp), &o);
				fields++;
			}
		} else {
			bad = field_line(p, eol, &o);
			fields++;
		}
		if (bad) {
			free(o.buf);
			return NULL;
		}
		p = nl ? nl + 1 : end;
	}
	if ((!header_page && state != 4) || !fields) {
		free(o.buf);
		return NULL;
	}
	if (!header_page && put(&o, "\nprint fmt: \"\"\n", 15)) {
		free(o.buf);
		return NULL;
	}
	return o.buf;
}
