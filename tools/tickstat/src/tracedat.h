/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat.h - trace-cmd's trace.dat as an input.
 */
#ifndef TICKSTAT_TRACEDAT_H
#define TICKSTAT_TRACEDAT_H

#include <stddef.h>

#include "analysis.h"

int ts_read_tracedat(const char *path, struct ts_analysis *an, char *err, size_t errlen);

#endif
