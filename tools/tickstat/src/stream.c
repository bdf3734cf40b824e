// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - raw pages to events to the analysis; the recording format.
 *
 * A recording is the magic "TICKSTAT", a little-endian u32 version, then
 * sections {u32 type, u32 cpu, u32 length, u32 crc32, bytes};
 * docs/recording-format.md
 * describes each.  Nothing in a file is trusted: every length is checked.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "stream.h"
#include "util.h"

static int fail(struct ts_stream *s, const char *msg)
{
	if (!s->err[0])
		snprintf(s->err, sizeof(s->err), "%s", msg);
	return -1;
}

static void put_u32(FILE *f, uint32_t v)
{
	unsigned char b[4] = { v, v >> 8, v >> 16, v >> 24 };

	fwrite(b, 1, 4, f);
}

static void save(struct ts_stream *s, int type, int cpu, const void *data, uint32_t len)
{
	if (!s->out)
		return;
	put_u32(s->out, type);
	put_u32(s->out, cpu);
	put_u32(s->out, len);
	put_u32(s->out, ts_crc32(data, len));
	if (fwrite(data, 1, len, s->out) != len)
		s->out_error = errno ? errno : EIO;
}

/* ts_stream_init - a stream feeding an analysis; out, when set, gets a copy */
int ts_stream_init(struct ts_stream *s, struct ts_analysis *an, FILE *out)
{
	memset(s, 0, sizeof(*s));
	s->an = an;
	s->out = out;
	s->tep = tep_alloc();
	if (!s->tep)
		return fail(s, "out of memory");
	if (out) {
		fwrite(TS_REC_MAGIC, 1, 8, out);
		put_u32(out, TS_REC_VERSION);
	}
	return 0;
}

void ts_stream_free(struct ts_stream *s)
{
	if (s->kbuf)
		kbuffer_free(s->kbuf);
	free(s->pagebuf);
	s->pagebuf = NULL;
	if (s->tep)
		tep_free(s->tep);
	s->kbuf = NULL;
	s->tep = NULL;
}

/* Copy a section's text so it can be parsed as a C string. */
static char *text_copy(const char *text, uint32_t len)
{
	char *t = malloc(len + 1);

	if (t) {
		memcpy(t, text, len);
		t[len] = '\0';
	}
	return t;
}

static int parse_state(const char *v, int cpu, struct ts_analysis *an)
{
	static const char * const ticks[] = { "unknown", "running", "stopped" };
	static const char * const idles[] = { "unknown", "busy", "idle" };
	char tick[16], idle[16];
	int t = -1, i = -1;

	if (sscanf(v, "%15[a-z],%15[a-z]", tick, idle) != 2)
		return -1;
	for (int k = 0; k < 3; k++) {
		if (!strcmp(tick, ticks[k]))
			t = k;
		if (!strcmp(idle, idles[k]))
			i = k;
	}
	if (t < 0 || i < 0)
		return -1;
	ts_analysis_set_initial(an, cpu, t, i);
	return 0;
}

/*
 * One "key=value" line of the META or END text.  Unknown keys are
 * ignored so that a newer recorder can add some; bad values are errors.
 */
static int meta_line(struct ts_stream *s, char *line)
{
	struct ts_analysis *an = s->an;
	char *v = strchr(line, '=');
	struct ts_cpuset set;
	uint64_t n;
	int cpu;

	if (!v)
		return line[0] ? -1 : 0;
	*v++ = '\0';
	if (!strcmp(line, "start_ns")) {
		if (ts_parse_u64(v, &n))
			return -1;
		ts_analysis_set_start(an, n);
	} else if (!strcmp(line, "snapshot_ns")) {
		return ts_parse_u64(v, &an->snapshot_ts);
	} else if (!strcmp(line, "end_ns")) {
		if (ts_parse_u64(v, &an->win_end))
			return -1;
	} else if (!strcmp(line, "page_size")) {
		if (ts_parse_u64(v, &n) || n < 64 || n > (1 << 20))
			return -1;
		s->page_size = (int)n;
	} else if (!strcmp(line, "long_size")) {
		if (ts_parse_u64(v, &n) || (n != 4 && n != 8))
			return -1;
		s->long_size = (int)n;
	} else if (!strcmp(line, "tick_timer") || !strcmp(line, "tick_sched_timer")) {
		/* the tick's hrtimer callback; tick_sched_timer is the older key */
		return ts_parse_u64(v, &s->tick_fn);
	} else if (!strcmp(line, "kernel")) {
		snprintf(an->kernel, sizeof(an->kernel), "%s", v);
	} else if (!strcmp(line, "clock")) {
		snprintf(an->clock, sizeof(an->clock), "%s", v);
	} else if (!strcmp(line, "nohz_full")) {
		if (ts_cpuset_parse(&set, v))
			return -1;
		snprintf(an->nohz_full, sizeof(an->nohz_full), "%s", v);
		for (cpu = 0; cpu < TS_CPUSET_WORDS * 64; cpu++) {
			struct ts_cpu *c;

			if (ts_cpuset_has(&set, cpu)) {
				c = ts_analysis_cpu(an, cpu);
				if (c)
					c->nohz_full = 1;
			}
		}
	} else if (!strcmp(line, "cpus")) {
		/* every possible CPU: those outside nohz_full are housekeeping */
		if (ts_cpuset_parse(&set, v))
			return -1;
		for (cpu = 0; cpu < TS_CPUSET_WORDS * 64; cpu++) {
			struct ts_cpu *c;

			if (!ts_cpuset_has(&set, cpu))
				continue;
			c = ts_analysis_cpu(an, cpu);
			if (c && c->nohz_full < 0)
				c->nohz_full = 0;
		}
	} else if (!strcmp(line, "monitored")) {
		if (ts_cpuset_parse(&set, v))
			return -1;
		for (cpu = 0; cpu < TS_CPUSET_WORDS * 64; cpu++)
			if (ts_cpuset_has(&set, cpu))
				ts_analysis_monitor(an, cpu);
	} else if (sscanf(line, "initial.%d", &cpu) == 1) {
		return parse_state(v, cpu, an);
	} else if (sscanf(line, "overrun.%d", &cpu) == 1) {
		if (ts_parse_u64(v, &n))
			return -1;
		s->rb_overrun += n;
		an->overrun += n;
	} else if (!strncmp(line, "sym.", 4)) {
		if (ts_parse_u64(line + 4, &n))
			return -1;
		ts_caller_set(an, n, v);
	} else if (sscanf(line, "comm.%d", &cpu) == 1) {
		ts_comm_set(an, cpu, v);
	}
	return 0;
}

static int parse_meta(struct ts_stream *s, const char *text, uint32_t len)
{
	char *t = text_copy(text, len), *line, *save_ptr = NULL;
	int ret = 0;

	if (!t)
		return fail(s, "out of memory");
	for (line = strtok_r(t, "\n", &save_ptr); line; line = strtok_r(NULL, "\n", &save_ptr)) {
		if (meta_line(s, line)) {
			snprintf(s->err, sizeof(s->err), "bad metadata line '%.80s'", line);
			ret = -1;
			break;
		}
	}
	free(t);
	return ret;
}

/* ts_stream_meta - the recording's metadata; must come first */
int ts_stream_meta(struct ts_stream *s, const char *text, uint32_t len)
{
	save(s, TS_SEC_META, 0, text, len);
	if (parse_meta(s, text, len))
		return -1;
	if (!s->an->win_start_known || !s->page_size || !s->long_size)
		return fail(s, "metadata lacks start_ns, page_size or long_size");
	s->have_meta = 1;
	tep_set_long_size(s->tep, s->long_size);
	tep_set_page_size(s->tep, s->page_size);
	return 0;
}

/* ts_stream_header_page - the ring-buffer page header format */
int ts_stream_header_page(struct ts_stream *s, const char *text, uint32_t len)
{
	char *t;
	int ret;

	save(s, TS_SEC_HEADER_PAGE, 0, text, len);
	if (!s->have_meta)
		return fail(s, "header page before metadata");
	t = ts_format_clean(text, len, 1);
	if (!t)
		return fail(s, "malformed header_page format");
	ret = tep_parse_header_page(s->tep, t, strlen(t), s->long_size);
	free(t);
	return ret ? fail(s, "cannot parse the header_page format") : 0;
}

/* ts_stream_format - one event format, as "system\n" + the format file */
int ts_stream_format(struct ts_stream *s, const char *text, uint32_t len)
{
	const char *nl = memchr(text, '\n', len);
	char sys[64], *clean;
	int n, ret;

	save(s, TS_SEC_FORMAT, 0, text, len);
	if (!s->have_meta || s->ready)
		return fail(s, "event format out of place");
	if (!nl || nl == text || nl - text >= (long)sizeof(sys))
		return fail(s, "event format without a system name");
	n = nl - text;
	memcpy(sys, text, n);
	sys[n] = '\0';
	for (int i = 0; i < n; i++)
		if (!(isalnum((unsigned char)sys[i]) || sys[i] == '_'))
			return fail(s, "malformed event system name");
	clean = ts_format_clean(nl + 1, len - n - 1, 0);
	if (!clean)
		return fail(s, "malformed event format");
	ret = tep_parse_event(s->tep, clean, strlen(clean), sys);
	free(clean);
	return ret ? fail(s, "cannot parse an event format") : 0;
}

static int make_ready(struct ts_stream *s)
{
	enum kbuffer_long_size ls = s->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;

	s->dec.tick_fn = s->tick_fn;
	if (ts_decoder_init(&s->dec, s->tep, &s->an->caps))
		return fail(s, "the recording has no timer:tick_stop format");
	s->kbuf = kbuffer_alloc(ls, KBUFFER_ENDIAN_LITTLE);
	s->pagebuf = malloc(s->page_size);
	if (!s->kbuf || !s->pagebuf)
		return fail(s, "out of memory");
	s->ready = 1;
	return 0;
}

static uint64_t read_long(const unsigned char *p, int size)
{
	uint64_t v = 0;

	for (int i = size - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/*
 * ts_stream_page - decode one raw sub-buffer of a CPU into events.
 * A page whose header does not fit is counted and skipped, and the CPU's
 * state becomes unknown from there: its events are lost to us.
 */
int ts_stream_page(struct ts_stream *s, int cpu, void *page, uint32_t len)
{
	const int hdr = 8 + s->long_size;
	unsigned char *base = page;
	struct ts_event ev;
	unsigned long long ts;
	uint64_t commit;
	uint64_t flags, used;
	int missed;
	void *data;

	if (!s->have_meta)
		return fail(s, "page before metadata");
	if (!s->ready && make_ready(s))
		return -1;
	s->pages++;
	if (len > (uint32_t)s->page_size || len < (uint32_t)hdr || cpu < 0 || cpu >= TS_MAX_CPUS) {
		save(s, TS_SEC_PAGE, cpu, page, len);
		goto bad;
	}
	/* a saved page holds only its used part: pad it back to a whole page */
	if (len < (uint32_t)s->page_size) {
		memcpy(s->pagebuf, page, len);
		memset(s->pagebuf + len, 0, s->page_size - len);
		base = s->pagebuf;
		page = base;
	}
	flags = read_long(base + 8, s->long_size);
	commit = flags & ((1ULL << 27) - 1);
	/* RB_MISSED_STORED: the count of missed events follows the data */
	used = hdr + commit + ((flags & (1ULL << 30)) ? s->long_size : 0);
	save(s, TS_SEC_PAGE, cpu, page, used < len ? used : len);
	if (commit > (uint64_t)s->page_size - hdr)
		goto bad;
	if (!commit)
		return 0;
	if (kbuffer_load_subbuffer(s->kbuf, page))
		goto bad;
	missed = kbuffer_missed_events(s->kbuf);
	data = kbuffer_read_event(s->kbuf, &ts);
	if (missed && data) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = TS_EV_LOST;
		ev.cpu = cpu;
		ev.ts = ts;
		ev.lost.count = missed > 0 ? (uint64_t)missed : 0;
		ts_analysis_event(s->an, &ev);
	}
	for (long prev = -1; data; data = kbuffer_next_event(s->kbuf, &ts)) {
		struct tep_record rec = { .ts = ts, .cpu = cpu };
		long off = (unsigned char *)data - base;

		rec.size = kbuffer_event_size(s->kbuf);
		/* a corrupt length could make kbuffer stand still: demand progress */
		if (off <= prev || off < hdr || rec.size < 0 || off + rec.size > hdr + (long)commit)
			goto bad;
		prev = off;
		rec.data = data;
		s->records++;
		if (ts_decode(&s->dec, &rec, &ev) == 1 && ts_analysis_event(s->an, &ev))
			return fail(s, "event on a CPU number out of range");
	}
	return 0;
bad:
	s->bad_pages++;
	memset(&ev, 0, sizeof(ev));
	ev.kind = TS_EV_LOST;
	ev.cpu = cpu;
	ev.ts = ts_analysis_cpu(s->an, cpu) ? ts_analysis_cpu(s->an, cpu)->last_ts : 0;
	if (cpu >= 0 && cpu < TS_MAX_CPUS)
		ts_analysis_event(s->an, &ev);
	return 0;
}

/* ts_stream_end - the closing metadata: window end, losses, names */
int ts_stream_end(struct ts_stream *s, const char *text, uint32_t len)
{
	save(s, TS_SEC_END, 0, text, len);
	if (!s->have_meta)
		return fail(s, "end before metadata");
	if (parse_meta(s, text, len))
		return -1;
	s->have_end = 1;
	return 0;
}

static int read_u32(FILE *f, uint32_t *v)
{
	unsigned char b[4];

	if (fread(b, 1, 4, f) != 4)
		return -1;
	*v = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	return 0;
}

/* ts_is_recording - does the file start with tickstat's magic? */
int ts_is_recording(const char *path)
{
	char magic[8];
	FILE *f = fopen(path, "rb");
	int yes;

	if (!f)
		return 0;
	yes = fread(magic, 1, 8, f) == 8 && !memcmp(magic, TS_REC_MAGIC, 8);
	fclose(f);
	return yes;
}

static int read_sections(FILE *f, struct ts_stream *s)
{
	uint32_t type, cpu, len, crc;
	char *buf = NULL;
	int ret = 0;

	while (!ret && !s->have_end) {
		free(buf);
		buf = NULL;
		if (read_u32(f, &type)) {
			ret = fail(s, feof(f) ? "truncated recording: no end section (was the recorder killed?)" :
				   "read error");
			break;
		}
		if (read_u32(f, &cpu) || read_u32(f, &len) || read_u32(f, &crc)) {
			ret = fail(s, "truncated recording: cut inside a section header");
			break;
		}
		if (len > TS_REC_MAX_SECTION) {
			ret = fail(s, "corrupt recording: section larger than 64 MiB");
			break;
		}
		buf = malloc(len ? len : 1);
		if (!buf) {
			ret = fail(s, "out of memory");
			break;
		}
		if (fread(buf, 1, len, f) != len) {
			ret = fail(s, "truncated recording: cut inside a section");
			break;
		}
#ifndef TS_FUZZING	/* let the fuzzer reach the parsers behind the check */
		if (ts_crc32(buf, len) != crc) {
			ret = fail(s, "corrupt recording: a section fails its CRC32 check");
			break;
		}
#endif
		switch (type) {
		case TS_SEC_META:
			ret = s->have_meta ? fail(s, "corrupt recording: second metadata section") :
			      ts_stream_meta(s, buf, len);
			break;
		case TS_SEC_HEADER_PAGE:
			ret = ts_stream_header_page(s, buf, len);
			break;
		case TS_SEC_FORMAT:
			ret = ts_stream_format(s, buf, len);
			break;
		case TS_SEC_PAGE:
			ret = ts_stream_page(s, (int)cpu, buf, len);
			break;
		case TS_SEC_END:
			ret = ts_stream_end(s, buf, len);
			break;
		default:
			ret = fail(s, "corrupt recording: unknown section type");
		}
	}
	free(buf);
	return ret;
}

/*
 * ts_read_recording - run a tickstat recording through the analysis.
 * Returns 0, or -1 with a one-line reason in err.
 */
int ts_read_recording(const char *path, struct ts_analysis *an, char *err, size_t errlen)
{
	struct ts_stream s;
	char magic[8];
	uint32_t version;
	FILE *f;
	int ret = -1;

	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fread(magic, 1, 8, f) != 8 || memcmp(magic, TS_REC_MAGIC, 8)) {
		snprintf(err, errlen, "%s: not a tickstat recording", path);
		goto out_close;
	}
	if (read_u32(f, &version)) {
		snprintf(err, errlen, "%s: truncated recording: no version", path);
		goto out_close;
	}
	if (version != TS_REC_VERSION) {
		snprintf(err, errlen, "%s: recording format version %u, this tickstat reads version %d",
			 path, version, TS_REC_VERSION);
		goto out_close;
	}
	if (ts_stream_init(&s, an, NULL)) {
		snprintf(err, errlen, "%s", s.err);
		goto out_close;
	}
	snprintf(an->source_kind, sizeof(an->source_kind), "recording");
	snprintf(an->source_path, sizeof(an->source_path), "%s", path);
	ret = read_sections(f, &s);
	if (!ret && !s.ready)
		ret = make_ready(&s);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, s.err);
	else
		ts_analysis_finish(an, an->win_end > an->win_start ? an->win_end : an->win_start);
	ts_stream_free(&s);
out_close:
	fclose(f);
	return ret;
}
