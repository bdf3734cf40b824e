/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.h - text from the data (task names, kernel symbols, paths) written
 * into the outputs without breaking them: a task can name itself anything,
 * including a newline or a terminal's escape sequence.
 */
#ifndef TICKSTAT_TEXT_H
#define TICKSTAT_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int ts_utf8_len(const char *s, uint32_t *cp);
const char *ts_text_safe(char *buf, size_t len, const char *s);
void ts_json_string(FILE *f, const char *s);
void ts_csv_field(FILE *f, const char *s);
const char *ts_text_dur(char *buf, size_t len, uint64_t ns);
void ts_xml_text(FILE *f, const char *s);

#endif
