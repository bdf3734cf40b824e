// SPDX-License-Identifier: GPL-2.0
/*
 * hold.c - the door of the state machine, and the queue a watcher keeps
 * behind it.
 *
 * An event is stamped when its CPU reserves room for it in the ring buffer
 * and can be read only once it is committed.  A guest vCPU descheduled in
 * between (a loaded host) commits it after a reader has drained that
 * CPU's buffer, with a stamp older than the moment the reader charged the
 * CPUs up to.  Fed then, the event would change the state only from that
 * moment on, and the time in between would stay with the state before it.
 *
 * A watcher (tickstat monitor, top) therefore charges only up to a moment
 * before which each CPU's buffer has been read again since
 * (ts_session_complete_ns), and holds back what is newer
 * (ts_analysis_hold): an event committed up to one read late still
 * reaches the state machine before the time it belongs to is charged.  Per CPU,
 * events reach the state machine in the order they came; once a CPU has an
 * event held, the ones after it wait too.  A moment is charged up to
 * before the events stamped at it count, as a report's half-open range
 * [A, B) counts them.
 *
 * An event stamped far ahead of the moment (a clock glitch, a record that
 * decodes to nonsense) would hold its CPU's events back for good: such an
 * event, or a queue grown beyond any poll's worth of events, sends the
 * CPU's queue in at once, as without holding.
 *
 * The queue is hold.c's own state (struct ts_hold, an->hold): only this
 * file reads or writes it; the state machine never sees it.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

/*
 * Safety margins, not the expected hold: a watcher holds back about a
 * poll, two at most (polls are 1 s apart at the longest)
 */
#define HOLD_MAX_AHEAD_NS	(10 * 1000000000ULL)	/* 10 polls or more */
#define HOLD_MAX_EVENTS		(1u << 20)	/* 64 MiB of one CPU's events */

struct ts_held {
	struct ts_event *ev;
	size_t head;			/* the next to release */
	size_t len;			/* one past the last held */
	size_t cap;
};

struct ts_hold {
	struct ts_held cpu[TS_MAX_CPUS];
	uint64_t until;			/* events stamped at it or later are held */
};

static int held_empty(const struct ts_held *h)
{
	return h->head == h->len;
}

/* Append; 0, or -1 when out of memory. */
static int held_push(struct ts_held *h, const struct ts_event *ev)
{
	if (h->head && h->head == h->len) {
		h->head = 0;
		h->len = 0;
	}
	if (h->len == h->cap) {
		size_t cap;
		struct ts_event *p;

		if (h->head) {		/* room at the front: move down first */
			memmove(h->ev, h->ev + h->head, (h->len - h->head) * sizeof(*h->ev));
			h->len -= h->head;
			h->head = 0;
		}
		cap = h->cap ? h->cap * 2 : 256;
		if (h->len == h->cap) {
			p = realloc(h->ev, cap * sizeof(*p));
			if (!p)
				return -1;
			h->ev = p;
			h->cap = cap;
		}
	}
	h->ev[h->len++] = *ev;
	return 0;
}

/* Feed a CPU's held events stamped before until (all of them: UINT64_MAX). */
static void release_cpu(struct ts_analysis *an, struct ts_held *h, uint64_t until)
{
	while (!held_empty(h) && (h->ev[h->head].ts < until || until == UINT64_MAX))
		ts_analysis_apply(an, &h->ev[h->head++]);
}

/*
 * ts_analysis_event - feed one decoded event: to the state machine, or to
 * the CPU's queue while a watcher holds back what is stamped at or after
 * its moment.
 * Returns 0, or -1 when the CPU number is out of range.
 */
int ts_analysis_event(struct ts_analysis *an, const struct ts_event *ev)
{
	struct ts_held *h;

	if (!an->hold || ev->cpu < 0 || ev->cpu >= TS_MAX_CPUS)
		return ts_analysis_apply(an, ev);
	h = &an->hold->cpu[ev->cpu];
	if (held_empty(h) && ev->ts < an->hold->until)
		return ts_analysis_apply(an, ev);
	if (ev->ts <= an->hold->until + HOLD_MAX_AHEAD_NS && h->len - h->head < HOLD_MAX_EVENTS &&
	    !held_push(h, ev))
		return 0;
	/* too far ahead, too many, out of memory: in order, only not held */
	release_cpu(an, h, UINT64_MAX);
	return ts_analysis_apply(an, ev);
}

/*
 * ts_analysis_hold - from now on, hold back the events stamped at until or
 * later, and feed the held ones stamped before.  until only grows.  Returns
 * 0, or -1 when out of memory (nothing is held then).
 */
int ts_analysis_hold(struct ts_analysis *an, uint64_t until)
{
	if (!an->hold) {
		an->hold = calloc(1, sizeof(*an->hold));
		if (!an->hold)
			return -1;
	}
	if (until > an->hold->until)
		an->hold->until = until;
	for (int i = 0; i < TS_MAX_CPUS; i++)
		release_cpu(an, &an->hold->cpu[i], an->hold->until);
	return 0;
}

/* ts_analysis_release_cpu - feed all of a CPU's held events (it went offline) */
void ts_analysis_release_cpu(struct ts_analysis *an, int cpu)
{
	if (an->hold && cpu >= 0 && cpu < TS_MAX_CPUS)
		release_cpu(an, &an->hold->cpu[cpu], UINT64_MAX);
}

static void free_held(struct ts_analysis *an, int feed)
{
	if (!an->hold)
		return;
	for (int i = 0; i < TS_MAX_CPUS; i++) {
		if (feed)
			release_cpu(an, &an->hold->cpu[i], UINT64_MAX);
		free(an->hold->cpu[i].ev);
	}
	free(an->hold);
	an->hold = NULL;
}

/* ts_analysis_unhold - feed everything held and hold nothing back any more */
void ts_analysis_unhold(struct ts_analysis *an)
{
	free_held(an, 1);
}

/* ts_analysis_drop_held - the analysis ends unread: free what is held */
void ts_analysis_drop_held(struct ts_analysis *an)
{
	free_held(an, 0);
}
