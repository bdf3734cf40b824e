/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - output files that appear whole or not at all.
 *
 * An output file is opened before any work starts, so that an unwritable
 * path is an error before recording; it is written to a temporary file
 * beside it and renamed into place only when the command succeeds, so that
 * a failed run leaves no partial file behind.  "-" is standard output,
 * spooled the same way and copied out on success.
 */
#ifndef TICKSTAT_OUTFILE_H
#define TICKSTAT_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct ts_outfile {
	const char *path;	/* as given; NULL: not in use */
	char *tmp;		/* the temporary file beside it */
	FILE *f;		/* where to write */
};

int ts_outfile_open(struct ts_outfile *o, const char *path);
int ts_outfile_commit(struct ts_outfile *o);
void ts_outfile_abort(struct ts_outfile *o);
int ts_outfile_replace(const char *path, const void *buf, size_t len, char *err,
		       size_t errlen);

#endif
