// SPDX-License-Identifier: GPL-2.0
/*
 * audit_noise.c - tickstat doctor's checks of what may run on the isolated
 * CPUs and so interrupt them: device IRQs, unbound workqueues, kernel
 * threads, tasks with a CPU quota, the sysctls that queue work or timers
 * there, and 6.12's fair server.
 *
 * Each check looks only at the isolated CPUs (nohz_full and isolcpus'
 * domain CPUs, audit.h): with none, there is nothing to disturb.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "cgroup.h"

#define PF_KTHREAD	0x00200000	/* include/linux/sched.h, the same since 2.6 */

static int intersect(const struct ts_cpuset *a, const struct ts_cpuset *b,
		     struct ts_cpuset *out)
{
	for (int i = 0; i < TS_CPUSET_WORDS; i++)
		out->bits[i] = a->bits[i] & b->bits[i];
	return !ts_cpuset_empty(out);
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* the CPU columns of /proc/interrupts and one IRQ's line */
struct irq_line {
	char names[64];
	char counts[128];	/* "CPU1 125, CPU2 3": the counts on isolated CPUs */
};

/*
 * The action names of IRQ irq in /proc/interrupts ("ttyS0", or
 * "virtio0-config, virtio0-input"): the last fields, after the chip and
 * its hardware IRQ, which vary by architecture; and the counts on the
 * isolated CPUs, which say whether it fired there already.
 */
static void irq_line(const struct ts_audit *a, const char *text, int irq, struct irq_line *l)
{
	int cpus[TS_CPUSET_WORDS * 64], ncpu = 0;
	const char *p = text, *line;
	char want[16];

	memset(l, 0, sizeof(*l));
	/* the header: "           CPU0       CPU1" */
	while (*p && *p != '\n') {
		p += strspn(p, " ");
		if (!strncmp(p, "CPU", 3) && ncpu < TS_CPUSET_WORDS * 64)
			cpus[ncpu++] = atoi(p + 3);
		p += strcspn(p, " \n");
	}
	snprintf(want, sizeof(want), "%d:", irq);
	for (line = p; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *q = line + strspn(line, " "), *end, *tok[32];
		int ntok = 0, first;
		size_t used = 0;

		if (strncmp(q, want, strlen(want)))
			continue;
		q += strlen(want);
		for (int c = 0; c < ncpu; c++) {
			unsigned long n = strtoul(q, (char **)&q, 10);

			if (n && ts_cpuset_has(&a->isol, cpus[c]))
				used += snprintf(l->counts + used,
						 used < sizeof(l->counts) ? sizeof(l->counts) - used : 0,
						 "%sCPU%d %lu", used ? ", " : "", cpus[c], n);
		}
		end = q + strcspn(q, "\n");
		while (q < end && ntok < 32) {
			q += strspn(q, " \t");
			if (q >= end)
				break;
			tok[ntok++] = q;
			q += strcspn(q, " \t\n");
		}
		/* the actions: the last token and those before it that end in ',' */
		first = ntok - 1;
		while (first > 0 && tok[first - 1][strcspn(tok[first - 1], " \t\n") - 1] == ',')
			first--;
		if (ntok)
			snprintf(l->names, sizeof(l->names), "%.*s", (int)(end - tok[first]),
				 tok[first]);
		return;
	}
}

static int cmp_int(const void *x, const void *y)
{
	return *(const int *)x - *(const int *)y;
}

/* the numbered directories of dir (IRQs, pids), sorted; NULL when unreadable */
static int *numbered(struct ts_audit *a, const char *dir, int *n, int flags)
{
	char path[512];
	struct dirent *d;
	int *v = NULL, nr = 0, cap = 0;
	DIR *dp;

	*n = 0;
	dp = opendir(ts_audit_path(a, dir, path, sizeof(path)));
	if (!dp) {
		if (!(flags & TS_READ_OPTIONAL))
			ts_audit_unreadable(a, dir, errno);
		return NULL;
	}
	while ((d = readdir(dp))) {
		if (!all_digits(d->d_name))
			continue;
		if (nr == cap) {
			int *more = realloc(v, (cap = cap ? cap * 2 : 256) * sizeof(*v));

			if (!more) {
				a->oom = 1;
				break;
			}
			v = more;
		}
		v[nr++] = atoi(d->d_name);
	}
	closedir(dp);
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_int);
	*n = nr;
	return v ? v : calloc(1, sizeof(*v));
}

static void irq_default(struct ts_audit *a)
{
	struct ts_cpuset def, on;
	char raw[256], list[256];
	struct ts_finding *f;

	if (ts_audit_read_mask(a, "/proc/irq/default_smp_affinity", &def, raw, sizeof(raw), 0) ||
	    !intersect(&def, &a->isol, &on))
		return;
	ts_cpuset_format(&a->housekeeping, list, sizeof(list));
	f = ts_audit_add(a, "irq-default-affinity", &on,
			 "the default affinity of new IRQs includes isolated CPUs: a device set up later may interrupt them");
	ts_finding_evidence(f, "/proc/irq/default_smp_affinity", raw);
	ts_finding_remedy(f, "irqaffinity=%s on the command line", list[0] ? list : "HOUSEKEEPING");
}

/*
 * Each IRQ whose effective affinity includes an isolated CPU.  x86 moves
 * the effective affinity lazily (at the IRQ's next interrupt after
 * smp_affinity is written), so both are read: an IRQ already steered away
 * in smp_affinity_list still fires on the old CPU once.
 */
void ts_audit_irqs(struct ts_audit *a)
{
	static char interrupts[1 << 22];	/* 4 MiB: a line per IRQ, a column per CPU */
	struct ts_cpuset may = { 0 };
	char hk[256], maylist[256], moved[512];
	int *irqs, n, have_int, nmoved = 0;
	size_t mused = 0;

	if (ts_cpuset_empty(&a->isol))
		return;
	irq_default(a);
	irqs = numbered(a, "/proc/irq", &n, 0);
	if (!irqs)
		return;
	have_int = ts_audit_read(a, "/proc/interrupts", interrupts, sizeof(interrupts), 0) >= 0;
	ts_cpuset_format(&a->housekeeping, hk, sizeof(hk));
	moved[0] = '\0';
	for (int i = 0; i < n; i++) {
		char file[96], efile[96], eraw[256], sraw[256], cpus[256], ev[200];
		struct ts_cpuset eff, aff, on, aon;
		struct irq_line l = { 0 };
		int have_eff, have_aff;
		struct ts_finding *f;

		snprintf(efile, sizeof(efile), "/proc/irq/%d/effective_affinity_list", irqs[i]);
		snprintf(file, sizeof(file), "/proc/irq/%d/smp_affinity_list", irqs[i]);
		/* effective_affinity_list is 4.13+ and only where the chip has one */
		have_eff = !ts_audit_read_cpus(a, efile, &eff, eraw, sizeof(eraw),
					       TS_READ_OPTIONAL);
		have_aff = !ts_audit_read_cpus(a, file, &aff, sraw, sizeof(sraw), 0);
		if (!have_eff && !have_aff)
			continue;
		if (!have_eff)
			eff = aff;
		if (have_int)
			irq_line(a, interrupts, irqs[i], &l);
		if (intersect(&eff, &a->isol, &on)) {
			f = ts_audit_add(a, "irq-on-isolated", &on, "IRQ %d%s%s%s is delivered to CPU%s %s%s",
					 irqs[i], l.names[0] ? " (" : "", l.names,
					 l.names[0] ? ")" : "",
					 ts_cpuset_count(&on) > 1 ? "s" : "",
					 ts_cpus_text(&on, cpus, sizeof(cpus)),
					 have_aff && !intersect(&aff, &a->isol, &aon) ?
					 "; smp_affinity_list excludes them already, the effective affinity follows at its next interrupt" : "");
			if (have_eff)
				ts_finding_evidence(f, efile, eraw);
			if (have_aff)
				ts_finding_evidence(f, file, sraw);
			if (l.counts[0]) {
				snprintf(ev, sizeof(ev), "%d: %s", irqs[i], l.counts);
				ts_finding_evidence(f, "/proc/interrupts", ev);
			}
			f->key.irq = irqs[i];
			snprintf(f->key.name, sizeof(f->key.name), "%s", l.names);
			ts_finding_remedy(f, "echo %s > %s (a managed IRQ refuses: isolcpus=managed_irq,...); irqaffinity=%s on the command line for the next boot",
					  hk[0] ? hk : "HOUSEKEEPING", file, hk[0] ? hk : "HOUSEKEEPING");
		} else if (have_aff && intersect(&aff, &a->isol, &aon)) {
			/* allowed there, delivered elsewhere now: one note for all */
			for (int c = 0; c < TS_CPUSET_WORDS * 64; c++)
				if (ts_cpuset_has(&aon, c))
					ts_cpuset_add(&may, c);
			if (nmoved++ < 16)
				mused += snprintf(moved + mused,
						  mused < sizeof(moved) ? sizeof(moved) - mused : 0,
						  "%s%d", mused ? " " : "", irqs[i]);
		}
	}
	if (nmoved) {
		struct ts_finding *f;

		ts_cpuset_format(&may, maylist, sizeof(maylist));
		f = ts_audit_add(a, "irq-may-move", &may,
				 "%d IRQ%s (%s%s) may move to isolated CPUs: their smp_affinity_list allows them, though each is delivered elsewhere now",
				 nmoved, nmoved > 1 ? "s" : "", moved, nmoved > 16 ? " ..." : "");
		ts_finding_evidence(f, "/proc/irq/N/smp_affinity_list", maylist);
		ts_finding_remedy(f, "echo %s > /proc/irq/N/smp_affinity_list for each; irqaffinity=%s on the command line",
				  hk[0] ? hk : "HOUSEKEEPING", hk[0] ? hk : "HOUSEKEEPING");
	}
	free(irqs);
}

/* The unbound workqueues' cpumask: their work runs on any CPU in it. */
void ts_audit_workqueues(struct ts_audit *a)
{
	const char *file = "/sys/devices/virtual/workqueue/cpumask";
	struct ts_cpuset mask, on;
	char raw[256], list[256];
	struct ts_finding *f;
	uint64_t hk = 0;

	if (ts_cpuset_empty(&a->isol) ||
	    ts_audit_read_mask(a, file, &mask, raw, sizeof(raw), 0) ||
	    !intersect(&mask, &a->isol, &on))
		return;
	f = ts_audit_add(a, "workqueue-cpumask", &on,
			 "unbound workqueues may run their work on isolated %s",
			 ts_cpus_named(&on, list, sizeof(list)));
	ts_finding_evidence(f, file, raw);
	hk = a->housekeeping.bits[0];
	if (hk && ts_cpuset_max(&a->housekeeping) < 64)
		ts_finding_remedy(f, "echo %llx > %s (the housekeeping CPUs), from a boot script",
				  (unsigned long long)hk, file);
	else
		ts_finding_remedy(f, "write the housekeeping CPUs' mask to %s, from a boot script", file);
}

/* one task: what /proc says of it */
struct task {
	int pid;
	char comm[64];
	unsigned long flags;
	struct ts_cpuset allowed;
	char allowed_raw[256];
};

/* /proc/PID[/task/TID]/stat and status; -1 when gone or unreadable */
static int read_task(struct ts_audit *a, const char *dir, int pid, struct task *t)
{
	char file[160], buf[4096], *p, *close;
	int field;

	memset(t, 0, sizeof(*t));
	t->pid = pid;
	snprintf(file, sizeof(file), "%s/stat", dir);
	/* a task can exit between readdir and here: not worth a line */
	if (ts_audit_read(a, file, buf, sizeof(buf), TS_READ_OPTIONAL) < 0)
		return -1;
	/* comm can hold ')' and spaces: it ends at the last ')' */
	p = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!p || !close || close < p)
		return -1;
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(close - p - 1), p + 1);
	/* state is field 3, flags field 9 */
	p = close + 1;
	for (field = 3; field < 9 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -1;
	t->flags = strtoul(p + 1, NULL, 10);
	snprintf(file, sizeof(file), "%s/status", dir);
	if (ts_audit_read(a, file, buf, sizeof(buf), TS_READ_OPTIONAL) < 0)
		return -1;
	p = strstr(buf, "\nCpus_allowed_list:");
	if (!p)
		return -1;
	p += strlen("\nCpus_allowed_list:");
	p += strspn(p, " \t");
	snprintf(t->allowed_raw, sizeof(t->allowed_raw), "%.*s", (int)strcspn(p, "\n"), p);
	return ts_cpuset_parse(&t->allowed, t->allowed_raw);
}

/* the kernel threads of one finding each, and the per-CPU ones summed */
struct kthreads {
	struct ts_cpuset per_cpu;
	int nr_per_cpu;
	char names[200];
	size_t used;
};

static void kthread_seen(struct ts_audit *a, const char *dir, const struct task *t,
			 const struct ts_cpuset *on, struct kthreads *k)
{
	char file[160], list[256];
	struct ts_finding *f;

	/* bound to one CPU: per-CPU work (ksoftirqd, migration, kworker/N) */
	if (ts_cpuset_count(&t->allowed) == 1) {
		ts_cpuset_add(&k->per_cpu, ts_cpuset_max(&t->allowed));
		if (k->nr_per_cpu++ < 6)
			k->used += snprintf(k->names + k->used,
					    k->used < sizeof(k->names) ? sizeof(k->names) - k->used : 0,
					    "%s%s", k->used ? " " : "", t->comm);
		return;
	}
	ts_cpuset_format(&a->housekeeping, list, sizeof(list));
	f = ts_audit_add(a, "kthread-on-isolated", on,
			 "kernel thread %d (%s) may run on isolated CPUs: it is allowed on %s",
			 t->pid, t->comm, t->allowed_raw);
	snprintf(file, sizeof(file), "%s/status", dir);
	ts_finding_evidence(f, file, t->allowed_raw);
	f->key.pid = t->pid;
	snprintf(f->key.name, sizeof(f->key.name), "%s", t->comm);
	ts_finding_remedy(f, "taskset -pc %s %d; on 6.x also kthread affinity via isolcpus=domain or nohz_full (kthreadd follows the housekeeping CPUs)",
			  list[0] ? list : "HOUSEKEEPING", t->pid);
}

/* A cgroup with a quota and the tasks in it on isolated CPUs. */
struct quota {
	struct ts_cpu_max max;	/* the cgroup, its cpu.max and the value (cgroup.c) */
	struct ts_cpuset cpus;
	int nr_tasks;
	int pid;
	char comm[64];
};

#define MAX_QUOTAS	32

/* cgroup.c's reader through the audit's: under its root, optional files */
static int audit_read_fn(void *ctx, const char *file, char *buf, size_t len)
{
	return ts_audit_read(ctx, file, buf, len, TS_READ_OPTIONAL);
}

/*
 * The nearest cpu.max on the task's cgroup or above that is not "max"
 * (cgroup.c, the recorder's reader too).  Returns 1 and fills q, 0 when
 * unlimited or unknown.
 */
static int task_quota(struct ts_audit *a, const char *dir, struct quota *q)
{
	char file[200];

	snprintf(file, sizeof(file), "%s/cgroup", dir);
	return ts_cgroup_find_cpu_max(file, audit_read_fn, a, &q->max) == 1;
}

static void quota_seen(struct quota *qs, int *nq, const struct quota *q, const struct task *t,
		       const struct ts_cpuset *on)
{
	int i;

	for (i = 0; i < *nq; i++)
		if (!strcmp(qs[i].max.cgroup, q->max.cgroup))
			break;
	if (i == *nq) {
		if (*nq == MAX_QUOTAS)
			return;
		qs[(*nq)++] = *q;
		qs[i].pid = t->pid;
		snprintf(qs[i].comm, sizeof(qs[i].comm), "%s", t->comm);
	}
	for (int c = 0; c < TS_CPUSET_WORDS * 64; c++)
		if (ts_cpuset_has(on, c))
			ts_cpuset_add(&qs[i].cpus, c);
	qs[i].nr_tasks++;
}

static void quota_findings(struct ts_audit *a, struct quota *qs, int nq)
{
	for (int i = 0; i < nq; i++) {
		struct ts_finding *f;
		char cpus[256];

		f = ts_audit_add(a, "cgroup-cpu-quota", &qs[i].cpus,
				 "%d task%s allowed on isolated %s (first: %d %s) %s in cgroup %s, whose cpu.max is %s: the CFS bandwidth timer keeps the tick while they run",
				 qs[i].nr_tasks, qs[i].nr_tasks > 1 ? "s" : "",
				 ts_cpus_named(&qs[i].cpus, cpus, sizeof(cpus)), qs[i].pid,
				 qs[i].comm, qs[i].nr_tasks > 1 ? "are" : "is", qs[i].max.cgroup,
				 qs[i].max.value);
		ts_finding_evidence(f, qs[i].max.file, qs[i].max.value);
		f->key.pid = qs[i].pid;
		snprintf(f->key.name, sizeof(f->key.name), "%s", qs[i].comm);
		snprintf(f->key.cgroup, sizeof(f->key.cgroup), "%.*s",
			 (int)sizeof(f->key.cgroup) - 1, qs[i].max.cgroup);
		ts_finding_remedy(f, "echo max > %s (or systemctl set-property UNIT CPUQuota=), or run the isolated tasks in a cgroup without a quota",
				  qs[i].max.file);
	}
}

/* one task (a thread of a process, or a process without /task) */
static void task_audit(struct ts_audit *a, const char *dir, int pid, int quotas,
		       struct kthreads *k, struct quota *qs, int *nq)
{
	struct ts_cpuset on;
	struct task t;
	struct quota q;

	if (read_task(a, dir, pid, &t) || !intersect(&t.allowed, &a->isol, &on))
		return;
	if (t.flags & PF_KTHREAD) {
		kthread_seen(a, dir, &t, &on, k);
		return;
	}
	memset(&q, 0, sizeof(q));
	if (quotas && task_quota(a, dir, &q))
		quota_seen(qs, nq, &q, &t, &on);
}

/*
 * Every task allowed on an isolated CPU: kernel threads (PF_KTHREAD in
 * /proc/PID/stat's flags) and, on 6.6+ where a CFS quota keeps the tick
 * (sched_can_stop_tick()), tasks whose cgroup has one.  Threads of a
 * process are read one by one: an application's main thread often stays
 * on a housekeeping CPU while its workers run isolated.
 */
void ts_audit_tasks(struct ts_audit *a)
{
	static struct quota qs[MAX_QUOTAS];
	struct kthreads k = { 0 };
	int *pids, n, nq = 0, quotas;

	if (ts_cpuset_empty(&a->isol))
		return;
	quotas = ts_audit_applies(a, "cgroup-cpu-quota");
	pids = numbered(a, "/proc", &n, 0);
	if (!pids)
		return;
	for (int i = 0; i < n; i++) {
		char dir[64], tdir[64];
		int *tids, nt;

		snprintf(dir, sizeof(dir), "/proc/%d/task", pids[i]);
		tids = numbered(a, dir, &nt, TS_READ_OPTIONAL);
		if (!tids || !nt) {
			snprintf(dir, sizeof(dir), "/proc/%d", pids[i]);
			task_audit(a, dir, pids[i], quotas, &k, qs, &nq);
		}
		for (int j = 0; tids && j < nt; j++) {
			snprintf(tdir, sizeof(tdir), "/proc/%d/task/%d", pids[i], tids[j]);
			task_audit(a, tdir, tids[j], quotas, &k, qs, &nq);
		}
		free(tids);
	}
	free(pids);
	if (k.nr_per_cpu) {
		char list[256];
		struct ts_finding *f;

		f = ts_audit_add(a, "kthread-per-cpu", &k.per_cpu,
				 "%d per-CPU kernel thread%s bound to isolated %s (%s%s): expected, they run only when work is queued there",
				 k.nr_per_cpu, k.nr_per_cpu > 1 ? "s are" : " is",
				 ts_cpus_named(&k.per_cpu, list, sizeof(list)), k.names, k.nr_per_cpu > 6 ? " ..." : "");
		ts_finding_evidence(f, "/proc/PID/status", "Cpus_allowed_list: one CPU");
		ts_finding_remedy(f, "nothing; a recording names the ones that ran (co-runners)");
	}
	quota_findings(a, qs, nq);
}

/* one sysctl: its file and value, as evidence */
static int sysctl(struct ts_audit *a, const char *name, long *val, char *raw, size_t len)
{
	char file[96];

	snprintf(file, sizeof(file), "/proc/sys/%s", name);
	for (char *p = file + 10; *p; p++)
		if (*p == '.')
			*p = '/';
	return ts_audit_read_long(a, file, val, raw, len);
}

static void sysctl_finding(struct ts_audit *a, const char *id, const char *name,
			   const char *raw, const char *remedy, const char *fmt, const char *arg)
{
	char file[96];
	struct ts_finding *f;

	snprintf(file, sizeof(file), "/proc/sys/%s", name);
	for (char *p = file + 10; *p; p++)
		if (*p == '.')
			*p = '/';
	f = ts_audit_add(a, id, &a->isol, fmt, arg);
	ts_finding_evidence(f, file, raw);
	ts_finding_remedy(f, "%s", remedy);
}

static void lockup_watchdog(struct ts_audit *a)
{
	struct ts_cpuset mask, on;
	char raw[64], mraw[256], list[256], nraw[64];
	struct ts_finding *f;
	long soft = 0, nmi = 0;
	int have_soft, have_nmi;

	have_soft = !sysctl(a, "kernel.watchdog", &soft, raw, sizeof(raw));
	have_nmi = !sysctl(a, "kernel.nmi_watchdog", &nmi, nraw, sizeof(nraw));
	if ((!have_soft || !soft) && (!have_nmi || !nmi))
		return;
	if (ts_audit_read_cpus(a, "/proc/sys/kernel/watchdog_cpumask", &mask, mraw, sizeof(mraw), 0) ||
	    !intersect(&mask, &a->isol, &on))
		return;
	ts_cpuset_format(&a->housekeeping, list, sizeof(list));
	f = ts_audit_add(a, "watchdog-on-isolated", &on,
			 "the lockup watchdog runs on isolated CPUs: its hrtimer fires every few seconds (and the NMI one takes a perf counter)");
	if (have_soft)
		ts_finding_evidence(f, "/proc/sys/kernel/watchdog", raw);
	if (have_nmi)
		ts_finding_evidence(f, "/proc/sys/kernel/nmi_watchdog", nraw);
	ts_finding_evidence(f, "/proc/sys/kernel/watchdog_cpumask", mraw);
	ts_finding_remedy(f, "sysctl kernel.watchdog_cpumask=%s (nohz_full= sets it so at boot), or kernel.watchdog=0",
			  list[0] ? list : "HOUSEKEEPING");
}

/* The sysctls that put timers or work on every CPU. */
void ts_audit_sysctls(struct ts_audit *a)
{
	char raw[64];
	long v;

	if (ts_cpuset_empty(&a->isol))
		return;
	if (ts_audit_applies(a, "timer-migration") &&
	    !sysctl(a, "kernel.timer_migration", &v, raw, sizeof(raw)) && v)
		sysctl_finding(a, "timer-migration", "kernel.timer_migration", raw,
			       "sysctl kernel.timer_migration=0",
			       "kernel.timer_migration is %s: the timer migration hierarchy (6.9+) may pick an isolated CPU to expire other CPUs' timers",
			       raw);
	if (!sysctl(a, "vm.stat_interval", &v, raw, sizeof(raw)) && v <= 1)
		sysctl_finding(a, "vm-stat-interval", "vm.stat_interval", raw,
			       "sysctl vm.stat_interval=10",
			       "vm.stat_interval is %s s: vmstat_update work is queued each second on CPUs whose counters changed",
			       raw);
	lockup_watchdog(a);
	if (ts_audit_applies(a, "rt-throttling") &&
	    !sysctl(a, "kernel.sched_rt_runtime_us", &v, raw, sizeof(raw)) && v >= 0)
		sysctl_finding(a, "rt-throttling", "kernel.sched_rt_runtime_us", raw,
			       "sysctl kernel.sched_rt_runtime_us=-1, if the isolated CPUs run RT tasks that never sleep",
			       "kernel.sched_rt_runtime_us is %s: an RT task that never sleeps is throttled, and other tasks run on its CPU, each second",
			       raw);
}

/*
 * 6.12+: the fair server (a deadline server for CFS tasks) takes runtime
 * from an RT task on each CPU where it has some; debugfs only, root only.
 */
void ts_audit_fair_server(struct ts_audit *a)
{
	struct ts_cpuset with = { 0 };
	char first_file[96] = "", first_raw[64] = "", list[256];
	struct ts_finding *f;

	if (ts_cpuset_empty(&a->isol) || !ts_audit_applies(a, "fair-server"))
		return;
	for (int c = 0; c <= ts_cpuset_max(&a->isol); c++) {
		char file[96], raw[64];
		long v;

		if (!ts_cpuset_has(&a->isol, c))
			continue;
		snprintf(file, sizeof(file), "/sys/kernel/debug/sched/fair_server/cpu%d/runtime", c);
		if (ts_audit_read_long(a, file, &v, raw, sizeof(raw)) || v <= 0)
			continue;
		ts_cpuset_add(&with, c);
		if (!first_file[0]) {
			snprintf(first_file, sizeof(first_file), "%s", file);
			snprintf(first_raw, sizeof(first_raw), "%s", raw);
		}
	}
	if (ts_cpuset_empty(&with))
		return;
	f = ts_audit_add(a, "fair-server", &with,
			 "the fair server has %s ns of runtime on isolated %s: an RT task there yields to CFS tasks, and the server's timer fires",
			 first_raw, ts_cpus_named(&with, list, sizeof(list)));
	ts_finding_evidence(f, first_file, first_raw);
	ts_finding_remedy(f, "echo 0 > /sys/kernel/debug/sched/fair_server/cpuN/runtime for each isolated CPU, if they run RT tasks alone");
}
