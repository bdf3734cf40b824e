// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c - output files that appear whole or not at all, and never
 * replace what is not a file (see outfile.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

static const char *type_name(mode_t m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a file";
}

/* Is what st describes written in place (allow: TS_OUT_ALLOW_*)? */
static int in_place(const struct stat *st, int allow)
{
	return S_ISCHR(st->st_mode) || (S_ISFIFO(st->st_mode) && (allow & TS_OUT_ALLOW_FIFO));
}

/*
 * classify - how an output at path is written: TS_OUT_REPLACE (*exists
 * says whether a regular file is there; *st is it) or TS_OUT_IN_PLACE
 * (*st: the device or FIFO, a link followed).  Returns -1 with the reason
 * in why when path cannot be an output.  Only the last component is looked
 * at: links among the directories are the system's layout (/var/run).
 */
static int classify(const char *path, int allow, struct stat *st, int *exists, char *why,
		    size_t len)
{
	size_t n = strlen(path);
	struct stat l;

	*exists = 0;
	if (!n || path[n - 1] == '/') {
		snprintf(why, len, "%s", n ? "names a directory" : "an empty file name");
		return -1;
	}
	if (lstat(path, &l)) {
		if (errno == ENOENT)
			return TS_OUT_REPLACE;
		snprintf(why, len, "cannot write: %s", strerror(errno));
		return -1;
	}
	if (S_ISREG(l.st_mode)) {
		*st = l;
		*exists = 1;
		return TS_OUT_REPLACE;
	}
	if (S_ISLNK(l.st_mode)) {
		if (stat(path, st)) {
			snprintf(why, len, "is a symbolic link to %s; not followed",
				 errno == ENOENT ? "nothing" : strerror(errno));
			return -1;
		}
		if (in_place(st, allow))
			return TS_OUT_IN_PLACE;
		snprintf(why, len, "is a symbolic link to %s; tickstat does not replace what a link points to: name the file itself",
			 type_name(st->st_mode));
		return -1;
	}
	*st = l;
	if (in_place(st, allow))
		return TS_OUT_IN_PLACE;
	snprintf(why, len, "is %s; an output is a regular file, a new name, a character device%s",
		 type_name(l.st_mode), allow & TS_OUT_ALLOW_FIFO ? " or a FIFO" : "");
	return -1;
}

/*
 * ts_outfile_check - say what path is and how it will be written, before
 * anything is opened or created, so that outputs can be compared with the
 * input and with each other first.  opt names the option, for messages.
 * Returns 0, or -1 after saying why on stderr.
 */
int ts_outfile_check(struct ts_outfile *o, const char *opt, const char *path, int allow)
{
	char why[256], *dir;
	struct stat d;
	int kind;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->opt = opt;
	if (!strcmp(path, "-")) {
		o->path = path;
		o->kind = TS_OUT_STDOUT;
		return 0;
	}
	kind = classify(path, allow, &o->st, &o->exists, why, sizeof(why));
	if (kind < 0) {
		err_msg("%s %s: %s\n", opt, path, why);
		return -1;
	}
	if (kind == TS_OUT_REPLACE && !o->exists) {
		/* a new name: its directory and name say which file it will be */
		const char *slash = strrchr(path, '/');

		errno = 0;
		dir = slash ? strndup(path, slash == path ? 1 : slash - path) : strdup(".");
		if (!dir) {
			err_msg("out of memory\n");
			return -1;
		}
		if (stat(dir, &d) || !S_ISDIR(d.st_mode)) {
			err_msg("%s %s: cannot write: %s\n", opt, path,
				errno ? strerror(errno) : "not a directory");
			free(dir);
			return -1;
		}
		free(dir);
		o->dir_dev = d.st_dev;
		o->dir_ino = d.st_ino;
		o->base = slash ? slash + 1 : path;
	}
	o->path = path;
	o->kind = kind;
	return 0;
}

/* Do a and b name the same file (or both standard output)? */
int ts_outfile_same(const struct ts_outfile *a, const struct ts_outfile *b)
{
	int known_a = a->exists || a->kind == TS_OUT_IN_PLACE;
	int known_b = b->exists || b->kind == TS_OUT_IN_PLACE;

	if (!a->path || !b->path)
		return 0;
	if (a->kind == TS_OUT_STDOUT || b->kind == TS_OUT_STDOUT)
		return a->kind == b->kind;
	/* a character device takes one write after another: /dev/null twice is fine */
	if (known_a && known_b)
		return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino &&
		       !S_ISCHR(a->st.st_mode);
	if (known_a || known_b)
		return 0;
	return a->dir_dev == b->dir_dev && a->dir_ino == b->dir_ino && !strcmp(a->base, b->base);
}

/* Does o name the file st describes (an input, standard output)? */
int ts_outfile_is(const struct ts_outfile *o, const struct stat *st)
{
	if (!o->path || !(o->exists || o->kind == TS_OUT_IN_PLACE))
		return 0;
	return o->st.st_dev == st->st_dev && o->st.st_ino == st->st_ino;
}

/*
 * ts_outfile_spool_hint - where a writer that spools (datwrite.c) should
 * put its spool: beside a file replaced, else in TMPDIR ("-").
 */
const char *ts_outfile_spool_hint(const struct ts_outfile *o)
{
	return o->kind == TS_OUT_REPLACE ? o->path : "-";
}

static int open_replace(struct ts_outfile *o)
{
	/* not set-user-ID or set-group-ID: that would not be the file replaced */
	mode_t mode = o->exists ? o->st.st_mode & 0777 : 0644 & ~current_umask();
	int fd;

	if (asprintf(&o->tmp, "%s.tmp-XXXXXX", o->path) < 0) {
		o->tmp = NULL;
		err_msg("out of memory\n");
		return -1;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		err_msg("%s %s: cannot write: %m\n", o->opt, o->path);
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	/* mkstemp makes it 0600: a new file gets the usual mode, a replaced one keeps its own */
	if ((o->exists && fchown(fd, o->st.st_uid, o->st.st_gid) && errno != EPERM) ||
	    fchmod(fd, mode)) {
		err_msg("%s %s: %m\n", o->opt, o->tmp);
		goto fail;
	}
	o->f = fdopen(fd, "w+");
	if (!o->f) {
		err_msg("%s %s: %m\n", o->opt, o->path);
		goto fail;
	}
	return 0;
fail:
	close(fd);
	unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return -1;
}

static int open_in_place(struct ts_outfile *o)
{
	struct stat st;

	o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0) {
		err_msg("%s %s: cannot write: %m\n", o->opt, o->path);
		return -1;
	}
	/* it could have been swapped for a file since it was looked at */
	if (fstat(o->fd, &st) || st.st_dev != o->st.st_dev || st.st_ino != o->st.st_ino) {
		err_msg("%s %s: changed while it was opened\n", o->opt, o->path);
		return -1;
	}
	o->f = tmpfile();
	if (!o->f) {
		err_msg("%s %s: cannot make a temporary file to spool it: %m\n", o->opt, o->path);
		return -1;
	}
	return 0;
}

/*
 * ts_outfile_open - start writing what ts_outfile_check accepted: the
 * temporary file beside a file, or the spool of standard output, a device
 * or a FIFO (opened now: an error before the work).  Returns 0, or -1
 * after saying why on stderr (ts_outfile_abort cleans up).
 */
int ts_outfile_open(struct ts_outfile *o)
{
	switch (o->kind) {
	case TS_OUT_UNUSED:
		return 0;
	case TS_OUT_STDOUT:
		o->f = tmpfile();
		if (!o->f) {
			err_msg("cannot make a temporary file for standard output: %m\n");
			return -1;
		}
		return 0;
	case TS_OUT_REPLACE:
		return open_replace(o);
	case TS_OUT_IN_PLACE:
		return open_in_place(o);
	}
	return -1;
}

/* Write all of buf to fd.  Returns 0, or -1 with errno set. */
static int write_all(int fd, const void *buf, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, (const char *)buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;
			return -1;
		}
		off += n;
	}
	return 0;
}

/* Copy the spool to standard output (to == NULL) or to fd. */
static int copy_out(FILE *from, int fd)
{
	char buf[65536];
	size_t n;

	if (fflush(from) || fseek(from, 0, SEEK_SET))
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0) {
		if (fd < 0 ? fwrite(buf, 1, n, stdout) != n : write_all(fd, buf, n))
			return -1;
	}
	return ferror(from) ? -1 : 0;
}

static int stdout_failed;

/*
 * ts_stdout_flush - flush standard output and say once if anything
 * written to it was lost.  Returns 0, or -1 (said on stderr).
 */
int ts_stdout_flush(void)
{
	int err = 0;

	if (fflush(stdout))
		err = errno ? errno : EIO;
	else if (ferror(stdout))
		err = EIO;		/* an earlier write failed; its errno is gone */
	if (!err)
		return 0;
	if (!stdout_failed)
		err_msg("standard output: write error: %s\n", strerror(err));
	stdout_failed = 1;
	return -1;
}

/* A file replaced: its temporary file written out, ready for the rename. */
static int ready_replace(struct ts_outfile *o)
{
	FILE *f = o->f;

	o->f = NULL;
	if (fflush(f) || ferror(f) || fsync(fileno(f))) {
		err_msg("%s %s: write error: %m\n", o->opt, o->path);
		fclose(f);
		return -1;
	}
	if (fclose(f)) {
		err_msg("%s %s: write error: %m\n", o->opt, o->path);
		return -1;
	}
	return 0;
}

/* A device or FIFO: the spool written to it, the last step that can fail. */
static int ready_in_place(struct ts_outfile *o)
{
	int ret = 0;

	if (copy_out(o->f, o->fd)) {
		err_msg("%s %s: write error: %m\n", o->opt, o->path);
		ret = -1;
	} else if (close(o->fd)) {
		err_msg("%s %s: write error: %m\n", o->opt, o->path);
		ret = -1;
	}
	o->fd = -1;
	return ret;
}

/*
 * ts_outfile_ready - the command succeeded: do all that can fail with a
 * write error (a device or FIFO is written now, a file's temporary file is
 * synced), so that the caller can stop before anything else is shown.
 * Returns 0, or -1 after saying why.  ts_outfile_commit does the rest.
 */
int ts_outfile_ready(struct ts_outfile *o)
{
	int ret = 0;

	if (o->ready)
		return 0;
	if (o->kind == TS_OUT_REPLACE)
		ret = ready_replace(o);
	else if (o->kind == TS_OUT_IN_PLACE)
		ret = ready_in_place(o);
	o->ready = !ret;
	return ret;
}

/* The rename of a file replaced. */
static int commit_replace(struct ts_outfile *o)
{
	struct stat now;

	/* what it named then is what it replaces: not a link or a device put there since */
	if (!lstat(o->path, &now) && !S_ISREG(now.st_mode)) {
		err_msg("%s %s: became %s while tickstat ran; not replaced\n", o->opt, o->path,
			type_name(now.st_mode));
		return -1;
	}
	if (rename(o->tmp, o->path)) {
		err_msg("%s %s: %m\n", o->opt, o->path);
		return -1;
	}
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

/*
 * ts_outfile_commit - the command succeeded: put the output in place
 * (ts_outfile_ready first, if the caller did not).  Returns 0, or -1 after
 * saying why (a temporary file is then removed).
 */
int ts_outfile_commit(struct ts_outfile *o)
{
	int ret = 0;

	if (o->kind == TS_OUT_UNUSED)
		return 0;
	if (ts_outfile_ready(o)) {
		ts_outfile_abort(o);
		return -1;
	}
	if (o->kind == TS_OUT_STDOUT) {
		ret = copy_out(o->f, -1) ? -1 : 0;
		if (ts_stdout_flush())
			ret = -1;
	} else if (o->kind == TS_OUT_REPLACE) {
		ret = commit_replace(o);
	}
	ts_outfile_abort(o);
	return ret;
}

/* ts_outfile_abort - the command failed: leave nothing behind */
void ts_outfile_abort(struct ts_outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->kind == TS_OUT_IN_PLACE && o->fd >= 0)
		close(o->fd);
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
	}
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

/* The textfile is a device: one write of the whole text. */
static int replace_in_place(const char *path, const void *buf, size_t len, char *err,
			    size_t errlen)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0 || write_all(fd, buf, len)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (close(fd)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * ts_outfile_replace - put buf in place as path, atomically: a reader of
 * path (node_exporter's textfile collector) sees the old content or the
 * new, never a part.  The temporary file beside it has a name of its own
 * that collectors skip (PATH.tmp-XXXXXX).  No fsync: a repeated update is
 * not worth a disk flush every interval.  What path names is looked at
 * every time, as ts_outfile_check does without FIFOs (a FIFO's reader
 * would stall the monitor): a character device is written in place.
 * Returns 0, or -1 with the reason in err (nothing is printed: the caller
 * decides how often to say).
 */
int ts_outfile_replace(const char *path, const void *buf, size_t len, char *err, size_t errlen)
{
	char *tmp = NULL, why[256];
	struct stat st;
	int fd, bad = 0, exists;

	switch (classify(path, 0, &st, &exists, why, sizeof(why))) {
	case TS_OUT_REPLACE:
		break;
	case TS_OUT_IN_PLACE:
		return replace_in_place(path, buf, len, err, errlen);
	default:
		snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
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
	errno = 0;
	if (fchmod(fd, 0644 & ~current_umask()) || write_all(fd, buf, len))
		bad = 1;
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

/*
 * ts_input_check - an input recording must be a regular file: the reader
 * seeks in it, and opening a FIFO with no writer would wait forever.  *st
 * gets what it is (a link followed), to compare outputs with.  Returns 0,
 * or -1 after saying why on stderr.
 */
int ts_input_check(const char *path, struct stat *st)
{
	if (stat(path, st)) {
		err_msg("%s: %m\n", path);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		err_msg("%s: is %s; a recording is read from a regular file (the reader seeks in it)\n",
			path, type_name(st->st_mode));
		return -1;
	}
	return 0;
}
