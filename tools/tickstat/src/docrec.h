/* SPDX-License-Identifier: GPL-2.0 */
/*
 * docrec.h - tickstat doctor's audit in a recording, and joined with it.
 *
 * tickstat record audits the host when it starts (audit.c, root "/") and
 * writes the findings as "doctor" marks (docs/recording-format.md): trace
 * markers like its other marks, so that trace-cmd shows them as text, its
 * conversions keep them, and the live report and a recording's report
 * read the same bytes.  The stream applies them to the analysis, whose
 * member doctor is this module's alone (tests/check_analysis_owner.py).
 * A report then says, per finding, what the recording saw of it: the
 * entries of its IRQ, the time its task ran, its work or timer function.
 */
#ifndef TICKSTAT_DOCREC_H
#define TICKSTAT_DOCREC_H

#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "audit.h"

/* bounds of what a recording stores: the marks' text, and findings */
#define TS_DOCTOR_MARK_BUDGET	(48 * 1024)
#define TS_DOCTOR_MAX_STORED	128

/* the audit a recording holds (an->doctor) */
struct ts_doctor_rec {
	struct ts_audit a;		/* findings with seen = -1, as stored */
	int declared;			/* findings= of the header */
	int dropped;			/* findings the recorder left out (the budget) */
	int skip_declared, unread_declared;
	/* ts_doctor_seen() of each finding of a, once the analysis is finished */
	int settled;
	int64_t seen[TS_DOCTOR_MAX_STORED];
};

/* the recorder's side: the marks' tokens, space-separated (malloc'd; NULL: out of memory) */
char *ts_doctor_marks(const struct ts_audit *a);

/* the reader's side: one doctor mark's tokens; 0, or -1 when it does not parse */
int ts_doctor_mark(struct ts_analysis *an, const char *tokens);
const struct ts_doctor_rec *ts_doctor_stored(const struct ts_analysis *an);
void ts_analysis_drop_doctor(struct ts_analysis *an);

/*
 * The join: what the recording saw of a finding.  Returns the count (unit
 * "events" or "ns" in *unit), or -1 when the recording cannot tell (why in
 * how).  how gets the words either way.
 */
int64_t ts_doctor_seen(const struct ts_analysis *an, const struct ts_finding *f,
		       const char **unit, char *how, size_t len);

/*
 * ts_doctor_seen_at - stored finding i's count: as ts_doctor_settle()
 * (analysis.h) found it when the analysis was finished, or worked out now
 * before that.
 */
int64_t ts_doctor_seen_at(const struct ts_analysis *an, int i);

/* copy of the stored audit with seen joined (ts_audit_free it); -1 out of memory */
int ts_doctor_joined(const struct ts_analysis *an, struct ts_audit *out);

/* stored findings this tickstat cannot show: an id it does not know, or no id */
int ts_doctor_unknown(const struct ts_analysis *an);

/* the report's parts: the table's "# doctor" section, the JSON's "doctor" value */
void ts_doctor_table(FILE *f, const struct ts_analysis *an);
void ts_doctor_json(FILE *f, const struct ts_analysis *an);

#endif
