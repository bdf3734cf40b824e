/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_formats.h - event formats the unit tests parse, as the kernel
 * writes them (tracefs events/SYSTEM/NAME/format).
 */
#ifndef TICKSTAT_UNIT_FORMATS_H
#define TICKSTAT_UNIT_FORMATS_H

/* a stock kernel's tick_stop: what the decoder needs first */
static const char tick_stop_fmt[] =
	"name: tick_stop\nID: 41\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int success;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dependency;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"success=%d\", REC->success\n";

#endif
