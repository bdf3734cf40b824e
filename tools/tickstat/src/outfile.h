/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - output files that appear whole or not at all, and never
 * replace what is not a file.
 *
 * An output is checked and opened before any work starts, so that an
 * unwritable path, or one that names an input or another output, is an
 * error before recording or reading.  What it names decides how it is
 * written (tickstat(1), FILES):
 *
 *   a regular file, or a name that does not exist yet: written to a
 *     temporary file beside it and renamed into place only when the command
 *     succeeds, so that a failed run leaves no partial file behind (the
 *     mode and owner of a file replaced are kept);
 *   a character device (/dev/null, a terminal) or a FIFO (a pipe, as
 *     bash's >(...) gives): written in place, with no rename and no
 *     truncation, the whole output at once when the command succeeds
 *     (spooled until then); a FIFO is opened before the work, which waits
 *     for its reader as any writer of a FIFO does;
 *   "-": standard output, spooled the same way;
 *   anything else is refused: a directory, a block device, a socket, a
 *     symbolic link that does not lead to a character device or a FIFO
 *     (/dev/stdout, /dev/fd/N do) - tickstat runs as root, and following a
 *     link to a file would replace whatever the link's owner points it at.
 *
 * Every write is checked: a write error is an error of the command.
 */
#ifndef TICKSTAT_OUTFILE_H
#define TICKSTAT_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

enum ts_out_kind {
	TS_OUT_UNUSED,
	TS_OUT_STDOUT,		/* "-": spooled, copied to standard output */
	TS_OUT_REPLACE,		/* a regular file or a new name: temporary file + rename */
	TS_OUT_IN_PLACE,	/* a character device or a FIFO: spooled, written in place */
};

struct ts_outfile {
	const char *path;	/* as given; NULL: not in use */
	const char *opt;	/* the option that named it, for messages */
	enum ts_out_kind kind;
	int exists;		/* REPLACE: a regular file is there now */
	struct stat st;		/* what path names (followed), when it exists */
	dev_t dir_dev;		/* REPLACE: the directory it goes in, and its name */
	ino_t dir_ino;
	const char *base;
	char *tmp;		/* REPLACE: the temporary file beside it */
	int fd;			/* IN_PLACE: the target, opened for writing */
	FILE *f;		/* where to write: the temporary file or the spool */
	int ready;		/* ts_outfile_ready done: only the rename or copy is left */
};

/* what ts_outfile_check accepts besides regular files and new names */
#define TS_OUT_ALLOW_FIFO	1	/* also a FIFO (not the monitor's textfile) */

int ts_outfile_check(struct ts_outfile *o, const char *opt, const char *path, int allow);
int ts_outfile_open(struct ts_outfile *o);
int ts_outfile_same(const struct ts_outfile *a, const struct ts_outfile *b);
int ts_outfile_is(const struct ts_outfile *o, const struct stat *st);
const char *ts_outfile_spool_hint(const struct ts_outfile *o);
int ts_outfile_ready(struct ts_outfile *o);
int ts_outfile_commit(struct ts_outfile *o);
void ts_outfile_abort(struct ts_outfile *o);
int ts_outfile_replace(const char *path, const void *buf, size_t len, char *err,
		       size_t errlen);
int ts_input_check(const char *path, struct stat *st);
int ts_stdout_flush(void);

#endif
