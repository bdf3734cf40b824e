// SPDX-License-Identifier: GPL-2.0
/*
 * audit.c - tickstat doctor's audit: the finding kinds, reading under the
 * root prefix, the command line and kernel config, and the order of the
 * checks.  The checks themselves are in audit_boot.c (what the kernel was
 * built and booted with) and audit_noise.c (what may run on the isolated
 * CPUs).
 *
 * Every read goes through ts_audit_path(), so that the whole audit runs on
 * a captured /proc and /sys tree as it does on the host.  A file that
 * cannot be read is listed (unread), never a finding by itself: an
 * ordinary user cannot read debugfs or every task's status, and a kernel
 * without a feature has no file for it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "audit.h"

#define K(id, cls, sev, lo, hi, kernels, title) \
	{ id, cls, TS_SEV_##sev, lo, hi, kernels, title }

/* The order of this table is the order of the output within a severity. */
static const struct ts_finding_kind kinds[] = {
	K("config-no-nohz-full", "config", ERROR, 0, 0, "all",
	  "the kernel is built without CONFIG_NO_HZ_FULL"),
	K("config-no-cpu-isolation", "config", ERROR, 0, 0, "all",
	  "the kernel is built without CONFIG_CPU_ISOLATION"),
	K("config-no-rcu-nocb", "config", WARNING, 0, 0, "all",
	  "the kernel is built without CONFIG_RCU_NOCB_CPU"),
	K("config-context-tracking-force", "config", INFO, 0, 0, "all",
	  "context tracking is forced on every CPU"),
	K("config-unread", "config", INFO, 0, 0, "all",
	  "the kernel config could not be read"),
	K("nohz-full-none", "cmdline", WARNING, 0, 0, "all",
	  "no CPU is nohz_full"),
	K("nohz-full-not-taken", "cmdline", ERROR, 0, 0, "all",
	  "the kernel did not take nohz_full= as given"),
	K("nohz-off", "cmdline", ERROR, 0, 0, "all",
	  "nohz=off: no CPU stops its tick"),
	K("isolcpus-not-taken", "cmdline", ERROR, 0, 0, "all",
	  "the kernel did not take isolcpus= as given"),
	K("isolcpus-tick", "cmdline", WARNING, 0, 0, "all",
	  "isolated CPUs that are not nohz_full keep their tick"),
	K("isolcpus-no-managed-irq", "cmdline", INFO, 0, 0, "all",
	  "isolcpus= without managed_irq"),
	K("skew-tick", "cmdline", INFO, 0, 0, "all",
	  "the housekeeping CPUs' ticks are not skewed"),
	K("housekeeping-none", "housekeeping", ERROR, 0, 0, "all",
	  "no online housekeeping CPU"),
	K("rcu-not-offloaded", "rcu", WARNING, 0, 0, "all",
	  "RCU callbacks are not offloaded from isolated CPUs"),
	K("rcu-offload-implied", "rcu", INFO, 0, 0, "all",
	  "RCU callbacks are offloaded by nohz_full= alone"),
	K("irq-on-isolated", "irq", WARNING, 0, 0, "all",
	  "an IRQ is delivered to isolated CPUs"),
	K("irq-default-affinity", "irq", WARNING, 0, 0, "all",
	  "new IRQs may go to isolated CPUs"),
	K("irq-may-move", "irq", INFO, 0, 0, "all",
	  "an IRQ's affinity allows isolated CPUs"),
	K("workqueue-cpumask", "workqueue", WARNING, 0, 0, "all",
	  "unbound workqueues may run on isolated CPUs"),
	K("kthread-on-isolated", "kthread", WARNING, 0, 0, "all",
	  "a kernel thread not bound to one CPU may run on isolated CPUs"),
	K("kthread-per-cpu", "kthread", INFO, 0, 0, "all",
	  "per-CPU kernel threads on isolated CPUs (expected)"),
	K("cgroup-cpu-quota", "cgroup", WARNING, KVER(6, 6, 0), 0, "6.6+",
	  "a task allowed on isolated CPUs has a CPU quota (cpu.max)"),
	K("timer-migration", "sysctl", WARNING, KVER(6, 9, 0), 0, "6.9+",
	  "kernel.timer_migration is on"),
	K("vm-stat-interval", "sysctl", WARNING, 0, 0, "all",
	  "vm.stat_interval is 1 s"),
	K("watchdog-on-isolated", "sysctl", WARNING, 0, 0, "all",
	  "the lockup watchdog runs on isolated CPUs"),
	K("rt-throttling", "sysctl", INFO, 0, KVER(6, 12, 0), "before 6.12",
	  "RT throttling is on"),
	K("fair-server", "sysctl", WARNING, KVER(6, 12, 0), 0, "6.12+",
	  "the fair server has runtime on isolated CPUs"),
	K("tsc-unstable-param", "clock", ERROR, 0, 0, "all",
	  "tsc=unstable on the command line"),
	K("clocksource", "clock", WARNING, 0, 0, "all",
	  "the clocksource is slow or not per-CPU"),
	K("tsc-flags", "clock", WARNING, 0, 0, "all",
	  "the TSC lacks constant_tsc or nonstop_tsc"),
	K("tsc-reliable", "clock", INFO, 0, 0, "all",
	  "tsc=reliable: the clocksource watchdog does not check the TSC"),
	K("idle-poll", "cpuidle", WARNING, 0, 0, "all",
	  "idle=poll"),
	K("cpuidle", "cpuidle", INFO, 0, 0, "all",
	  "the cpuidle driver and governor"),
};

/* ts_finding_kinds - the table, for the outputs (JUnit lists every id) */
int ts_finding_kinds(const struct ts_finding_kind **out)
{
	*out = kinds;
	return (int)(sizeof(kinds) / sizeof(kinds[0]));
}

const struct ts_finding_kind *ts_finding_kind(const char *id)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].id, id))
			return &kinds[i];
	return NULL;
}

static const char * const severity_names[] = { "info", "warning", "error" };

const char *ts_severity_name(enum ts_severity s)
{
	return severity_names[s];
}

/* ts_severity_parse - "error", "warning", "info"; -1 otherwise */
int ts_severity_parse(const char *s)
{
	for (int i = TS_SEV_INFO; i <= TS_SEV_ERROR; i++)
		if (!strcmp(s, severity_names[i]))
			return i;
	return -1;
}

/* ts_cpus_text - a CPU list, or "-" for a finding about the whole host */
const char *ts_cpus_text(const struct ts_cpuset *set, char *buf, size_t len)
{
	ts_cpuset_format(set, buf, len);
	if (!buf[0])
		snprintf(buf, len, "-");
	return buf;
}

/* ts_cpus_named - "CPU 1" or "CPUs 1-3", for the messages */
const char *ts_cpus_named(const struct ts_cpuset *set, char *buf, size_t len)
{
	char list[512];

	ts_cpuset_format(set, list, sizeof(list));
	snprintf(buf, len, "CPU%s %s", ts_cpuset_count(set) > 1 ? "s" : "", list);
	return buf;
}

/* ts_audit_path - file under the root; file starts with '/' */
char *ts_audit_path(const struct ts_audit *a, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", a->root, file);
	return buf;
}

/* ts_audit_unreadable - list file as not read (once), with why */
void ts_audit_unreadable(struct ts_audit *a, const char *file, int err)
{
	struct ts_audit_unread *u;

	for (int i = 0; i < a->nr_unread; i++)
		if (!strcmp(a->unread[i].file, file))
			return;
	if (a->nr_unread == TS_AUDIT_MAX_UNREAD) {
		a->unread_more++;
		return;
	}
	u = &a->unread[a->nr_unread++];
	snprintf(u->file, sizeof(u->file), "%s", file);
	snprintf(u->error, sizeof(u->error), "%s", strerror(err));
}

/*
 * ts_audit_read - the whole of a small file under the root, NUL-ended.
 * Returns the length, or -1 (listed as unread unless TS_READ_OPTIONAL).
 */
int ts_audit_read(struct ts_audit *a, const char *file, char *buf, size_t len, int flags)
{
	char path[512];
	size_t n;
	FILE *f;

	buf[0] = '\0';
	f = fopen(ts_audit_path(a, file, path, sizeof(path)), "r");
	if (!f) {
		if (!(flags & TS_READ_OPTIONAL))
			ts_audit_unreadable(a, file, errno);
		return -1;
	}
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		if (!(flags & TS_READ_OPTIONAL))
			ts_audit_unreadable(a, file, errno ? errno : EIO);
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	return (int)n;
}

/* ts_audit_read_line - the first line of a file, without its newline */
int ts_audit_read_line(struct ts_audit *a, const char *file, char *buf, size_t len, int flags)
{
	if (ts_audit_read(a, file, buf, len, flags) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * ts_audit_read_cpus - a CPU list file ("1-3"); raw gets the text.  The
 * kernel writes "(null)" in nohz_full when there is none: the empty set.
 */
int ts_audit_read_cpus(struct ts_audit *a, const char *file, struct ts_cpuset *set,
		       char *raw, size_t rawlen, int flags)
{
	memset(set, 0, sizeof(*set));
	if (ts_audit_read_line(a, file, raw, rawlen, flags))
		return -1;
	if (!strcmp(raw, "(null)"))
		return 0;
	if (ts_cpuset_parse(set, raw)) {
		ts_audit_unreadable(a, file, EINVAL);
		return -1;
	}
	return 0;
}

/* ts_audit_read_mask - a hex CPU mask file ("f", "00000000,0000000f") */
int ts_audit_read_mask(struct ts_audit *a, const char *file, struct ts_cpuset *set,
		       char *raw, size_t rawlen, int flags)
{
	int bit = 0;

	memset(set, 0, sizeof(*set));
	if (ts_audit_read_line(a, file, raw, rawlen, flags))
		return -1;
	/* the lowest CPUs are at the end of the text */
	for (int i = (int)strlen(raw) - 1; i >= 0; i--) {
		int c = raw[i], v;

		if (c == ',')
			continue;
		if (!isxdigit(c) || bit >= TS_CPUSET_WORDS * 64) {
			ts_audit_unreadable(a, file, EINVAL);
			return -1;
		}
		v = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
		for (int b = 0; b < 4; b++)
			if (v & (1 << b))
				ts_cpuset_add(set, bit + b);
		bit += 4;
	}
	return 0;
}

/* ts_audit_read_long - a file holding one decimal number (a sysctl) */
int ts_audit_read_long(struct ts_audit *a, const char *file, long *val, char *raw,
		       size_t rawlen)
{
	char *end;

	if (ts_audit_read_line(a, file, raw, rawlen, 0))
		return -1;
	errno = 0;
	*val = strtol(raw, &end, 10);
	if (end == raw || *end || errno) {
		ts_audit_unreadable(a, file, EINVAL);
		return -1;
	}
	return 0;
}

/*
 * next_param - the next word of the command line at *p (its length in *w),
 * or NULL at the end: "--" ends the kernel's parameters, the rest goes to
 * init.  *p moves past the word.
 */
static const char *next_param(const char **p, size_t *w)
{
	const char *word;

	*p += strspn(*p, " \t\n");
	*w = strcspn(*p, " \t\n");
	if (!*w || (*w == 2 && !strncmp(*p, "--", 2)))
		return NULL;
	word = *p;
	*p += *w;
	return word;
}

/*
 * ts_cmdline_param - the value of the last name=value on the command line
 * (the kernel's early parameters take the last one too).  Returns 1 when
 * given (val "" for a bare name), 0 when not.
 */
int ts_cmdline_param(const struct ts_audit *a, const char *name, char *val, size_t len)
{
	size_t n = strlen(name), w;
	const char *p = a->cmdline, *word;
	int found = 0;

	while ((word = next_param(&p, &w))) {
		if (w >= n && !strncmp(word, name, n) && (w == n || word[n] == '=')) {
			size_t v = w > n ? w - n - 1 : 0;

			snprintf(val, len, "%.*s", (int)v, w > n ? word + n + 1 : "");
			found = 1;
		}
	}
	return found;
}

/*
 * ts_cmdline_all - the values of every name=value, joined by ','.  For the
 * parameters whose handler runs once per occurrence (tsc=): all apply.
 */
int ts_cmdline_all(const struct ts_audit *a, const char *name, char *val, size_t len)
{
	size_t n = strlen(name), used = 0, w;
	const char *p = a->cmdline, *word;
	int found = 0;

	val[0] = '\0';
	while ((word = next_param(&p, &w))) {
		if (w > n && !strncmp(word, name, n) && word[n] == '=') {
			used += snprintf(val + used, used < len ? len - used : 0, "%s%.*s",
					 found ? "," : "", (int)(w - n - 1), word + n + 1);
			found = 1;
		}
	}
	return found;
}

/*
 * Read the kernel config: /boot/config-RELEASE, else /proc/config.gz.
 * zlib (linked already for trace.dat's compression) reads both, plain or
 * gzip, so no zcat runs and --root holds for it as for every other file.
 */
static void read_config(struct ts_audit *a)
{
	const char *files[2];
	char boot[200], path[512];
	int err[2] = { 0, 0 };

	snprintf(boot, sizeof(boot), "/boot/config-%s", a->release);
	files[0] = boot;
	files[1] = "/proc/config.gz";
	for (int i = 0; i < 2; i++) {
		size_t size = 0, cap = 1 << 16;
		char *buf;
		gzFile gz;
		int n;

		errno = 0;
		gz = gzopen(ts_audit_path(a, files[i], path, sizeof(path)), "rb");
		if (!gz) {
			err[i] = errno ? errno : ENOENT;
			continue;
		}
		buf = malloc(cap);
		while (buf && (n = gzread(gz, buf + size, cap - size - 1)) > 0) {
			size += n;
			if (size + 1 == cap) {
				char *more = realloc(buf, cap * 2);

				if (!more) {
					free(buf);
					buf = NULL;
					break;
				}
				buf = more;
				cap *= 2;
			}
		}
		if (!buf || n < 0) {
			err[i] = buf ? EIO : ENOMEM;
			free(buf);
			gzclose(gz);
			continue;
		}
		gzclose(gz);
		buf[size] = '\0';
		a->config = buf;
		snprintf(a->config_file, sizeof(a->config_file), "%s", files[i]);
		return;
	}
	/* either one will do: listed only when neither could be read */
	for (int i = 0; i < 2; i++)
		ts_audit_unreadable(a, files[i], err[i]);
}

/*
 * ts_config_value - "y", "m", a number... for CONFIG_opt; returns 1 when
 * set, 0 when not set ("# ... is not set" or absent), -1 without a config.
 */
int ts_config_value(const struct ts_audit *a, const char *opt, char *val, size_t len)
{
	size_t n = strlen(opt);
	const char *p;

	if (!a->config)
		return -1;
	for (p = a->config; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "CONFIG_", 7) || strncmp(p + 7, opt, n) || p[7 + n] != '=')
			continue;
		snprintf(val, len, "%.*s", (int)strcspn(p + 8 + n, "\n"), p + 8 + n);
		return 1;
	}
	return 0;
}

/* ts_config_enabled - 1 for =y or =m, 0 when not, -1 without a config */
int ts_config_enabled(const struct ts_audit *a, const char *opt)
{
	char v[16];
	int r = ts_config_value(a, opt, v, sizeof(v));

	return r <= 0 ? r : (!strcmp(v, "y") || !strcmp(v, "m"));
}

/*
 * ts_audit_applies - does the check of id apply to this kernel?  Outside
 * its versions it is skipped with a note; an unknown version runs it.
 */
int ts_audit_applies(struct ts_audit *a, const char *id)
{
	const struct ts_finding_kind *k = ts_finding_kind(id);

	if (!a->kver || ((!k->min_kver || a->kver >= k->min_kver) &&
			 (!k->max_kver || a->kver < k->max_kver)))
		return 1;
	if (a->nr_notes < TS_AUDIT_MAX_NOTES) {
		struct ts_audit_note *n = &a->notes[a->nr_notes++];

		n->kind = k;
		snprintf(n->text, sizeof(n->text), "applies to kernels %s; this is %s",
			 k->kernels, a->release);
	}
	return 0;
}

static void cut_line(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%.*s", (int)strcspn(src, "\n"), src);
}

/* ts_audit_add - a finding of kind id; returns it for evidence and remedy */
struct ts_finding *ts_audit_add(struct ts_audit *a, const char *id,
				const struct ts_cpuset *cpus, const char *fmt, ...)
{
	struct ts_finding *f;
	va_list ap;

	if (a->nr == a->alloc) {
		int n = a->alloc ? a->alloc * 2 : 32;
		struct ts_finding *more = realloc(a->f, n * sizeof(*more));

		if (!more) {
			/* the finding still counts: a scratch one, not listed */
			static struct ts_finding scratch;

			a->oom = 1;
			return &scratch;
		}
		a->f = more;
		a->alloc = n;
	}
	f = &a->f[a->nr++];
	memset(f, 0, sizeof(*f));
	f->kind = ts_finding_kind(id);
	if (cpus)
		f->cpus = *cpus;
	f->key.irq = -1;
	f->key.pid = -1;
	f->seen = -1;
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
	return f;
}

void ts_finding_evidence(struct ts_finding *f, const char *file, const char *value)
{
	struct ts_evidence *e;

	if (f->nr_ev == TS_MAX_EVIDENCE)
		return;
	e = &f->ev[f->nr_ev++];
	snprintf(e->file, sizeof(e->file), "%s", file);
	cut_line(e->value, sizeof(e->value), value);
}

void ts_finding_remedy(struct ts_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->remedy, sizeof(f->remedy), fmt, ap);
	va_end(ap);
}

/* "6.12.118+deb12-cloud-amd64" -> KVER(6, 12, 118); 0 when not a version */
static unsigned int parse_kver(const char *s)
{
	unsigned int v[3] = { 0, 0, 0 };
	int i = 0;

	if (!isdigit((unsigned char)*s))
		return 0;
	while (i < 3 && isdigit((unsigned char)*s)) {
		v[i] = (unsigned int)strtoul(s, (char **)&s, 10);
		if (v[i] > 255)
			v[i] = 255;
		i++;
		if (*s != '.')
			break;
		s++;
	}
	return i < 2 ? 0 : KVER(v[0], v[1], v[2]);
}

/*
 * The facts every check needs.  Without /proc/cmdline there is nothing to
 * audit (not a Linux /proc, or a wrong --root): that is the one read that
 * is an error.
 */
static int read_basics(struct ts_audit *a)
{
	char raw[4096];

	if (ts_audit_read(a, "/proc/cmdline", a->cmdline, sizeof(a->cmdline), 0) < 0) {
		err_msg("doctor: cannot read %s/proc/cmdline: %s; nothing to audit\n",
			a->root, a->unread[0].error);
		return -1;
	}
	a->cmdline[strcspn(a->cmdline, "\n")] = '\0';
	if (!ts_audit_read_line(a, "/proc/sys/kernel/osrelease", a->release,
				sizeof(a->release), 0))
		a->kver = parse_kver(a->release);
	if (!ts_audit_read_cpus(a, "/sys/devices/system/cpu/online", &a->online, raw,
				sizeof(raw), 0))
		a->have_online = 1;
	/*
	 * As the kernel took them: nohz_full exists with CONFIG_NO_HZ_FULL
	 * only, and without it no CPU is nohz_full, whatever the command line
	 * asks (ts_audit_cmdline says so).
	 */
	ts_audit_read_cpus(a, "/sys/devices/system/cpu/nohz_full", &a->nohz_full, raw,
			   sizeof(raw), TS_READ_OPTIONAL);
	ts_audit_read_cpus(a, "/sys/devices/system/cpu/isolated", &a->isolated, raw,
			   sizeof(raw), 0);
	a->isol = a->nohz_full;
	for (int c = 0; c < TS_CPUSET_WORDS * 64; c++) {
		if (ts_cpuset_has(&a->isolated, c))
			ts_cpuset_add(&a->isol, c);
		if (a->have_online && ts_cpuset_has(&a->online, c) &&
		    !ts_cpuset_has(&a->nohz_full, c))
			ts_cpuset_add(&a->housekeeping, c);
	}
	return 0;
}

/*
 * ts_audit_run - audit the system under root.  Returns 0, or -1 when it
 * could not audit at all (said on stderr).
 */
int ts_audit_run(struct ts_audit *a, const char *root)
{
	struct stat st;
	size_t n;

	memset(a, 0, sizeof(*a));
	if (stat(root, &st)) {
		err_msg("doctor: --root %s: %s\n", root, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_msg("doctor: --root %s: not a directory\n", root);
		return -1;
	}
	/* "/" and "/x/" become "" and "/x": paths are root + "/proc/..." */
	n = strlen(root);
	while (n && root[n - 1] == '/')
		n--;
	if (n >= sizeof(a->rootbuf)) {
		err_msg("doctor: --root %s: too long\n", root);
		return -1;
	}
	snprintf(a->rootbuf, sizeof(a->rootbuf), "%.*s", (int)n, root);
	a->root = a->rootbuf;
	if (read_basics(a))
		return -1;
	read_config(a);
	ts_audit_config(a);
	ts_audit_cmdline(a);
	ts_audit_housekeeping(a);
	ts_audit_rcu(a);
	ts_audit_irqs(a);
	ts_audit_workqueues(a);
	ts_audit_tasks(a);
	ts_audit_sysctls(a);
	ts_audit_fair_server(a);
	ts_audit_clock(a);
	ts_audit_cpuidle(a);
	if (a->oom) {
		err_msg("doctor: out of memory\n");
		return -1;
	}
	return 0;
}

void ts_audit_free(struct ts_audit *a)
{
	free(a->config);
	free(a->f);
	a->config = NULL;
	a->f = NULL;
}
