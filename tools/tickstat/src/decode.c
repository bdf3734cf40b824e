// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - raw trace records to struct ts_event, for every source.
 *
 * Fields are looked up once per stream; each read is bounds-checked
 * against the record, because recordings come from files we do not trust.
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"

static struct tep_event *find_event(struct tep_handle *tep, const char *sys,
				    const char *name, int *id)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);

	/* a file's id beyond the kernel's 16 bits: not an event we can route */
	if (ev && (ev->id < 0 || ev->id >= TS_EVENT_IDS))
		ev = NULL;
	*id = ev ? ev->id : -1;
	return ev;
}

static struct tep_format_field *field(struct tep_event *ev, const char *name)
{
	return ev ? tep_find_field(ev, name) : NULL;
}

/*
 * The causes' events (docs/metrics.md, "Causes"): each entry names what
 * runs (a function, an IRQ, a vector) and an instance (the work item, the
 * timer, the IRQ) that its exit names again, so that an exit pairs with
 * its own entry even when the tick's hrtimer expires in between.
 */
static void cause_events(struct ts_decoder *d, struct tep_event *hrt)
{
	struct tep_format_field **f = d->field;
	struct tep_event *ev[TS_NR_CAUSE_TYPES][2] = { { NULL } }, *queue, *tstart, *hstart;
	static const char * const names[TS_CAUSE_VECTOR][3] = {
		{ "workqueue", "workqueue_execute_start", "workqueue_execute_end" },
		{ "timer", "timer_expire_entry", "timer_expire_exit" },
		{ "timer", "hrtimer_expire_entry", "hrtimer_expire_exit" },
		{ "irq", "irq_handler_entry", "irq_handler_exit" },
		{ "irq", "softirq_entry", "softirq_exit" },
	};

	for (int t = 0; t < TS_CAUSE_VECTOR; t++)
		for (int x = 0; x < 2; x++)
			ev[t][x] = find_event(d->tep, names[t][0], names[t][1 + x],
					      &d->id_cause[t][x]);
	/* the vectors have an event pair per kind (vector_events()) */
	d->id_cause[TS_CAUSE_VECTOR][0] = d->id_cause[TS_CAUSE_VECTOR][1] = -1;
	/* hrtimer_expire_entry is the tick's event too (id_hrtimer) */
	d->id_cause[TS_CAUSE_HRTIMER][0] = -1;
	queue = find_event(d->tep, "workqueue", "workqueue_queue_work", &d->id_queue);
	tstart = find_event(d->tep, "timer", "timer_start", &d->id_arm[0]);
	hstart = find_event(d->tep, "timer", "hrtimer_start", &d->id_arm[1]);

	f[F_HRT_TIMER] = field(hrt, "hrtimer");
	f[F_HRTX_TIMER] = field(ev[TS_CAUSE_HRTIMER][1], "hrtimer");
	f[F_WORK_WORK] = field(ev[TS_CAUSE_WORK][0], "work");
	f[F_WORK_FUNCTION] = field(ev[TS_CAUSE_WORK][0], "function");
	f[F_WORKX_WORK] = field(ev[TS_CAUSE_WORK][1], "work");
	f[F_QUEUE_FUNCTION] = field(queue, "function");
	f[F_QUEUE_CPU] = field(queue, "cpu");
	f[F_TIMER_TIMER] = field(ev[TS_CAUSE_TIMER][0], "timer");
	f[F_TIMER_FUNCTION] = field(ev[TS_CAUSE_TIMER][0], "function");
	f[F_TIMERX_TIMER] = field(ev[TS_CAUSE_TIMER][1], "timer");
	f[F_IRQ_IRQ] = field(ev[TS_CAUSE_IRQ][0], "irq");
	f[F_IRQ_NAME] = field(ev[TS_CAUSE_IRQ][0], "name");
	f[F_IRQX_IRQ] = field(ev[TS_CAUSE_IRQ][1], "irq");
	f[F_SOFTIRQ_VEC] = field(ev[TS_CAUSE_SOFTIRQ][0], "vec");
	f[F_SOFTIRQX_VEC] = field(ev[TS_CAUSE_SOFTIRQ][1], "vec");
	f[F_TSTART_TIMER] = field(tstart, "timer");
	f[F_TSTART_FUNCTION] = field(tstart, "function");
	f[F_TSTART_FLAGS] = field(tstart, "flags");
	f[F_HSTART_TIMER] = field(hstart, "hrtimer");
	f[F_HSTART_FUNCTION] = field(hstart, "function");
}

/*
 * The x86 vectors (irq_vectors:NAME_entry and NAME_exit, enum ts_vector):
 * each kind its own pair of events, of one class (a vector field).  Which
 * kinds a kernel has depends on its configuration (MCE, thermal).
 */
static void vector_events(struct ts_decoder *d)
{
	for (int k = 0; k < TS_NR_VECTORS; k++) {
		for (int x = 0; x < 2; x++) {
			char name[64];

			snprintf(name, sizeof(name), "%s_%s", ts_vector_name(k), x ? "exit" : "entry");
			d->field[F_VECTOR + 2 * k + x] =
				field(find_event(d->tep, "irq_vectors", name, &d->id_vector[k][x]),
				      "vector");
		}
	}
}

/*
 * Which causes the stream can count (their entry and its fields) and time
 * (the exit too).  hrtimer expiries other than the tick's need the tick's
 * function to tell them apart.
 */
/*
 * The vector kinds the stream can count; the type is known when one is,
 * and timed when every kind it counts has its exit.  A kind the kernel
 * does not have is unknown (caps->vectors says which), not zero.
 */
static void vector_caps(struct ts_decoder *d, struct ts_caps *caps)
{
	int timed = 1;

	for (int k = 0; k < TS_NR_VECTORS; k++) {
		if (!d->field[F_VECTOR + 2 * k]) {
			d->id_vector[k][0] = d->id_vector[k][1] = -1;
			continue;
		}
		caps->vectors |= 1u << k;
		timed &= !!d->field[F_VECTOR + 2 * k + 1];
	}
	if (!caps->vectors)
		return;
	caps->causes |= 1u << TS_CAUSE_VECTOR;
	if (timed)
		caps->cause_exits |= 1u << TS_CAUSE_VECTOR;
	for (int k = 0; !timed && k < TS_NR_VECTORS; k++)
		d->id_vector[k][1] = -1;
}

static void cause_caps(struct ts_decoder *d, struct ts_caps *caps)
{
	struct tep_format_field **f = d->field;
	const int entry[TS_CAUSE_VECTOR] = {
		[TS_CAUSE_WORK] = f[F_WORK_WORK] && f[F_WORK_FUNCTION],
		[TS_CAUSE_TIMER] = f[F_TIMER_TIMER] && f[F_TIMER_FUNCTION],
		[TS_CAUSE_HRTIMER] = f[F_HRT_TIMER] && caps->tick_expiry,
		[TS_CAUSE_IRQ] = f[F_IRQ_IRQ] && f[F_IRQ_NAME],
		[TS_CAUSE_SOFTIRQ] = !!f[F_SOFTIRQ_VEC],
	};
	const int exit[TS_CAUSE_VECTOR] = {
		[TS_CAUSE_WORK] = !!f[F_WORKX_WORK],
		[TS_CAUSE_TIMER] = !!f[F_TIMERX_TIMER],
		[TS_CAUSE_HRTIMER] = !!f[F_HRTX_TIMER],
		[TS_CAUSE_IRQ] = !!f[F_IRQX_IRQ],
		[TS_CAUSE_SOFTIRQ] = !!f[F_SOFTIRQX_VEC],
	};

	for (int t = 0; t < TS_CAUSE_VECTOR; t++) {
		if (!entry[t]) {
			d->id_cause[t][0] = -1;
			d->id_cause[t][1] = -1;
			continue;
		}
		caps->causes |= 1u << t;
		if (exit[t])
			caps->cause_exits |= 1u << t;
		else
			d->id_cause[t][1] = -1;
	}
	vector_caps(d, caps);
	caps->queue = f[F_QUEUE_FUNCTION] && f[F_QUEUE_CPU];
	if (!caps->queue)
		d->id_queue = -1;
	/* who armed a timer: where its type is known, and the tick's own hrtimer can be left out */
	if ((caps->causes & 1u << TS_CAUSE_TIMER) && f[F_TSTART_TIMER] && f[F_TSTART_FUNCTION] &&
	    f[F_TSTART_FLAGS])
		caps->armers |= 1u << TS_CAUSE_TIMER;
	else
		d->id_arm[0] = -1;
	if ((caps->causes & 1u << TS_CAUSE_HRTIMER) && f[F_HSTART_TIMER] && f[F_HSTART_FUNCTION])
		caps->armers |= 1u << TS_CAUSE_HRTIMER;
	else
		d->id_arm[1] = -1;
}

/*
 * What an event type id is: d->route[id].  A cause's route is R_CAUSE +
 * 2 * type + exit, a vector's R_VECTOR + 2 * kind + exit, a probe's
 * R_PROBE + its enum ts_probe_id.
 */
enum route {
	R_NONE,
	R_STOP, R_RETAIN, R_RESTART, R_DEP_SET, R_DEP_CLEAR, R_DEP_SCHED, R_SWITCH, R_HRTIMER,
	R_QUEUE, R_ARM_TIMER, R_ARM_HRTIMER,
	R_CAUSE,
	R_VECTOR = R_CAUSE + 2 * TS_CAUSE_VECTOR,
	R_PROBE = R_VECTOR + 2 * TS_NR_VECTORS,
	R_END = R_PROBE + TS_NR_PROBES,
};

_Static_assert(R_END <= 256, "routes fit d->route's bytes");

static void route(struct ts_decoder *d, int id, int r)
{
	if (id >= 0 && id < TS_EVENT_IDS)
		d->route[id] = (uint8_t)r;
}

/*
 * Fill d->route once the ids are known.  An id that two events share (a
 * crafted file) goes where the compares in order went first: the table is
 * filled from the last of them to the first, dep_clear after dep_set.
 */
static void build_routes(struct ts_decoder *d)
{
	for (int p = TS_NR_PROBES - 1; p >= 0; p--)
		route(d, d->probes.id[p], R_PROBE + p);
	for (int k = TS_NR_VECTORS - 1; k >= 0; k--)
		for (int x = 1; x >= 0; x--)
			route(d, d->id_vector[k][x], R_VECTOR + 2 * k + x);
	for (int t = TS_CAUSE_VECTOR - 1; t >= 0; t--)
		for (int x = 1; x >= 0; x--)
			route(d, d->id_cause[t][x], R_CAUSE + 2 * t + x);
	route(d, d->id_arm[1], R_ARM_HRTIMER);
	route(d, d->id_arm[0], R_ARM_TIMER);
	route(d, d->id_queue, R_QUEUE);
	route(d, d->id_hrtimer, R_HRTIMER);
	route(d, d->id_switch, R_SWITCH);
	route(d, d->id_dep_sched, R_DEP_SCHED);
	route(d, d->id_dep_set, R_DEP_SET);
	route(d, d->id_dep_clear, R_DEP_CLEAR);
	route(d, d->id_restart, R_RESTART);
	route(d, d->id_retain, R_RETAIN);
	route(d, d->id_stop, R_STOP);
}

/* a field of size bytes at a sane offset: its end, else 0 */
static int field_end(const struct tep_format_field *f, int size)
{
	return f && f->size == size && f->offset >= 0 && f->offset < 65536 ? f->offset + size : 0;
}

/* the fields read without a check at each record (struct ts_decoder) */
static void fast_fields(struct ts_decoder *d)
{
	struct tep_format_field **f = d->field;
	int type_end = field_end(d->common_type, 2), pid_end = field_end(f[F_PID], 4);
	int ends[4];

	/* a record shorter than 8 bytes is refused before any field is read */
	if (type_end && type_end <= 8)
		d->type_at = d->common_type->offset + 1;
	if (pid_end && pid_end <= 8)
		d->pid_at = f[F_PID]->offset + 1;
	ends[0] = field_end(f[F_SW_PREV_PID], 4);
	ends[1] = field_end(f[F_SW_NEXT_PID], 4);
	ends[2] = field_end(f[F_SW_PREV_COMM], 16);
	ends[3] = field_end(f[F_SW_NEXT_COMM], 16);
	if (!ends[0] || !ends[1] || !ends[2] || !ends[3])
		return;
	for (int i = 0; i < 4; i++)
		if (ends[i] > d->sw_end)
			d->sw_end = ends[i];
	d->sw_prev_pid = f[F_SW_PREV_PID]->offset;
	d->sw_next_pid = f[F_SW_NEXT_PID]->offset;
	d->sw_prev_comm = f[F_SW_PREV_COMM]->offset;
	d->sw_next_comm = f[F_SW_NEXT_COMM]->offset;
}

/*
 * ts_decoder_init - look up the events and fields the stream provides.
 * Fills caps with what the kernel that produced the stream can tell.
 * Returns 0, or -1 when not even timer:tick_stop is there.
 */
int ts_decoder_init(struct ts_decoder *d, struct tep_handle *tep, struct ts_caps *caps)
{
	struct tep_event *stop, *retain, *restart, *set, *clr, *dsched, *sw, *hrt, *print;
	struct tep_format_field **f = d->field;
	uint64_t tick_fn = d->tick_fn;

	memset(d, 0, sizeof(*d));
	d->tep = tep;
	d->tick_fn = tick_fn;
	stop = find_event(tep, "timer", "tick_stop", &d->id_stop);
	retain = find_event(tep, "timer", "tick_retain", &d->id_retain);
	restart = find_event(tep, "timer", "tick_restart", &d->id_restart);
	set = find_event(tep, "timer", "tick_dep_set", &d->id_dep_set);
	clr = find_event(tep, "timer", "tick_dep_clear", &d->id_dep_clear);
	/* series v3: a SCHED reason that changes while the bit stays set */
	dsched = find_event(tep, "timer", "tick_dep_sched", &d->id_dep_sched);
	sw = find_event(tep, "sched", "sched_switch", &d->id_switch);
	hrt = find_event(tep, "timer", "hrtimer_expire_entry", &d->id_hrtimer);
	print = find_event(tep, "ftrace", "print", &d->id_print);
	/* without tick_stop there is no decoder (below) */
	d->common_type = stop ? tep_find_common_field(stop, "common_type") : NULL;

	f[F_STOP_SUCCESS] = field(stop, "success");
	f[F_STOP_DEP] = field(stop, "dependency");
	f[F_STOP_GLOBAL] = field(stop, "global_deps");
	f[F_STOP_CPU] = field(stop, "cpu_deps");
	f[F_STOP_TASK] = field(stop, "task_deps");
	f[F_STOP_PROCESS] = field(stop, "process_deps");
	f[F_RETAIN_REASON] = field(retain, "reason");
	f[F_RETAIN_DELTA] = field(retain, "delta_ns");
	/* series v1 carried stopped_ns and idle; v2 has idle_loop, or none */
	f[F_RESTART_STOPPED] = field(restart, "stopped_ns");
	f[F_RESTART_IDLE] = field(restart, "idle_loop") ?: field(restart, "idle");
	f[F_RESTART_CAUSE] = field(restart, "cause");
	f[F_DEP_DEP] = field(set, "dependency");
	f[F_DEP_SCOPE] = field(set, "scope");
	f[F_DEP_TARGET] = field(set, "target");
	f[F_DEP_SCHED] = field(set, "sched");
	f[F_DEP_CALLER] = field(set, "caller");
	f[F_CLR_DEP] = field(clr, "dependency");
	f[F_CLR_SCOPE] = field(clr, "scope");
	f[F_CLR_TARGET] = field(clr, "target");
	f[F_CLR_SCHED] = field(clr, "sched");
	f[F_CLR_CALLER] = field(clr, "caller");
	f[F_DSCHED_TARGET] = field(dsched, "target");
	f[F_DSCHED_SCHED] = field(dsched, "sched");
	f[F_DSCHED_PREV] = field(dsched, "prev_sched");
	f[F_DSCHED_CALLER] = field(dsched, "caller");
	f[F_SW_PREV_COMM] = field(sw, "prev_comm");
	f[F_SW_PREV_PID] = field(sw, "prev_pid");
	f[F_SW_NEXT_COMM] = field(sw, "next_comm");
	f[F_SW_NEXT_PID] = field(sw, "next_pid");
	f[F_HRT_FUNCTION] = field(hrt, "function");
	f[F_PRINT_BUF] = field(print, "buf");
	f[F_PID] = stop ? tep_find_common_field(stop, "common_pid") : NULL;
	f[F_COMMON_FLAGS] = stop ? tep_find_common_field(stop, "common_flags") : NULL;
	cause_events(d, hrt);
	vector_events(d);
	fast_fields(d);

	memset(caps, 0, sizeof(*caps));
	caps->tick_stop = f[F_STOP_SUCCESS] && f[F_STOP_DEP];
	caps->scopes = f[F_STOP_GLOBAL] && f[F_STOP_CPU] && f[F_STOP_TASK] &&
		       f[F_STOP_PROCESS];
	caps->retain = f[F_RETAIN_REASON] && f[F_RETAIN_DELTA];
	caps->restart = !!f[F_RESTART_CAUSE];
	caps->dep_events = f[F_DEP_DEP] && f[F_DEP_SCOPE] && f[F_DEP_TARGET] &&
			   f[F_DEP_SCHED] && f[F_DEP_CALLER] && f[F_CLR_DEP] &&
			   f[F_CLR_SCOPE] && f[F_CLR_TARGET] && f[F_CLR_SCHED] &&
			   f[F_CLR_CALLER];
	if (!f[F_DSCHED_TARGET] || !f[F_DSCHED_SCHED] || !f[F_DSCHED_PREV] ||
	    !f[F_DSCHED_CALLER])
		d->id_dep_sched = -1;
	/* v3 reports every change of SCHED's sub-reason: it can be timed */
	caps->sched_split = caps->dep_events && d->id_dep_sched >= 0;
	caps->sched_switch = f[F_SW_PREV_PID] && f[F_SW_NEXT_PID] &&
			     f[F_SW_PREV_COMM] && f[F_SW_NEXT_COMM];
	/* without the tick's function address, no expiry can be told apart */
	caps->tick_expiry = f[F_HRT_FUNCTION] && d->tick_fn;
	cause_caps(d, caps);
	ts_probedec_init(&d->probes, tep, caps);
	build_routes(d);
	return caps->tick_stop ? 0 : -1;
}

/* Read a numeric field, refusing fields that lie outside the record. */
static inline int read_field(struct tep_format_field *f, struct tep_record *rec,
			     unsigned long long *val)
{
	const unsigned char *p;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	if (!f || f->offset < 0 || f->size <= 0 || f->size > 8 ||
	    f->offset + f->size > rec->size)
		return -1;
	/*
	 * Files and the live buffers are little-endian (the readers refuse
	 * others): one load and a conversion a field, as
	 * tep_read_number_field() reads it on a little-endian host without its
	 * calls, and without the byte loop that made this a sixth of a
	 * report's instructions.
	 */
	p = (const unsigned char *)rec->data + f->offset;
	switch (f->size) {
	case 1:
		*val = p[0];
		return 0;
	case 2:
		memcpy(&v16, p, 2);
		*val = le16toh(v16);
		return 0;
	case 4:
		memcpy(&v32, p, 4);
		*val = le32toh(v32);
		return 0;
	case 8:
		memcpy(&v64, p, 8);
		*val = le64toh(v64);
		return 0;
	}
	return tep_read_number_field(f, rec->data, val);
}

static int num(struct ts_decoder *d, enum ts_field_id id, struct tep_record *rec,
	       unsigned long long *val)
{
	return read_field(d->field[id], rec, val);
}

/*
 * The record's event id: read where the formats put it, as num() reads a
 * field; tep_data_type() found it again on every call, twice per record
 * (the marks, then the events), a tenth of a report's instructions.
 */
static int record_type(struct ts_decoder *d, struct tep_record *rec)
{
	unsigned long long v;
	uint16_t t;

	if (d->type_at) {
		memcpy(&t, (const char *)rec->data + d->type_at - 1, 2);
		return le16toh(t);
	}
	if (!d->common_type)
		return tep_data_type(d->tep, rec);
	return read_field(d->common_type, rec, &v) ? -1 : (int)v;
}

static int comm(struct ts_decoder *d, enum ts_field_id id, struct tep_record *rec,
		char *buf, int len)
{
	struct tep_format_field *f = d->field[id];
	int n;

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size)
		return -1;
	n = f->size < len - 1 ? f->size : len - 1;
	memcpy(buf, (char *)rec->data + f->offset, n);
	buf[n] = '\0';
	return 0;
}

/* A __data_loc string field (an IRQ's name), cut to len - 1 bytes. */
static int dyn_string(struct ts_decoder *d, enum ts_field_id id, struct tep_record *rec,
		      char *buf, int len)
{
	struct tep_format_field *f = d->field[id];
	unsigned long long loc;
	unsigned int off, n;

	if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC))
		return comm(d, id, rec, buf, len);
	if (num(d, id, rec, &loc))
		return -1;
	/* offset in the low 16 bits, length in the high 16 (NUL included) */
	off = loc & 0xffff;
	n = (loc >> 16) & 0xffff;
	if (off > (unsigned int)rec->size || n > (unsigned int)rec->size - off)
		return -1;
	if (n >= (unsigned int)len)
		n = len - 1;
	memcpy(buf, (char *)rec->data + off, n);
	buf[n] = '\0';
	buf[strnlen(buf, n)] = '\0';
	return 0;
}

/*
 * decode_cause - an entry or exit of a cause of type t.  The fields read:
 * what runs (key) and the instance its exit names again (inst).
 */
static int decode_cause(struct ts_decoder *d, struct tep_record *rec, struct ts_event *ev,
			int t, int exit)
{
	static const enum ts_field_id inst_field[TS_CAUSE_VECTOR][2] = {
		[TS_CAUSE_WORK] = { F_WORK_WORK, F_WORKX_WORK },
		[TS_CAUSE_TIMER] = { F_TIMER_TIMER, F_TIMERX_TIMER },
		[TS_CAUSE_HRTIMER] = { F_HRT_TIMER, F_HRTX_TIMER },
		[TS_CAUSE_IRQ] = { F_IRQ_IRQ, F_IRQX_IRQ },
		[TS_CAUSE_SOFTIRQ] = { F_SOFTIRQ_VEC, F_SOFTIRQX_VEC },
	};
	static const enum ts_field_id key_field[TS_CAUSE_VECTOR] = {
		[TS_CAUSE_WORK] = F_WORK_FUNCTION,
		[TS_CAUSE_TIMER] = F_TIMER_FUNCTION,
		[TS_CAUSE_HRTIMER] = F_HRT_FUNCTION,
		[TS_CAUSE_IRQ] = F_IRQ_IRQ,
		[TS_CAUSE_SOFTIRQ] = F_SOFTIRQ_VEC,
	};
	unsigned long long v;

	ev->kind = TS_EV_CAUSE;
	ev->cause.type = t;
	ev->cause.exit = exit;
	if (num(d, inst_field[t][exit], rec, &v))
		return -1;
	ev->cause.inst = v;
	if (exit)
		return 0;
	if (num(d, key_field[t], rec, &v))
		return -1;
	ev->cause.key = v;
	if (t == TS_CAUSE_IRQ &&
	    dyn_string(d, F_IRQ_NAME, rec, ev->cause.name, sizeof(ev->cause.name)))
		return -1;
	return 0;
}

/*
 * decode_vector - an x86 vector's entry or exit: its kind is the key, and
 * the vector number it names is the instance its exit names again.
 */
static int decode_vector(struct ts_decoder *d, struct tep_record *rec, struct ts_event *ev,
			 int kind, int exit)
{
	unsigned long long v;

	if (num(d, F_VECTOR + 2 * kind + exit, rec, &v))
		return -1;
	ev->kind = TS_EV_CAUSE;
	ev->cause.type = TS_CAUSE_VECTOR;
	ev->cause.exit = exit;
	ev->cause.key = kind;
	ev->cause.inst = v;
	return 0;
}

/* TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ | TRACE_FLAG_NMI of common_flags (trace_events.h) */
#define IN_INTERRUPT_FLAGS	(0x08 | 0x10 | 0x40)
/* TIMER_CPUMASK of include/linux/timer.h: the CPU whose base holds the timer */
#define TIMER_CPUMASK		0x3ffff

/*
 * decode_arm - timer_start or hrtimer_start: a timer armed, with the CPU
 * it will fire on.  A timer_list timer's flags carry its base's CPU (the
 * arming CPU may be another: add_timer_on()); an hrtimer is queued on the
 * CPU that arms it.  The tick's own hrtimer, re-armed at every tick, is
 * of no interest (0).
 */
static int decode_arm(struct ts_decoder *d, struct tep_record *rec, struct ts_event *ev, int hr)
{
	unsigned long long inst, fn, flags = 0, cflags = 0;

	if (num(d, hr ? F_HSTART_TIMER : F_TSTART_TIMER, rec, &inst) ||
	    num(d, hr ? F_HSTART_FUNCTION : F_TSTART_FUNCTION, rec, &fn) ||
	    (!hr && num(d, F_TSTART_FLAGS, rec, &flags)))
		return -1;
	if (hr && fn == d->tick_fn)
		return 0;
	if (d->field[F_COMMON_FLAGS] && num(d, F_COMMON_FLAGS, rec, &cflags))
		return -1;
	ev->kind = TS_EV_ARM;
	ev->arm.type = hr ? TS_CAUSE_HRTIMER : TS_CAUSE_TIMER;
	ev->arm.function = fn;
	ev->arm.inst = inst;
	ev->arm.target = hr ? ev->cpu : (int)(flags & TIMER_CPUMASK);
	ev->arm.in_irq = !!(cflags & IN_INTERRUPT_FLAGS);
	return 1;
}

/*
 * decode_queue - workqueue_queue_work: work queued to run on a CPU.  In an
 * interrupt, common_pid is the task it interrupted, not who queued it.
 */
static int decode_queue(struct ts_decoder *d, struct tep_record *rec, struct ts_event *ev)
{
	unsigned long long fn, cpu, cflags = 0;

	if (num(d, F_QUEUE_FUNCTION, rec, &fn) || num(d, F_QUEUE_CPU, rec, &cpu))
		return -1;
	if (d->field[F_COMMON_FLAGS] && num(d, F_COMMON_FLAGS, rec, &cflags))
		return -1;
	ev->kind = TS_EV_QUEUE;
	ev->queue.function = fn;
	ev->queue.target = (int)cpu;
	ev->queue.in_irq = !!(cflags & IN_INTERRUPT_FLAGS);
	return 0;
}

static int decode_stop(struct ts_decoder *d, struct tep_record *rec, struct ts_event *ev)
{
	static const enum ts_field_id scope_field[4] = {
		F_STOP_GLOBAL, F_STOP_CPU, F_STOP_TASK, F_STOP_PROCESS,
	};
	unsigned long long v;

	ev->kind = TS_EV_TICK_STOP;
	if (num(d, F_STOP_SUCCESS, rec, &v))
		return -1;
	ev->stop.success = (int)v;
	if (num(d, F_STOP_DEP, rec, &v))
		return -1;
	ev->stop.dependency = (unsigned int)v;
	ev->stop.has_scopes = !!d->field[F_STOP_GLOBAL];
	for (int s = 0; ev->stop.has_scopes && s < 4; s++) {
		if (num(d, scope_field[s], rec, &v))
			return -1;
		ev->stop.deps[s] = (unsigned int)v;
	}
	return 0;
}

/* The optional fields are -1 when the kernel's event does not carry them. */
static int decode_restart(struct ts_decoder *d, struct tep_record *rec,
			  struct ts_event *ev)
{
	unsigned long long v;

	ev->kind = TS_EV_TICK_RESTART;
	if (num(d, F_RESTART_CAUSE, rec, &v))
		return -1;
	ev->restart.cause = (int)v;
	ev->restart.stopped_ns = -1;
	ev->restart.idle = -1;
	if (d->field[F_RESTART_STOPPED]) {
		if (num(d, F_RESTART_STOPPED, rec, &v))
			return -1;
		ev->restart.stopped_ns = (int64_t)v;
	}
	if (d->field[F_RESTART_IDLE]) {
		if (num(d, F_RESTART_IDLE, rec, &v))
			return -1;
		ev->restart.idle = (int)v;
	}
	return 0;
}

static int decode_dep(struct ts_decoder *d, struct tep_record *rec,
		      struct ts_event *ev, int clear)
{
	int base = clear ? F_CLR_DEP : F_DEP_DEP;
	unsigned long long v[5];

	for (int i = 0; i < 5; i++)
		if (num(d, base + i, rec, &v[i]))
			return -1;
	ev->kind = clear ? TS_EV_DEP_CLEAR : TS_EV_DEP_SET;
	ev->dep.dependency = (unsigned int)v[0];
	/* kernel scopes start at 1 (TICK_DEP_SCOPE_GLOBAL) */
	ev->dep.scope = (int)v[1] >= 1 && (int)v[1] <= 4 ? (int)v[1] - 1 : TS_SCOPE_UNKNOWN;
	ev->dep.target = (int)v[2];
	ev->dep.sched = (int)v[3];
	ev->dep.caller = v[4];
	return 0;
}

/*
 * decode_dep_sched - series v3's tick_dep_sched: SCHED stays set on the
 * target CPU, now for another reason.  Series v2 reported that as a
 * tick_dep_set of SCHED at CPU scope with the new reason, and the analysis
 * reads it so (the CPU's SCHED reason, and a set by that caller): the
 * event becomes the same ts_event, so that both kernels' recordings give
 * the same report.
 */
static int decode_dep_sched(struct ts_decoder *d, struct tep_record *rec,
			    struct ts_event *ev)
{
	unsigned long long target, sched, prev, caller;

	if (num(d, F_DSCHED_TARGET, rec, &target) || num(d, F_DSCHED_SCHED, rec, &sched) ||
	    num(d, F_DSCHED_PREV, rec, &prev) || num(d, F_DSCHED_CALLER, rec, &caller))
		return -1;
	ev->kind = TS_EV_DEP_SET;
	ev->dep.dependency = 1u << 2;	/* TICK_DEP_MASK_SCHED */
	ev->dep.scope = TS_SCOPE_CPU;
	ev->dep.target = (int)target;
	ev->dep.sched = (int)sched;
	ev->dep.sched_change = 1;
	ev->dep.prev_sched = (int)prev;
	ev->dep.caller = caller;
	return 0;
}

/* a 4-byte field at a known offset inside the record */
static int32_t at32(const struct tep_record *rec, int off)
{
	uint32_t v;

	memcpy(&v, (const char *)rec->data + off, 4);
	return (int32_t)le32toh(v);
}

static int decode_switch(struct ts_decoder *d, struct tep_record *rec, struct ts_event *ev)
{
	unsigned long long prev, next;

	if (d->sw_end && rec->size >= d->sw_end) {
		/* fixed sizes: the copies are a few moves, not calls */
		ev->kind = TS_EV_SWITCH;
		ev->sw.prev_pid = at32(rec, d->sw_prev_pid);
		ev->sw.next_pid = at32(rec, d->sw_next_pid);
		_Static_assert(sizeof(ev->sw.prev_comm) == 16 && sizeof(ev->sw.next_comm) == 16,
			       "fast_fields() takes names of 16 bytes");
		memcpy(ev->sw.prev_comm, (const char *)rec->data + d->sw_prev_comm, 15);
		memcpy(ev->sw.next_comm, (const char *)rec->data + d->sw_next_comm, 15);
		ev->sw.prev_comm[15] = '\0';
		ev->sw.next_comm[15] = '\0';
		return 0;
	}
	if (num(d, F_SW_PREV_PID, rec, &prev) || num(d, F_SW_NEXT_PID, rec, &next))
		return -1;
	ev->kind = TS_EV_SWITCH;
	ev->sw.prev_pid = (int)prev;
	ev->sw.next_pid = (int)next;
	if (comm(d, F_SW_PREV_COMM, rec, ev->sw.prev_comm, sizeof(ev->sw.prev_comm)) ||
	    comm(d, F_SW_NEXT_COMM, rec, ev->sw.next_comm, sizeof(ev->sw.next_comm)))
		return -1;
	return 0;
}

/*
 * ts_decode_print - the text of an ftrace:print record (a trace marker);
 * type is the record's, from ts_decode_type().  Returns 1 with text and len
 * (up to the first NUL), 0 for another record.
 */
int ts_decode_print(struct ts_decoder *d, struct tep_record *rec, int type, const char **text,
		    size_t *len)
{
	struct tep_format_field *f = d->field[F_PRINT_BUF];
	const char *p;

	/* the type first: most records are not prints */
	if (type != d->id_print || !f || d->id_print < 0 || rec->size < 8 ||
	    f->offset < 0 || f->offset > rec->size)
		return 0;
	p = (const char *)rec->data + f->offset;
	*text = p;
	*len = strnlen(p, rec->size - f->offset);
	return 1;
}

/*
 * ts_decode - decode one record.
 * Returns 1 with *ev filled, 0 for a record of no interest, -1 for a record
 * too short for its format (counted in bad_records).
 */
int ts_decode(struct ts_decoder *d, struct tep_record *rec, struct ts_event *ev)
{
	return ts_decode_typed(d, rec, ts_decode_type(d, rec), ev);
}

/* ts_decode_type - the record's event id, -1 when it cannot be read */
int ts_decode_type(struct ts_decoder *d, struct tep_record *rec)
{
	return rec->size < 8 ? -1 : record_type(d, rec);
}

/* ts_decode_typed - ts_decode() of a record whose type ts_decode_type() gave */
int ts_decode_typed(struct ts_decoder *d, struct tep_record *rec, int type, struct ts_event *ev)
{
	unsigned long long v, w;
	int ret = 0, r;

	if (rec->size < 8)
		goto bad;
	if (type < 0 || type >= TS_EVENT_IDS)
		return 0;
	/* one lookup: a record of no interest costs O(1), whatever is routed */
	r = d->route[type];
	if (r == R_NONE)
		return 0;
	*ev = (struct ts_event){ .cpu = rec->cpu, .ts = rec->ts };
	if (d->pid_at)
		ev->pid = at32(rec, d->pid_at - 1);
	else if (!num(d, F_PID, rec, &v))
		ev->pid = (int)v;

	switch (r) {
	case R_STOP:
		ret = decode_stop(d, rec, ev);
		break;
	case R_RETAIN:
		if (num(d, F_RETAIN_REASON, rec, &v) || num(d, F_RETAIN_DELTA, rec, &w))
			goto bad;
		ev->kind = TS_EV_TICK_RETAIN;
		ev->retain.reason = (int)v;
		ev->retain.delta_ns = (int64_t)w;
		break;
	case R_RESTART:
		ret = decode_restart(d, rec, ev);
		break;
	case R_DEP_SET:
	case R_DEP_CLEAR:
		ret = decode_dep(d, rec, ev, r == R_DEP_CLEAR);
		break;
	case R_DEP_SCHED:
		ret = decode_dep_sched(d, rec, ev);
		break;
	case R_SWITCH:
		ret = decode_switch(d, rec, ev);
		break;
	case R_HRTIMER:
		if (num(d, F_HRT_FUNCTION, rec, &v))
			goto bad;
		if (!d->tick_fn)
			return 0;
		if (v != d->tick_fn) {
			if (!d->field[F_HRT_TIMER])
				return 0;
			ret = decode_cause(d, rec, ev, TS_CAUSE_HRTIMER, 0);
		} else {
			ev->kind = TS_EV_TICK;
		}
		break;
	case R_QUEUE:
		ret = decode_queue(d, rec, ev);
		break;
	case R_ARM_TIMER:
	case R_ARM_HRTIMER:
		ret = decode_arm(d, rec, ev, r == R_ARM_HRTIMER);
		if (!ret)
			return 0;
		ret = ret < 0;
		break;
	default:
		if (r < R_VECTOR) {
			ret = decode_cause(d, rec, ev, (r - R_CAUSE) / 2, (r - R_CAUSE) % 2);
			break;
		}
		if (r < R_PROBE) {
			ret = decode_vector(d, rec, ev, (r - R_VECTOR) / 2, (r - R_VECTOR) % 2);
			break;
		}
		/* a probe event (probedec.c) */
		ret = ts_probedec_decode(&d->probes, r - R_PROBE, rec, ev);
		if (!ret)
			return 0;
		ret = ret < 0;
	}
	if (ret)
		goto bad;
	return 1;
bad:
	d->bad_records++;
	return -1;
}
