// SPDX-License-Identifier: GPL-2.0
/*
 * toptext.c - tickstat top's screen (toptext.h).
 *
 * A title, a header and a row per CPU: its tick state now, and over the
 * last interval its tick interrupts per second, its tickless share, the
 * reason that held its tick longest and the cause that began most often,
 * then its lost events since the start.  The reason and the cause come
 * last: they are the only columns of any width, and a narrow terminal
 * cuts them first.
 *
 * When every CPU fits, they come in CPU order, which does not move under
 * the reader's eyes.  When not, the worst come first (ts_top_worse), as
 * many as fit, and the last line says how many are not shown.  In plain
 * mode (standard output is no terminal) every CPU is shown in CPU order
 * and no line is cut.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "toptext.h"

#define HEAD_LINES	2	/* the title and the header */

/*
 * ts_top_worse - is CPU a worse than b?  A lower tickless share is worse;
 * then more ticks per second, more lost events, a lower CPU number.  A CPU
 * whose tick state the interval did not tell (offline, lost events) has no
 * share and comes after those that have one.
 */
int ts_top_worse(const struct ts_top_cpu *a, const struct ts_top_cpu *b)
{
	int ka = a->tickless >= 0, kb = b->tickless >= 0;

	if (ka != kb)
		return ka;
	if (ka && a->tickless != b->tickless)
		return a->tickless < b->tickless;
	if (a->tick_rate != b->tick_rate)
		return a->tick_rate > b->tick_rate;
	if (a->lost != b->lost)
		return a->lost > b->lost;
	return a->cpu < b->cpu;
}

static int by_worst(const void *x, const void *y, void *ctx)
{
	const struct ts_top_snap *s = ctx;
	const struct ts_top_cpu *a = &s->cpus[*(const int *)x], *b = &s->cpus[*(const int *)y];

	return ts_top_worse(a, b) ? -1 : ts_top_worse(b, a) ? 1 : 0;
}

static int by_cpu(const void *x, const void *y, void *ctx)
{
	const struct ts_top_snap *s = ctx;

	return s->cpus[*(const int *)x].cpu - s->cpus[*(const int *)y].cpu;
}

/*
 * Write line to f cut to cols columns (one column per UTF-8 character:
 * what the data brings is made safe ASCII or printable UTF-8 before), or
 * whole when cols is 0.
 */
static void put_line(FILE *f, const char *line, int cols)
{
	const char *p = line;
	uint32_t cp;

	for (int col = 0; *p && (!cols || col < cols); col++) {
		int n = ts_utf8_len(p, &cp);

		p += n ? n : 1;
	}
	fprintf(f, "%.*s\n", (int)(p - line), line);
}

static const char *tick_name(const struct ts_top_cpu *c)
{
	return c->online ? ts_tick_state_name(c->tick) : "offline";
}

static void row(FILE *f, const struct ts_top_cpu *c, int cols)
{
	char rate[16], share[16], lost[24], line[512];

	if (c->tick_rate < 0)
		snprintf(rate, sizeof(rate), "-");
	else
		snprintf(rate, sizeof(rate), "%.1f", c->tick_rate);
	if (c->tickless < 0)
		snprintf(share, sizeof(share), "-");
	else
		snprintf(share, sizeof(share), "%.3f", c->tickless);
	snprintf(lost, sizeof(lost), "%llu%s", (unsigned long long)c->lost,
		 c->lost_unknown ? "+" : "");
	snprintf(line, sizeof(line), "%4d  %-8s %8s %9s %6s  %-20.20s %s", c->cpu, tick_name(c),
		 rate, share, lost, c->reason[0] ? c->reason : "-", c->cause[0] ? c->cause : "-");
	put_line(f, line, cols);
}

static void head(FILE *f, const struct ts_top_snap *s, const struct ts_top_view *v, int cols)
{
	char line[512];

	snprintf(line, sizeof(line), "tickstat top  CPUs %s  every %g s  up %.1f s%s", v->cpus,
		 v->interval_s, s->elapsed_ns / 1e9, v->plain ? "" : "  (q quits)");
	put_line(f, line, cols);
	snprintf(line, sizeof(line), "%4s  %-8s %8s %9s %6s  %-20s %s", "CPU", "TICK", "TICKS/S",
		 "TICKLESS", "LOST", "TOP REASON", "TOP CAUSE");
	put_line(f, line, cols);
}

/*
 * ts_top_render - the screen's lines for snapshot s, each ending in a
 * newline: at most v->rows of them, none wider than v->cols (unless plain).
 * Returns how many CPUs were left out for want of rows.
 */
int ts_top_render(FILE *f, const struct ts_top_snap *s, const struct ts_top_view *v)
{
	int cols = v->plain ? 0 : v->cols, room = s->nr, hidden = 0, lines = 0;
	int *order = malloc((s->nr ? s->nr : 1) * sizeof(*order));
	char line[128];

	if (!order)
		return -1;
	for (int i = 0; i < s->nr; i++)
		order[i] = i;
	if (!v->plain && HEAD_LINES + s->nr > v->rows) {
		/* the hidden line takes a row too */
		room = v->rows - HEAD_LINES - 1;
		if (room < 0)
			room = 0;
		hidden = s->nr - room;
		qsort_r(order, s->nr, sizeof(*order), by_worst, (void *)s);
	} else {
		qsort_r(order, s->nr, sizeof(*order), by_cpu, (void *)s);
	}
	if (v->plain || v->rows >= HEAD_LINES) {
		head(f, s, v, cols);
		lines = HEAD_LINES;
	}
	for (int i = 0; i < room; i++)
		row(f, &s->cpus[order[i]], cols);
	if (hidden && (v->plain || lines + room < v->rows)) {
		snprintf(line, sizeof(line), "(%d more CPU%s not shown: too few rows; the worst are above)",
			 hidden, hidden > 1 ? "s" : "");
		put_line(f, line, cols);
	}
	free(order);
	return hidden;
}

/* ts_top_waiting - the screen before the first numbers: when they come */
void ts_top_waiting(FILE *f, const struct ts_top_view *v)
{
	char line[640];

	snprintf(line, sizeof(line), "tickstat top  CPUs %s  every %g s: the first numbers come in %g s%s",
		 v->cpus, v->interval_s, v->interval_s, v->plain ? "" : "  (q quits)");
	if (v->plain || v->rows > 0)
		put_line(f, line, v->plain ? 0 : v->cols);
}

/*
 * ts_top_frame - lines (each ending in a newline) as drawn in place on a
 * terminal: from the top left corner, each line cleared to its end, the
 * rest of the screen cleared; no newline after the last line, which would
 * scroll the screen.  A newline, not CR LF: the terminal's output processing
 * (ONLCR, which top leaves as it finds it) adds the CR, and a CR of our own
 * reached the screen as CR CR LF.
 */
void ts_top_frame(FILE *f, const char *text, size_t len)
{
	fputs("\033[H", f);
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '\n') {
			fputc(text[i], f);
			continue;
		}
		fputs("\033[K", f);
		if (i + 1 < len)
			fputc('\n', f);
	}
	fputs("\033[J", f);
}
