// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c - output files that appear whole or not at all (see outfile.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/*
 * ts_outfile_open - start writing path ("-": standard output).  Returns 0,
 * or -1 after saying why on stderr.
 */
int ts_outfile_open(struct ts_outfile *o, const char *path)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->f = tmpfile();
		if (!o->f) {
			err_msg("cannot make a temporary file for standard output: %m\n");
			return -1;
		}
		o->path = path;
		return 0;
	}
	if (asprintf(&o->tmp, "%s.tmp-XXXXXX", path) < 0) {
		o->tmp = NULL;
		err_msg("out of memory\n");
		return -1;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		err_msg("%s: cannot write: %m\n", path);
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	o->f = fdopen(fd, "w+");
	if (!o->f) {
		err_msg("%s: %m\n", path);
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	/* mkstemp makes it 0600; an output file gets the usual mode */
	fchmod(fd, 0644 & ~current_umask());
	o->path = path;
	return 0;
}

static int copy_out(FILE *from, FILE *to)
{
	char buf[65536];
	size_t n;

	rewind(from);
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -1;
	return ferror(from) || fflush(to) ? -1 : 0;
}

/*
 * ts_outfile_commit - the command succeeded: put the file in place.
 * Returns 0, or -1 after saying why (the file is then removed).
 */
int ts_outfile_commit(struct ts_outfile *o)
{
	int ret = 0;

	if (!o->path)
		return 0;
	if (!o->tmp) {
		ret = copy_out(o->f, stdout);
		if (ret)
			err_msg("standard output: write error: %m\n");
		fclose(o->f);
		o->f = NULL;
		o->path = NULL;
		return ret;
	}
	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f))) {
		err_msg("%s: write error: %m\n", o->path);
		ts_outfile_abort(o);
		return -1;
	}
	if (fclose(o->f)) {
		o->f = NULL;
		err_msg("%s: write error: %m\n", o->path);
		ts_outfile_abort(o);
		return -1;
	}
	o->f = NULL;
	if (rename(o->tmp, o->path)) {
		err_msg("%s: %m\n", o->path);
		ts_outfile_abort(o);
		return -1;
	}
	free(o->tmp);
	o->tmp = NULL;
	o->path = NULL;
	return 0;
}

/* ts_outfile_abort - the command failed: leave nothing behind */
void ts_outfile_abort(struct ts_outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
	}
	memset(o, 0, sizeof(*o));
}
