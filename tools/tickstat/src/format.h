/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format.h - check event format texts before libtraceevent parses them.
 */
#ifndef TICKSTAT_FORMAT_H
#define TICKSTAT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

char *ts_format_clean(const char *text, size_t len, int header_page);

#endif
