// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - raw pages to events to the analysis, and tickstat's marks.
 *
 * Pages come from the live ring buffers or from a trace.dat, one CPU's in
 * order.  Nothing in them is trusted: each page is checked before its events
 * are decoded, each mark before it is applied.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "docrec.h"
#include "format.h"
#include "stream.h"
#include "util.h"

static int fail(struct ts_stream *s, const char *msg)
{
	if (!s->err[0])
		snprintf(s->err, sizeof(s->err), "%s", msg);
	return -1;
}

/* The events the analysis reads: only their formats reach libtraceevent. */
static const char * const wanted[][2] = {
	{ "timer", "tick_stop" }, { "timer", "tick_retain" }, { "timer", "tick_restart" },
	{ "timer", "tick_dep_set" }, { "timer", "tick_dep_clear" }, { "timer", "tick_dep_sched" },
	{ "timer", "hrtimer_expire_entry" }, { "sched", "sched_switch" }, { "ftrace", "print" },
	/* the causes (decode.c) */
	{ "workqueue", "workqueue_execute_start" }, { "workqueue", "workqueue_execute_end" },
	{ "workqueue", "workqueue_queue_work" },
	{ "timer", "timer_expire_entry" }, { "timer", "timer_expire_exit" },
	{ "timer", "hrtimer_expire_exit" },
	{ "irq", "irq_handler_entry" }, { "irq", "irq_handler_exit" },
	{ "irq", "softirq_entry" }, { "irq", "softirq_exit" },
	/* who armed the timers (decode.c) */
	{ "timer", "timer_start" }, { "timer", "hrtimer_start" },
};

/* ts_stream_wants_event - does the analysis read this event? */
int ts_stream_wants_event(const char *system, const char *name)
{
	/* the x86 vectors: every NAME_entry and NAME_exit of one class */
	if (!strcmp(system, "irq_vectors")) {
		for (int k = 0; k < TS_NR_VECTORS; k++) {
			size_t n = strlen(ts_vector_name(k));

			if (!strncmp(name, ts_vector_name(k), n) &&
			    (!strcmp(name + n, "_entry") || !strcmp(name + n, "_exit")))
				return 1;
		}
		return 0;
	}
	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
		if (!strcmp(system, wanted[i][0]) && !strcmp(name, wanted[i][1]))
			return 1;
	return ts_probe_wants_event(system, name);
}

/* ts_stream_init - a stream feeding an analysis, for pages of this shape */
int ts_stream_init(struct ts_stream *s, struct ts_analysis *an, int page_size, int long_size)
{
	memset(s, 0, sizeof(*s));
	s->an = an;
	s->end_cpu = -1;
	s->page_size = page_size;
	s->long_size = long_size;
	s->tep = tep_alloc();
	s->sums = calloc(TS_MAX_CPUS, sizeof(*s->sums));
	s->cpu_pages = calloc(TS_MAX_CPUS, sizeof(*s->cpu_pages));
	if (!s->tep || !s->sums || !s->cpu_pages)
		return fail(s, "out of memory");
	tep_set_long_size(s->tep, long_size);
	tep_set_page_size(s->tep, page_size);
	return 0;
}

void ts_stream_free(struct ts_stream *s)
{
	free(s->pagebuf);
	free(s->rp.recs);
	free(s->sums);
	free(s->cpu_pages);
	if (s->tep)
		tep_free(s->tep);
	s->tep = NULL;
	s->pagebuf = NULL;
	s->rp.recs = NULL;
	s->sums = NULL;
	s->cpu_pages = NULL;
}

/* ts_stream_header_page - the ring-buffer page header format */
int ts_stream_header_page(struct ts_stream *s, const char *text, size_t len)
{
	char *t = ts_format_clean(text, len, 1);
	int ret;

	if (!t)
		return fail(s, "malformed header_page format");
	ret = tep_parse_header_page(s->tep, t, strlen(t), s->long_size);
	free(t);
	return ret ? fail(s, "cannot parse the header_page format") : 0;
}

/*
 * ts_stream_format - one event format of a system.  Only the events the
 * analysis reads are checked and parsed; the others are left alone (they
 * stay in a recording for trace-cmd and KernelShark).
 */
int ts_stream_format(struct ts_stream *s, const char *system, const char *text, size_t len)
{
	char name[64], *clean;
	int ret;

	if (s->ready)
		return fail(s, "event format out of place");
	if (len < 6 || strncmp(text, "name: ", 6) || sscanf(text + 6, "%63[A-Za-z0-9_]", name) != 1)
		return fail(s, "malformed event format");
	if (!ts_stream_wants_event(system, name))
		return 0;
	clean = ts_format_clean(text, len, 0);
	if (!clean)
		return fail(s, "malformed event format");
	ret = tep_parse_event(s->tep, clean, strlen(clean), system);
	free(clean);
	return ret ? fail(s, "cannot parse an event format") : 0;
}

/* ts_stream_ready - all formats are in: build the decoder */
int ts_stream_ready(struct ts_stream *s)
{
	if (s->ready)
		return 0;
	s->dec.tick_fn = s->tick_fn;
	if (ts_decoder_init(&s->dec, s->tep, &s->an->caps))
		return fail(s, "no timer:tick_stop format (record with -e timer:tick_stop)");
	s->pagebuf = malloc(s->page_size);
	/* an event is at least its 4-byte header and 4 bytes of data */
	s->rp.max_recs = s->page_size / 8 + 1;
	s->rp.recs = calloc(s->rp.max_recs, sizeof(*s->rp.recs));
	if (!s->pagebuf || !s->rp.recs)
		return fail(s, "out of memory");
	s->ready = 1;
	return 0;
}

/* ---- marks ---- */

/*
 * causes=work,timer,...|none: the cause types the recorder enabled on the
 * monitored CPUs.  A name this tickstat does not know is a newer
 * recorder's: left out, not an error.
 */
static int causes_token(struct ts_analysis *an, char *v)
{
	char *name, *save = NULL;
	int mask = 0, t;

	if (!strcmp(v, "none")) {
		ts_analysis_set_causes_recorded(an, 0);
		return 0;
	}
	for (name = strtok_r(v, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		t = ts_cause_type_from_name(name);
		if (t >= 0)
			mask |= 1 << t;
		else if (!*name)
			return -1;
	}
	ts_analysis_set_causes_recorded(an, mask);
	return 0;
}

/*
 * armers=timer,hrtimer|none: the cause types whose arming (timer_start,
 * hrtimer_start) the recorder traced for the monitored CPUs.  A name this
 * tickstat does not know is a newer recorder's.
 */
static int armers_token(struct ts_analysis *an, char *v)
{
	char *name, *save = NULL;
	int mask = 0, t;

	if (strcmp(v, "none")) {
		for (name = strtok_r(v, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
			t = ts_cause_type_from_name(name);
			if (t == TS_CAUSE_TIMER || t == TS_CAUSE_HRTIMER)
				mask |= 1 << t;
		}
	}
	ts_analysis_set_armers_recorded(an, mask);
	return 0;
}

/*
 * quota.PID=QUOTA/PERIOD (microseconds) or quota.PID=max: a co-runner's
 * cgroup CPU quota, as the recorder read it (a "quotas" mark during the
 * window, the end mark).  A later value replaces an earlier one.  A full
 * table drops the rest (unknown), never the mark.
 */
static int quota_token(struct ts_analysis *an, int pid, const char *v)
{
	unsigned long long quota, period;
	int end = 0;

	if (pid <= 0)
		return -1;
	if (!strcmp(v, "max")) {
		ts_analysis_set_quota(an, pid, -1, 0);
		return 0;
	}
	if (sscanf(v, "%llu/%llu%n", &quota, &period, &end) != 2 || v[end] || !period ||
	    quota > INT64_MAX)
		return -1;
	ts_analysis_set_quota(an, pid, (int64_t)quota, period);
	return 0;
}

/*
 * One "key=value" of a mark.  Unknown keys are ignored so that a newer
 * recorder can add some; bad values are errors.
 */
static int mark_token(struct ts_stream *s, char *tok)
{
	struct ts_analysis *an = s->an;
	char *v = strchr(tok, '=');
	struct ts_cpuset set;
	uint64_t n;
	int cpu;

	if (!v)
		return -1;
	*v++ = '\0';
	if (!strcmp(tok, "start_ns")) {
		if (ts_parse_u64(v, &n))
			return -1;
		ts_analysis_set_start(an, n);
	} else if (!strcmp(tok, "snapshot_ns")) {
		if (ts_parse_u64(v, &n))
			return -1;
		ts_analysis_set_snapshot(an, n);
	} else if (!strcmp(tok, "end_ns")) {
		return ts_parse_u64(v, &s->end_ns);
	} else if (!strcmp(tok, "boot_id")) {
		return ts_analysis_set_boot_id(an, v);
	} else if (!strcmp(tok, "causes")) {
		return causes_token(an, v);
	} else if (!strcmp(tok, "armers")) {
		return armers_token(an, v);
	} else if (!strcmp(tok, "nohz_full") || !strcmp(tok, "cpus") || !strcmp(tok, "monitored") ||
		   !strcmp(tok, "ticks")) {
		if (ts_cpuset_parse(&set, v))
			return -1;
		/* a long list comes in pieces (session.c): the union */
		if (tok[0] == 'n') {
			if (!s->nohz_pieces++)
				ts_analysis_set_nohz_full_list(an, v);
			else
				ts_analysis_add_nohz_full_list(an, v);
		}
		for (cpu = 0; cpu < TS_CPUSET_WORDS * 64; cpu++) {
			if (!ts_cpuset_has(&set, cpu))
				continue;
			if (tok[0] == 'm')
				ts_analysis_monitor(an, cpu);
			else if (tok[0] == 't')	/* those whose tick events were kept */
				ts_analysis_tick_data(an, cpu);
			else if (tok[0] == 'n')
				ts_analysis_set_nohz_full(an, cpu, 1);
			else {	/* every online CPU is recorded, and those outside nohz_full are housekeeping */
				ts_analysis_cover(an, cpu);
				ts_analysis_cpu_online(an, cpu);
			}
		}
	} else if (sscanf(tok, "initial.%d", &cpu) == 1) {
		enum ts_tick_state t;
		enum ts_idle_state i;

		if (ts_parse_state_pair(v, &t, &i))
			return -1;
		ts_analysis_set_initial(an, cpu, t, i);
		s->initial_count++;
	} else if (!strcmp(tok, "initial")) {
		return ts_parse_u64(v, &n) || n != (uint64_t)s->initial_count ? -1 : 0;
	} else if (sscanf(tok, "quota.%d", &cpu) == 1) {
		return quota_token(an, cpu, v);
	} else if (!strcmp(tok, "quotas_dropped")) {
		/*
		 * switches to tasks past the recorder's table: their quota is
		 * unknown (a live session counted them as they came)
		 */
		if (ts_parse_u64(v, &n))
			return -1;
		if (!s->quotas_written)
			ts_analysis_count_quotas_dropped(an, n);
	} else if (sscanf(tok, "overrun.%d", &cpu) == 1) {
		if (ts_parse_u64(v, &n))
			return -1;
		ts_analysis_count_overrun(an, cpu, n);
	} else if (sscanf(tok, "unplaced.%d", &cpu) == 1) {
		if (ts_parse_u64(v, &n))
			return -1;
		ts_analysis_lost_unplaced(an, cpu, n);
	}
	return 0;
}

/*
 * "CPU=COUNT:SUM" of a pages mark: SUM is 32 hex digits for fletcher128,
 * and 8 for the CRC-32 of a tickstat before it
 */
static int pages_token(struct ts_stream *s, char *tok)
{
	unsigned long long count;
	struct ts_sum sum;
	int cpu, at = 0;

	if (s->page_sum_unknown[0])	/* the reader says so, once */
		return 0;
	if (sscanf(tok, "%d=%llu:%n", &cpu, &count, &at) != 2 || !at ||
	    ts_sum_parse(s->page_sum, tok + at, &sum) ||
	    cpu < 0 || cpu >= TS_MAX_CPUS || s->sums[cpu].known)
		return -1;
	s->sums[cpu].count = count;
	s->sums[cpu].sum = sum;
	s->sums[cpu].known = 1;
	return 0;
}

/* the kinds from MK_END on are applied as the stream reaches them */
enum mark_kind {
	MK_START, MK_INITIAL, MK_READY, MK_PROBES, MK_DOCTOR, MK_END, MK_PAGES, MK_DONE,
	MK_QUOTAS, MK_OTHER
};

static enum mark_kind mark_kind(const char *text, size_t len, size_t *skip)
{
	static const char * const kinds[] = { "start: ", "initial: ", "ready: ", "probes: ",
					      "doctor: ", "end: ", "pages: ", "done: ",
					      "quotas: " };
	size_t p = strlen(TS_MARK_PREFIX);

	for (int k = 0; k < MK_OTHER; k++) {
		size_t n = strlen(kinds[k]);

		if (len >= p + n && !memcmp(text + p, kinds[k], n)) {
			*skip = p + n;
			return k;
		}
	}
	return MK_OTHER;
}

/*
 * ts_stream_mark - apply one tickstat mark (its text, from the prefix on),
 * written on cpu.  Returns 0, or -1 for a mark that does not parse.
 */
int ts_stream_mark(struct ts_stream *s, int cpu, const char *text, size_t len)
{
	char buf[TS_MARK_MAX + 24], *tok, *save = NULL;
	enum mark_kind kind;
	size_t skip = 0;
	int ret = 0, done_parts = 0, causes_said = 0, armers_said = 0;

	while (len && (text[len - 1] == '\n' || text[len - 1] == '\0'))
		len--;
	if (len >= sizeof(buf))
		return s->marks_bad++, -1;
	kind = mark_kind(text, len, &skip);
	if (kind == MK_OTHER)
		return 0;
	if (kind == MK_END || kind == MK_PAGES) {
		if (s->end_cpu < 0)
			s->end_cpu = cpu;
		s->end_marks++;
		s->end_crc = crc32(s->end_crc, (const unsigned char *)text, len);
	}
	memcpy(buf, text + skip, len - skip);
	buf[len - skip] = '\0';
	/* the audit at the start (docrec.c): its tokens are its own */
	if (kind == MK_DOCTOR)
		return ts_doctor_mark(s->an, buf) ? (s->marks_bad++, -1) : 0;
	for (tok = strtok_r(buf, " ", &save); tok && !ret; tok = strtok_r(NULL, " ", &save)) {
		if (kind == MK_PAGES) {
			ret = pages_token(s, tok);
		} else if (kind == MK_PROBES) {
			ret = ts_probedec_mark(&s->dec.probes, tok);
		} else if (kind == MK_QUOTAS) {
			/* quotas read during the window; other keys are a later version's */
			ret = strncmp(tok, "quota.", 6) ? 0 : mark_token(s, tok);
		} else if (kind == MK_DONE) {
			unsigned long long v;
			int end = 0;

			/* both, exactly: this mark vouches for the others */
			if (sscanf(tok, "markers=%llu%n", &v, &end) == 1 && !tok[end])
				ret = v != (unsigned long long)s->end_marks, done_parts |= 1;
			else if (sscanf(tok, "crc=%llx%n", &v, &end) == 1 && !tok[end])
				ret = v != s->end_crc, done_parts |= 2;
			else
				ret = -1;
		} else if (!strncmp(tok, "page_sum=", 9)) {
			/* the start's alone: a sum that changed midway could not be checked */
			if (kind == MK_START && ts_sum_kind_parse(tok + 9, &s->page_sum))
				snprintf(s->page_sum_unknown, sizeof(s->page_sum_unknown), "%s",
					 tok + 9);
		} else {
			causes_said |= kind == MK_START && !strncmp(tok, "causes=", 7);
			armers_said |= kind == MK_START && !strncmp(tok, "armers=", 7);
			ret = mark_token(s, tok);
		}
	}
	/* a recorder older than causes filtered hrtimer expiries on the tick's */
	if (!ret && kind == MK_START && !causes_said && s->an->causes_recorded < 0)
		ts_analysis_set_causes_recorded(s->an, 0);
	/* nor did one older than armers trace them (a start mark split in parts says it once) */
	if (!ret && kind == MK_START && !armers_said && s->an->armers_recorded < 0)
		ts_analysis_set_armers_recorded(s->an, 0);
	if (!ret && kind == MK_DONE && done_parts != 3)
		ret = -1;
	if (ret)
		return s->marks_bad++, -1;
	if (kind == MK_START)
		s->start_seen = 1;
	else if (kind == MK_READY)
		s->have_start = s->start_seen;
	else if (kind == MK_DONE)
		s->done = 1;
	return 0;
}

/* ---- pages ---- */

/*
 * Check a page's header and parse its records into s->rp (ringpage.c), a
 * short page padded first.  Returns 1 when it holds events, 0 for an empty
 * page, -1 for a page that fails its checks.
 */
static int load_page(struct ts_stream *s, void **page, uint32_t len)
{
	const int hdr = 8 + s->long_size;
	unsigned char *base = *page;
	uint32_t commit;

	s->rp.nr_recs = 0;
	if (len > (uint32_t)s->page_size || len < (uint32_t)hdr)
		return -1;
	if (len < (uint32_t)s->page_size) {
		memcpy(s->pagebuf, base, len);
		memset(s->pagebuf + len, 0, s->page_size - len);
		*page = s->pagebuf;
		base = s->pagebuf;
	}
	commit = ts_ring_commit(base, s->long_size);
	if (commit > (uint32_t)(s->page_size - hdr))
		return -1;
	/* parsed even when empty: its missed-events flag counts all the same */
	if (ts_ring_page_parse(&s->rp, base, s->page_size, s->long_size))
		return -1;
	return commit ? 1 : 0;
}

/*
 * When the events lost before a loaded page were lost: before its first
 * record; for a page that holds none (only padding, or nothing), after the
 * CPU's last event, whose time the checks have passed (the header's time
 * of such a page goes through none: that only for a CPU's first page).
 */
static uint64_t loss_time(const struct ts_stream *s, int cpu, const void *page)
{
	uint64_t ts;

	if (s->rp.nr_recs)
		return s->rp.recs[0].ts;
	if (s->cpu_pages[cpu].last_ts)
		return s->cpu_pages[cpu].last_ts;
	memcpy(&ts, page, sizeof(ts));
	return ts;
}

/* The text of a print event, if it is one of ours. */
static int our_mark(struct ts_stream *s, struct tep_record *rec, int type, const char **text,
		    size_t *len)
{
	if (type != s->dec.id_print || !ts_decode_print(&s->dec, rec, type, text, len))
		return 0;
	return *len >= strlen(TS_MARK_PREFIX) && !memcmp(*text, TS_MARK_PREFIX,
							   strlen(TS_MARK_PREFIX));
}

/* Walk a loaded page's records: fn gets each, until it stops the walk. */
struct walk {
	int cpu;
	int (*fn)(struct ts_stream *s, struct walk *w, struct tep_record *rec);
	int index;
	uint64_t first_ts;
	uint64_t last_ts;
	int stop;
	int mode;			/* of the start-marks scan */
};

static int walk_page(struct ts_stream *s, struct walk *w)
{
	for (int i = 0; i < s->rp.nr_recs && !w->stop; i++) {
		const struct ts_ring_record *r = &s->rp.recs[i];
		struct tep_record rec = { .ts = r->ts, .cpu = w->cpu, .size = r->size,
					  .data = (void *)r->data };

		if (!w->index++)
			w->first_ts = rec.ts;
		if (w->fn(s, w, &rec))
			return -1;
		if (!w->stop)
			w->last_ts = rec.ts;
	}
	return 0;
}

static void put_time(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%llu.%09llu s", (unsigned long long)(ns / 1000000000ULL),
		 (unsigned long long)(ns % 1000000000ULL));
}

/*
 * Do the times of a loaded page go forward, from the CPU's last event on?
 * The ring buffer writes each CPU's events in time order, so an event
 * older than the one before it, in the page or in the CPU's previous page,
 * means a damaged page or pages out of order: none of its events can be
 * placed in time.  Returns 0, or 1 when time goes back (the analysis is
 * told where).
 */
static int time_order(struct ts_stream *s, int cpu)
{
	struct ts_cpu_pages *cp = &s->cpu_pages[cpu];
	uint64_t last = cp->last_ts;
	char where[96], at[32], after[32], msg[256];
	int i;

	for (i = 0; i < s->rp.nr_recs; i++) {
		if (s->rp.recs[i].ts < last)
			break;
		last = s->rp.recs[i].ts;
	}
	if (i == s->rp.nr_recs)
		return 0;
	if (!s->where.set)
		snprintf(where, sizeof(where), "page %llu", (unsigned long long)cp->pages - 1);
	else if (s->where.compressed)
		snprintf(where, sizeof(where), "page %d of its compressed data", s->where.page);
	else
		snprintf(where, sizeof(where), "page %d (file offset %llu)", s->where.page,
			 (unsigned long long)s->where.offset);
	put_time(at, sizeof(at), s->rp.recs[i].ts);
	put_time(after, sizeof(after), last);
	snprintf(msg, sizeof(msg), "CPU %d, %s: an event at %s after one at %s", cpu, where, at,
		 after);
	ts_analysis_time_backwards(s->an, msg);
	return 1;
}

static int lost_event(struct ts_stream *s, int cpu, uint64_t ts, uint64_t count)
{
	struct ts_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = TS_EV_LOST;
	ev.cpu = cpu;
	ev.ts = ts;
	ev.lost.count = count;
	ev.lost.missed = 1;
	return ts_analysis_event(s->an, &ev);
}

static int analyse_record(struct ts_stream *s, struct walk *w, struct tep_record *rec)
{
	int type = ts_decode_type(&s->dec, rec);
	struct ts_event ev;
	const char *text;
	size_t len;

	s->records++;
	s->last_ts = rec->ts;
	if (our_mark(s, rec, type, &text, &len)) {
		enum mark_kind kind = mark_kind(text, len, &(size_t){ 0 });

		/*
		 * The start marks were applied before any page; the rest counts
		 * now, but for the quotas a live session applied as it wrote them
		 * (once each, as a recording's reader applies them here).
		 */
		if (s->have_start && kind >= MK_END && !(kind == MK_QUOTAS && s->quotas_written))
			ts_stream_mark(s, w->cpu, text, len);
		return 0;
	}
	switch (ts_decode_typed(&s->dec, rec, type, &ev)) {
	case 1:
		if (ev.kind == TS_EV_SWITCH && ev.sw.next_pid > 0 && s->task_seen)
			s->task_seen(s->task_seen_ctx, ev.cpu, ev.sw.next_pid);
		if (ts_analysis_event(s->an, &ev))
			return fail(s, "event on a CPU number out of range");
		break;
	case -1:
		ts_analysis_bad_record(s->an, w->cpu, rec->ts);
		break;
	}
	return 0;
}

/*
 * ts_stream_page - decode one raw sub-buffer of a CPU into events.
 * A page that fails its checks (its shape, or time going back) is counted,
 * and the CPU's state becomes unknown from there: its events are lost to us.
 * s->where, when the caller set it, names the page in messages; it is
 * cleared for the next one.
 */
int ts_stream_page(struct ts_stream *s, int cpu, void *page, uint32_t len)
{
	struct walk w = { .cpu = cpu, .fn = analyse_record };
	int r;

	if (!s->ready && ts_stream_ready(s))
		return -1;
	if (cpu < 0 || cpu >= TS_MAX_CPUS)
		return fail(s, "a page of a CPU number out of range");
	s->pages++;
	s->cpu_pages[cpu].pages++;
	r = load_page(s, &page, len);
	if (r > 0 && time_order(s, cpu))
		r = -1;
	s->where.set = 0;
	if (r < 0)
		goto bad;
	/* a page that holds no record counts its loss all the same */
	if (s->rp.missed)
		lost_event(s, cpu, loss_time(s, cpu, page), s->rp.missed_count);
	if (!r || !s->rp.nr_recs)
		return 0;
	if (walk_page(s, &w))
		return -1;
	s->cpu_pages[cpu].last_ts = w.last_ts;
	return 0;
bad:
	ts_analysis_bad_page(s->an, cpu);
	return 0;
}

static int start_record(struct ts_stream *s, struct walk *w, struct tep_record *rec)
{
	enum mark_kind kind;
	const char *text;
	size_t len, skip;

	if (w->mode == TS_START_FIRST_TS) {
		w->stop = 1;
		return 0;
	}
	if (!our_mark(s, rec, ts_decode_type(&s->dec, rec), &text, &len))
		return 0;
	kind = mark_kind(text, len, &skip);
	if (w->mode == TS_START_LOOK) {
		/* the first mark in the first page of its CPU, or none */
		if (kind != MK_START) {
			w->stop = 1;
			return 0;
		}
		w->mode = TS_START_MORE;	/* the rest follows on this CPU */
	} else if (kind != MK_START && kind != MK_INITIAL && kind != MK_READY &&
		   kind != MK_PROBES && kind != MK_DOCTOR) {
		/* a long start text comes in several start marks: each counts */
		return 0;
	}
	if (ts_stream_mark(s, w->cpu, text, len))
		return fail(s, "corrupt recording: a start mark does not parse");
	w->stop = s->have_start;
	return 0;
}

/*
 * ts_stream_start_marks - the start marks, before any page goes through the
 * analysis.  mode TS_START_LOOK: does this first non-empty page of a CPU
 * hold tickstat's start mark?  The recorder writes it right after
 * switching tracing on, into the first page of its CPU.  TS_START_MORE:
 * the following pages of that CPU, until the "ready" mark.
 * TS_START_FIRST_TS: only the time of the first event.  *first_ts gets the time of the page's first event (0:
 * none).  Returns 0, or -1 with a reason in s->err.
 */
int ts_stream_start_marks(struct ts_stream *s, int cpu, void *page, uint32_t len,
			  int mode, uint64_t *first_ts)
{
	struct walk w = { .cpu = cpu, .fn = start_record, .mode = mode };
	int r;

	*first_ts = 0;
	if (!s->ready && ts_stream_ready(s))
		return -1;
	r = load_page(s, &page, len);
	if (r <= 0)
		return 0;	/* an empty or bad page: the main pass counts it */
	r = walk_page(s, &w);
	*first_ts = w.first_ts;
	return r;
}
