// SPDX-License-Identifier: GPL-2.0
/*
 * watch.c - a session watched live (watch.h).
 *
 * Every poll drains the ring buffers and charges every CPU up to the
 * moment every CPU's events have been read to, late commits included
 * (ts_session_complete_ns: about the previous poll's moment when every
 * CPU is read at every poll, as tickstat top does; the monitor takes
 * whole pages, and a CPU that gives many is complete up to its last
 * event); the events newer than that moment are held back (hold.c), so
 * that an event committed up to a poll late still counts from its own
 * time (ts_analysis_advance): the numbers over any span then equal a
 * report of the same span, about a poll behind.
 *
 * CPU hotplug: the online mask is read at every poll; a watched CPU that
 * left it is unknown from its last event on (ts_analysis_offline), and its
 * events set the state again once it is back.  Its ring buffer stays open.
 */
#include <stdio.h>
#include <string.h>

#include "watch.h"

static int read_online(struct ts_cpuset *set)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return ts_cpuset_parse(set, buf);
}

/*
 * A watched CPU that left the online mask is unknown from its last event
 * or the moment charged up to, whichever is later: its last events come
 * just before it goes, and are read first (the page it was writing too).
 * Returns 0, or -1 after saying why.
 */
static int check_hotplug(struct ts_watch *w)
{
	struct ts_cpuset now;

	if (read_online(&now))
		return 0;
	for (int i = 0; i < w->an->nr_cpus; i++) {
		const struct ts_cpu *c = w->an->cpus[i];
		int was = ts_cpuset_has(&w->online, i), is = ts_cpuset_has(&now, i);

		if (!c || !c->active || was == is)
			continue;
		if (!is) {
			if (ts_session_drain_cpu(w->ss, i))
				return -1;
			ts_analysis_offline(w->an, i, w->charge_to);
		}
		info_msg("tickstat: CPU %d went %s\n", i, is ? "online" : "offline");
	}
	w->online = now;
	return 0;
}

/*
 * ts_watch_start - start the session (ts_session_start's out and path:
 * a recording kept beside, or NULL), for numbers shown every interval_s.
 * Returns 0, or -1 after saying why.
 */
int ts_watch_start(struct ts_watch *w, const struct ts_session_opts *so, struct ts_analysis *an,
		   FILE *out, const char *path, double interval_s)
{
	memset(w, 0, sizeof(*w));
	w->an = an;
	ts_analysis_keep_gaps_unsized(an);	/* its lost-gaps counters never go down */
	w->poll_ns = ts_watch_poll_ms(interval_s) * 1000000ULL;
	/* the buffers' pace is not known yet: from the shortest poll period up */
	w->wait_ns = TS_WATCH_POLL_MIN_MS * 1000000ULL;
	if (read_online(&w->online)) {
		err_msg("cannot read /sys/devices/system/cpu/online\n");
		return -1;
	}
	w->ss = ts_session_start(so, an, out, path);
	if (!w->ss)
		return -1;
	w->charge_to = ts_session_start_ns(w->ss);
	w->clock_ns = w->charge_to;
	return 0;
}

/*
 * ts_watch_poll - drain the ring buffers and charge every CPU up to the
 * moment every CPU's events have been read to (ts_session_complete_ns):
 * what is newer waits for a later poll.  Returns 0, or -1 after saying why.
 */
int ts_watch_poll(struct ts_watch *w)
{
	uint64_t before = ts_now_ns(), complete;

	/* what the drain brings stamped at or after the moment charged up to waits */
	if (ts_analysis_hold(w->an, w->charge_to)) {
		err_msg("out of memory\n");
		return -1;
	}
	ts_session_set_quiet_ns(w->ss, w->wait_ns / 2);
	if (ts_session_poll(w->ss) || check_hotplug(w))
		return -1;
	complete = ts_session_complete_ns(w->ss);
	if (complete > before)
		complete = before;
	if (complete > w->charge_to)
		w->charge_to = complete;
	/* what waited and is now older than the moment goes in first */
	if (ts_analysis_hold(w->an, w->charge_to)) {
		err_msg("out of memory\n");
		return -1;
	}
	ts_analysis_advance(w->an, w->charge_to);
	w->clock_ns = w->charge_to;
	w->wait_ns = ts_session_next_wait_ns(w->ss, w->wait_ns, w->poll_ns);
	return 0;
}

/* ts_watch_online - was the CPU online at the last poll? */
int ts_watch_online(const struct ts_watch *w, int cpu)
{
	return ts_cpuset_has(&w->online, cpu);
}

/*
 * ts_watch_stop - the last events, nothing held back, and the tracing
 * state as it was found.  The CPUs are then charged up to the end of
 * tracing (an->win_end).  Returns 0, or -1 after saying why.
 */
int ts_watch_stop(struct ts_watch *w)
{
	ts_analysis_unhold(w->an);
	if (ts_session_stop(w->ss))
		return -1;
	w->clock_ns = w->an->win_end;
	return 0;
}

/* ts_watch_free - remove the session (its instance, if it still runs) */
void ts_watch_free(struct ts_watch *w)
{
	ts_session_free(w->ss);
	w->ss = NULL;
}
