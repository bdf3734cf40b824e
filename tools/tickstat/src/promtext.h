/* SPDX-License-Identifier: GPL-2.0 */
/*
 * promtext.h - the Prometheus text exposition format (version 0.0.4),
 * written into a memory buffer that is reused from one update to the next.
 *
 * A family is its HELP and TYPE lines followed by all of its samples; the
 * caller writes each family's samples together, as the format requires.
 * Labels are given as a NULL-terminated array of name, value pairs; values
 * are escaped here.
 */
#ifndef TICKSTAT_PROMTEXT_H
#define TICKSTAT_PROMTEXT_H

#include <stddef.h>
#include <stdint.h>

#define TS_PROM_CONTENT_TYPE	"text/plain; version=0.0.4; charset=utf-8"

struct ts_prom {
	char *buf;
	size_t len;
	size_t cap;
	int oom;		/* a write did not fit in memory: the text is incomplete */
};

void ts_prom_reset(struct ts_prom *p);
void ts_prom_free(struct ts_prom *p);
void ts_prom_family(struct ts_prom *p, const char *name, const char *type, const char *help);
void ts_prom_u64(struct ts_prom *p, const char *name, const char * const *labels, uint64_t v);
void ts_prom_seconds(struct ts_prom *p, const char *name, const char * const *labels,
		     uint64_t ns);
void ts_prom_double(struct ts_prom *p, const char *name, const char * const *labels, double v);

#endif
