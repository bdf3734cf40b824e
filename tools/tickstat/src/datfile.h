/* SPDX-License-Identifier: GPL-2.0 */
/*
 * datfile.h - the trace.dat container, read without libtracecmd.
 *
 * Versions 6 and 7 of trace-cmd.dat(5), sections uncompressed or compressed
 * with zstd or zlib, flyrecord data plain or in compressed chunks.  Every
 * part is read as a stream through fixed buffers: a file of any size is read
 * in bounded memory.  Nothing in a file is trusted: every size is checked
 * against the file and against limits.
 */
#ifndef TICKSTAT_DATFILE_H
#define TICKSTAT_DATFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <zlib.h>
#include <zstd.h>

#include "analysis.h"

enum ts_zkind { TS_Z_NONE, TS_Z_ZSTD, TS_Z_ZLIB };

/* A part of the file: where its data starts, how long it is, how it is stored. */
struct ts_region {
	uint64_t off;
	uint64_t size;
	int compressed;		/* compressed blocks (v7 section) */
	int chunked;		/* a chunk count, then compressed chunks (v7 flyrecord) */
};

struct ts_dat_cpu {
	int cpu;
	struct ts_region data;
};

/* Called for each event format: system ("ftrace" for ftrace's own), text. */
typedef int (*ts_format_fn)(void *ctx, const char *system, const char *text, size_t len);

struct ts_datfile {
	int fd;
	uint64_t file_size;
	int version;
	int long_size;
	int page_size;
	enum ts_zkind z;
	char *header_page;
	size_t header_page_len;
	struct ts_region kallsyms;	/* size 0: none */
	struct ts_region cmdlines;
	char uname[256];
	char clock[32];			/* the trace clock in use */
	char recorder[128];		/* the VERSION option: the program that wrote it */
	char *cpustats;			/* the CPUSTAT options, concatenated */
	size_t cpustats_len;
	int nr_cpus;			/* CPUs with data in the file */
	struct ts_dat_cpu *cpus;
	int saw_clock_option;
	ts_format_fn on_format;
	void *format_ctx;
	char err[256];
};

/* A stream over a region: plain bytes, or compressed blocks decompressed on the way. */
struct ts_zin {
	struct ts_datfile *df;
	uint64_t pos, end;
	int compressed, chunked;
	long blocks_left;		/* chunked: chunks not yet started */
	uint64_t block_left;		/* compressed bytes of this block not yet taken */
	uint64_t out_left;		/* bytes this block still owes */
	int in_block;
	ZSTD_DStream *zs;
	z_stream zl;
	int zl_ready;
	unsigned char *in;
	size_t in_pos, in_len;
};

int ts_dat_open(struct ts_datfile *df, const char *path, ts_format_fn on_format, void *ctx);
void ts_dat_close(struct ts_datfile *df);

int ts_zin_open(struct ts_zin *z, struct ts_datfile *df, const struct ts_region *r);
ssize_t ts_zin_read(struct ts_zin *z, void *buf, size_t n);
int ts_zin_at_end(struct ts_zin *z);
void ts_zin_close(struct ts_zin *z);

int ts_dat_is_tracedat(const char *path);
uint64_t ts_stats_unplaced(const char *stats);

#endif
