// SPDX-License-Identifier: GPL-2.0
/*
 * datwrite.c - a trace.dat of version 6, written from the documented
 * format (trace-cmd.dat.v6(5)): the installed trace-cmd.h declares only
 * functions to read files.  Version 6 is uncompressed and a plain sequence:
 * initial format, header_page and header_event, ftrace formats, event
 * formats, kallsyms, printk formats, command lines, the CPU count, options,
 * "flyrecord" with each CPU's offset and size, the trace clock (which
 * trace-cmd expects there whenever a TRACECLOCK option is present), and the
 * page-aligned data of each CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "datwrite.h"
#include "stream.h"

enum { OPT_DONE = 0, OPT_CPUSTAT = 2, OPT_TRACECLOCK = 4, OPT_UNAME = 5, OPT_VERSION = 9 };

static void put(struct ts_datwrite *w, const void *data, size_t len)
{
	if (len && fwrite(data, 1, len, w->out) != len && !w->error)
		w->error = errno ? errno : EIO;
}

static void put_le(struct ts_datwrite *w, uint64_t v, int bytes)
{
	unsigned char b[8];

	for (int i = 0; i < bytes; i++)
		b[i] = v >> (8 * i);
	put(w, b, bytes);
}

/* An unlinked file beside the output (same file system), else in TMPDIR. */
static int open_spool(const char *path)
{
	char *copy = path ? strdup(path) : NULL;
	char *tmpl = NULL;
	int fd = -1;

	if (copy && strcmp(path, "-") && asprintf(&tmpl, "%s/.tickstat-spool-XXXXXX",
						  dirname(copy)) > 0) {
		fd = mkstemp(tmpl);
		if (fd >= 0)
			unlink(tmpl);
	}
	free(tmpl);
	free(copy);
	if (fd < 0) {
		FILE *f = tmpfile();

		fd = f ? dup(fileno(f)) : -1;
		if (f)
			fclose(f);
	}
	return fd;
}

/*
 * ts_dw_init - a writer of pages of page_size bytes for CPUs 0..nr_cpus-1,
 * into out (path: where it goes, to put the spool beside it).  Returns 0,
 * or -1 with errno set.
 */
int ts_dw_init(struct ts_datwrite *w, FILE *out, const char *path, int page_size,
	       int long_size, int nr_cpus)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->page_size = page_size;
	w->long_size = long_size;
	w->nr_cpus = nr_cpus;
	w->formats_tail = &w->formats;
	w->cpu = calloc(nr_cpus ? nr_cpus : 1, sizeof(*w->cpu));
	w->spool = w->cpu ? open_spool(path) : -1;
	return w->spool < 0 ? -1 : 0;
}

/* ts_dw_format - an event format to save, as the kernel wrote it */
int ts_dw_format(struct ts_datwrite *w, const char *system, const char *text, size_t len)
{
	struct ts_dw_format *f = calloc(1, sizeof(*f));

	if (f)
		f->text = malloc(len);
	if (!f || !f->text) {
		free(f);
		return -1;
	}
	snprintf(f->system, sizeof(f->system), "%s", system);
	memcpy(f->text, text, len);
	f->len = len;
	*w->formats_tail = f;
	w->formats_tail = &f->next;
	return 0;
}

/*
 * ts_dw_flush - write the pages ts_dw_page() holds: one pwrite() for a run
 * of pages that followed each other in memory (a splice's batch).
 */
int ts_dw_flush(struct ts_datwrite *w)
{
	size_t len = (size_t)w->run_pages * w->page_size, done = 0;

	while (done < len && !w->error) {
		ssize_t n;

		errno = 0;
		n = pwrite(w->spool, w->run + done, len - done,
			   (off_t)w->run_first * w->page_size + (off_t)done);
		if (n > 0)
			done += n;
		else if (n < 0 && errno == EINTR)
			continue;
		else
			w->error = errno ? errno : EIO;	/* 0: the disk is full */
	}
	w->run = NULL;
	w->run_pages = 0;
	return w->error ? -1 : 0;
}

/*
 * ts_dw_page - one whole page of a CPU, in the order the CPU wrote it.  It
 * is summed now and written with the pages around it: the caller keeps it
 * unchanged until ts_dw_flush().
 */
int ts_dw_page(struct ts_datwrite *w, int cpu, const void *page)
{
	struct ts_dw_cpu *c;

	if (cpu < 0 || cpu >= w->nr_cpus)
		return -1;
	c = &w->cpu[cpu];
	if (c->nr == c->cap) {
		uint32_t cap = c->cap * 2 + 256;
		uint32_t *p = realloc(c->pages, cap * sizeof(*p));

		if (!p) {
			w->error = ENOMEM;
			return -1;
		}
		c->pages = p;
		c->cap = cap;
	}
	if (w->run_pages && (const unsigned char *)page !=
	    w->run + (size_t)w->run_pages * w->page_size && ts_dw_flush(w))
		return -1;
	if (!w->run_pages) {
		w->run = page;
		w->run_first = w->spooled;
	}
	w->run_pages++;
	ts_fletcher128(&c->sum, page, ts_page_used(page, w->page_size, w->long_size));
	c->pages[c->nr++] = w->spooled++;
	return 0;
}

/* ts_dw_sum - how many pages a CPU has written, and their fletcher128 */
void ts_dw_sum(const struct ts_datwrite *w, int cpu, uint64_t *count, struct ts_sum *sum)
{
	int known = cpu >= 0 && cpu < w->nr_cpus;

	*count = known ? w->cpu[cpu].nr : 0;
	*sum = known ? w->cpu[cpu].sum : (struct ts_sum){ 0 };
}

static void put_sized(struct ts_datwrite *w, const char *text, size_t len, int bytes)
{
	put_le(w, len, bytes);
	put(w, text, len);
}

static void put_option(struct ts_datwrite *w, int id, const char *text)
{
	size_t len = strlen(text) + 1;

	put_le(w, id, 2);
	put_le(w, len, 4);
	put(w, text, len);
}

/*
 * A CPU's ring-buffer statistics (per_cpu/cpuN/stats), after a "CPU: n"
 * line as trace-cmd writes them: its report --stat, and a reader of the
 * kernel's overrun counter in them, tell the CPUs apart by it.
 */
static void put_cpustat(struct ts_datwrite *w, int cpu, const char *stats)
{
	char head[32];
	int n = snprintf(head, sizeof(head), "CPU: %d\n", cpu);
	size_t len = (size_t)n + strlen(stats) + 1;

	put_le(w, OPT_CPUSTAT, 2);
	put_le(w, len, 4);
	put(w, head, n);
	put(w, stats, len - n);
}

/* The event formats, grouped by system in the order they came. */
static void put_formats(struct ts_datwrite *w)
{
	struct ts_dw_format *f, *g;
	uint32_t n = 0, systems = 0;

	for (f = w->formats; f; f = f->next)
		n += !strcmp(f->system, "ftrace");
	put_le(w, n, 4);
	for (f = w->formats; f; f = f->next)
		if (!strcmp(f->system, "ftrace"))
			put_sized(w, f->text, f->len, 8);
	for (f = w->formats; f; f = f->next) {
		for (g = w->formats; g != f && strcmp(g->system, f->system); g = g->next)
			;
		systems += g == f && strcmp(f->system, "ftrace");
	}
	put_le(w, systems, 4);
	for (f = w->formats; f; f = f->next) {
		for (g = w->formats; g != f && strcmp(g->system, f->system); g = g->next)
			;
		if (g != f || !strcmp(f->system, "ftrace"))
			continue;
		put(w, f->system, strlen(f->system) + 1);
		n = 0;
		for (g = f; g; g = g->next)
			n += !strcmp(g->system, f->system);
		put_le(w, n, 4);
		for (g = f; g; g = g->next)
			if (!strcmp(g->system, f->system))
				put_sized(w, g->text, g->len, 8);
	}
}

/* A CPU's pages from the spool, a run of consecutive ones at a time. */
#define COPY_RUN	16

/*
 * len bytes of the spool from off, into the file: copied in the kernel
 * (enum ts_dw_copy), one copy of each page where a read() and a write()
 * made two.  Returns 0, or -1 when this way cannot (*way moves on) or failed
 * (w->error set).
 */
static int copy_in_kernel(struct ts_datwrite *w, enum ts_dw_copy *way, off_t off, size_t len)
{
	int fd = fileno(w->out), copied = 0;

	while (len) {
		ssize_t n;
		loff_t from = off;

		if (*way == TS_DW_COPY_RANGE)
			n = copy_file_range(w->spool, &from, fd, NULL, len, 0);
		else
			n = sendfile(fd, w->spool, &from, len);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			/* a way this kernel or file does not take: the next, from the same place */
			if (n < 0 && !copied &&
			    (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
			     errno == EOPNOTSUPP || errno == EBADF)) {
				(*way)++;
				return -1;
			}
			w->error = n < 0 ? errno : EIO;
			return -1;
		}
		off += n;
		len -= n;
		copied = 1;
	}
	return 0;
}

static int copy_pages(struct ts_datwrite *w, const struct ts_dw_cpu *c, enum ts_dw_copy *way)
{
	char *buf = NULL;

	for (uint32_t i = 0, n; i < c->nr && !w->error; i += n) {
		off_t off = (off_t)c->pages[i] * w->page_size;
		size_t len;

		for (n = 1; n < COPY_RUN && i + n < c->nr && c->pages[i + n] == c->pages[i] + n; n++)
			;
		len = (size_t)n * w->page_size;
		while (*way != TS_DW_COPY_READ && copy_in_kernel(w, way, off, len) && !w->error)
			;
		if (*way != TS_DW_COPY_READ)
			continue;
		if (!buf)
			buf = malloc((size_t)w->page_size * COPY_RUN);
		if (!buf) {
			w->error = ENOMEM;
			break;
		}
		if (pread(w->spool, buf, len, off) != (ssize_t)len) {
			w->error = errno ? errno : EIO;
			break;
		}
		put(w, buf, len);
	}
	free(buf);
	return w->error ? -1 : 0;
}

/*
 * ts_dw_finish - write the whole file.  Returns 0, or -1 with errno set.
 */
int ts_dw_finish(struct ts_datwrite *w, const struct ts_dw_meta *m)
{
	enum ts_dw_copy way = w->copy_from;
	uint64_t off;
	long pos;
	char clock[64];

	if (ts_dw_flush(w)) {
		errno = w->error;
		return -1;
	}
	put(w, "\x17\x08\x44tracing" "6", 12);	/* with the NUL */
	put_le(w, 0, 1);			/* little endian */
	put_le(w, w->long_size, 1);
	put_le(w, w->page_size, 4);
	put(w, "header_page", 12);
	put_sized(w, m->header_page, m->header_page_len, 8);
	put(w, "header_event", 13);
	put_sized(w, m->header_event, m->header_event_len, 8);
	put_formats(w);
	put_sized(w, m->kallsyms, m->kallsyms_len, 4);
	put_le(w, 0, 4);			/* no trace_printk formats */
	put_sized(w, m->cmdlines, m->cmdlines_len, 8);
	put_le(w, w->nr_cpus, 4);
	put(w, "options  ", 10);
	for (int c = 0; c < w->nr_cpus; c++)
		if (m->cpustat && m->cpustat[c])
			put_cpustat(w, c, m->cpustat[c]);
	put_option(w, OPT_TRACECLOCK, m->trace_clock);
	put_option(w, OPT_UNAME, m->uname);
	put_option(w, OPT_VERSION, m->recorder);
	put_le(w, OPT_DONE, 2);
	put(w, "flyrecord", 10);
	snprintf(clock, sizeof(clock), "[%s]", m->clock);
	fflush(w->out);
	pos = ftell(w->out);
	if (pos < 0)
		return -1;
	/* the table, the clock, then page-aligned data */
	off = pos + 16ULL * w->nr_cpus + 8 + strlen(clock);
	off = (off + w->page_size - 1) / w->page_size * w->page_size;
	for (int c = 0; c < w->nr_cpus; c++) {
		uint64_t size = (uint64_t)w->cpu[c].nr * w->page_size;

		put_le(w, off, 8);
		put_le(w, size, 8);
		off += size;
	}
	put_sized(w, clock, strlen(clock), 8);
	fflush(w->out);
	pos = ftell(w->out);
	while (pos >= 0 && pos % w->page_size) {
		put_le(w, 0, 1);
		pos++;
	}
	/* stdio's buffer first: the kernel's copies go to the file's offset */
	if (fflush(w->out) && !w->error)
		w->error = errno;
	for (int c = 0; c < w->nr_cpus && !w->error; c++)
		copy_pages(w, &w->cpu[c], &way);
	w->copied_by = way;
	if (fflush(w->out) && !w->error)
		w->error = errno;
	errno = w->error;
	return w->error ? -1 : 0;
}

void ts_dw_free(struct ts_datwrite *w)
{
	struct ts_dw_format *f, *next;

	for (int c = 0; w->cpu && c < w->nr_cpus; c++)
		free(w->cpu[c].pages);
	free(w->cpu);
	for (f = w->formats; f; f = next) {
		next = f->next;
		free(f->text);
		free(f);
	}
	if (w->spool >= 0)
		close(w->spool);
	memset(w, 0, sizeof(*w));
	w->spool = -1;
}
