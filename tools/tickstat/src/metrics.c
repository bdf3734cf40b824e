// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - derive a CPU's report numbers from its accumulated times.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

/* ts_metrics_of - the shares and rates of one CPU */
void ts_metrics_of(const struct ts_analysis *an, const struct ts_cpu *c, struct ts_metrics *m)
{
	memset(m, 0, sizeof(*m));
	m->window_ns = ts_cpu_window_ns(an);
	m->unknown_ns = ts_cpu_tick_ns(c, TS_TICK_UNKNOWN);
	m->stopped_ns = ts_cpu_tick_ns(c, TS_TICK_STOPPED);
	m->running_ns = ts_cpu_tick_ns(c, TS_TICK_RUNNING);
	m->busy_stopped_ns = c->time[TS_TICK_STOPPED][TS_IDLE_BUSY];
	m->busy_ns = m->busy_stopped_ns + c->time[TS_TICK_RUNNING][TS_IDLE_BUSY];
	m->idle_stopped_ns = c->time[TS_TICK_STOPPED][TS_IDLE_IDLE];
	m->idle_ns = m->idle_stopped_ns + c->time[TS_TICK_RUNNING][TS_IDLE_IDLE];
	m->idle_unknown_ns = c->time[TS_TICK_STOPPED][TS_IDLE_UNKNOWN] +
			     c->time[TS_TICK_RUNNING][TS_IDLE_UNKNOWN];
	m->state_unknown_ns = m->unknown_ns + m->idle_unknown_ns;
	m->tickless_share = ts_share(m->stopped_ns, m->stopped_ns + m->running_ns);
	m->busy_tickless_share = ts_share(m->busy_stopped_ns, m->busy_ns);
	m->idle_tickless_share = ts_share(m->idle_stopped_ns, m->idle_ns);
	m->unknown_share = ts_share(m->unknown_ns, m->window_ns);
	m->state_unknown_share = ts_share(m->state_unknown_ns, m->window_ns);
	/* an empty window has no rate (-1), not a rate of 0 */
	m->tick_rate_hz = m->window_ns ? (double)c->ticks * 1e9 / (double)m->window_ns : -1;
}

/* qsort_r comparators: the CPU or analysis comes as an argument, never as a static */
static int by_reason_time(const void *a, const void *b, void *ctx)
{
	const struct ts_cpu *c = ctx;
	const struct ts_reason *x = &c->reasons[*(const int *)a];
	const struct ts_reason *y = &c->reasons[*(const int *)b];

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? 1 : -1;
	if (x->events != y->events)
		return x->events < y->events ? 1 : -1;
	return *(const int *)a - *(const int *)b;
}

/* ts_reason_order - indexes of the CPU's reasons, most time first */
int ts_reason_order(const struct ts_cpu *c, int *order)
{
	for (int i = 0; i < c->nr_reasons; i++)
		order[i] = i;
	qsort_r(order, c->nr_reasons, sizeof(int), by_reason_time, (void *)c);
	return c->nr_reasons;
}

static int by_held_time(const void *a, const void *b, void *ctx)
{
	const struct ts_cpu *c = ctx;
	const struct ts_task_time *x = &c->tasks[*(const int *)a];
	const struct ts_task_time *y = &c->tasks[*(const int *)b];

	if (x->held_ns != y->held_ns)
		return x->held_ns < y->held_ns ? 1 : -1;
	if (x->run_ns != y->run_ns)
		return x->run_ns < y->run_ns ? 1 : -1;
	return x->pid - y->pid;
}

/* ts_task_order - indexes of a CPU's co-runners, most time with the tick held first */
int ts_task_order(const struct ts_cpu *c, int *order)
{
	for (int i = 0; i < c->nr_tasks; i++)
		order[i] = i;
	qsort_r(order, c->nr_tasks, sizeof(int), by_held_time, (void *)c);
	return c->nr_tasks;
}

/* Causes by most entries, then by type and key: an order that is the same every run. */
static int by_cause_count(const void *a, const void *b, void *ctx)
{
	const struct ts_cpu *c = ctx;
	const struct ts_cause *x = &c->causes[*(const int *)a];
	const struct ts_cause *y = &c->causes[*(const int *)b];

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->queued != y->queued)
		return x->queued < y->queued ? 1 : -1;
	if (x->type != y->type)
		return x->type - y->type;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* ts_cause_order - indexes of a CPU's causes, most entries first */
int ts_cause_order(const struct ts_cpu *c, int *order)
{
	for (int i = 0; i < c->nr_causes; i++)
		order[i] = i;
	qsort_r(order, c->nr_causes, sizeof(int), by_cause_count, (void *)c);
	return c->nr_causes;
}

/*
 * Culprits by CPU and most sets first, then by what they are, so that the
 * order does not depend on the order the CPUs' events were read in.
 */
static int by_culprit(const void *a, const void *b, void *ctx)
{
	const struct ts_analysis *an = ctx;
	const struct ts_culprit *x = &an->culprits[*(const int *)a];
	const struct ts_culprit *y = &an->culprits[*(const int *)b];

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	if (x->sets != y->sets)
		return x->sets < y->sets ? 1 : -1;
	if (x->clears != y->clears)
		return x->clears < y->clears ? 1 : -1;
	if (x->bit != y->bit)
		return x->bit < y->bit ? -1 : 1;
	if (x->scope != y->scope)
		return x->scope - y->scope;
	/* as the file says them: a difference could overflow */
	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	if (x->sched != y->sched)
		return x->sched < y->sched ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid - y->pid;
	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* ts_culprit_order - culprits by CPU (global first), most sets first */
int ts_culprit_order(const struct ts_analysis *an, int *order)
{
	for (int i = 0; i < an->nr_culprits; i++)
		order[i] = i;
	qsort_r(order, an->nr_culprits, sizeof(int), by_culprit, (void *)an);
	return an->nr_culprits;
}

/* The name a task armer is shown by: the task's as the trace last told it, else its name then. */
static const char *armer_comm(const struct ts_analysis *an, const struct ts_armer *a)
{
	const char *comm = a->ctx == TS_ARM_TASK ? ts_comm_get(an, a->pid) : NULL;

	return comm ? comm : a->comm;
}

/*
 * ts_armers_of - who armed a timer cause, as the reports show them: tasks
 * by the name the trace last gave them (a shell's child armed under its
 * parent's name, then renamed itself: one armer), merged, in out[] (room
 * for TS_MAX_ARMERS) with that name in comm, most armings first, then in
 * the order first seen.  Returns how many.
 */
int ts_armers_of(const struct ts_analysis *an, const struct ts_cause *k, struct ts_armer *out)
{
	int n = 0;

	for (int i = 0; i < k->nr_armers; i++) {
		struct ts_armer a = k->armers[i];
		int j;

		snprintf(a.comm, sizeof(a.comm), "%s", armer_comm(an, &k->armers[i]));
		for (j = 0; j < n; j++) {
			const struct ts_armer *b = &out[j];

			if (a.ctx == b->ctx && a.cpu == b->cpu &&
			    (a.ctx != TS_ARM_TASK ||
			     (a.comm[0] ? !strcmp(a.comm, b->comm) : a.pid == b->pid)) &&
			    (a.ctx != TS_ARM_CAUSE ||
			     (a.ctx_type == b->ctx_type && a.ctx_key == b->ctx_key)))
				break;
		}
		if (j < n) {
			if (a.count > out[j].count)
				out[j].pid = a.pid;	/* the pid of most of them */
			out[j].count += a.count;
			continue;
		}
		out[n++] = a;
	}
	for (int i = 1; i < n; i++)		/* a few: insertion sort, stable */
		for (int j = i; j > 0 && out[j - 1].count < out[j].count; j--) {
			struct ts_armer t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}
