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

/*
 * ts_outfile_replace - put buf in place as path, atomically: a reader of
 * path (node_exporter's textfile collector) sees the old content or the
 * new, never a part.  The temporary file beside it has a name of its own
 * that collectors skip (PATH.tmp-XXXXXX).  No fsync: a repeated update is
 * not worth a disk flush every interval.  Returns 0, or -1 with the
 * reason in err (nothing is printed: the caller decides how often to say).
 */
int ts_outfile_replace(const char *path, const void *buf, size_t len, char *err, size_t errlen)
{
	char *tmp = NULL;
	int fd, bad = 0;
	ssize_t n;

	if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	fchmod(fd, 0644 & ~current_umask());
	errno = 0;
	for (size_t off = 0; off < len; off += n) {
		n = write(fd, (const char *)buf + off, len - off);
		if (n <= 0) {
			bad = 1;
			break;
		}
	}
	if (close(fd))
		bad = 1;
	if (bad || rename(tmp, path)) {
		snprintf(err, errlen, "%s: %s", path, errno ? strerror(errno) : "short write");
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
