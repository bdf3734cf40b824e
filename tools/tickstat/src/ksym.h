/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksym.h - the one symbol resolver: kernel addresses to names, by streaming
 * through kallsyms text (the live /proc/kallsyms or a trace.dat's section)
 * for just the addresses asked, never building a table of every symbol.
 */
#ifndef TICKSTAT_KSYM_H
#define TICKSTAT_KSYM_H

#include <stddef.h>
#include <stdint.h>

#define TS_KSYM_MAX	(512 + 1)	/* the symbols the analysis keeps, and the tick */
#define TS_KSYM_NAME	128

struct ts_ksym {
	uint64_t want;			/* the address asked */
	uint64_t addr;			/* the text symbol at or below it (0: none) */
	uint64_t next;			/* the first symbol above it (0: none) */
	char type;
	char name[TS_KSYM_NAME];
	char next_type;
	char next_name[TS_KSYM_NAME];
};

/*
 * A query: the tick's own hrtimer function (found by name: tick_sched_timer
 * up to 6.8, tick_nohz_handler from 6.9; 6.1 has both names, and there
 * tick_nohz_handler is the low-resolution clockevent handler, so
 * tick_sched_timer wins when present) and the symbols of some addresses.
 */
struct ts_ksym_query {
	struct ts_ksym sym[TS_KSYM_MAX];
	int nr;
	uint64_t tick_fn;		/* 0: not found */
	char tick_name[32];
	char tick_type;
	uint64_t tick_next;		/* the symbol after it, for a kallsyms subset */
	char tick_next_type;
	char tick_next_name[TS_KSYM_NAME];
	struct ts_ksym cand[3];		/* tick_sched_timer, tick_nohz_handler, tracing_mark_write */
	uint64_t lines;			/* lines seen */
	uint64_t bad_lines;		/* lines not of kallsyms' shape */
	char carry[256];		/* a line cut between two pieces of text */
	size_t carry_len;
};

void ts_ksym_query_init(struct ts_ksym_query *q);
int ts_ksym_want(struct ts_ksym_query *q, uint64_t addr);
void ts_ksym_feed(struct ts_ksym_query *q, const char *text, size_t len);
void ts_ksym_end(struct ts_ksym_query *q);
int ts_ksym_scan_file(struct ts_ksym_query *q, const char *path);
const struct ts_ksym *ts_ksym_get(const struct ts_ksym_query *q, uint64_t addr);
int ts_ksym_format(const struct ts_ksym *s, char *buf, size_t len);
int ts_is_tick_fn_name(const char *name);

#endif
