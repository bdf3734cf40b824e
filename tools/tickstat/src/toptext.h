/* SPDX-License-Identifier: GPL-2.0 */
/*
 * toptext.h - tickstat top's screen as lines of text, from a snapshot
 * (topsnap.h) and the terminal's size: no terminal and no kernel needed,
 * so the layout is tested on the host.
 */
#ifndef TICKSTAT_TOPTEXT_H
#define TICKSTAT_TOPTEXT_H

#include <stddef.h>
#include <stdio.h>

#include "topsnap.h"

struct ts_top_view {
	int rows;			/* the terminal's size; 0 in plain mode */
	int cols;
	int plain;			/* not a terminal: every CPU, lines not cut */
	const char *cpus;		/* the watched CPUs, as a list */
	double interval_s;		/* the refresh interval asked for */
};

int ts_top_worse(const struct ts_top_cpu *a, const struct ts_top_cpu *b);
int ts_top_render(FILE *f, const struct ts_top_snap *s, const struct ts_top_view *v);
void ts_top_waiting(FILE *f, const struct ts_top_view *v);
void ts_top_frame(FILE *f, const char *text, size_t len);

#endif
