/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - formatters over the analysis: table, JSON, CSV, Prometheus.
 */
#ifndef TICKSTAT_OUTPUT_H
#define TICKSTAT_OUTPUT_H

#include <stdio.h>

#include "analysis.h"
#include "check.h"

#define TS_JSON_SCHEMA	"tickstat-report/1"
#define TS_REPORT_ID_LEN	17	/* 16 hex digits and the NUL */

struct ts_output_opts {
	int top;		/* culprits and reasons per CPU */
	int no_header;
};

void ts_output_table(FILE *f, const struct ts_analysis *an, const struct ts_output_opts *o);
void ts_output_json(FILE *f, const struct ts_analysis *an, const struct ts_output_opts *o,
		    const struct ts_verdict *v);
void ts_output_prometheus(FILE *f, const struct ts_analysis *an, const struct ts_verdict *v);
int ts_output_csv(FILE *f, const struct ts_analysis *an);
void ts_report_id(const struct ts_analysis *an, char *buf, size_t len);

#endif
