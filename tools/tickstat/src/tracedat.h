/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat.h - the input files: trace.dat, tickstat's recordings and
 * trace-cmd's alike.
 */
#ifndef TICKSTAT_TRACEDAT_H
#define TICKSTAT_TRACEDAT_H

#include <stddef.h>

#include "analysis.h"

int ts_read_file(const char *path, struct ts_analysis *an, char *err, size_t errlen);
int ts_is_tickstat_recording(const char *path);

#endif
