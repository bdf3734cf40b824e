// SPDX-License-Identifier: GPL-2.0
/*
 * datfile.c - read the trace.dat container (trace-cmd.dat.v6(5), v7(5)).
 *
 * Written from the documented format, not with libtracecmd: its reader
 * keeps pages and records of the whole file around (447 MiB for a 10M-event
 * file), while tickstat needs each CPU's pages once, in order.  Version 6 is
 * a fixed sequence of parts; version 7 is a set of sections that options
 * point at, each possibly compressed, and the flyrecord data of each CPU may
 * be compressed in chunks.  Both are read through ts_zin, a stream with
 * fixed buffers, so memory does not grow with the file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datfile.h"

#define MAGIC			"\x17\x08\x44tracing"
#define ZIN_BUF			65536
#define MAX_HEADER		65536		/* header_page, header_event */
#define MAX_FORMAT		(1 << 20)	/* one event format file */
#define MAX_BLOCK		(1u << 30)	/* one decompressed block or chunk */
#define MAX_OPTION		(1 << 20)
#define MAX_OPTION_SECTIONS	64

/* v7 section and option ids (trace-cmd.dat.v7(5)) */
enum {
	OPT_DONE = 0, OPT_DATE = 1, OPT_CPUSTAT = 2, OPT_BUFFER = 3, OPT_TRACECLOCK = 4,
	OPT_UNAME = 5, OPT_CPUCOUNT = 8, OPT_VERSION = 9, OPT_STRINGS = 15,
	OPT_HEADER_INFO = 16, OPT_FTRACE_EVENTS = 17, OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19, OPT_PRINTK = 20, OPT_CMDLINES = 21, OPT_BUFFER_TEXT = 22,
};

static int fail(struct ts_datfile *df, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct ts_datfile *df, const char *fmt, ...)
{
	va_list ap;

	if (!df->err[0]) {
		va_start(ap, fmt);
		vsnprintf(df->err, sizeof(df->err), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* ---- ts_zin: a region as a byte stream ---- */

static int take_raw(struct ts_zin *z, void *dst, size_t n);

/*
 * ts_zin_open - a stream over region r of the file.  Returns 0, or -1 with
 * the reason in df->err.
 */
int ts_zin_open(struct ts_zin *z, struct ts_datfile *df, const struct ts_region *r)
{
	memset(z, 0, sizeof(*z));
	z->df = df;
	z->pos = r->off;
	/* a chunked region's size leaves out its chunk count */
	z->end = r->off + r->size + (r->chunked ? 4 : 0);
	if (r->off > df->file_size || z->end - r->off > df->file_size - r->off)
		return fail(df, "truncated file: a part of %llu bytes at %llu ends past its end",
			    (unsigned long long)r->size, (unsigned long long)r->off);
	z->compressed = r->compressed || r->chunked;
	z->chunked = r->chunked;
	z->blocks_left = -1;
	z->in = malloc(ZIN_BUF);
	if (!z->in)
		return fail(df, "out of memory");
	if (z->compressed && df->z == TS_Z_NONE)
		return fail(df, "corrupt file: compressed data in a file without compression");
	if (z->chunked) {
		unsigned char b[4];

		if (take_raw(z, b, 4))
			return -1;
		z->blocks_left = (long)le(b, 4);
	}
	return 0;
}

/* Refill the input buffer from the file, within the region. */
static int fill(struct ts_zin *z)
{
	size_t want = ZIN_BUF;
	ssize_t n;

	if (z->in_pos < z->in_len)
		return 0;
	if (z->end - z->pos < want)
		want = z->end - z->pos;
	if (!want)
		return fail(z->df, "truncated file: data ends early");
	n = pread(z->df->fd, z->in, want, z->pos);
	if (n <= 0)
		return fail(z->df, n ? "read error: %s" : "truncated file%s", n ? strerror(errno) : "");
	z->pos += n;
	z->in_pos = 0;
	z->in_len = n;
	return 0;
}

/* Raw bytes of the region (plain data, or the headers of compressed blocks). */
static int take_raw(struct ts_zin *z, void *dst, size_t n)
{
	unsigned char *d = dst;

	while (n) {
		size_t k;

		if (fill(z))
			return -1;
		k = z->in_len - z->in_pos;
		if (k > n)
			k = n;
		memcpy(d, z->in + z->in_pos, k);
		z->in_pos += k;
		d += k;
		n -= k;
	}
	return 0;
}

static uint64_t raw_left(const struct ts_zin *z)
{
	return (z->end - z->pos) + (z->in_len - z->in_pos);
}

/* Start the next compressed block: "u32 compressed size, u32 size, data". */
static int start_block(struct ts_zin *z)
{
	unsigned char b[8];
	uint64_t csize, size;

	if (take_raw(z, b, 8))
		return -1;
	csize = le(b, 4);
	size = le(b + 4, 4);
	if (csize > raw_left(z) || size > MAX_BLOCK)
		return fail(z->df, "corrupt file: a compressed block of %llu bytes (%llu unpacked) does not fit",
			    (unsigned long long)csize, (unsigned long long)size);
	z->block_left = csize;
	z->out_left = size;
	z->in_block = 1;
	if (z->df->z == TS_Z_ZSTD) {
		if (!z->zs)
			z->zs = ZSTD_createDStream();
		if (!z->zs || ZSTD_isError(ZSTD_initDStream(z->zs)))
			return fail(z->df, "out of memory");
	} else {
		if (z->zl_ready)
			inflateEnd(&z->zl);
		memset(&z->zl, 0, sizeof(z->zl));
		if (inflateInit(&z->zl) != Z_OK)
			return fail(z->df, "out of memory");
		z->zl_ready = 1;
	}
	return 0;
}

/* The rest of a finished block's compressed bytes (none in a sound file). */
static int end_block(struct ts_zin *z)
{
	while (z->block_left) {
		size_t k;

		if (fill(z))
			return -1;
		k = z->in_len - z->in_pos;
		if (k > z->block_left)
			k = z->block_left;
		z->in_pos += k;
		z->block_left -= k;
	}
	z->in_block = 0;
	return 0;
}

/* Decompress up to n bytes of the current block into dst; returns how many. */
static ssize_t inflate_some(struct ts_zin *z, unsigned char *dst, size_t n)
{
	size_t avail, used, made;
	int done;

	if (z->in_pos == z->in_len && z->block_left && fill(z))
		return -1;
	avail = z->in_len - z->in_pos;
	if (avail > z->block_left)
		avail = z->block_left;
	if (z->df->z == TS_Z_ZSTD) {
		ZSTD_inBuffer in = { z->in + z->in_pos, avail, 0 };
		ZSTD_outBuffer out = { dst, n, 0 };
		size_t r = ZSTD_decompressStream(z->zs, &out, &in);

		if (ZSTD_isError(r))
			return fail(z->df, "corrupt file: zstd: %s", ZSTD_getErrorName(r));
		used = in.pos;
		made = out.pos;
		done = r == 0;
	} else {
		int r;

		z->zl.next_in = z->in + z->in_pos;
		z->zl.avail_in = avail;
		z->zl.next_out = dst;
		z->zl.avail_out = n;
		r = inflate(&z->zl, Z_NO_FLUSH);
		if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
			return fail(z->df, "corrupt file: zlib error %d", r);
		used = avail - z->zl.avail_in;
		made = n - z->zl.avail_out;
		done = r == Z_STREAM_END;
	}
	z->in_pos += used;
	z->block_left -= used;
	z->out_left -= made;
	if (!used && !made && !avail)
		return fail(z->df, "corrupt file: a compressed block ends early");
	if (done && z->out_left)
		return fail(z->df, "corrupt file: a compressed block is shorter than it says");
	if (!used && !made && avail && z->df->z == TS_Z_ZLIB && z->zl.avail_in == avail && n)
		return fail(z->df, "corrupt file: zlib makes no progress");
	return made;
}

/*
 * ts_zin_read - the next n bytes.  Returns n, fewer at the end of the
 * region, or -1 with the reason in df->err.
 */
ssize_t ts_zin_read(struct ts_zin *z, void *buf, size_t n)
{
	unsigned char *d = buf;
	size_t got = 0;
	int stalls = 0;

	if (!z->compressed) {
		uint64_t left = raw_left(z);

		if (n > left)
			n = left;
		return take_raw(z, buf, n) ? -1 : (ssize_t)n;
	}
	while (got < n) {
		size_t want;
		ssize_t k;

		if (!z->in_block) {
			if (z->chunked ? z->blocks_left <= 0 : !raw_left(z))
				break;
			if (z->chunked)
				z->blocks_left--;
			if (start_block(z))
				return -1;
		}
		if (!z->out_left) {
			if (end_block(z))
				return -1;
			continue;
		}
		want = n - got < z->out_left ? n - got : z->out_left;
		k = inflate_some(z, d + got, want);
		if (k < 0)
			return -1;
		stalls = k ? 0 : stalls + 1;
		if (stalls > 1000)
			return fail(z->df, "corrupt file: compressed data makes no progress");
		got += k;
	}
	return got;
}

/* ts_zin_at_end - nothing more to read */
int ts_zin_at_end(struct ts_zin *z)
{
	if (!z->compressed)
		return !raw_left(z);
	if (z->in_block && z->out_left)
		return 0;
	return z->chunked ? z->blocks_left <= 0 : !raw_left(z);
}

void ts_zin_close(struct ts_zin *z)
{
	if (z->zs)
		ZSTD_freeDStream(z->zs);
	if (z->zl_ready)
		inflateEnd(&z->zl);
	free(z->in);
	memset(z, 0, sizeof(*z));
}

/* ---- the header parts ---- */

static int zread_exact(struct ts_zin *z, void *buf, size_t n, const char *what)
{
	ssize_t k = ts_zin_read(z, buf, n);

	if (k < 0)
		return -1;
	if ((size_t)k != n)
		return fail(z->df, "truncated file: it ends inside %s", what);
	return 0;
}

static int zread_num(struct ts_zin *z, int bytes, uint64_t *v, const char *what)
{
	unsigned char b[8];

	if (zread_exact(z, b, bytes, what))
		return -1;
	*v = le(b, bytes);
	return 0;
}

/* A NUL-terminated string of at most len - 1 bytes. */
static int zread_string(struct ts_zin *z, char *buf, size_t len, const char *what)
{
	for (size_t i = 0; i < len; i++) {
		if (zread_exact(z, buf + i, 1, what))
			return -1;
		if (!buf[i])
			return 0;
	}
	return fail(z->df, "corrupt file: %s is too long", what);
}

/* Read size bytes (at most max) into a new NUL-terminated buffer. */
static char *zread_blob(struct ts_zin *z, uint64_t size, uint64_t max, const char *what)
{
	char *b;

	if (size > max) {
		fail(z->df, "corrupt file: %s of %llu bytes", what, (unsigned long long)size);
		return NULL;
	}
	b = malloc(size + 1);
	if (!b) {
		fail(z->df, "out of memory");
		return NULL;
	}
	if (zread_exact(z, b, size, what)) {
		free(b);
		return NULL;
	}
	b[size] = '\0';
	return b;
}

static int skip(struct ts_zin *z, uint64_t n, const char *what)
{
	char buf[4096];

	while (n) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);

		if (zread_exact(z, buf, k, what))
			return -1;
		n -= k;
	}
	return 0;
}

static int read_header_info(struct ts_datfile *df, struct ts_zin *z)
{
	char name[16];
	uint64_t size;

	if (zread_exact(z, name, 12, "the header") || memcmp(name, "header_page", 12))
		return fail(df, "corrupt file: no header_page");
	if (zread_num(z, 8, &size, "the header"))
		return -1;
	df->header_page = zread_blob(z, size, MAX_HEADER, "header_page");
	if (!df->header_page)
		return -1;
	df->header_page_len = size;
	if (zread_exact(z, name, 13, "the header") || memcmp(name, "header_event", 13))
		return fail(df, "corrupt file: no header_event");
	if (zread_num(z, 8, &size, "the header"))
		return -1;
	return size > MAX_HEADER ? fail(df, "corrupt file: header_event too large") :
	       skip(z, size, "header_event");
}

/* One format file: handed to the caller, who decides what to parse. */
static int read_format(struct ts_datfile *df, struct ts_zin *z, const char *system)
{
	uint64_t size;
	char *text;
	int ret;

	if (zread_num(z, 8, &size, "the event formats"))
		return -1;
	text = zread_blob(z, size, MAX_FORMAT, "an event format");
	if (!text)
		return -1;
	ret = df->on_format ? df->on_format(df->format_ctx, system, text, size) : 0;
	free(text);
	return ret ? fail(df, "corrupt file: a bad %s event format", system) : 0;
}

static int read_ftrace_formats(struct ts_datfile *df, struct ts_zin *z)
{
	uint64_t n;

	if (zread_num(z, 4, &n, "the ftrace formats"))
		return -1;
	for (uint64_t i = 0; i < n; i++)
		if (read_format(df, z, "ftrace"))
			return -1;
	return 0;
}

static int read_event_formats(struct ts_datfile *df, struct ts_zin *z)
{
	uint64_t systems, events;
	char sys[64];

	if (zread_num(z, 4, &systems, "the event formats"))
		return -1;
	for (uint64_t s = 0; s < systems; s++) {
		if (zread_string(z, sys, sizeof(sys), "an event system name") ||
		    zread_num(z, 4, &events, "the event formats"))
			return -1;
		for (uint64_t e = 0; e < events; e++)
			if (read_format(df, z, sys))
				return -1;
	}
	return 0;
}

/*
 * Remember where a version 6 text part (kallsyms, printk formats, command
 * lines) starts, its length field included, and read on past it; it is read
 * later through ts_zin, like a version 7 section.  lenbytes is the size of
 * its length field.
 */
static int note_text(struct ts_datfile *df, struct ts_zin *z, struct ts_region *r, int lenbytes)
{
	uint64_t size;

	if (zread_num(z, lenbytes, &size, "the file's header"))
		return -1;
	r->off = z->pos - (z->in_len - z->in_pos) - lenbytes;
	r->size = size + lenbytes;
	if (size > raw_left(z))
		return fail(df, "truncated file: a section ends past the end");
	return skip(z, size, "the file's header");
}

static void set_clock(struct ts_datfile *df, const char *text)
{
	const char *sel = strchr(text, '[');

	if (sel && sscanf(sel + 1, "%31[^]]", df->clock) == 1)
		return;
	if (!sel)
		sscanf(text, "%31s", df->clock);
}

static int add_cpustat(struct ts_datfile *df, const char *buf, size_t size)
{
	char *n = realloc(df->cpustats, df->cpustats_len + size + 2);

	if (!n)
		return fail(df, "out of memory");
	df->cpustats = n;
	memcpy(n + df->cpustats_len, buf, size);
	df->cpustats_len += size;
	n[df->cpustats_len++] = '\n';
	n[df->cpustats_len] = '\0';
	return 0;
}

/* v7 BUFFER: where the top instance's per-CPU data lies. */
static int buffer_option(struct ts_datfile *df, const unsigned char *b, size_t size)
{
	const unsigned char *p = b + 8, *end = b + size;
	const unsigned char *name, *clock;
	uint64_t n;

	if (size < 8)
		return fail(df, "corrupt file: a short BUFFER option");
	name = p;
	p = memchr(p, '\0', end - p);
	if (!p)
		return fail(df, "corrupt file: a bad BUFFER option");
	if (*name)		/* another instance's buffer: not ours */
		return 0;
	clock = ++p;
	p = memchr(p, '\0', end - p);
	if (!p || end - ++p < 8)
		return fail(df, "corrupt file: a bad BUFFER option");
	if (!df->clock[0])
		snprintf(df->clock, sizeof(df->clock), "%.31s", (const char *)clock);
	if (le(p, 4) != (uint64_t)df->page_size)
		return fail(df, "corrupt file: the buffer's page size differs from the file's");
	n = le(p + 4, 4);
	p += 8;
	if (n > TS_MAX_CPUS || (uint64_t)(end - p) < n * 20)
		return fail(df, "corrupt file: a BUFFER option with %llu CPUs", (unsigned long long)n);
	free(df->cpus);
	df->cpus = calloc(n ? n : 1, sizeof(*df->cpus));
	if (!df->cpus)
		return fail(df, "out of memory");
	df->nr_cpus = n;
	for (uint64_t i = 0; i < n; i++, p += 20) {
		df->cpus[i].cpu = (int)le(p, 4);
		df->cpus[i].data.off = le(p + 4, 8);
		df->cpus[i].data.size = le(p + 12, 8);
		if (le(p, 4) >= TS_MAX_CPUS)
			return fail(df, "corrupt file: data of CPU %llu", (unsigned long long)le(p, 4));
		for (uint64_t k = 0; k < i; k++)
			if (df->cpus[k].cpu == df->cpus[i].cpu)
				return fail(df, "corrupt file: two buffers for CPU %d", df->cpus[i].cpu);
	}
	return 0;
}

/* Where v7 sections are, from the options that point at them. */
struct sections {
	uint64_t off[OPT_BUFFER_TEXT + 1];
	uint64_t buffer;
};

static int read_options(struct ts_datfile *df, struct ts_zin *z, struct sections *sec, int v7,
			uint64_t *next)
{
	unsigned char *buf;
	uint64_t id, size;

	*next = 0;
	for (;;) {
		if (zread_num(z, 2, &id, "the options"))
			return -1;
		if (!v7 && id == OPT_DONE)
			return 0;
		if (zread_num(z, 4, &size, "the options"))
			return -1;
		buf = (unsigned char *)zread_blob(z, size, MAX_OPTION, "an option");
		if (!buf)
			return -1;
		switch (id) {
		case OPT_DONE:
			*next = size >= 8 ? le(buf, 8) : 0;
			free(buf);
			return 0;
		case OPT_CPUSTAT:
			if (add_cpustat(df, (char *)buf, strnlen((char *)buf, size)))
				goto err;
			break;
		case OPT_TRACECLOCK:
			df->saw_clock_option = 1;
			set_clock(df, (char *)buf);
			break;
		case OPT_UNAME:
			snprintf(df->uname, sizeof(df->uname), "%s", (char *)buf);
			break;
		case OPT_VERSION:
			snprintf(df->recorder, sizeof(df->recorder), "%s", (char *)buf);
			break;
		case OPT_BUFFER:
			if (v7 && buffer_option(df, buf, size))
				goto err;
			if (v7 && size >= 8 && !sec->buffer)
				sec->buffer = le(buf, 8);
			break;
		default:
			if (v7 && id >= OPT_HEADER_INFO && id <= OPT_CMDLINES && size >= 8)
				sec->off[id] = le(buf, 8);
		}
		free(buf);
	}
err:
	free(buf);
	return -1;
}

/* A v7 section header: u16 id, u16 flags, u32 description, u64 size. */
static int open_section(struct ts_datfile *df, uint64_t off, int want_id, struct ts_region *r)
{
	unsigned char h[16];

	if (off > df->file_size || df->file_size - off < 16 ||
	    pread(df->fd, h, 16, off) != 16)
		return fail(df, "truncated file: a section lies past the end");
	if ((int)le(h, 2) != want_id)
		return fail(df, "corrupt file: section %d where %d should be", (int)le(h, 2), want_id);
	r->off = off + 16;
	r->size = le(h + 8, 8);
	r->compressed = le(h + 2, 2) & 1;
	r->chunked = 0;
	if (r->size > df->file_size - r->off)
		return fail(df, "truncated file: section %d ends past the end", want_id);
	return 0;
}

static int read_section(struct ts_datfile *df, uint64_t off, int id,
			int (*fn)(struct ts_datfile *, struct ts_zin *))
{
	struct ts_region r;
	struct ts_zin z = { 0 };
	int ret;

	if (!off)
		return fail(df, "corrupt file: no section %d", id);
	if (open_section(df, off, id, &r) || ts_zin_open(&z, df, &r)) {
		ts_zin_close(&z);
		return -1;
	}
	ret = fn(df, &z);
	ts_zin_close(&z);
	return ret;
}

static int read_v7(struct ts_datfile *df, struct ts_zin *head)
{
	struct sections sec = { 0 };
	uint64_t next;
	int rounds = 0;

	if (zread_num(head, 8, &next, "the file's header"))
		return -1;
	/* the sections follow one another to the end, as trace-cmd walks them */
	for (uint64_t pos = head->pos - (head->in_len - head->in_pos); pos < df->file_size;) {
		unsigned char h[16];

		if (df->file_size - pos < 16 || pread(df->fd, h, 16, pos) != 16 ||
		    le(h + 8, 8) > df->file_size - pos - 16)
			return fail(df, "truncated file: a section at %llu ends past the end",
				    (unsigned long long)pos);
		pos += 16 + le(h + 8, 8);
	}
	while (next) {
		struct ts_region r;
		struct ts_zin z = { 0 };
		int ret;

		if (++rounds > MAX_OPTION_SECTIONS)
			return fail(df, "corrupt file: options sections loop");
		if (open_section(df, next, OPT_DONE, &r) || ts_zin_open(&z, df, &r)) {
			ts_zin_close(&z);
			return -1;
		}
		ret = read_options(df, &z, &sec, 1, &next);
		ts_zin_close(&z);
		if (ret)
			return -1;
	}
	if (read_section(df, sec.off[OPT_HEADER_INFO], OPT_HEADER_INFO, read_header_info) ||
	    read_section(df, sec.off[OPT_FTRACE_EVENTS], OPT_FTRACE_EVENTS, read_ftrace_formats) ||
	    read_section(df, sec.off[OPT_EVENT_FORMATS], OPT_EVENT_FORMATS, read_event_formats))
		return -1;
	if (sec.off[OPT_KALLSYMS] && open_section(df, sec.off[OPT_KALLSYMS], OPT_KALLSYMS,
						  &df->kallsyms))
		return -1;
	if (sec.off[OPT_CMDLINES] && open_section(df, sec.off[OPT_CMDLINES], OPT_CMDLINES,
						  &df->cmdlines))
		return -1;
	if (!sec.buffer || !df->cpus)
		return fail(df, "the file has no flyrecord data of the top instance");
	{
		struct ts_region fly;

		if (open_section(df, sec.buffer, OPT_BUFFER, &fly))
			return -1;
		for (int i = 0; i < df->nr_cpus; i++)
			df->cpus[i].data.chunked = fly.compressed && df->cpus[i].data.size;
	}
	return 0;
}

static int read_v6(struct ts_datfile *df, struct ts_zin *z)
{
	struct sections sec = { 0 };
	uint64_t cpus, next;
	char tag[10];

	struct ts_region printk;	/* skipped */

	if (read_header_info(df, z) || read_ftrace_formats(df, z) || read_event_formats(df, z) ||
	    note_text(df, z, &df->kallsyms, 4) || note_text(df, z, &printk, 4) ||
	    note_text(df, z, &df->cmdlines, 8) || zread_num(z, 4, &cpus, "the CPU count"))
		return -1;
	if (cpus > TS_MAX_CPUS)
		return fail(df, "corrupt file: %llu CPUs", (unsigned long long)cpus);
	if (zread_exact(z, tag, 10, "the file's header"))
		return -1;
	if (!memcmp(tag, "options  ", 10)) {
		if (read_options(df, z, &sec, 0, &next) || zread_exact(z, tag, 10, "the file's header"))
			return -1;
	}
	if (memcmp(tag, "flyrecord", 10))
		return fail(df, "the file has no flyrecord data (a latency trace?)");
	df->cpus = calloc(cpus ? cpus : 1, sizeof(*df->cpus));
	if (!df->cpus)
		return fail(df, "out of memory");
	df->nr_cpus = cpus;
	for (uint64_t i = 0; i < cpus; i++) {
		df->cpus[i].cpu = (int)i;
		if (zread_num(z, 8, &df->cpus[i].data.off, "the CPU data table") ||
		    zread_num(z, 8, &df->cpus[i].data.size, "the CPU data table"))
			return -1;
	}
	/* with a TRACECLOCK option, version 6 stores the clock after the table */
	if (df->saw_clock_option) {
		uint64_t size;
		char *clock;

		if (zread_num(z, 8, &size, "the trace clock"))
			return -1;
		clock = zread_blob(z, size, 4096, "the trace clock");
		if (!clock)
			return -1;
		set_clock(df, clock);
		free(clock);
	}
	return 0;
}

/* ts_dat_is_tracedat - does the file start with trace-cmd's magic? */
int ts_dat_is_tracedat(const char *path)
{
	char magic[10];
	FILE *f = fopen(path, "rb");
	int yes;

	if (!f)
		return 0;
	yes = fread(magic, 1, 10, f) == 10 && !memcmp(magic, MAGIC, 10);
	fclose(f);
	return yes;
}

/*
 * ts_dat_open - read a trace.dat's header parts; on_format gets every event
 * format.  Returns 0, or -1 with a one-line reason in df->err.
 */
int ts_dat_open(struct ts_datfile *df, const char *path, ts_format_fn on_format, void *ctx)
{
	struct ts_region all;
	struct ts_zin z = { 0 };
	unsigned char b[8];
	char magic[10], version[8], zname[32], zver[32];
	struct stat st;
	int ret = -1;

	memset(df, 0, sizeof(*df));
	df->on_format = on_format;
	df->format_ctx = ctx;
	/* not blocking: a FIFO with no writer would wait forever; it is refused */
	df->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (df->fd < 0)
		return fail(df, "%s", strerror(errno));
	if (fstat(df->fd, &st))
		return fail(df, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(df, "not a regular file (the reader seeks in it)");
	df->file_size = st.st_size;
	all.off = 0;
	all.size = df->file_size;
	all.compressed = all.chunked = 0;
	if (ts_zin_open(&z, df, &all))
		goto out;
	if (zread_exact(&z, magic, 10, "the magic") || memcmp(magic, MAGIC, 10)) {
		fail(df, "not a trace.dat file (no trace-cmd magic)");
		goto out;
	}
	if (zread_string(&z, version, sizeof(version), "the version"))
		goto out;
	df->version = atoi(version);
	if (df->version != 6 && df->version != 7) {
		fail(df, "trace.dat version '%s': this tickstat reads versions 6 and 7", version);
		goto out;
	}
	if (zread_exact(&z, b, 6, "the file's header"))
		goto out;
	if (b[0]) {
		fail(df, "a big-endian trace.dat: this tickstat reads little-endian ones");
		goto out;
	}
	df->long_size = b[1];
	df->page_size = (int)le(b + 2, 4);
	if ((df->long_size != 4 && df->long_size != 8) || df->page_size < 256 ||
	    df->page_size > (1 << 20) || (df->page_size & (df->page_size - 1))) {
		fail(df, "corrupt file: long size %d, page size %d", df->long_size, df->page_size);
		goto out;
	}
	if (df->version == 7) {
		if (zread_string(&z, zname, sizeof(zname), "the compression") ||
		    zread_string(&z, zver, sizeof(zver), "the compression"))
			goto out;
		if (!strcmp(zname, "zstd")) {
			df->z = TS_Z_ZSTD;
		} else if (!strcmp(zname, "zlib")) {
			df->z = TS_Z_ZLIB;
		} else if (strcmp(zname, "none")) {
			fail(df, "compression '%s' is not supported (zstd, zlib and none are)", zname);
			goto out;
		}
		ret = read_v7(df, &z);
	} else {
		ret = read_v6(df, &z);
	}
	for (int i = 0; !ret && i < df->nr_cpus; i++) {
		struct ts_region *r = &df->cpus[i].data;

		uint64_t size = r->size + (r->chunked ? 4 : 0);

		if (r->off > df->file_size || size > df->file_size - r->off)
			ret = fail(df, "truncated file: CPU %d's data ends past the end (%llu bytes short)",
				   df->cpus[i].cpu, (unsigned long long)(r->off + size - df->file_size));
		else if (!r->chunked && r->size % df->page_size)
			ret = fail(df, "corrupt file: CPU %d's data is not whole pages", df->cpus[i].cpu);
	}
out:
	ts_zin_close(&z);
	return ret;
}

void ts_dat_close(struct ts_datfile *df)
{
	if (df->fd > 0)
		close(df->fd);
	free(df->header_page);
	free(df->cpustats);
	free(df->cpus);
	memset(df, 0, sizeof(*df));
	df->fd = -1;
}

/*
 * ts_stats_unplaced - of a CPU's ring-buffer statistics (per_cpu/cpuN/stats,
 * or a CPUSTAT option's block from its "CPU: n" line to the next), the
 * events the buffer dropped without marking any page: "commit overrun"
 * and "dropped events"
 */
uint64_t ts_stats_unplaced(const char *stats)
{
	unsigned long long v;
	uint64_t n = 0;

	for (const char *line = stats; line && *line; line = strchr(line, '\n'), line += !!line) {
		if (line != stats && !strncmp(line, "CPU:", 4))
			break;
		if (sscanf(line, "commit overrun: %llu", &v) == 1 ||
		    sscanf(line, "dropped events: %llu", &v) == 1)
			n += v;
	}
	return n;
}
