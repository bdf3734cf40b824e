// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - derive a CPU's report numbers from its accumulated times.
 */
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
	m->tickless_share = ts_share(m->stopped_ns, m->stopped_ns + m->running_ns);
	m->busy_tickless_share = ts_share(m->busy_stopped_ns, m->busy_ns);
	m->idle_tickless_share = ts_share(m->idle_stopped_ns, m->idle_ns);
	m->unknown_share = ts_share(m->unknown_ns, m->window_ns);
	m->tick_rate_hz = m->window_ns ? (double)c->ticks * 1e9 / (double)m->window_ns : 0;
}

static const struct ts_cpu *sort_cpu;
static const struct ts_analysis *sort_an;

static int by_reason_time(const void *a, const void *b)
{
	const struct ts_reason *x = &sort_cpu->reasons[*(const int *)a];
	const struct ts_reason *y = &sort_cpu->reasons[*(const int *)b];

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
	sort_cpu = c;
	qsort(order, c->nr_reasons, sizeof(int), by_reason_time);
	return c->nr_reasons;
}

static int by_held_time(const void *a, const void *b)
{
	const struct ts_task_time *x = &sort_cpu->tasks[*(const int *)a];
	const struct ts_task_time *y = &sort_cpu->tasks[*(const int *)b];

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
	sort_cpu = c;
	qsort(order, c->nr_tasks, sizeof(int), by_held_time);
	return c->nr_tasks;
}

static int by_culprit(const void *a, const void *b)
{
	const struct ts_culprit *x = &sort_an->culprits[*(const int *)a];
	const struct ts_culprit *y = &sort_an->culprits[*(const int *)b];

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	if (x->sets != y->sets)
		return x->sets < y->sets ? 1 : -1;
	return *(const int *)a - *(const int *)b;
}

/* ts_culprit_order - culprits by CPU (global first), most sets first */
int ts_culprit_order(const struct ts_analysis *an, int *order)
{
	for (int i = 0; i < an->nr_culprits; i++)
		order[i] = i;
	sort_an = an;
	qsort(order, an->nr_culprits, sizeof(int), by_culprit);
	return an->nr_culprits;
}
