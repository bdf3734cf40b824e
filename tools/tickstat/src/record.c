// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - record while a command runs, for a duration, or until Ctrl-C.
 *
 * The recorder pins itself to CPUs it does not monitor and polls the
 * session (session.c says why), 100 ms after the start and then as often as
 * the buffers' fill asks (ts_session_next_wait_ns).  The command's exit, a
 * signal and the duration's end wake it at once.  It owns the command:
 * started once tracing runs, ended with SIGTERM, and SIGKILL when that is
 * ignored.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "session.h"

#define FIRST_WAIT_NS	(100 * 1000000ULL)
#define TERM_GRACE_MS	5000	/* a command gets this long to obey SIGTERM */

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested++;
}

/* nothing to do but interrupt the wait between polls (no SA_RESTART) */
static void on_child(int sig)
{
	(void)sig;
}

static pid_t start_command(char **argv, int *ready_pipe)
{
	int go[2];
	pid_t pid;

	if (pipe(go))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		char c;

		close(go[1]);
		/* tickstat ignores SIGPIPE (tickstat.c); the command gets the default */
		signal(SIGPIPE, SIG_DFL);
		/* wait until tracing runs, so the whole command is recorded */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "tickstat: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	*ready_pipe = go[1];
	return pid;
}

/*
 * End the command: SIGTERM, then SIGKILL when it has not obeyed within
 * TERM_GRACE_MS or when the user presses Ctrl-C again (a second one, or
 * one during the grace time).  Returns its wait status.
 */
static int stop_command(pid_t child)
{
	sig_atomic_t asked = stop_requested;
	int status = 0;

	kill(child, SIGTERM);
	for (int ms = 0; ; ms += 50) {
		struct timespec nap = { 0, 50 * 1000000L };

		if (waitpid(child, &status, WNOHANG) == child)
			return status;
		if (ms >= TERM_GRACE_MS || stop_requested > asked || stop_requested >= 2) {
			/* a warning, not progress: -q does not hide it */
			err_msg("warning: the command %s: killing it\n",
				ms >= TERM_GRACE_MS ? "ignored SIGTERM" : "is still running");
			kill(child, SIGKILL);
			waitpid(child, &status, 0);
			return status;
		}
		nanosleep(&nap, NULL);
	}
}

/*
 * ts_record - record until the duration ends, the command exits or the
 * user interrupts; feed the analysis, and write the recording if asked.
 * Returns 0, or -1 after printing why.  *cmd says how the command ended.
 */
int ts_record(const struct ts_record_opts *o, struct ts_analysis *an, struct ts_command_end *cmd)
{
	struct sigaction sa = { .sa_handler = on_signal }, sa_child = { .sa_handler = on_child };
	uint64_t wait_ns = FIRST_WAIT_NS;
	static const int wake_signals[] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP };
	sigset_t wake, waiting, old;
	int first = 1, masked = 0;
	struct ts_session_opts so = { .cpus = o->cpus, .buffer_kb = o->buffer_kb, .pin_away = 1,
				      .extra = o->extra, .nr_extra = o->nr_extra,
				      .probes = o->probes, .causes = !o->no_causes,
				      .doctor = !o->no_doctor, .whole_pages = 1 };
	struct ts_session *ss = NULL;
	uint64_t deadline;
	pid_t child = -1;
	int go_fd = -1, ret = -1;
	char list[512];

	cmd->status = -1;
	cmd->stopped = 0;
	sigemptyset(&wake);
	for (int i = 0; i < (int)(sizeof(wake_signals) / sizeof(wake_signals[0])); i++)
		sigaddset(&wake, wake_signals[i]);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa_child, NULL);
	if (o->command) {
		child = start_command(o->command, &go_fd);
		if (child < 0) {
			err_msg("cannot start the command: %s\n", strerror(errno));
			goto out;
		}
	}
	ss = ts_session_start(&so, an, o->output_file, o->spool_hint ? o->spool_hint : o->output);
	if (!ss)
		goto out;
	if (o->output)
		ts_analysis_set_source_path(an, o->output);
	ts_cpuset_format(ts_session_monitored(ss), list, sizeof(list));
	info_msg("tickstat: recording CPUs %s%s\n", list,
		 o->duration > 0 ? "" : o->command ? " until the command exits" : " until Ctrl-C");
	if (go_fd >= 0) {
		if (write(go_fd, "g", 1) != 1)
			err_msg("cannot start the command\n");
		close(go_fd);
		go_fd = -1;
	}
	deadline = o->duration > 0 ? ts_session_start_ns(ss) + (uint64_t)(o->duration * 1e9) : 0;
	/*
	 * The signals that end a wait are blocked but in the wait, so that
	 * one that comes between the tests and the wait ends the wait rather
	 * than waiting for the next poll
	 */
	sigprocmask(SIG_BLOCK, &wake, &old);
	masked = 1;
	waiting = old;
	for (int i = 0; i < (int)(sizeof(wake_signals) / sizeof(wake_signals[0])); i++)
		sigdelset(&waiting, wake_signals[i]);
	while (!stop_requested) {
		struct timespec nap;
		uint64_t now;
		int status;

		if (ts_session_poll(ss))
			goto out;
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			cmd->status = status;
			child = -1;
			if (!deadline)
				break;
		}
		now = ts_now_ns();
		if (deadline && now >= deadline)
			break;
		/* the first wait is FIRST_WAIT_NS: the buffers were empty at the start */
		if (!first)
			wait_ns = ts_session_next_wait_ns(ss, wait_ns, TS_SESSION_WAIT_MAX_NS);
		first = 0;
		nap.tv_sec = 0;
		nap.tv_nsec = (long)(deadline && deadline - now < wait_ns ? deadline - now : wait_ns);
		/* SIGCHLD, SIGINT, SIGTERM and SIGHUP end it early */
		ppoll(NULL, 0, &nap, &waiting);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	masked = 0;
	if (ts_session_stop(ss))
		goto out;
	ret = 0;
out:
	if (masked)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (child > 0) {
		if (go_fd >= 0)
			close(go_fd);
		cmd->status = stop_command(child);
		cmd->stopped = 1;
	}
	ts_session_free(ss);
	return ret;
}
