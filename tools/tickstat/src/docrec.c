// SPDX-License-Identifier: GPL-2.0
/*
 * docrec.c - tickstat doctor's audit in a recording (docrec.h): the
 * recorder's "doctor" marks, the reader's audit from them (an->doctor,
 * this file's alone), and the join of each finding with what the
 * recording saw.
 *
 * A mark holds KEY=VALUE tokens, the value percent-encoded (space, '%',
 * control and non-ASCII bytes as %XX), so that any text survives the
 * marks' space-separated form.  Every token names what it fills
 * ("f3.msg=", "s0.id="), so that the tokens may be split over marks in
 * any way that fits the kernel's 1 KiB.  The header gives the counts
 * first: findings=N says how many finding slots the next tokens fill.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "causeout.h"
#include "docrec.h"
#include "text.h"

#define CMDLINE_CHUNK	256	/* cmdline.N=: the command line in pieces that fit a mark */

/* ---- the recorder's side ---- */

struct dbuf {
	char *p;
	size_t len, cap;
	int oom;
};

static void dput(struct dbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *p = realloc(b->p, cap);

		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* " KEY=VALUE", the key made of fmt, the value encoded; n bytes of it at most */
static void token(struct dbuf *b, const char *val, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void token(struct dbuf *b, const char *val, size_t n, const char *fmt, ...)
{
	char key[64], hex[4];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	dput(b, " ", 1);
	dput(b, key, strlen(key));
	dput(b, "=", 1);
	for (size_t i = 0; i < n && val[i]; i++) {
		unsigned char c = val[i];

		if (c <= ' ' || c >= 0x7f || c == '%') {
			snprintf(hex, sizeof(hex), "%%%02X", c);
			dput(b, hex, 3);
		} else {
			dput(b, (const char *)&c, 1);
		}
	}
}

/*
 * "KEY=LIST" tokens of a CPU list, as many as it takes for each to fit a
 * mark: the reader takes their union (cpus_value).
 */
static void cpus_tokens(struct dbuf *b, const struct ts_cpuset *set, const char *key)
{
	char list[512];
	int from = 0;

	do {
		from = ts_cpuset_format_from(set, from, list, sizeof(list));
		token(b, list, sizeof(list), "%s", key);
	} while (from >= 0);
}

static void finding_tokens(struct dbuf *b, const struct ts_finding *f, int j)
{
	char num[16], key[32];

	token(b, f->kind->id, 64, "f%d.id", j);
	snprintf(key, sizeof(key), "f%d.cpus", j);
	cpus_tokens(b, &f->cpus, key);
	token(b, f->message, sizeof(f->message), "f%d.msg", j);
	token(b, f->remedy, sizeof(f->remedy), "f%d.remedy", j);
	for (int e = 0; e < f->nr_ev; e++) {
		token(b, f->ev[e].file, sizeof(f->ev[e].file), "f%d.ev%d.file", j, e);
		token(b, f->ev[e].value, sizeof(f->ev[e].value), "f%d.ev%d.value", j, e);
	}
	if (f->key.irq >= 0) {
		snprintf(num, sizeof(num), "%d", f->key.irq);
		token(b, num, sizeof(num), "f%d.irq", j);
	}
	if (f->key.pid >= 0) {
		snprintf(num, sizeof(num), "%d", f->key.pid);
		token(b, num, sizeof(num), "f%d.pid", j);
	}
	if (f->key.name[0])
		token(b, f->key.name, sizeof(f->key.name), "f%d.name", j);
	if (f->key.cgroup[0])
		token(b, f->key.cgroup, sizeof(f->key.cgroup), "f%d.cgroup", j);
}

/*
 * ts_doctor_marks - the audit as the doctor marks' tokens.  Findings go
 * in output order (errors first) while they fit TS_DOCTOR_MARK_BUDGET and
 * TS_DOCTOR_MAX_STORED; the rest is only counted (dropped=).
 */
char *ts_doctor_marks(const struct ts_audit *a)
{
	struct dbuf head = { 0 }, body = { 0 }, one = { 0 };
	int *idx = ts_audit_order(a), stored = 0;
	size_t cl = strlen(a->cmdline);

	if (!idx)
		return NULL;
	for (int i = 0; i < a->nr_notes; i++) {
		token(&body, a->notes[i].kind->id, 64, "s%d.id", i);
		token(&body, a->notes[i].text, sizeof(a->notes[i].text), "s%d.reason", i);
	}
	for (int i = 0; i < a->nr_unread; i++) {
		token(&body, a->unread[i].file, sizeof(a->unread[i].file), "u%d.file", i);
		token(&body, a->unread[i].error, sizeof(a->unread[i].error), "u%d.error", i);
	}
	for (int i = 0; i < a->nr; i++) {
		one.len = 0;
		finding_tokens(&one, &a->f[idx[i]], stored);
		if (one.oom || stored == TS_DOCTOR_MAX_STORED ||
		    body.len + one.len > TS_DOCTOR_MARK_BUDGET)
			continue;
		dput(&body, one.p, one.len);
		stored++;
	}
	token(&head, TS_DOCTOR_SCHEMA, 32, "schema");
	token(&head, a->release, sizeof(a->release), "kernel");
	for (size_t off = 0, n = 0; off < cl; off += CMDLINE_CHUNK, n++)
		token(&head, a->cmdline + off, CMDLINE_CHUNK, "cmdline.%zu", n);
	cpus_tokens(&head, &a->online, "online");
	cpus_tokens(&head, &a->nohz_full, "nohz_full");
	cpus_tokens(&head, &a->isolated, "isolated");
	cpus_tokens(&head, &a->housekeeping, "housekeeping");
	dput(&head, "", 0);
	if (!head.oom) {
		char counts[160];
		int n = snprintf(counts, sizeof(counts),
				 " findings=%d dropped=%d skipped=%d unread=%d unread_more=%d",
				 stored, a->nr - stored, a->nr_notes, a->nr_unread, a->unread_more);

		dput(&head, counts, n);
	}
	if (body.len)
		dput(&head, body.p, body.len);
	free(idx);
	free(body.p);
	free(one.p);
	if (head.oom || body.oom) {
		free(head.p);
		return NULL;
	}
	return head.p;
}

/* ---- the reader's side ---- */

/* %XX decoding in place; -1 for a bad escape or a NUL */
static int decode(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (*r != '%') {
			*w++ = *r;
			continue;
		}
		if (!isxdigit((unsigned char)r[1]) || !isxdigit((unsigned char)r[2]))
			return -1;
		*w = (char)strtol((char[]){ r[1], r[2], 0 }, NULL, 16);
		if (!*w++)
			return -1;
		r += 2;
	}
	*w = '\0';
	return 0;
}

/* a piece of a CPU list: a long list comes in several (cpus_tokens) */
static int cpus_value(struct ts_cpuset *set, const char *v)
{
	struct ts_cpuset piece;

	if (ts_cpuset_parse(&piece, v))
		return -1;
	for (int w = 0; w < TS_CPUSET_WORDS; w++)
		set->bits[w] |= piece.bits[w];
	return 0;
}

static int count_value(const char *v, int max, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < 0 || n > max)
		return -1;
	*out = (int)n;
	return 0;
}

static void copy(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%s", v);
}

/* the header's keys; 1 taken, 0 not one of them, -1 bad */
static int header_token(struct ts_doctor_rec *r, const char *k, const char *v)
{
	struct ts_audit *a = &r->a;
	int n;

	if (!strcmp(k, "findings")) {
		if (a->f || count_value(v, TS_DOCTOR_MAX_STORED, &n))
			return -1;
		a->f = calloc(n ? n : 1, sizeof(*a->f));
		if (!a->f)
			return -1;
		for (int i = 0; i < n; i++) {
			a->f[i].key.irq = -1;
			a->f[i].key.pid = -1;
			a->f[i].seen = -1;
		}
		a->nr = a->alloc = r->declared = n;
		return 1;
	}
	if (!strcmp(k, "dropped"))
		return count_value(v, 1 << 30, &r->dropped) ? -1 : 1;
	if (!strcmp(k, "skipped"))
		return count_value(v, TS_AUDIT_MAX_NOTES, &r->skip_declared) ? -1 : 1;
	if (!strcmp(k, "unread"))
		return count_value(v, TS_AUDIT_MAX_UNREAD, &r->unread_declared) ? -1 : 1;
	if (!strcmp(k, "unread_more"))
		return count_value(v, 1 << 30, &a->unread_more) ? -1 : 1;
	if (!strcmp(k, "kernel")) {
		copy(a->release, sizeof(a->release), v);
		return 1;
	}
	if (!strncmp(k, "cmdline.", 8)) {
		if (count_value(k + 8, (int)(sizeof(a->cmdline) / CMDLINE_CHUNK) - 1, &n) ||
		    strlen(v) > CMDLINE_CHUNK || strlen(a->cmdline) != (size_t)n * CMDLINE_CHUNK ||
		    strlen(a->cmdline) + strlen(v) >= sizeof(a->cmdline))
			return -1;	/* the pieces come in order, each whole but the last */
		strcat(a->cmdline, v);
		return 1;
	}
	if (!strcmp(k, "online"))
		return cpus_value(&a->online, v) ? -1 : 1;
	if (!strcmp(k, "nohz_full"))
		return cpus_value(&a->nohz_full, v) ? -1 : 1;
	if (!strcmp(k, "isolated"))
		return cpus_value(&a->isolated, v) ? -1 : 1;
	if (!strcmp(k, "housekeeping"))
		return cpus_value(&a->housekeeping, v) ? -1 : 1;
	return 0;
}

static int pid_value(const char *v, int *out)
{
	return count_value(v, 1 << 30, out);
}

/* "fJ.FIELD": one field of a stored finding */
static int finding_token(struct ts_doctor_rec *r, const char *k, const char *v)
{
	struct ts_finding *f;
	char *field;
	long j = strtol(k + 1, &field, 10);
	int e;

	if (field == k + 1 || *field != '.' || j < 0 || j >= r->declared)
		return -1;
	f = &r->a.f[j];
	field++;
	if (!strcmp(field, "id")) {
		if (f->kind || !*v)
			return -1;
		/* a newer tickstat's id: the slot stays empty, and is counted */
		f->kind = ts_finding_kind(v);
		return 0;
	}
	if (!strcmp(field, "cpus"))
		return cpus_value(&f->cpus, v);
	if (!strcmp(field, "msg"))
		copy(f->message, sizeof(f->message), v);
	else if (!strcmp(field, "remedy"))
		copy(f->remedy, sizeof(f->remedy), v);
	else if (!strcmp(field, "irq"))
		return pid_value(v, &f->key.irq);
	else if (!strcmp(field, "pid"))
		return pid_value(v, &f->key.pid);
	else if (!strcmp(field, "name"))
		copy(f->key.name, sizeof(f->key.name), v);
	else if (!strcmp(field, "cgroup"))
		copy(f->key.cgroup, sizeof(f->key.cgroup), v);
	else if (sscanf(field, "ev%d.", &e) == 1 && e >= 0 && e < TS_MAX_EVIDENCE &&
		 strchr(field, '.')) {
		const char *part = strchr(field, '.') + 1;

		if (e > f->nr_ev)
			return -1;	/* in order: ev0, ev1, ... */
		if (e == f->nr_ev)
			f->nr_ev++;
		if (!strcmp(part, "file"))
			copy(f->ev[e].file, sizeof(f->ev[e].file), v);
		else if (!strcmp(part, "value"))
			copy(f->ev[e].value, sizeof(f->ev[e].value), v);
	}
	return 0;
}

/* "sJ.id", "sJ.reason", "uJ.file", "uJ.error" */
static int list_token(struct ts_doctor_rec *r, const char *k, const char *v)
{
	struct ts_audit *a = &r->a;
	char *field;
	long j = strtol(k + 1, &field, 10);

	if (field == k + 1 || *field != '.')
		return -1;
	field++;
	if (k[0] == 's') {
		if (j < 0 || j >= r->skip_declared)
			return -1;
		if (a->nr_notes <= j)
			a->nr_notes = (int)j + 1;
		if (!strcmp(field, "id"))
			a->notes[j].kind = ts_finding_kind(v);
		else if (!strcmp(field, "reason"))
			copy(a->notes[j].text, sizeof(a->notes[j].text), v);
		return 0;
	}
	if (j < 0 || j >= r->unread_declared)
		return -1;
	if (a->nr_unread <= j)
		a->nr_unread = (int)j + 1;
	if (!strcmp(field, "file"))
		copy(a->unread[j].file, sizeof(a->unread[j].file), v);
	else if (!strcmp(field, "error"))
		copy(a->unread[j].error, sizeof(a->unread[j].error), v);
	return 0;
}

static int apply_token(struct ts_doctor_rec *r, char *tok)
{
	char *v = strchr(tok, '=');
	int h;

	if (!v)
		return -1;
	*v++ = '\0';
	if (decode(v))
		return -1;
	h = header_token(r, tok, v);
	if (h)
		return h < 0 ? -1 : 0;
	if (tok[0] == 'f' && isdigit((unsigned char)tok[1]))
		return r->a.f ? finding_token(r, tok, v) : -1;
	if ((tok[0] == 's' || tok[0] == 'u') && isdigit((unsigned char)tok[1]))
		return list_token(r, tok, v);
	return 0;	/* a later version's key */
}

/*
 * ts_doctor_mark - one doctor mark's tokens (after "doctor: "), applied to
 * the analysis's stored audit.  Returns 0, or -1 when it does not parse.
 */
int ts_doctor_mark(struct ts_analysis *an, const char *tokens)
{
	char *copy_ = strdup(tokens), *tok, *save = NULL;
	int ret = 0;

	if (!copy_)
		return -1;
	if (!an->doctor) {
		an->doctor = calloc(1, sizeof(*an->doctor));
		if (!an->doctor) {
			free(copy_);
			return -1;
		}
		an->doctor->a.root = "";
	}
	for (tok = strtok_r(copy_, " ", &save); tok && !ret; tok = strtok_r(NULL, " ", &save))
		ret = apply_token(an->doctor, tok);
	free(copy_);
	an->doctor->settled = 0;	/* findings may have come: worked out again */
	return ret;
}

/* ts_doctor_stored - the audit the source holds, NULL none */
const struct ts_doctor_rec *ts_doctor_stored(const struct ts_analysis *an)
{
	return an->doctor;
}

/* ts_analysis_drop_doctor - free the stored audit (ts_analysis_free calls it) */
void ts_analysis_drop_doctor(struct ts_analysis *an)
{
	if (!an->doctor)
		return;
	free(an->doctor->a.f);
	free(an->doctor);
	an->doctor = NULL;
}

/* ---- the join ---- */

enum join { J_NONE, J_IRQ, J_TASK, J_QUOTA, J_WORK, J_HRTIMER };

/*
 * What a recording can confirm each finding by.  The work and timer
 * functions are the ones the setting makes run on the CPUs, and only
 * they: vm.stat_interval's vmstat_update, the lockup watchdog's hrtimer,
 * RT throttling's period timer.  The other findings are settings whose
 * effect is no event of their own (timer migration moves timers any
 * timer may fire; a workqueue's cpumask does not say which work ran).
 */
static const struct join_rule {
	const char *id;
	enum join how;
	const char *fn;
} join_rules[] = {
	{ "irq-on-isolated", J_IRQ, NULL },
	{ "kthread-on-isolated", J_TASK, NULL },
	{ "cgroup-cpu-quota", J_QUOTA, NULL },
	{ "vm-stat-interval", J_WORK, "vmstat_update" },
	{ "watchdog-on-isolated", J_HRTIMER, "watchdog_timer_fn" },
	{ "rt-throttling", J_HRTIMER, "sched_rt_period_timer" },
};

static const struct join_rule *rule_of(const struct ts_finding *f)
{
	for (size_t i = 0; i < sizeof(join_rules) / sizeof(join_rules[0]); i++)
		if (!strcmp(join_rules[i].id, f->kind->id))
			return &join_rules[i];
	return NULL;
}

/* the CPUs of the finding the report has (all it has for a whole-host finding) */
static int join_cpus(const struct ts_analysis *an, const struct ts_finding *f,
		     struct ts_cpuset *set)
{
	int whole = ts_cpuset_empty(&f->cpus);

	memset(set, 0, sizeof(*set));
	for (int c = 0; c < an->nr_cpus; c++)
		if (an->cpus[c] && an->cpus[c]->active && (whole || ts_cpuset_has(&f->cpus, c)))
			ts_cpuset_add(set, c);
	return !ts_cpuset_empty(set);
}

/* a symbol names fn: "fn" itself (a cause's function has no offset) */
static int names_fn(const struct ts_analysis *an, const struct ts_cause *k, const char *fn)
{
	char name[160];

	ts_cause_name(an, k, name, sizeof(name));
	return !strcmp(name, fn);
}

/* entries of causes of one type matching the rule on the CPUs; *other: unattributed ones */
static uint64_t cause_count(const struct ts_analysis *an, const struct ts_cpuset *set, int type,
			    const struct ts_finding *f, const struct join_rule *r, uint64_t *other)
{
	uint64_t n = 0;

	*other = 0;
	for (int c = 0; c < an->nr_cpus; c++) {
		const struct ts_cpu *cpu = an->cpus[c];

		if (!cpu || !ts_cpuset_has(set, c))
			continue;
		for (int i = 0; i < cpu->nr_causes; i++) {
			const struct ts_cause *k = &cpu->causes[i];

			if (k->type != type)
				continue;
			if (type == TS_CAUSE_IRQ ? k->key == (uint64_t)f->key.irq : names_fn(an, k, r->fn))
				n += k->count;
		}
		*other += cpu->causes_other[type].count;
	}
	return n;
}

/* the task's time on the CPUs: run, or with SCHED holding the tick (sched) */
static uint64_t task_time(const struct ts_analysis *an, const struct ts_cpuset *set, int pid,
			  int sched)
{
	uint64_t ns = 0;

	for (int c = 0; c < an->nr_cpus; c++) {
		const struct ts_cpu *cpu = an->cpus[c];

		if (!cpu || !ts_cpuset_has(set, c))
			continue;
		for (int i = 0; i < cpu->nr_tasks; i++)
			if (cpu->tasks[i].pid == pid)
				ns += sched ? cpu->tasks[i].sched_ns : cpu->tasks[i].run_ns;
	}
	return ns;
}

static int64_t seen_causes(const struct ts_analysis *an, const struct ts_finding *f,
			   const struct join_rule *r, const struct ts_cpuset *set,
			   const char **unit, char *how, size_t len)
{
	int type = r->how == J_IRQ ? TS_CAUSE_IRQ : r->how == J_WORK ? TS_CAUSE_WORK :
		   TS_CAUSE_HRTIMER;
	const char *why = ts_cause_unknown_why(an, type);
	char cpus[300], what[128];
	uint64_t n, other;

	if (why) {
		snprintf(how, len, "%s causes unknown: %s", ts_cause_type_name(type), why);
		return -1;
	}
	n = cause_count(an, set, type, f, r, &other);
	if (r->how == J_IRQ)
		snprintf(what, sizeof(what), "IRQ %d%s%s%s entered", f->key.irq,
			 f->key.name[0] ? " (" : "", f->key.name, f->key.name[0] ? ")" : "");
	else
		snprintf(what, sizeof(what), "%s %s", r->fn, r->how == J_WORK ? "ran" : "fired");
	snprintf(how, len, "%s %" PRIu64 " time%s on %s%s", what, n, n == 1 ? "" : "s",
		 ts_cpus_named(set, cpus, sizeof(cpus)),
		 other ? " (and causes beyond the report's table, not told apart)" : "");
	*unit = "events";
	return (int64_t)n;
}

static int64_t seen_task(const struct ts_analysis *an, const struct ts_finding *f,
			 const struct join_rule *r, const struct ts_cpuset *set,
			 const char **unit, char *how, size_t len)
{
	const char *comm = ts_comm_get(an, f->key.pid);
	char cpus[300], dur[32], safe[300];
	uint64_t ns;

	if (!an->caps.sched_switch) {
		snprintf(how, len, "the source has no sched_switch events: no co-runners");
		return -1;
	}
	/* a pid the recording knows under another name is another task (reused) */
	if (comm && f->key.name[0] && strcmp(comm, f->key.name)) {
		snprintf(how, len, "pid %d is %s in the recording, not %s", f->key.pid,
			 ts_text_safe(safe, sizeof(safe), comm), f->key.name);
		return -1;
	}
	ns = task_time(an, set, f->key.pid, r->how == J_QUOTA);
	ts_text_dur(dur, sizeof(dur), ns);
	if (r->how == J_QUOTA)
		snprintf(how, len, "pid %d (%s), of cgroup %s, ran %s with SCHED holding the tick on %s",
			 f->key.pid, f->key.name, f->key.cgroup, dur,
			 ts_cpus_named(set, cpus, sizeof(cpus)));
	else
		snprintf(how, len, "pid %d (%s) ran %s on %s", f->key.pid, f->key.name, dur,
			 ts_cpus_named(set, cpus, sizeof(cpus)));
	*unit = "ns";
	return (int64_t)ns;
}

/* ts_doctor_seen - what the recording saw of a finding (docrec.h) */
int64_t ts_doctor_seen(const struct ts_analysis *an, const struct ts_finding *f,
		       const char **unit, char *how, size_t len)
{
	const struct join_rule *r = rule_of(f);
	struct ts_cpuset set;
	char cpus[300];

	*unit = NULL;
	if (!r) {
		snprintf(how, len, "no event of a recording is this finding's alone");
		return -1;
	}
	if ((r->how == J_IRQ && f->key.irq < 0) ||
	    ((r->how == J_TASK || r->how == J_QUOTA) && f->key.pid < 0)) {
		snprintf(how, len, "the audit named no %s to look for", r->how == J_IRQ ? "IRQ" : "task");
		return -1;
	}
	if (!join_cpus(an, f, &set)) {
		snprintf(how, len, "the recording has none of %s",
			 ts_cpus_named(&f->cpus, cpus, sizeof(cpus)));
		return -1;
	}
	if (r->how == J_TASK || r->how == J_QUOTA)
		return seen_task(an, f, r, &set, unit, how, len);
	return seen_causes(an, f, r, &set, unit, how, len);
}

/*
 * Each CPU's diagnosis asks of every finding on it whether the recording saw
 * it (diagnosis.c, doctor_saw()), and the answer counts over every CPU of
 * the finding the report has: worked out each time, a report's cost grew
 * with the square of the CPUs (16 M instructions of a 102 M report of a
 * 64-CPU recording).  Once the analysis is finished the answers change only
 * with the CPUs reported (-C, ts_analysis_select_cpus()), so they are worked
 * out then, and again when those change (ts_doctor_settle_again()).
 */
/* ts_doctor_seen()'s count of stored finding i, its words left out; -1 an unknown kind */
static int64_t count_seen(const struct ts_analysis *an, int i)
{
	const struct ts_finding *f = &an->doctor->a.f[i];
	char how[160];
	const char *unit;

	return f->kind ? ts_doctor_seen(an, f, &unit, how, sizeof(how)) : -1;
}

void ts_doctor_settle(struct ts_analysis *an)
{
	struct ts_doctor_rec *r = an->doctor;

	if (!r)
		return;
	for (int i = 0; i < r->a.nr && i < TS_DOCTOR_MAX_STORED; i++)
		r->seen[i] = count_seen(an, i);
	r->settled = 1;
}

void ts_doctor_settle_again(struct ts_analysis *an)
{
	if (an->doctor && an->doctor->settled)
		ts_doctor_settle(an);
}

int64_t ts_doctor_seen_at(const struct ts_analysis *an, int i)
{
	const struct ts_doctor_rec *r = an->doctor;

	if (!r || i < 0 || i >= r->a.nr)
		return -1;
	if (r->settled && i < TS_DOCTOR_MAX_STORED)
		return r->seen[i];
	return count_seen(an, i);
}

/*
 * ts_doctor_joined - the stored audit, its findings of known ids only, each
 * with seen joined.  Returns 0, -1 out of memory (out is then empty).
 */
int ts_doctor_joined(const struct ts_analysis *an, struct ts_audit *out)
{
	const struct ts_doctor_rec *r = an->doctor;
	const struct ts_audit *a = &r->a;

	memset(out, 0, sizeof(*out));
	out->root = out->rootbuf;
	copy(out->release, sizeof(out->release), a->release);
	copy(out->cmdline, sizeof(out->cmdline), a->cmdline);
	out->online = a->online;
	out->nohz_full = a->nohz_full;
	out->isolated = a->isolated;
	out->housekeeping = a->housekeeping;
	out->unread_more = a->unread_more;
	out->f = calloc(a->nr ? a->nr : 1, sizeof(*out->f));
	if (!out->f)
		return -1;
	for (int i = 0; i < a->nr; i++) {
		struct ts_finding *f;

		if (!a->f[i].kind)
			continue;
		f = &out->f[out->nr++];
		*f = a->f[i];
		f->seen = ts_doctor_seen(an, f, &f->seen_unit, f->seen_how, sizeof(f->seen_how));
	}
	out->alloc = out->nr;
	for (int i = 0; i < a->nr_notes; i++)
		if (a->notes[i].kind)
			out->notes[out->nr_notes++] = a->notes[i];
	for (int i = 0; i < a->nr_unread; i++)
		out->unread[out->nr_unread++] = a->unread[i];
	return 0;
}

/* ts_doctor_unknown - stored findings this tickstat cannot show */
int ts_doctor_unknown(const struct ts_analysis *an)
{
	int n = 0;

	for (int i = 0; an->doctor && i < an->doctor->a.nr; i++)
		n += !an->doctor->a.f[i].kind;
	return n;
}
