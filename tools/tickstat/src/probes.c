// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - kprobe events on the functions that decide about the tick,
 * for kernels without the patched events (Debian's own, say).
 *
 * Probe points come from the running kernel's /proc/kallsyms: a function
 * that is not there (inlined, renamed), only there as a compiler clone
 * (NAME.isra.0, whose arguments may differ) or on the kprobe blacklist is
 * not probed, and what its probe would have told stays unknown, said once.
 * Field offsets (a task's pid, a process's tgid, the dependency masks) come
 * from the kernel's BTF; the addresses of the masks, from kallsyms.  No
 * version number is ever consulted.
 *
 * The probes live in a group of their own, tickstat_PID, created with
 * libtracefs's dynamic-event API, enabled only in the recorder's instance
 * and removed on every exit (ts_session_free()); a group whose recorder is
 * gone (SIGKILL) is removed by the next run.
 *
 * Arguments follow x86_64's calling convention: $argN at a function's
 * entry, and $stack0 there is the return address, the caller.  The idle
 * probe reads need_resched() as x86's TIF_NEED_RESCHED bit, an ABI of the
 * architecture (the kernel's BTF has no #define).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf.h"
#include "probedec.h"
#include "probes.h"

#define BTF_PATH	"/sys/kernel/btf/vmlinux"
#define BLACKLIST	"/sys/kernel/debug/kprobes/blacklist"
#define FMT_MAX		3800	/* the kernel takes a definition line under 4096 bytes */

#define X86_TIF_NEED_RESCHED	3	/* arch/x86/include/asm/thread_info.h */

/* Variables the probes read (per-CPU ones at their offset in the per-CPU area). */
enum {
	V_TICK_DEP_MASK, V_PER_CPU_OFFSET, V_TICK_CPU_SCHED, V_TICK_DO_TIMER_CPU,
	V_NOHZ_FULL_RUNNING, V_CPU_ONLINE_MASK, V_CURRENT_TASK, V_PCPU_HOT, V_IRQ_STAT,
	V_SOFTIRQ_PENDING, V_NOHZ_FULL_MASK, NR_VARS
};
static const char * const var_names[NR_VARS] = {
	"tick_dep_mask", "__per_cpu_offset", "tick_cpu_sched", "tick_do_timer_cpu",
	"tick_nohz_full_running", "__cpu_online_mask", "current_task", "pcpu_hot", "irq_stat",
	"__softirq_pending", "tick_nohz_full_mask",
};

struct want {
	const char *name;
	uint64_t addr, next;	/* the symbol, and the first one above it */
	int count;		/* symbols of exactly that name */
	int clones;		/* NAME.something */
	int blacklisted;
};

/* What the probes need from BTF, in bytes; -1 unknown. */
struct offsets {
	long task_pid, task_tgid, task_mask, task_signal;
	long signal_mask, signal_tgid_pid;	/* signal->pids[PIDTYPE_TGID] */
	long pid_nr;				/* pid->numbers[0].nr */
	long sched_mask;			/* tick_sched.tick_dep_mask */
	long nohz_mode;				/* tick_sched.nohz_mode (6.1) */
	long long nohz_inactive;		/* NOHZ_MODE_INACTIVE */
	long ti_flags;				/* task_struct.thread_info.flags */
	int cur_var, soft_var;			/* per-CPU (V_*, -1 none): the current task, softirqs pending */
	long cur_off, soft_off, soft_size;	/* in those variables */
	int idle_ts_arg;			/* can_stop_idle_tick()'s $arg2 is the tick_sched */
	long idle_entry;			/* tick_sched.idle_entrytime */
};

/* ts_probes_mode_parse - "auto", "on" or "off"; -1 for anything else */
int ts_probes_mode_parse(const char *text)
{
	static const char * const names[] = { "auto", "on", "off" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(text, names[i]))
			return i;
	return -1;
}

/* One pass over /proc/kallsyms for every name wanted (the kernel's own symbols). */
static int scan_kallsyms(struct want *w, int n)
{
	char line[512];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		int end = 0;

		if (sscanf(line, "%llx %c %255s%n", &addr, &type, name, &end) != 3)
			continue;
		if (line[end] == '\t')
			continue;	/* a module's */
		for (int i = 0; i < n; i++) {
			size_t len = strlen(w[i].name);

			if (!strcmp(name, w[i].name)) {
				if (!w[i].count++)
					w[i].addr = addr;
			} else if (!strncmp(name, w[i].name, len) && name[len] == '.') {
				w[i].clones++;
			} else if (w[i].count && addr > w[i].addr &&
				   (!w[i].next || addr < w[i].next)) {
				w[i].next = addr;	/* kallsyms lists the kernel's in order */
			}
		}
	}
	fclose(f);
	return 0;
}

/* Mark the wanted functions the kernel refuses to probe (debugfs, if mounted). */
static void scan_blacklist(struct want *w, int n)
{
	char line[512];
	FILE *f = fopen(BLACKLIST, "r");

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long from, to;
		char name[256];

		if (sscanf(line, "0x%llx-0x%llx %255s", &from, &to, name) != 3)
			continue;
		for (int i = 0; i < n; i++)
			if (!strcmp(name, w[i].name) ||
			    (w[i].addr && w[i].addr >= from && w[i].addr < to))
				w[i].blacklisted = 1;
	}
	if (f)
		fclose(f);
}

static long member(const struct ts_btf *b, const char *type, const char *name, uint32_t *mtype)
{
	uint32_t t;
	long off;

	return ts_btf_member(b, type, name, &off, mtype ? mtype : &t) ? -1 : off;
}

/*
 * What the idle probe reads, through the tick_sched can_stop_idle_tick()
 * gets: its NOHZ mode where it has a field (6.1; later kernels keep it
 * in flag bits BTF does not name), and this CPU's other per-CPU data at
 * their distance from it: the current task (current_task, or
 * pcpu_hot.current_task from 6.2 to 6.14), the pending softirqs
 * (irq_stat.__softirq_pending, pcpu_hot.softirq_pending, __softirq_pending):
 * whichever variable the kernel's BTF has.
 */
static void read_idle_offsets(const struct ts_btf *b, struct offsets *o)
{
	long ti, flags, size;

	o->idle_ts_arg = ts_btf_param_is_ptr_to(b, "can_stop_idle_tick", 1, "tick_sched");
	o->nohz_mode = -1;
	if (!ts_btf_member_size(b, "tick_sched", "nohz_mode", &size) && size == 4 &&
	    !ts_btf_enum_value(b, "NOHZ_MODE_INACTIVE", &o->nohz_inactive))
		o->nohz_mode = member(b, "tick_sched", "nohz_mode", NULL);
	o->idle_entry = -1;
	if (!ts_btf_member_size(b, "tick_sched", "idle_entrytime", &size) && size == 8)
		o->idle_entry = member(b, "tick_sched", "idle_entrytime", NULL);
	ti = member(b, "task_struct", "thread_info", NULL);
	flags = member(b, "thread_info", "flags", NULL);
	o->ti_flags = ti >= 0 && flags >= 0 ? ti + flags : -1;
	o->cur_var = o->soft_var = -1;
	if (!ts_btf_var_member(b, "pcpu_hot", "current_task", &o->cur_off, &size) && size == 8)
		o->cur_var = V_PCPU_HOT;
	else if (!ts_btf_var_member(b, "current_task", NULL, &o->cur_off, &size) && size == 8)
		o->cur_var = V_CURRENT_TASK;
	if (!ts_btf_var_member(b, "pcpu_hot", "softirq_pending", &o->soft_off, &o->soft_size))
		o->soft_var = V_PCPU_HOT;
	else if (!ts_btf_var_member(b, "irq_stat", "__softirq_pending", &o->soft_off,
				    &o->soft_size))
		o->soft_var = V_IRQ_STAT;
	else if (!ts_btf_var_member(b, "__softirq_pending", NULL, &o->soft_off, &o->soft_size))
		o->soft_var = V_SOFTIRQ_PENDING;
	if (o->soft_size != 1 && o->soft_size != 2 && o->soft_size != 4)
		o->soft_var = -1;
}

/* The offsets from the running kernel's BTF; 0, or -1 without BTF. */
static int read_offsets(struct offsets *o)
{
	struct ts_btf *b = ts_btf_load(BTF_PATH, NULL, 0);
	long long tgid_type;
	uint32_t pids_type, numbers_type;
	long pids, elem, numbers, nr;

	memset(o, -1, sizeof(*o));
	if (!b)
		return -1;
	o->task_pid = member(b, "task_struct", "pid", NULL);
	o->task_tgid = member(b, "task_struct", "tgid", NULL);
	o->task_mask = member(b, "task_struct", "tick_dep_mask", NULL);
	o->task_signal = member(b, "task_struct", "signal", NULL);
	o->signal_mask = member(b, "signal_struct", "tick_dep_mask", NULL);
	o->sched_mask = member(b, "tick_sched", "tick_dep_mask", NULL);
	pids = member(b, "signal_struct", "pids", &pids_type);
	if (pids >= 0 && !ts_btf_enum_value(b, "PIDTYPE_TGID", &tgid_type) &&
	    !ts_btf_elem_size(b, pids_type, &elem) && elem == sizeof(void *))
		o->signal_tgid_pid = pids + tgid_type * elem;
	numbers = member(b, "pid", "numbers", &numbers_type);
	nr = member(b, "upid", "nr", NULL);
	if (numbers >= 0 && nr >= 0)
		o->pid_nr = numbers + nr;
	read_idle_offsets(b, o);
	ts_btf_free(b);
	return 0;
}

/* Append to a definition; -1 once it no longer fits. */
static int add(char *buf, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int add(char *buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *len, FMT_MAX - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || *len + n >= FMT_MAX)
		return -1;
	*len += n;
	return 0;
}

/* The address of per-CPU variable v's byte off, from this CPU's tick_sched. */
static long long from_ts(const uint64_t *var, int v, long off)
{
	return (long long)(var[v] + off) - (long long)var[V_TICK_CPU_SCHED];
}

/*
 * can_stop_idle_tick(cpu, ts)'s entry: cpu, caller, and what it will test
 * (probedec.c, idle_reason()): mode (NOHZ), entry (ts->idle_entrytime:
 * which idle period), tif (the current task's flags), softirq (pending),
 * tdc (tick_do_timer_cpu), full (nohz_full CPUs around), onlineN (64 CPUs
 * of the online mask each).  A field that cannot
 * be read is left out; its reasons stay IDLE_REFUSED.
 */
static int idle_definition(const struct offsets *o, const uint64_t *var,
			   const struct ts_cpuset *online, char *buf)
{
	size_t len = 0;
	int r = 0, last = 0;

	r |= add(buf, &len, "cpu=$arg1:s32 caller=$stack0:x64");
	if (o->idle_ts_arg > 0 && var[V_TICK_CPU_SCHED]) {
		if (o->nohz_mode >= 0)
			r |= add(buf, &len, " mode=+%ld($arg2):s32", o->nohz_mode);
		if (o->idle_entry >= 0)
			r |= add(buf, &len, " entry=+%ld($arg2):s64", o->idle_entry);
		if (o->cur_var >= 0 && var[o->cur_var] && o->ti_flags >= 0)
			r |= add(buf, &len, " tif=+%ld(%+lld($arg2)):u64", o->ti_flags,
				 from_ts(var, o->cur_var, o->cur_off));
		if (o->soft_var >= 0 && var[o->soft_var])
			r |= add(buf, &len, " softirq=%+lld($arg2):u%ld",
				 from_ts(var, o->soft_var, o->soft_off), 8 * o->soft_size);
	}
	if (var[V_TICK_DO_TIMER_CPU])
		r |= add(buf, &len, " tdc=@0x%llx:s32", (unsigned long long)var[V_TICK_DO_TIMER_CPU]);
	if (var[V_NOHZ_FULL_RUNNING])
		r |= add(buf, &len, " full=@0x%llx:u8", (unsigned long long)var[V_NOHZ_FULL_RUNNING]);
	for (int c = 0; c < TS_PROBE_IDLE_CPUS; c++)
		if (ts_cpuset_has(online, c))
			last = c;
	for (int w = 0; var[V_CPU_ONLINE_MASK] && w <= last / 64; w++)
		r |= add(buf, &len, " online%d=@0x%llx:u64", w,
			 (unsigned long long)(var[V_CPU_ONLINE_MASK] + 8 * w));
	return r ? -1 : 0;
}

/*
 * The fetch arguments of a probe.  Fields the decoder (probedec.c) reads:
 * bit, caller, target (CPU, pid or tgid), prev (the mask before the call;
 * for a CPU, prev_cpuN for each CPU N, since a probe cannot index a per-CPU
 * variable by an argument), mask and dep (check_tick_dependency()).
 */
static int definition(struct ts_probes *p, int id, const struct offsets *o,
		      const uint64_t *var, const struct ts_cpuset *online, char *buf)
{
	const struct ts_probe_def *d = &ts_probe_defs[id];
	size_t len = 0;
	int r = 0;

	buf[0] = '\0';
	if (id == TS_PROBE_RESTART)
		return add(buf, &len, "caller=$stack0:x64");
	if (id == TS_PROBE_IDLE_RET)
		return add(buf, &len, "ret=$retval:u8");
	if (id == TS_PROBE_IDLE_CHECK)
		return idle_definition(o, var, online, buf);
	if (id == TS_PROBE_DEP_CHECK)
		return add(buf, &len, "mask=+0($arg1):u32 dep=$arg1:x64");
	switch (d->scope) {
	case TS_SCOPE_GLOBAL:
		r |= add(buf, &len, "bit=$arg1:s32 caller=$stack0:x64");
		if (var[V_TICK_DEP_MASK])
			r |= add(buf, &len, " prev=@0x%llx:u32",
				 (unsigned long long)var[V_TICK_DEP_MASK]);
		break;
	case TS_SCOPE_CPU:
		r |= add(buf, &len, "target=$arg1:s32 bit=$arg2:s32 caller=$stack0:x64");
		if (!var[V_PER_CPU_OFFSET] || !var[V_TICK_CPU_SCHED] || o->sched_mask < 0)
			break;
		/* prev_cpuN = *(__per_cpu_offset[N] + &tick_cpu_sched + offset of the mask) */
		for (int c = 0; c < TS_PROBE_MAX_CPUS && !r; c++)
			if (ts_cpuset_has(online, c))
				r |= add(buf, &len, " prev_cpu%d=+%llu(@0x%llx):u32", c,
					 (unsigned long long)(var[V_TICK_CPU_SCHED] + o->sched_mask),
					 (unsigned long long)(var[V_PER_CPU_OFFSET] + c * sizeof(long)));
		break;
	case TS_SCOPE_TASK:
		if (o->task_pid >= 0)
			r |= add(buf, &len, "target=+%ld($arg1):s32 ", o->task_pid);
		r |= add(buf, &len, "bit=$arg2:s32 caller=$stack0:x64");
		if (o->task_mask >= 0)
			r |= add(buf, &len, " prev=+%ld($arg1):u32", o->task_mask);
		break;
	case TS_SCOPE_PROCESS:
		if (!d->clear) {	/* tick_nohz_dep_set_signal(struct task_struct *, bit) */
			if (o->task_tgid >= 0)
				r |= add(buf, &len, "target=+%ld($arg1):s32 ", o->task_tgid);
			r |= add(buf, &len, "bit=$arg2:s32 caller=$stack0:x64");
			if (o->task_signal >= 0 && o->signal_mask >= 0)
				r |= add(buf, &len, " prev=+%ld(+%ld($arg1)):u32", o->signal_mask,
					 o->task_signal);
		} else {		/* tick_nohz_dep_clear_signal(struct signal_struct *, bit) */
			if (o->signal_tgid_pid >= 0 && o->pid_nr >= 0)
				r |= add(buf, &len, "target=+%ld(+%ld($arg1)):s32 ", o->pid_nr,
					 o->signal_tgid_pid);
			r |= add(buf, &len, "bit=$arg2:s32 caller=$stack0:x64");
			if (o->signal_mask >= 0)
				r |= add(buf, &len, " prev=+%ld($arg1):u32", o->signal_mask);
		}
		break;
	}
	(void)p;
	return r ? -1 : 0;
}

/* Which fields a placed dependency probe lacks: the gaps they leave. */
static void note_gaps(struct ts_probes *p, int id, const char *def, int have_btf)
{
	const struct ts_probe_def *d = &ts_probe_defs[id];

	if (id == TS_PROBE_IDLE_CHECK) {
		/* the NOHZ mode: a field, or the state at the start (nohz_active) */
		if (!strstr(def, " tif=") || !strstr(def, " softirq=") || !strstr(def, " tdc=") ||
		    (!strstr(def, " full=") && !p->no_nohz_full) || !strstr(def, " online0=") ||
		    (!strstr(def, " mode=") && !p->nohz_known))
			p->gap[TS_GAP_IDLE_REASON] = have_btf ? TS_PW_NO_ADDRESS : TS_PW_NO_BTF;
		return;
	}
	if (ts_probe_defs[id].part != TS_PART_DEPS)
		return;
	if (d->scope != TS_SCOPE_GLOBAL && d->scope != TS_SCOPE_CPU && !strstr(def, "target="))
		p->gap[TS_GAP_TARGET] = have_btf ? TS_PW_NO_ADDRESS : TS_PW_NO_BTF;
	if (!strstr(def, "prev"))
		p->gap[TS_GAP_CHANGES] = d->scope == TS_SCOPE_GLOBAL || have_btf ?
					 TS_PW_NO_ADDRESS : TS_PW_NO_BTF;
}

/* Say once what stays unknown, and why. */
static void say_unplaced(const struct ts_probes *p)
{
	for (int i = 0; i < TS_NR_PROBES; i++)
		if (p->why[i] > TS_PW_PLACED)
			err_msg("warning: probes: %s cannot be probed: %s; %s stays unknown\n",
				ts_probe_label(i), ts_probe_why_text(p->why[i]),
				ts_probe_part_name(ts_probe_defs[i].part));
	for (int g = 0; g < TS_NR_GAPS; g++)
		if (p->gap[g])
			err_msg("warning: probes: %s stays unknown: %s\n", ts_probe_gap_text(g),
				ts_probe_why_text(p->gap[g]));
}

static int create(struct ts_probes *p, int id, const char *def)
{
	const struct ts_probe_def *d = &ts_probe_defs[id];
	struct tracefs_dynevent *dev;
	char *why;

	dev = d->ret ? tracefs_kretprobe_alloc(p->group, d->event, d->function, def, 0) :
		       tracefs_kprobe_alloc(p->group, d->event, d->function, def);
	if (!dev)
		return -1;
	tracefs_error_clear(NULL);
	if (tracefs_dynevent_create(dev)) {
		why = tracefs_error_last(NULL);
		err_msg("warning: probes: the kernel refused %s/%s at %s: %s\n", p->group, d->event,
			ts_probe_label(id), why ? why : strerror(errno));
		free(why);
		tracefs_dynevent_free(dev);
		return -1;
	}
	p->dev[id] = dev;
	return 0;
}

/* Is tick_nohz_get_sleep_length() among the functions found (1), and how many others? */
static int sleep_length(const struct ts_probes *p, int *others)
{
	int found = 0;

	*others = 0;
	for (int i = 0; i < p->nr_fn; i++) {
		if (!strcmp(p->fn[i].name, "tick_nohz_get_sleep_length"))
			found = 1;
		else
			(*others)++;
	}
	return found;
}

/*
 * Which CPUs are in NOHZ mode now (/proc/timer_list's ".nohz", printed by
 * kernels whose tick_sched keeps the mode in flag bits, where the idle
 * probe cannot read it): a CPU stays so until it goes offline, which the
 * idle probe sees.  Kernels with a mode field print ".nohz_mode" instead.
 */
static void read_nohz_active(struct ts_probes *p, const struct offsets *o)
{
	char line[256];
	int cpu = -1, v, any = 0;
	FILE *f = fopen("/proc/timer_list", "r");

	p->nohz_inactive = o->nohz_mode >= 0 ? o->nohz_inactive : -1;
	p->tif_need_resched = X86_TIF_NEED_RESCHED;
	memset(p->nohz_active, 0, sizeof(p->nohz_active));
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu: %d", &cpu) == 1)
			continue;
		if (cpu < 0 || cpu >= 64 * (int)(sizeof(p->nohz_active) / 8))
			continue;
		if (sscanf(line, " .nohz : %d", &v) == 1) {
			any = 1;
			if (v)
				p->nohz_active[cpu / 64] |= 1ull << (cpu % 64);
		}
	}
	if (f)
		fclose(f);
	p->nohz_known = any;
}

/* Refusals need both ends of can_stop_idle_tick(): one alone is removed. */
static void pair_idle_probes(struct ts_probes *p)
{
	int a = TS_PROBE_IDLE_CHECK, b = TS_PROBE_IDLE_RET;

	if ((p->why[a] == TS_PW_PLACED) == (p->why[b] == TS_PW_PLACED))
		return;
	if (p->why[a] == TS_PW_PLACED)
		a = b, b = TS_PROBE_IDLE_CHECK;
	/* now a failed, b was placed */
	p->gap[TS_GAP_IDLE_REASON] = 0;
	if (p->dev[b]) {
		if (tracefs_dynevent_destroy(p->dev[b], true))
			err_msg("warning: cannot remove the probe %s: %m\n",
				ts_probe_defs[b].event);
		tracefs_dynevent_free(p->dev[b]);
		p->dev[b] = NULL;
	}
	p->why[b] = p->why[a];
}

/*
 * ts_probes_place - create the probes of the parts needed (need[part]:
 * the kernel's own events do not tell it), in group tickstat_PID.  CPUs in
 * online get their dependency mask read by the CPU-scope probes.  With
 * TS_PROBES_ON, a needed probe that cannot be placed is an error.
 * Returns 0 (p->why says what was placed), or -1 after saying why; the
 * probes created are then left for ts_probes_remove().
 */
int ts_probes_place(struct ts_probes *p, int mode, const int need[TS_NR_PARTS],
		    const struct ts_cpuset *online)
{
	struct want fn[TS_NR_PROBES], var[NR_VARS], callers[16];
	static const char * const caller_names[] = {
		"tick_nohz_idle_restart_tick", "tick_nohz_idle_exit", "tick_nohz_idle_update_tick",
		"__tick_nohz_full_update_tick", "tick_nohz_full_update_tick", "tick_nohz_irq_exit",
		"tick_nohz_get_sleep_length",	/* asks can_stop_idle_tick() for a governor */
	};
	int nr_callers = sizeof(caller_names) / sizeof(caller_names[0]);
	uint64_t addr[NR_VARS] = { 0 };
	struct offsets o;
	char *def = malloc(FMT_MAX);
	int have_btf, any = 0, ret = 0, restart_callers;

	memset(p, 0, sizeof(*p));
	snprintf(p->group, sizeof(p->group), TS_PROBE_GROUP_PREFIX "%d", (int)getpid());
	if (!def) {
		err_msg("out of memory\n");
		return -1;
	}
	for (int i = 0; i < TS_NR_PROBES; i++) {
		p->why[i] = mode != TS_PROBES_OFF && need[ts_probe_defs[i].part] ?
			    TS_PW_PLACED : TS_PW_NONE;
		any |= p->why[i] == TS_PW_PLACED;
	}
	if (!any)
		goto out;
	memset(fn, 0, sizeof(fn));
	memset(var, 0, sizeof(var));
	memset(callers, 0, sizeof(callers));
	for (int i = 0; i < TS_NR_PROBES; i++)
		fn[i].name = ts_probe_defs[i].function;
	for (int i = 0; i < NR_VARS; i++)
		var[i].name = var_names[i];
	for (int i = 0; i < nr_callers; i++)
		callers[i].name = caller_names[i];
#ifndef __x86_64__
	for (int i = 0; i < TS_NR_PROBES; i++)
		if (p->why[i] == TS_PW_PLACED)
			p->why[i] = TS_PW_ARCH;
	goto done;
#endif
	if (!tracefs_file_exists(NULL, "kprobe_events")) {
		for (int i = 0; i < TS_NR_PROBES; i++)
			if (p->why[i] == TS_PW_PLACED)
				p->why[i] = TS_PW_NO_KPROBES;
		goto done;
	}
	/* one pass for all: functions, variables, restart callers */
	{
		struct want all[TS_NR_PROBES + NR_VARS + 16];
		int n = 0;

		memcpy(all + n, fn, sizeof(fn));
		n += TS_NR_PROBES;
		memcpy(all + n, var, sizeof(var));
		n += NR_VARS;
		memcpy(all + n, callers, nr_callers * sizeof(callers[0]));
		n += nr_callers;
		if (scan_kallsyms(all, n)) {
			err_msg("cannot read /proc/kallsyms: %s\n", strerror(errno));
			ret = -1;
			goto out;
		}
		scan_blacklist(all, TS_NR_PROBES);
		memcpy(fn, all, sizeof(fn));
		memcpy(var, all + TS_NR_PROBES, sizeof(var));
		memcpy(callers, all + TS_NR_PROBES + NR_VARS, nr_callers * sizeof(callers[0]));
	}
	for (int i = 0; i < NR_VARS; i++)
		addr[i] = var[i].count == 1 ? var[i].addr : 0;
	/* a hidden address (kptr_restrict) reads as 0: as good as none */
	p->tick_dep_mask = addr[V_TICK_DEP_MASK];
	for (int i = 0; i < nr_callers; i++) {
		if (callers[i].count != 1 || !callers[i].addr || !callers[i].next)
			continue;
		snprintf(p->fn[p->nr_fn].name, sizeof(p->fn[0].name), "%s", callers[i].name);
		p->fn[p->nr_fn].addr = callers[i].addr;
		p->fn[p->nr_fn++].size = callers[i].next - callers[i].addr;
	}
	have_btf = !read_offsets(&o);
	read_nohz_active(p, &o);
	/*
	 * Data symbols are listed (the timekeeper's), but neither of NO_HZ_FULL:
	 * a kernel built without it, where no CPU is nohz_full
	 */
	p->no_nohz_full = addr[V_TICK_DO_TIMER_CPU] && !var[V_NOHZ_FULL_RUNNING].count &&
			  !var[V_NOHZ_FULL_MASK].count;
	for (int i = 0; i < TS_NR_PROBES; i++) {
		if (p->why[i] != TS_PW_PLACED)
			continue;
		if (!fn[i].count)
			p->why[i] = fn[i].clones ? TS_PW_CLONE : TS_PW_ABSENT;
		else if (fn[i].count > 1)
			p->why[i] = TS_PW_AMBIGUOUS;
		else if (fn[i].blacklisted)
			p->why[i] = TS_PW_BLACKLISTED;
		else if (i == TS_PROBE_DEP_CHECK && !p->tick_dep_mask)
			p->why[i] = TS_PW_NO_ADDRESS;	/* no scope without the global mask */
		else if ((i == TS_PROBE_IDLE_CHECK || i == TS_PROBE_IDLE_RET) &&
			 !sleep_length(p, &restart_callers))
			p->why[i] = TS_PW_NO_ADDRESS;	/* a governor's calls would count twice */
		if (p->why[i] != TS_PW_PLACED)
			continue;
		if (definition(p, i, &o, addr, online, def) || create(p, i, def)) {
			p->why[i] = TS_PW_REFUSED;
			continue;
		}
		note_gaps(p, i, def, have_btf);
	}
	sleep_length(p, &restart_callers);
	if (p->why[TS_PROBE_RESTART] == TS_PW_PLACED && !restart_callers)
		p->gap[TS_GAP_CAUSE] = TS_PW_NO_ADDRESS;
	pair_idle_probes(p);
done:
	say_unplaced(p);
	for (int i = 0; i < TS_NR_PROBES && mode == TS_PROBES_ON; i++) {
		if (p->why[i] > TS_PW_PLACED) {
			err_msg("--probes=on: %s cannot be probed\n", ts_probe_label(i));
			ret = -1;
			break;
		}
	}
	if (!ret)
		debug_msg("tickstat: probes in group %s\n", p->group);
out:
	free(def);
	return ret;
}

/* ts_probes_enable - enable the probes in the recorder's instance only */
int ts_probes_enable(const struct ts_probes *p, struct tracefs_instance *inst)
{
	for (int i = 0; i < TS_NR_PROBES; i++) {
		if (!p->dev[i])
			continue;
		if (tracefs_event_enable(inst, p->group, ts_probe_defs[i].event)) {
			err_msg("cannot enable %s:%s\n", p->group, ts_probe_defs[i].event);
			return -1;
		}
	}
	return 0;
}

/*
 * ts_probes_mark - the "probes" mark's tokens (docs/recording-format.md):
 * what was placed, why not, what stays unknown, and what the decoder
 * needs to read the events (the global mask's address, the restart
 * callers).  NULL when no probe was asked for; the caller frees it.
 */
char *ts_probes_mark(const struct ts_probes *p)
{
	size_t cap = 4096, len = 0;
	char *t = malloc(cap);
	int asked = 0;

	if (!t)
		return NULL;
	len += snprintf(t + len, cap - len, "group=%s", p->group);
	for (int i = 0; i < TS_NR_PROBES; i++) {
		if (p->why[i] == TS_PW_NONE)
			continue;
		asked = 1;
		len += snprintf(t + len, cap - len, " probe.%s=%s", ts_probe_defs[i].event,
				ts_probe_why_name(p->why[i]));
	}
	for (int g = 0; g < TS_NR_GAPS; g++)
		if (p->gap[g])
			len += snprintf(t + len, cap - len, " gap.%s=%s", ts_probe_gap_name(g),
					ts_probe_why_name(p->gap[g]));
	if (p->tick_dep_mask)
		len += snprintf(t + len, cap - len, " tick_dep_mask=0x%llx",
				(unsigned long long)p->tick_dep_mask);
	if (p->dev[TS_PROBE_IDLE_CHECK]) {
		if (p->nohz_inactive >= 0)
			len += snprintf(t + len, cap - len, " nohz_inactive=%lld", p->nohz_inactive);
		len += snprintf(t + len, cap - len, " tif_need_resched=%d", p->tif_need_resched);
		if (p->no_nohz_full)
			len += snprintf(t + len, cap - len, " no_nohz_full=1");
		/* word 0 always: known, if no CPU is in NOHZ mode */
		for (int w = 0; p->nohz_known && w < (int)(sizeof(p->nohz_active) / 8); w++)
			if (p->nohz_active[w] || !w)
				len += snprintf(t + len, cap - len, " nohz_active.%d=0x%llx", w,
						(unsigned long long)p->nohz_active[w]);
	}
	for (int i = 0; i < p->nr_fn; i++)
		len += snprintf(t + len, cap - len, " fn.%s=0x%llx+0x%llx", p->fn[i].name,
				(unsigned long long)p->fn[i].addr,
				(unsigned long long)p->fn[i].size);
	if (!asked || len >= cap) {
		free(t);
		return NULL;
	}
	return t;
}

/*
 * Probe hits the kernel could not report (kprobe_profile's third column):
 * a return probe that ran out of instances, a probe hit inside another.
 * Those decisions are missing from the recording: said, never hidden.
 */
static void say_missed(const struct ts_probes *p)
{
	char *text = tracefs_instance_file_read(NULL, "kprobe_profile", NULL);
	char *line, *save = NULL;
	size_t n = strlen(p->group);

	if (!text)
		err_msg("warning: probes: cannot read kprobe_profile (%m): hits they missed are unknown\n");
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[128];
		unsigned long long hits, missed;

		if (sscanf(line, " %127s %llu %llu", name, &hits, &missed) == 3 &&
		    !strncmp(name, p->group, n) && name[n] == '/' && missed)
			err_msg("warning: probes: %s missed %llu hits (%llu reported): what they "
				"saw is missing from the recording\n", name, missed, hits);
	}
	free(text);
}

/* ts_probes_remove - remove the probes created (after the instance is gone) */
void ts_probes_remove(struct ts_probes *p)
{
	int any = 0;

	for (int i = 0; i < TS_NR_PROBES; i++)
		any |= p->dev[i] != NULL;
	if (any)
		say_missed(p);
	for (int i = 0; i < TS_NR_PROBES; i++) {
		if (!p->dev[i])
			continue;
		/* force: disabled first wherever enabled */
		if (tracefs_dynevent_destroy(p->dev[i], true))
			err_msg("warning: cannot remove the probe %s/%s: %s (the next run removes it)\n",
				p->group, ts_probe_defs[i].event, strerror(errno));
		tracefs_dynevent_free(p->dev[i]);
		p->dev[i] = NULL;
	}
}

/*
 * ts_probes_remove_stale - remove the probes of recorders that are gone
 * (killed with SIGKILL: nothing ran on their way out), saying so.
 */
void ts_probes_remove_stale(void)
{
	struct tracefs_dynevent **all;
	int removed = 0, failed = 0;
	char pids[128] = "";
	size_t len = 0;

	if (!tracefs_file_exists(NULL, "kprobe_events"))
		return;
	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE | TRACEFS_DYNEVENT_KRETPROBE, NULL);
	for (int i = 0; all && all[i]; i++) {
		char *system = NULL, *event = NULL;
		size_t n = strlen(TS_PROBE_GROUP_PREFIX);
		int pid;

		tracefs_dynevent_info(all[i], &system, &event, NULL, NULL, NULL);
		pid = system && !strncmp(system, TS_PROBE_GROUP_PREFIX, n) ? atoi(system + n) : 0;
		if (pid > 0 && pid != getpid() && kill(pid, 0) && errno == ESRCH) {
			if (tracefs_dynevent_destroy(all[i], true))
				failed++;
			else
				removed++;
			if (!strstr(pids, system) && len + strlen(system) + 3 < sizeof(pids))
				len += snprintf(pids + len, sizeof(pids) - len, "%s%s", len ? ", " : "",
						system);
		}
		free(system);
		free(event);
	}
	tracefs_dynevent_list_free(all);
	if (removed)
		err_msg("removed %d probes left by a tickstat that was killed (group %s)\n",
			removed, pids);
	if (failed)
		err_msg("warning: %d probes left by a killed tickstat cannot be removed\n", failed);
}
