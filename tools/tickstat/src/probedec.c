// SPDX-License-Identifier: GPL-2.0
/*
 * probedec.c - tickstat's kprobe events as the patched kernel's events.
 *
 * probes.c places the probes; their formats travel in the recording like
 * any event's (system tickstat_PID), so a recording reads the same on any
 * machine.  Each probe event becomes what the patched kernel would have
 * traced at that point:
 *
 * - tick_nohz_dep_{set,clear}[_cpu|_task|_signal]: tick_dep_set/clear, the
 *   scope from the function, the target CPU, pid or tgid from its argument,
 *   the caller from the return address.  The patched kernel traces only
 *   real changes; a probe reads the mask before the call ("prev" fields)
 *   and a call that changes nothing is left out.
 * - tick_nohz_restart_sched_tick: tick_restart, its cause from the function
 *   that called it (the "fn." keys of the probes mark), or, when that was
 *   a tail call, from the decision before it (analysis.c).
 * - check_tick_dependency: one mask the decision read.  The kernel reads
 *   the global, CPU, task and process masks in that order and stops at the
 *   first that holds a bit: the analysis counts its position from the
 *   global one (known by its address) to name the scope of the tick_stop
 *   failure that follows.
 * - can_stop_idle_tick, entry and return: tick_retain of an idle entry the
 *   function refused, its reason from what the entry read (idle_reason()).
 *
 * Fields are bounds-checked against each record, as in decode.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "probedec.h"

const struct ts_probe_def ts_probe_defs[TS_NR_PROBES] = {
	[TS_PROBE_DEP_SET] = { "dep_set", "tick_nohz_dep_set", TS_PART_DEPS, TS_SCOPE_GLOBAL, 0, 0 },
	[TS_PROBE_DEP_CLEAR] = { "dep_clear", "tick_nohz_dep_clear", TS_PART_DEPS,
				 TS_SCOPE_GLOBAL, 1, 0 },
	[TS_PROBE_DEP_SET_CPU] = { "dep_set_cpu", "tick_nohz_dep_set_cpu", TS_PART_DEPS,
				   TS_SCOPE_CPU, 0, 0 },
	[TS_PROBE_DEP_CLEAR_CPU] = { "dep_clear_cpu", "tick_nohz_dep_clear_cpu", TS_PART_DEPS,
				     TS_SCOPE_CPU, 1, 0 },
	[TS_PROBE_DEP_SET_TASK] = { "dep_set_task", "tick_nohz_dep_set_task", TS_PART_DEPS,
				    TS_SCOPE_TASK, 0, 0 },
	[TS_PROBE_DEP_CLEAR_TASK] = { "dep_clear_task", "tick_nohz_dep_clear_task", TS_PART_DEPS,
				      TS_SCOPE_TASK, 1, 0 },
	[TS_PROBE_DEP_SET_SIGNAL] = { "dep_set_signal", "tick_nohz_dep_set_signal", TS_PART_DEPS,
				      TS_SCOPE_PROCESS, 0, 0 },
	[TS_PROBE_DEP_CLEAR_SIGNAL] = { "dep_clear_signal", "tick_nohz_dep_clear_signal",
					TS_PART_DEPS, TS_SCOPE_PROCESS, 1, 0 },
	[TS_PROBE_RESTART] = { "restart", "tick_nohz_restart_sched_tick", TS_PART_RESTART, -1, 0, 0 },
	[TS_PROBE_DEP_CHECK] = { "dep_check", "check_tick_dependency", TS_PART_SCOPES, -1, 0, 0 },
	[TS_PROBE_IDLE_CHECK] = { "idle_check", "can_stop_idle_tick", TS_PART_RETAIN, -1, 0, 0 },
	[TS_PROBE_IDLE_RET] = { "idle_ret", "can_stop_idle_tick", TS_PART_RETAIN, -1, 0, 1 },
};

/* TICK_RETAIN_* values of the idle entry (include/trace/events/timer.h, patched) */
enum {
	RETAIN_NO_TIMEKEEPER = 6, RETAIN_NOHZ_INACTIVE, RETAIN_NEED_RESCHED, RETAIN_SOFTIRQ,
	RETAIN_TIMEKEEPING,
	IDLE_OFFLINE = 255,	/* an offline CPU: the patched kernel traces nothing */
};

/*
 * The callers of tick_nohz_restart_sched_tick() in 6.1 and 6.12, where the
 * compiler kept them: each call site is one cause of the patched kernel's
 * tick_restart.  Leaving idle restarts the tick for a CPU outside nohz_full
 * (IDLE_EXIT); a nohz_full CPU restarts it there only for a dependency,
 * through __tick_nohz_full_update_tick(), which may be inlined into the
 * idle exit: the CPU's kind then tells the two apart.  That function calls
 * it last, so the compiler may make it a jump: the return address is then
 * its caller's, or further up on the interrupt's exit (Debian's 6.1:
 * sysvec_irq_work+0x6e), a function of no known cause; a dependency restart
 * always follows a failed decision (tick_stop), which the analysis checks.
 */
static const struct {
	const char *function;
	int cause, idle, infer;
} restart_callers[] = {
	{ "tick_nohz_idle_restart_tick", TS_RESTART_IDLE_TICK, 1, TS_INFER_NONE },
	{ "tick_nohz_idle_exit", TS_RESTART_IDLE_EXIT, 1, TS_INFER_CPU_KIND },
	{ "tick_nohz_idle_update_tick", TS_RESTART_IDLE_EXIT, 1, TS_INFER_CPU_KIND },
	{ "__tick_nohz_full_update_tick", TS_RESTART_DEPENDENCY, -1, TS_INFER_NONE },
	{ "tick_nohz_full_update_tick", TS_RESTART_DEPENDENCY, 0, TS_INFER_NONE },
	{ "tick_nohz_irq_exit", TS_RESTART_DEPENDENCY, 0, TS_INFER_NONE },
};

#define NR_CALLERS	(int)(sizeof(restart_callers) / sizeof(restart_callers[0]))

static const char * const why_names[TS_NR_WHY] = {
	"none", "placed", "absent", "clone", "ambiguous", "blacklisted", "refused",
	"nokprobes", "noaddress", "arch", "nobtf",
};

static const char * const why_texts[TS_NR_WHY] = {
	"not needed: the kernel's own events tell it",
	"placed",
	"not in /proc/kallsyms (inlined or renamed in this kernel)",
	"only compiler clones in /proc/kallsyms (NAME.isra.N: other arguments)",
	"several functions of that name in /proc/kallsyms",
	"on the kernel's kprobe blacklist",
	"refused by the kernel (tracing/error_log says why)",
	"this kernel has no kprobe events (CONFIG_KPROBE_EVENTS)",
	"a variable it reads has no address in /proc/kallsyms (CONFIG_KALLSYMS_ALL, kptr_restrict)",
	"probes know x86_64's calling convention only",
	"the kernel has no BTF (/sys/kernel/btf/vmlinux): no field offsets",
};

static const char * const gap_names[TS_NR_GAPS] = { "target", "changes", "cause", "idle_reason" };

static const char * const gap_texts[TS_NR_GAPS] = {
	"the pid of a task and the tgid of a process setting a dependency",
	"whether a dependency call changed the mask (calls are counted instead)",
	"what restarted a stopped tick",
	"why idle entry kept the tick (IDLE_REFUSED)",
};

static const char * const part_names[TS_NR_PARTS] = {
	"tick_dep", "tick_restart", "tick_stop_first_scope", "tick_retain",
};

/* ts_probe_label - the function a probe is placed on; FUNCTION%return for a return probe */
const char *ts_probe_label(int id)
{
	static char labels[TS_NR_PROBES][64];

	if (id < 0 || id >= TS_NR_PROBES)
		return "?";
	if (!ts_probe_defs[id].ret)
		return ts_probe_defs[id].function;
	if (!labels[id][0])
		snprintf(labels[id], sizeof(labels[id]), "%s%%return", ts_probe_defs[id].function);
	return labels[id];
}

const char *ts_probe_why_name(int why)
{
	return why >= 0 && why < TS_NR_WHY ? why_names[why] : "?";
}

const char *ts_probe_why_text(int why)
{
	return why >= 0 && why < TS_NR_WHY ? why_texts[why] : "?";
}

int ts_probe_why_from_name(const char *name)
{
	for (int i = 0; i < TS_NR_WHY; i++)
		if (!strcmp(name, why_names[i]))
			return i;
	return -1;
}

const char *ts_probe_gap_name(int gap)
{
	return gap >= 0 && gap < TS_NR_GAPS ? gap_names[gap] : "?";
}

const char *ts_probe_gap_text(int gap)
{
	return gap >= 0 && gap < TS_NR_GAPS ? gap_texts[gap] : "?";
}

const char *ts_probe_part_name(int part)
{
	return part >= 0 && part < TS_NR_PARTS ? part_names[part] : "?";
}

/*
 * ts_probe_restart_cause - the cause a caller of
 * tick_nohz_restart_sched_tick() stands for; 0, or -1 when it is none of
 * the known callers.
 */
int ts_probe_restart_cause(const char *function, int *cause, int *idle, int *infer)
{
	for (int i = 0; i < NR_CALLERS; i++) {
		if (strcmp(function, restart_callers[i].function))
			continue;
		*cause = restart_callers[i].cause;
		*idle = restart_callers[i].idle;
		*infer = restart_callers[i].infer;
		return 0;
	}
	return -1;
}

static int probe_of(const char *name)
{
	for (int i = 0; i < TS_NR_PROBES; i++)
		if (!strcmp(name, ts_probe_defs[i].event))
			return i;
	return -1;
}

/* ts_probe_wants_event - is this one of tickstat's probe events? */
int ts_probe_wants_event(const char *system, const char *name)
{
	return !strncmp(system, TS_PROBE_GROUP_PREFIX, strlen(TS_PROBE_GROUP_PREFIX)) &&
	       probe_of(name) >= 0;
}

static struct tep_format_field *field(struct tep_event *ev, const char *name)
{
	return ev ? tep_find_field(ev, name) : NULL;
}

/* Which part the kernel's own events already tell: its probes are not read. */
static int part_covered(const struct ts_caps *caps, int part)
{
	switch (part) {
	case TS_PART_DEPS:
		return caps->dep_events;
	case TS_PART_RESTART:
		return caps->restart;
	case TS_PART_RETAIN:
		return caps->retain;
	default:
		return caps->scopes;
	}
}

/*
 * ts_probedec_init - find the probe events among the stream's formats
 * (the first tickstat_* group that has them) and add what they tell to
 * caps.  Call after the kernel's own events filled caps.
 */
void ts_probedec_init(struct ts_probedec *p, struct tep_handle *tep, struct ts_caps *caps)
{
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);
	const char *group = NULL;

	memset(p, 0, sizeof(*p));
	p->info = &caps->probes;
	p->nohz_inactive = -1;
	p->tif_need_resched = -1;
	memset(p->online_seen, 0xff, sizeof(p->online_seen));
	for (int i = 0; i < TS_NR_PROBES; i++)
		p->id[i] = -1;
	for (int k = 0; all && all[k]; k++) {
		struct tep_event *ev = all[k];
		int id;
		char name[24];

		if (!ev->system || !ts_probe_wants_event(ev->system, ev->name))
			continue;
		if (ev->id < 0 || ev->id >= TS_EVENT_IDS)	/* no kernel's: decode.c routes none */
			continue;
		if (group && strcmp(group, ev->system))
			continue;
		group = ev->system;
		id = probe_of(ev->name);
		if (part_covered(caps, ts_probe_defs[id].part))
			continue;
		p->id[id] = ev->id;
		p->bit[id] = field(ev, "bit");
		p->caller[id] = field(ev, "caller");
		p->target[id] = field(ev, "target");
		p->prev[id] = field(ev, "prev");
		if (id == TS_PROBE_DEP_SET_CPU || id == TS_PROBE_DEP_CLEAR_CPU) {
			for (int c = 0; c < TS_PROBE_MAX_CPUS; c++) {
				snprintf(name, sizeof(name), "prev_cpu%d", c);
				p->prev_cpu[id == TS_PROBE_DEP_CLEAR_CPU][c] = field(ev, name);
			}
		}
		if (id == TS_PROBE_DEP_CHECK) {
			p->mask = field(ev, "mask");
			p->dep = field(ev, "dep");
		}
		if (id == TS_PROBE_IDLE_CHECK) {
			p->idle_cpu = field(ev, "cpu");
			p->idle_caller = field(ev, "caller");
			p->idle_mode = field(ev, "mode");
			p->idle_tif = field(ev, "tif");
			p->idle_softirq = field(ev, "softirq");
			p->idle_tdc = field(ev, "tdc");
			p->idle_full = field(ev, "full");
			p->idle_entry = field(ev, "entry");
			for (int w = 0; w < TS_PROBE_ONLINE_WORDS; w++) {
				snprintf(name, sizeof(name), "online%d", w);
				p->idle_online[w] = field(ev, name);
			}
		}
		if (id == TS_PROBE_IDLE_RET)
			p->idle_ret = field(ev, "ret");
		p->info->parts |= 1 << ts_probe_defs[id].part;
		p->info->used = 1;
	}
	if (group && !p->info->group[0])
		snprintf(p->info->group, sizeof(p->info->group), "%s", group);
	if (p->info->parts & 1 << TS_PART_DEPS)
		caps->dep_events = 1;
	if (p->info->parts & 1 << TS_PART_RESTART)
		caps->restart = 1;
	if (p->info->parts & 1 << TS_PART_SCOPES)
		caps->check_scopes = 1;
	/* refusals need both ends of the call */
	if ((p->info->parts & 1 << TS_PART_RETAIN) &&
	    (p->id[TS_PROBE_IDLE_CHECK] < 0 || p->id[TS_PROBE_IDLE_RET] < 0)) {
		p->id[TS_PROBE_IDLE_CHECK] = p->id[TS_PROBE_IDLE_RET] = -1;
		p->info->parts &= ~(1 << TS_PART_RETAIN);
	}
	if (p->info->parts & 1 << TS_PART_RETAIN)
		caps->retain = 1;
}

/* A numeric field of the record, little-endian, inside the record only. */
static int num(const struct tep_format_field *f, const struct tep_record *rec,
	       unsigned long long *val)
{
	const unsigned char *p;

	if (!f || f->offset < 0 || f->size <= 0 || f->size > 8 || f->offset + f->size > rec->size)
		return -1;
	p = (const unsigned char *)rec->data + f->offset;
	*val = 0;
	for (int i = f->size - 1; i >= 0; i--)
		*val = *val << 8 | p[i];
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (*val >> (8 * f->size - 1)) & 1)
		*val |= ~0ULL << (8 * f->size);
	return 0;
}

/*
 * The mask before the call, if the probe read it: for a CPU, the field of
 * the target CPU.  Returns 0, or -1 when unknown.
 */
static int prev_mask(const struct ts_probedec *p, int id, int target,
		     const struct tep_record *rec, unsigned long long *prev)
{
	const struct tep_format_field *f = p->prev[id];

	if (id == TS_PROBE_DEP_SET_CPU || id == TS_PROBE_DEP_CLEAR_CPU)
		f = target >= 0 && target < TS_PROBE_MAX_CPUS ?
		    p->prev_cpu[id == TS_PROBE_DEP_CLEAR_CPU][target] : NULL;
	return f ? num(f, rec, prev) : -1;
}

static int decode_dep(struct ts_probedec *p, int id, struct tep_record *rec, struct ts_event *ev)
{
	const struct ts_probe_def *d = &ts_probe_defs[id];
	unsigned long long bit, caller, target, prev;

	if (num(p->bit[id], rec, &bit) || num(p->caller[id], rec, &caller))
		return -1;
	if ((long long)bit < 0 || bit >= 32)
		return 0;		/* no such bit: the kernel ignores nothing like it */
	ev->kind = d->clear ? TS_EV_DEP_CLEAR : TS_EV_DEP_SET;
	ev->dep.dependency = 1u << bit;
	ev->dep.scope = d->scope;
	ev->dep.caller = caller;
	ev->dep.sched = 0;
	/* the scheduler's reason for SCHED travels only in the patched event */
	if (!d->clear && d->scope == TS_SCOPE_CPU && bit == 2)
		ev->dep.sched = TS_SCHED_UNKNOWN;
	if (d->scope == TS_SCOPE_GLOBAL)
		ev->dep.target = -1;
	else if (!num(p->target[id], rec, &target))
		ev->dep.target = (int)target;
	else
		ev->dep.target = TS_TARGET_UNKNOWN;
	if (prev_mask(p, id, ev->dep.target, rec, &prev)) {
		p->info->unfiltered++;
		return 1;
	}
	/* as the patched kernel: only a bit that really changes */
	if (!!(prev & (1ull << bit)) != d->clear) {
		p->info->unchanged++;
		return 0;
	}
	return 1;
}

static int decode_restart(struct ts_probedec *p, struct tep_record *rec, struct ts_event *ev)
{
	unsigned long long caller;

	if (num(p->caller[TS_PROBE_RESTART], rec, &caller))
		return -1;
	ev->kind = TS_EV_TICK_RESTART;
	ev->restart.stopped_ns = -1;	/* the analysis pairs it with the stop */
	ev->restart.cause = TS_RESTART_UNKNOWN;
	ev->restart.idle = -1;
	ev->restart.infer = TS_INFER_DECISION;
	for (int i = 0; i < p->nr_fn; i++) {
		if (caller < p->fn[i].start || caller >= p->fn[i].end)
			continue;
		ev->restart.cause = p->fn[i].cause;
		ev->restart.idle = p->fn[i].idle;
		ev->restart.infer = p->fn[i].infer;
		break;
	}
	return 1;
}

static int decode_check(struct ts_probedec *p, struct tep_record *rec, struct ts_event *ev)
{
	unsigned long long mask, dep;

	if (num(p->mask, rec, &mask) || num(p->dep, rec, &dep))
		return -1;
	ev->kind = TS_EV_DEP_CHECK;
	ev->check.mask = (unsigned int)mask;
	ev->check.global = p->tick_dep_mask && dep == p->tick_dep_mask;
	return 1;
}

/* A field of the idle entry into *val: 1, or -1 when the probe could not read it. */
static int test(const struct tep_format_field *f, const struct tep_record *rec,
		unsigned long long *val)
{
	return f && !num(f, rec, val) ? 1 : -1;
}

/*
 * The reason can_stop_idle_tick() will refuse for, from what its entry
 * read: 0 when no condition holds (a refusal is then a condition set since,
 * IDLE_REFUSED), IDLE_OFFLINE, or IDLE_REFUSED when a condition the kernel
 * tests first could not be read or two may hold where the kernel's choice
 * cannot be told.  The kernel tests, in order: the CPU is offline (6.1;
 * later kernels warn instead); its NOHZ mode is inactive; a task waits
 * (need_resched()); a softirq is pending and the kernel warns about it
 * (ten times a boot, not while bottom halves are blocked: a pending
 * softirq alone does not tell); with nohz_full CPUs around, this CPU keeps
 * the time, or nobody does.  Interrupts are off from the entry to the
 * return; another CPU may still set need_resched() (never clear it) or,
 * rarely, change the CPU's active state or the warnings' count.
 */
static int idle_reason(struct ts_probedec *p, struct tep_record *rec, int cpu,
		       struct ts_probe_idle *st)
{
	unsigned long long v, tdc, full, pending;
	const struct tep_format_field *online = p->idle_online[cpu / 64];
	int inactive_known, soft, keeper;

	if (test(p->idle_cpu, rec, &v) < 0 || (int)v != cpu)
		return TS_RETAIN_IDLE_REFUSED;
	if (test(online, rec, &v) < 0)
		return TS_RETAIN_IDLE_REFUSED;
	if (!(v >> (cpu % 64) & 1))
		return IDLE_OFFLINE;
	if (p->nohz_inactive >= 0 && test(p->idle_mode, rec, &v) > 0) {
		if ((long long)(int)v == p->nohz_inactive)
			return RETAIN_NOHZ_INACTIVE;
		inactive_known = 1;
	} else {
		/* active at the start and never offline since: still active */
		inactive_known = p->nohz_known && !st->offline_seen &&
				 (p->nohz_active[cpu / 64] >> (cpu % 64) & 1);
	}
	if (!inactive_known)
		return TS_RETAIN_IDLE_REFUSED;
	if (p->tif_need_resched < 0 || test(p->idle_tif, rec, &v) < 0)
		return TS_RETAIN_IDLE_REFUSED;
	if (v >> p->tif_need_resched & 1)
		return RETAIN_NEED_RESCHED;
	if (test(p->idle_full, rec, &full) < 0) {
		if (!p->no_nohz_full)
			return TS_RETAIN_IDLE_REFUSED;
		full = 0;	/* built without NO_HZ_FULL */
	}
	if (test(p->idle_softirq, rec, &pending) < 0 ||
	    (full && test(p->idle_tdc, rec, &tdc) < 0))
		return TS_RETAIN_IDLE_REFUSED;
	soft = pending != 0;
	keeper = !full ? 0 : (int)tdc == cpu ? RETAIN_TIMEKEEPING :
		 (int)tdc == -1 ? RETAIN_NO_TIMEKEEPER : 0;	/* TICK_DO_TIMER_NONE */
	if (soft)
		return keeper ? TS_RETAIN_IDLE_REFUSED : RETAIN_SOFTIRQ;
	return keeper;
}

/*
 * Every CPU the online mask of this record shows offline: its NOHZ mode
 * is reset there (6.12 clears its tick_sched), so the mode read at the
 * start no longer tells.  Only words that changed are looked through.
 */
static void note_offline(struct ts_probedec *p, struct tep_record *rec)
{
	unsigned long long v;

	for (int w = 0; w < TS_PROBE_ONLINE_WORDS; w++) {
		uint64_t off;

		if (test(p->idle_online[w], rec, &v) < 0 || v == p->online_seen[w])
			continue;
		p->online_seen[w] = v;
		for (off = ~(uint64_t)v; off; off &= off - 1)
			p->idle[64 * w + __builtin_ctzll(off)].offline_seen = 1;
	}
}

/* The entry of can_stop_idle_tick(): what it is about to test. */
static int decode_idle_check(struct ts_probedec *p, struct tep_record *rec)
{
	struct ts_probe_idle *st;
	unsigned long long caller, entry;

	note_offline(p, rec);
	if (rec->cpu < 0 || rec->cpu >= TS_PROBE_IDLE_CPUS)
		return 0;
	st = &p->idle[rec->cpu];
	st->reason = idle_reason(p, rec, rec->cpu, st);
	st->from_sleep_length = !num(p->idle_caller, rec, &caller) &&
				caller >= p->sleep_length_start && caller < p->sleep_length_end;
	st->entry_known = !num(p->idle_entry, rec, &entry);
	st->entry = st->entry_known ? (int64_t)entry : 0;
	st->pending = 1;
	return 0;
}

/*
 * Its return: a refusal is a tick_retain of the idle entry.  With a cpuidle
 * governor, tick_nohz_get_sleep_length() asks first, and the tick-stop
 * decision that may follow in the same idle period asks again: as the
 * patched kernel, one event per idle period, at the first refusal.  The
 * same period: the same ts->idle_entrytime, which every interrupt in idle
 * renews (without the field: the next call on the CPU).
 */
static int decode_idle_ret(struct ts_probedec *p, struct tep_record *rec, struct ts_event *ev)
{
	struct ts_probe_idle *st;
	unsigned long long ret;
	int reason, repeat;

	if (num(p->idle_ret, rec, &ret))
		return -1;
	if (rec->cpu < 0 || rec->cpu >= TS_PROBE_IDLE_CPUS) {
		reason = TS_RETAIN_IDLE_REFUSED;
		repeat = 0;
	} else {
		st = &p->idle[rec->cpu];
		reason = !st->pending ? TS_RETAIN_IDLE_REFUSED :
			 st->reason ? st->reason : TS_RETAIN_IDLE_REFUSED;
		repeat = st->pending && !st->from_sleep_length && st->governor_refused &&
			 (!st->entry_known || st->entry == st->governor_entry);
		st->governor_refused = st->pending && st->from_sleep_length && !(ret & 0xff);
		st->governor_entry = st->entry;
		st->pending = 0;
	}
	if ((ret & 0xff) || reason == IDLE_OFFLINE || repeat)
		return 0;
	ev->kind = TS_EV_TICK_RETAIN;
	ev->retain.reason = reason;
	ev->retain.delta_ns = 0;
	return 1;
}

/*
 * ts_probedec_decode - decode a record of probe id (enum ts_probe_id: the
 * decoder found it from the record's type in its table, decode.c).
 * Returns 1 with *ev filled (the common part already is), 0 for a record
 * of no interest (a call that changed nothing), -1 for a record too short
 * for its format.
 */
int ts_probedec_decode(struct ts_probedec *p, int id, struct tep_record *rec,
		       struct ts_event *ev)
{
	if (id < 0 || id >= TS_NR_PROBES || p->id[id] < 0)
		return 0;
	if (id == TS_PROBE_RESTART)
		return decode_restart(p, rec, ev);
	if (id == TS_PROBE_DEP_CHECK)
		return decode_check(p, rec, ev);
	if (id == TS_PROBE_IDLE_CHECK)
		return decode_idle_check(p, rec);
	if (id == TS_PROBE_IDLE_RET)
		return decode_idle_ret(p, rec, ev);
	return decode_dep(p, id, rec, ev);
}

static int parse_hex(const char *s, uint64_t *v)
{
	char *end;

	if (strncmp(s, "0x", 2))
		return -1;
	*v = strtoull(s + 2, &end, 16);
	return end == s + 2 || *end ? -1 : 0;
}

/*
 * ts_probedec_mark - one "key=value" of the probes mark (docs/recording-format.md).
 * Unknown keys are ignored (a later recorder may add some).  Returns 0, or
 * -1 for a value that does not parse.
 */
int ts_probedec_mark(struct ts_probedec *p, char *token)
{
	struct ts_probe_info *info = p->info;
	char *v = strchr(token, '=');
	int id, why;

	if (!v || !info)
		return -1;
	*v++ = '\0';
	info->used = 1;
	if (!strcmp(token, "group")) {
		if (strncmp(v, TS_PROBE_GROUP_PREFIX, strlen(TS_PROBE_GROUP_PREFIX)) ||
		    strlen(v) >= sizeof(info->group))
			return -1;
		snprintf(info->group, sizeof(info->group), "%s", v);
	} else if (!strncmp(token, "probe.", 6)) {
		id = probe_of(token + 6);
		why = ts_probe_why_from_name(v);
		if (why < 0)
			return -1;
		if (id >= 0)
			info->why[id] = why;
	} else if (!strncmp(token, "gap.", 4)) {
		why = ts_probe_why_from_name(v);
		if (why < 0)
			return -1;
		for (int g = 0; g < TS_NR_GAPS; g++)
			if (!strcmp(token + 4, gap_names[g]))
				info->gap[g] = why;
	} else if (!strcmp(token, "tick_dep_mask")) {
		return parse_hex(v, &p->tick_dep_mask);
	} else if (!strcmp(token, "nohz_inactive") || !strcmp(token, "tif_need_resched") ||
		   !strcmp(token, "no_nohz_full")) {
		char *end;
		long long n = strtoll(v, &end, 10);

		if (end == v || *end || n < 0 || n > 255)
			return -1;
		if (!strcmp(token, "nohz_inactive")) {
			p->nohz_inactive = n;
		} else if (!strcmp(token, "tif_need_resched")) {
			if (n > 63)
				return -1;
			p->tif_need_resched = (int)n;
		} else {
			p->no_nohz_full = n != 0;
		}
	} else if (!strncmp(token, "nohz_active.", 12)) {
		char *end;
		long w = strtol(token + 12, &end, 10);

		if (end == token + 12 || *end || w < 0 || w >= TS_PROBE_ONLINE_WORDS ||
		    parse_hex(v, &p->nohz_active[w]))
			return -1;
		p->nohz_known = 1;
	} else if (!strncmp(token, "fn.", 3)) {
		char *plus = strchr(v, '+');
		uint64_t start, size;
		struct ts_probe_fn *f;

		if (!plus)
			return -1;
		*plus++ = '\0';
		if (parse_hex(v, &start) || parse_hex(plus, &size) || start + size < start)
			return -1;
		if (!strcmp(token + 3, "tick_nohz_get_sleep_length")) {
			p->sleep_length_start = start;
			p->sleep_length_end = start + size;
			return 0;
		}
		if (p->nr_fn == TS_PROBE_MAX_FNS)
			return 0;
		f = &p->fn[p->nr_fn];
		if (ts_probe_restart_cause(token + 3, &f->cause, &f->idle, &f->infer))
			return 0;	/* a caller this reader has no cause for */
		f->start = start;
		f->end = start + size;
		p->nr_fn++;
	}
	return 0;
}
