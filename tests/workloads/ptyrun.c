// SPDX-License-Identifier: GPL-2.0
/*
 * ptyrun - run a command on a pseudo-terminal and keep what it shows, for
 * the tests of tickstat top (tests/scenarios/top.sh): the guest has no
 * python, no script(1) and no expect.
 *
 * usage: ptyrun -o FILE [-s ROWSxCOLS] [-a TEXT] [-r SECS:ROWSxCOLS]... [-k SECS:KEY]...
 *               [-m SECS]... [-t SECS] -- COMMAND [ARGS]
 *
 *   -o FILE            every byte the command writes to the terminal
 *   -s ROWSxCOLS       the terminal's size at the start (default 24x80)
 *   -a TEXT            the actions' SECS count from TEXT's first appearance in
 *                      the output, not from the start: a command slow to
 *                      start (a loaded host) then still gets them at the
 *                      same moments of its own clock
 *   -r SECS:ROWSxCOLS  resize it SECS after the start (the command gets SIGWINCH)
 *   -k SECS:KEY        type KEY: a character, or ^C for Ctrl-C (any ^X)
 *   -m SECS            only a mark
 *   -t SECS            kill the command (SIGKILL) if it still runs then (default 60)
 *
 * FILE.marks gets a line per action, "SECS ACTION OFFSET" (OFFSET: how many
 * bytes FILE held when it came; SECS from the start), with -a a line
 * "SECS anchor OFFSET" when TEXT came (or at the end "SECS no-anchor OFFSET"
 * when it never did), and at the end "exit STATUS" (128 + the signal when
 * the command was killed).  The command's standard error stays
 * ptyrun's.  ptyrun exits 0 when it ran the command, whatever its status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

#define MAX_ACTIONS	32

struct action {
	double at;
	char kind;		/* 'r' resize, 'k' key, 'm' mark */
	char key;
	struct winsize ws;
	char text[32];
	int done;
};

static struct action actions[MAX_ACTIONS];
static int nr_actions;
static const char *anchor;	/* -a: the actions wait for it */

static int parse_size(const char *s, struct winsize *ws)
{
	unsigned int rows, cols;
	char end;

	if (sscanf(s, "%ux%u%c", &rows, &cols, &end) != 2 || !rows || !cols || rows > 999 ||
	    cols > 999)
		return -1;
	memset(ws, 0, sizeof(*ws));
	ws->ws_row = rows;
	ws->ws_col = cols;
	return 0;
}

static int add_action(char kind, const char *arg)
{
	struct action *a = &actions[nr_actions];
	char *rest;

	if (nr_actions == MAX_ACTIONS)
		return -1;
	a->at = strtod(arg, &rest);
	if (rest == arg || a->at < 0)
		return -1;
	a->kind = kind;
	snprintf(a->text, sizeof(a->text), "%c:%s", kind, *rest == ':' ? rest + 1 : "");
	if (kind == 'm') {
		if (*rest)
			return -1;
	} else if (*rest != ':') {
		return -1;
	} else if (kind == 'r') {
		if (parse_size(rest + 1, &a->ws))
			return -1;
	} else if (rest[1] == '^' && rest[2] && !rest[3]) {
		a->key = rest[2] & 0x1f;
	} else if (rest[1] && !rest[2]) {
		a->key = rest[1];
	} else {
		return -1;
	}
	nr_actions++;
	return 0;
}

static void act(struct action *a, int master, FILE *marks, long offset, double t)
{
	fprintf(marks, "%.3f %s %ld\n", t, a->text, offset);
	fflush(marks);
	if (a->kind == 'r' && ioctl(master, TIOCSWINSZ, &a->ws))
		fprintf(stderr, "ptyrun: TIOCSWINSZ: %s\n", strerror(errno));
	if (a->kind == 'k' && write(master, &a->key, 1) != 1)
		fprintf(stderr, "ptyrun: cannot type: %s\n", strerror(errno));
	a->done = 1;
}

static pid_t start_command(char **argv, const struct winsize *ws, int *master)
{
	int slave;
	pid_t pid;

	if (openpty(master, &slave, NULL, NULL, ws)) {
		fprintf(stderr, "ptyrun: openpty: %s (is devpts mounted on /dev/pts?)\n",
			strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "ptyrun: fork: %s\n", strerror(errno));
		return -1;
	}
	if (!pid) {
		/* a session of its own, the terminal its controlling one */
		close(*master);
		if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) || dup2(slave, 0) < 0 ||
		    dup2(slave, 1) < 0) {
			fprintf(stderr, "ptyrun: cannot set up the terminal: %s\n", strerror(errno));
			_exit(126);
		}
		if (slave > 1)
			close(slave);
		execvp(argv[0], argv);
		fprintf(stderr, "ptyrun: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(slave);
	return pid;
}

/*
 * Has the anchor come?  seen holds the output's last *had bytes before buf
 * (a length, not a string: the output may hold NULs), so that an anchor
 * split between two reads is found.
 */
static int anchor_in(char *seen, size_t *had, size_t keep, const char *buf, size_t n)
{
	char joined[64 + 4096];
	size_t len = *had + n;

	memcpy(joined, seen, *had);
	memcpy(joined + *had, buf, n);
	if (memmem(joined, len, anchor, strlen(anchor)))
		return 1;
	*had = len > keep ? keep : len;
	memcpy(seen, joined + len - *had, *had);
	return 0;
}

/* Copy the terminal's output into out until the command has exited and closed it. */
static int run(pid_t pid, int master, FILE *out, FILE *marks, double timeout)
{
	double start = now(), base = anchor ? -1 : 0;
	int status = -1, exited = 0, killed = 0;
	long offset = 0;
	char buf[4096], seen[64];
	size_t had = 0;

	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		double t = now() - start;
		ssize_t n;

		for (int i = 0; base >= 0 && i < nr_actions; i++)
			if (!actions[i].done && actions[i].at <= t - base)
				act(&actions[i], master, marks, offset, t);
		if (!exited && !killed && t > timeout) {
			fprintf(marks, "%.3f timeout %ld\n", t, offset);
			kill(pid, SIGKILL);
			killed = 1;
		}
		if (!exited && waitpid(pid, &status, WNOHANG) == pid)
			exited = 1;
		if (poll(&pfd, 1, 20) <= 0) {
			if (exited)
				break;
			continue;
		}
		n = read(master, buf, sizeof(buf));
		if (n <= 0) {
			/* EIO: every slave end closed */
			if (exited || (n < 0 && errno != EINTR && errno != EAGAIN))
				break;
			continue;
		}
		fwrite(buf, 1, n, out);
		offset += n;
		if (base < 0 && anchor_in(seen, &had, strlen(anchor) - 1, buf, n)) {
			base = now() - start;
			fprintf(marks, "%.3f anchor %ld\n", base, offset);
		}
	}
	if (!exited)
		waitpid(pid, &status, 0);
	if (base < 0)	/* no action came: say why */
		fprintf(marks, "%.3f no-anchor %ld\n", now() - start, offset);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int usage(void)
{
	fprintf(stderr, "usage: ptyrun -o FILE [-s ROWSxCOLS] [-a TEXT] [-r SECS:ROWSxCOLS]... "
		"[-k SECS:KEY]... [-m SECS]... [-t SECS] -- COMMAND [ARGS]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	const char *path = NULL;
	char marks_path[4096];
	double timeout = 60;
	FILE *out, *marks;
	int opt, master, status;
	pid_t pid;

	while ((opt = getopt(argc, argv, "+o:s:a:r:k:m:t:")) != -1) {
		switch (opt) {
		case 'o':
			path = optarg;
			break;
		case 'a':
			/* 1 to 64 bytes: the carry between two reads is one less */
			if (!optarg[0] || strlen(optarg) > 64)
				return usage();
			anchor = optarg;
			break;
		case 's':
			if (parse_size(optarg, &ws))
				return usage();
			break;
		case 'r':
		case 'k':
		case 'm':
			if (add_action(opt, optarg))
				return usage();
			break;
		case 't':
			timeout = atof(optarg);
			break;
		default:
			return usage();
		}
	}
	if (!path || optind >= argc)
		return usage();
	snprintf(marks_path, sizeof(marks_path), "%s.marks", path);
	out = fopen(path, "w");
	marks = fopen(marks_path, "w");
	if (!out || !marks) {
		fprintf(stderr, "ptyrun: %s: %s\n", path, strerror(errno));
		return 1;
	}
	pid = start_command(argv + optind, &ws, &master);
	if (pid < 0)
		return 1;
	status = run(pid, master, out, marks, timeout);
	fprintf(marks, "exit %d\n", status);
	if (fclose(out) | fclose(marks)) {
		fprintf(stderr, "ptyrun: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
