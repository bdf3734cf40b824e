/* SPDX-License-Identifier: GPL-2.0 */
/*
 * causeout.h - the causes in the reports: the table's section and each
 * CPU's "causes" in the JSON (docs/metrics.md, "Causes").
 */
#ifndef TICKSTAT_CAUSEOUT_H
#define TICKSTAT_CAUSEOUT_H

#include <stdio.h>

#include "analysis.h"

const char *ts_cause_unknown_why(const struct ts_analysis *an, int type);
const char *ts_armers_unknown_why(const struct ts_analysis *an, int type);
void ts_table_causes(FILE *f, const struct ts_analysis *an, int top);
void ts_json_causes(FILE *f, const struct ts_analysis *an, const struct ts_cpu *c);

#endif
