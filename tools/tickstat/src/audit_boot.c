// SPDX-License-Identifier: GPL-2.0
/*
 * audit_boot.c - tickstat doctor's checks of what the kernel was built and
 * booted with: its config, the command line against what the kernel took
 * (/sys/devices/system/cpu), the housekeeping CPUs, RCU callback
 * offloading, the clock and cpuidle.
 */
#include <stdio.h>
#include <string.h>

#include "audit.h"

#define CPU_SYS "/sys/devices/system/cpu"

/* The config options that decide whether isolation can hold at all. */
void ts_audit_config(struct ts_audit *a)
{
	char v[64];
	struct ts_finding *f;

	if (!a->config) {
		f = ts_audit_add(a, "config-unread", NULL,
				 "neither /boot/config-%s nor /proc/config.gz could be read: the config checks were not made",
				 a->release);
		for (int i = 0; i < a->nr_unread; i++)
			if (!strncmp(a->unread[i].file, "/boot/config-", 13) ||
			    !strcmp(a->unread[i].file, "/proc/config.gz"))
				ts_finding_evidence(f, a->unread[i].file, a->unread[i].error);
		ts_finding_remedy(f, "build with CONFIG_IKCONFIG_PROC=y, or install the config as /boot/config-%s",
				  a->release);
		return;
	}
	if (!ts_config_enabled(a, "NO_HZ_FULL")) {
		f = ts_audit_add(a, "config-no-nohz-full", NULL,
				 "built without CONFIG_NO_HZ_FULL: no CPU stops its tick while a task runs; nohz_full= is ignored");
		ts_finding_evidence(f, a->config_file, "CONFIG_NO_HZ_FULL is not set");
		ts_finding_remedy(f, "a kernel built with CONFIG_NO_HZ_FULL=y");
	}
	if (!ts_config_enabled(a, "CPU_ISOLATION")) {
		f = ts_audit_add(a, "config-no-cpu-isolation", NULL,
				 "built without CONFIG_CPU_ISOLATION: isolcpus= and the housekeeping masks are ignored");
		ts_finding_evidence(f, a->config_file, "CONFIG_CPU_ISOLATION is not set");
		ts_finding_remedy(f, "a kernel built with CONFIG_CPU_ISOLATION=y");
	}
	if (!ts_config_enabled(a, "RCU_NOCB_CPU")) {
		f = ts_audit_add(a, "config-no-rcu-nocb", NULL,
				 "built without CONFIG_RCU_NOCB_CPU: rcu_nocbs= is ignored and RCU callbacks run on every CPU");
		ts_finding_evidence(f, a->config_file, "CONFIG_RCU_NOCB_CPU is not set");
		ts_finding_remedy(f, "a kernel built with CONFIG_RCU_NOCB_CPU=y");
	}
	/* the name before 6.0, and after */
	if (ts_config_enabled(a, "CONTEXT_TRACKING_FORCE") == 1 ||
	    ts_config_enabled(a, "CONTEXT_TRACKING_USER_FORCE") == 1) {
		int old = ts_config_enabled(a, "CONTEXT_TRACKING_FORCE") == 1;

		snprintf(v, sizeof(v), "CONFIG_CONTEXT_TRACKING%s_FORCE=y", old ? "" : "_USER");
		f = ts_audit_add(a, "config-context-tracking-force", NULL,
				 "context tracking runs on every CPU, as if all were nohz_full: a cost on each kernel entry, for testing");
		ts_finding_evidence(f, a->config_file, v);
		ts_finding_remedy(f, "a kernel built without %s", v);
	}
}

/*
 * isolcpus=[flag,...,]LIST: the flags before the list.  Returns 0 and the
 * list in cpus, with has_domain/has_nohz/has_managed set; -1 when malformed.
 */
static int parse_isolcpus(const char *val, struct ts_cpuset *cpus, int *domain, int *nohz,
			  int *managed)
{
	const char *p = val;
	int flags = 0;

	*domain = *nohz = *managed = 0;
	for (;;) {
		size_t w = strcspn(p, ",");

		if (!strncmp(p, "domain", w) && w == 6)
			*domain = 1;
		else if (!strncmp(p, "nohz", w) && w == 4)
			*nohz = 1;
		else if (!strncmp(p, "managed_irq", w) && w == 11)
			*managed = 1;
		else
			break;
		flags = 1;
		p += w;
		if (*p != ',')
			return -1;
		p++;
	}
	/* no flag at all means domain, as the kernel reads it */
	if (!flags)
		*domain = 1;
	return ts_cpuset_parse(cpus, p) ? -1 : 0;
}

static void cmdline_isolcpus(struct ts_audit *a)
{
	char val[512], sys[600], list[512], got[512], named[600];
	struct ts_cpuset asked, not_full;
	int domain, nohz, managed;
	struct ts_finding *f;

	if (!ts_cmdline_param(a, "isolcpus", val, sizeof(val)))
		return;
	snprintf(sys, sizeof(sys), "isolcpus=%s", val);
	if (parse_isolcpus(val, &asked, &domain, &nohz, &managed)) {
		f = ts_audit_add(a, "isolcpus-not-taken", NULL,
				 "isolcpus=%s is not [FLAGS,]LIST with the flags domain, nohz, managed_irq", val);
		ts_finding_evidence(f, "/proc/cmdline", sys);
		ts_finding_remedy(f, "isolcpus=managed_irq,domain,LIST on the command line");
		return;
	}
	ts_cpuset_format(&a->isolated, got, sizeof(got));
	if (domain && memcmp(&asked, &a->isolated, sizeof(asked))) {
		ts_cpuset_format(&asked, list, sizeof(list));
		f = ts_audit_add(a, "isolcpus-not-taken", &asked,
				 "isolcpus= asks for CPUs %s, the kernel isolated %s", list,
				 got[0] ? got : "none");
		ts_finding_evidence(f, "/proc/cmdline", sys);
		ts_finding_evidence(f, CPU_SYS "/isolated", got);
		ts_finding_remedy(f, "a CPU list of present CPUs, without the boot CPU, in isolcpus=");
	}
	memset(&not_full, 0, sizeof(not_full));
	for (int c = 0; c < TS_CPUSET_WORDS * 64; c++)
		if (ts_cpuset_has(&asked, c) && !ts_cpuset_has(&a->nohz_full, c))
			ts_cpuset_add(&not_full, c);
	if (!ts_cpuset_empty(&not_full)) {
		ts_cpuset_format(&not_full, list, sizeof(list));
		f = ts_audit_add(a, "isolcpus-tick", &not_full,
				 "%s in isolcpus= but not in nohz_full: their tick never stops while a task runs",
				 ts_cpus_named(&not_full, named, sizeof(named)));
		ts_finding_evidence(f, "/proc/cmdline", sys);
		ts_cpuset_format(&a->nohz_full, got, sizeof(got));
		ts_finding_evidence(f, CPU_SYS "/nohz_full", got[0] ? got : "(null)");
		ts_finding_remedy(f, "nohz_full=%s rcu_nocbs=%s on the command line", list, list);
	}
	if (!managed) {
		ts_cpuset_format(&asked, list, sizeof(list));
		f = ts_audit_add(a, "isolcpus-no-managed-irq", &asked,
				 "isolcpus= without managed_irq: the kernel may place managed (multiqueue) IRQs on %s",
				 ts_cpus_named(&asked, named, sizeof(named)));
		ts_finding_evidence(f, "/proc/cmdline", sys);
		ts_finding_remedy(f, "isolcpus=managed_irq,%s on the command line", val);
	}
}

/* The command line against what the kernel made of it. */
void ts_audit_cmdline(struct ts_audit *a)
{
	char val[512], got[512], list[512], ev[600];
	struct ts_cpuset asked;
	struct ts_finding *f;
	int have_sys;

	have_sys = !ts_audit_read_line(a, CPU_SYS "/nohz_full", got, sizeof(got),
				       TS_READ_OPTIONAL);
	if (ts_cmdline_param(a, "nohz", val, sizeof(val)) && !strcmp(val, "off")) {
		f = ts_audit_add(a, "nohz-off", NULL,
				 "nohz=off: the tick never stops, on any CPU, busy or idle");
		ts_finding_evidence(f, "/proc/cmdline", "nohz=off");
		ts_finding_remedy(f, "remove nohz=off from the command line");
	}
	if (ts_cmdline_param(a, "nohz_full", val, sizeof(val))) {
		snprintf(ev, sizeof(ev), "nohz_full=%s", val);
		if (ts_cpuset_parse(&asked, val))
			memset(&asked, 0, sizeof(asked));
		ts_cpuset_format(&asked, list, sizeof(list));
		if (!have_sys || memcmp(&asked, &a->nohz_full, sizeof(asked)) || !list[0]) {
			f = ts_audit_add(a, "nohz-full-not-taken", &asked,
					 "nohz_full=%s on the command line, but the kernel's nohz_full is %s",
					 val, have_sys ? got : "absent (no CONFIG_NO_HZ_FULL)");
			ts_finding_evidence(f, "/proc/cmdline", ev);
			ts_finding_evidence(f, CPU_SYS "/nohz_full",
					    have_sys ? got : "(no such file)");
			ts_finding_remedy(f, "a list of present CPUs without the boot CPU in nohz_full=, on a kernel with CONFIG_NO_HZ_FULL=y (dmesg says what it refused)");
		}
	}
	if (ts_cpuset_empty(&a->nohz_full)) {
		f = ts_audit_add(a, "nohz-full-none", NULL,
				 "no CPU is nohz_full: every CPU ticks while a task runs; the per-CPU checks have no CPU to look at");
		ts_finding_evidence(f, CPU_SYS "/nohz_full", have_sys ? got : "(no such file)");
		ts_finding_remedy(f, "nohz_full=LIST rcu_nocbs=LIST irqaffinity=HOUSEKEEPING on the command line");
	} else if (!ts_cmdline_param(a, "skew_tick", val, sizeof(val)) || strcmp(val, "1")) {
		f = ts_audit_add(a, "skew-tick", &a->housekeeping,
				 "skew_tick=1 is not given: the housekeeping CPUs tick at the same instant and contend for jiffies_lock");
		ts_finding_evidence(f, "/proc/cmdline", a->cmdline);
		ts_finding_remedy(f, "skew_tick=1 on the command line");
	}
	cmdline_isolcpus(a);
}

/* At least one online CPU outside nohz_full keeps the time and takes the rest. */
void ts_audit_housekeeping(struct ts_audit *a)
{
	char online[256], full[256];
	struct ts_finding *f;

	if (ts_cpuset_empty(&a->nohz_full) || !a->have_online ||
	    !ts_cpuset_empty(&a->housekeeping))
		return;
	ts_cpuset_format(&a->online, online, sizeof(online));
	ts_cpuset_format(&a->nohz_full, full, sizeof(full));
	f = ts_audit_add(a, "housekeeping-none", &a->online,
			 "every online CPU (%s) is nohz_full: no CPU is left to keep the time and run the housekeeping",
			 online);
	ts_finding_evidence(f, CPU_SYS "/online", online);
	ts_finding_evidence(f, CPU_SYS "/nohz_full", full);
	ts_finding_remedy(f, "leave a CPU out of nohz_full= (and isolcpus=), and keep it online");
}

/*
 * RCU callbacks: offloaded from a CPU in rcu_nocbs=, or in nohz_full= (the
 * kernel adds nohz_full to the nocb mask when built with RCU_NOCB_CPU, on
 * every kernel this project supports), or all with
 * CONFIG_RCU_NOCB_CPU_DEFAULT_ALL (6.0+).  The kernel does not show the
 * mask outside debugfs; this is what the command line and config imply.
 */
void ts_audit_rcu(struct ts_audit *a)
{
	struct ts_cpuset nocbs = { 0 }, missing = { 0 }, implied = { 0 };
	char val[512], list[512], ev[600], named[600];
	int have_nocbs, nocb_cpu, all;
	struct ts_finding *f;

	if (ts_cpuset_empty(&a->isol))
		return;
	have_nocbs = ts_cmdline_param(a, "rcu_nocbs", val, sizeof(val));
	/* "rcu_nocbs" alone (6.0+) means all CPUs, like a bad list does */
	all = ts_config_enabled(a, "RCU_NOCB_CPU_DEFAULT_ALL") == 1 ||
	      (have_nocbs && (!val[0] || ts_cpuset_parse(&nocbs, val)));
	nocb_cpu = ts_config_enabled(a, "RCU_NOCB_CPU") != 0;
	snprintf(ev, sizeof(ev), have_nocbs ? "rcu_nocbs=%s" : "no rcu_nocbs=", val);
	for (int c = 0; c < TS_CPUSET_WORDS * 64; c++) {
		if (!ts_cpuset_has(&a->isol, c))
			continue;
		if (!nocb_cpu || (!all && !ts_cpuset_has(&nocbs, c) &&
				  !ts_cpuset_has(&a->nohz_full, c)))
			ts_cpuset_add(&missing, c);
		else if (!all && !ts_cpuset_has(&nocbs, c))
			ts_cpuset_add(&implied, c);
	}
	if (!ts_cpuset_empty(&missing)) {
		ts_cpuset_format(&missing, list, sizeof(list));
		f = ts_audit_add(a, "rcu-not-offloaded", &missing,
				 nocb_cpu ? "RCU callbacks run on isolated %s: not in rcu_nocbs= or nohz_full="
					  : "RCU callbacks run on isolated %s: the kernel cannot offload them",
				 ts_cpus_named(&missing, named, sizeof(named)));
		ts_finding_evidence(f, "/proc/cmdline", ev);
		if (!nocb_cpu)
			ts_finding_evidence(f, a->config_file, "CONFIG_RCU_NOCB_CPU is not set");
		ts_finding_remedy(f, nocb_cpu ? "rcu_nocbs=%s on the command line"
				      : "a kernel with CONFIG_RCU_NOCB_CPU=y, and rcu_nocbs=%s", list);
	}
	if (!ts_cpuset_empty(&implied)) {
		ts_cpuset_format(&implied, list, sizeof(list));
		f = ts_audit_add(a, "rcu-offload-implied", &implied,
				 "RCU callbacks of %s are offloaded because nohz_full= implies it, not by rcu_nocbs=",
				 ts_cpus_named(&implied, named, sizeof(named)));
		ts_finding_evidence(f, "/proc/cmdline", ev);
		ts_finding_remedy(f, "rcu_nocbs=%s on the command line, to say so", list);
	}
}

/* the clocksources that are fast to read and per-CPU stable when they work */
static int good_clocksource(const char *cs)
{
	static const char * const good[] = { "tsc", "kvm-clock", "arch_sys_counter",
					     "hyperv_clocksource_tsc_page", "xen", "timebase",
					     "riscv_clocksource" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!strcmp(cs, good[i]))
			return 1;
	return 0;
}

/* /proc/cpuinfo's first "flags" line has flag as a word */
static int has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = flags; (p = strstr(p, flag)); p += n)
		if ((p == flags || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/*
 * The clock: an unstable TSC makes the kernel's sched_clock unstable, and
 * then the CLOCK_UNSTABLE dependency holds the tick on every nohz_full CPU.
 */
void ts_audit_clock(struct ts_audit *a)
{
	static char info[1 << 17];
	char cs[64], val[64], flags[4096];
	const char *fl;
	struct ts_finding *f;
	int reliable = 0;

	/* each tsc= applies (its handler runs per occurrence), each may hold a list */
	if (ts_cmdline_all(a, "tsc", val, sizeof(val))) {
		if (strstr(val, "unstable")) {
			f = ts_audit_add(a, "tsc-unstable-param", NULL,
					 "tsc=%s marks the TSC unstable: sched_clock is unstable and CLOCK_UNSTABLE holds the tick on every nohz_full CPU",
					 val);
			snprintf(flags, sizeof(flags), "tsc=%s", val);
			ts_finding_evidence(f, "/proc/cmdline", flags);
			ts_finding_remedy(f, "remove tsc=unstable from the command line");
		}
		if (strstr(val, "reliable")) {
			reliable = 1;
			f = ts_audit_add(a, "tsc-reliable", NULL,
					 "tsc=reliable: the clocksource watchdog does not check the TSC, so a TSC that drifts is not caught");
			snprintf(flags, sizeof(flags), "tsc=%s", val);
			ts_finding_evidence(f, "/proc/cmdline", flags);
			ts_finding_remedy(f, "keep it only where the TSC is known to be stable (constant_tsc, nonstop_tsc, one socket or synchronised)");
		}
	}
	if (!ts_audit_read_line(a, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
				cs, sizeof(cs), 0) && !good_clocksource(cs)) {
		f = ts_audit_add(a, "clocksource", NULL,
				 "the clocksource is %s: each time read is slow (a device access or a trap), and %s",
				 cs, !strcmp(cs, "jiffies") ? "it advances only with the tick"
							    : "usually means the TSC was found unstable");
		ts_finding_evidence(f, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
				    cs);
		ts_finding_remedy(f, "find why the TSC was not chosen (dmesg | grep -i tsc); clocksource=tsc only if it is stable");
	}
	if (ts_audit_read(a, "/proc/cpuinfo", info, sizeof(info), 0) < 0)
		return;
	fl = strstr(info, "\nflags");
	if (!fl)
		return;
	fl = strchr(fl, ':');
	if (!fl)
		return;
	snprintf(flags, sizeof(flags), "%.*s", (int)strcspn(fl + 1, "\n"), fl + 1);
	if (!has_flag(flags, "tsc"))
		return;
	a->x86 = 1;
	/*
	 * Without constant_tsc, and without tsc=reliable, the kernel finds
	 * the TSCs of a multi-CPU non-Intel machine unsynchronized
	 * (unsynchronized_tsc()) and marks the TSC unstable; without
	 * nonstop_tsc the TSC stops in deep idle.  tsc=reliable is the
	 * usual answer of a virtual machine whose vCPUs lack the flags.
	 */
	if (!reliable && (!has_flag(flags, "constant_tsc") || !has_flag(flags, "nonstop_tsc"))) {
		f = ts_audit_add(a, "tsc-flags", NULL,
				 "the CPU lacks %s: the kernel may find the TSC unstable (frequency changes, stops in deep idle), and CLOCK_UNSTABLE then holds the tick",
				 !has_flag(flags, "constant_tsc") ?
				 (!has_flag(flags, "nonstop_tsc") ? "constant_tsc and nonstop_tsc"
								  : "constant_tsc")
				 : "nonstop_tsc");
		ts_finding_evidence(f, "/proc/cpuinfo", "flags without constant_tsc/nonstop_tsc");
		ts_finding_remedy(f, "a CPU (or virtual CPU model) with an invariant TSC; tsc=reliable where the TSC is known to be synchronised; a recording's CLOCK_UNSTABLE reason shows whether it matters");
	}
}

/* cpuidle: what the idle loop does on an idle isolated CPU */
void ts_audit_cpuidle(struct ts_audit *a)
{
	char val[64], drv[64], gov[64], ev[200];
	const char *gfile;
	struct ts_finding *f;

	if (ts_cmdline_param(a, "idle", val, sizeof(val)) && !strcmp(val, "poll")) {
		f = ts_audit_add(a, "idle-poll", NULL,
				 "idle=poll: idle CPUs spin instead of sleeping, and the idle loop restarts the tick before polling (IDLE_TICK restarts)");
		ts_finding_evidence(f, "/proc/cmdline", "idle=poll");
		ts_finding_remedy(f, "remove idle=poll; limit exit latency with cpuidle states or the PM QoS interface (/dev/cpu_dma_latency) instead");
	}
	if (ts_audit_read_line(a, CPU_SYS "/cpuidle/current_driver", drv, sizeof(drv), 0))
		return;
	/* current_governor_ro is read-only; current_governor exists with cpuidle_sysfs_switch (and from 5.x always) */
	gfile = CPU_SYS "/cpuidle/current_governor_ro";
	if (ts_audit_read_line(a, gfile, gov, sizeof(gov), TS_READ_OPTIONAL)) {
		gfile = CPU_SYS "/cpuidle/current_governor";
		if (ts_audit_read_line(a, gfile, gov, sizeof(gov), 0))
			snprintf(gov, sizeof(gov), "unknown");
	}
	if (!strcmp(drv, "none"))
		f = ts_audit_add(a, "cpuidle", NULL,
				 "no cpuidle driver (governor %s unused): idle CPUs halt, and the idle loop stops the tick after one tick in idle (IDLE_LOOP)",
				 gov);
	else
		f = ts_audit_add(a, "cpuidle", NULL,
				 "cpuidle driver %s, governor %s: the governor keeps the tick for idle periods it expects to be short (IDLE_LOOP)",
				 drv, gov);
	ts_finding_evidence(f, CPU_SYS "/cpuidle/current_driver", drv);
	snprintf(ev, sizeof(ev), "%s", gov);
	ts_finding_evidence(f, gfile, ev);
	ts_finding_remedy(f, "nothing to change; with the haltpoll governor, idle CPUs poll first (guest_halt_poll_ns)");
}
