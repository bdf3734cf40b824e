// SPDX-License-Identifier: GPL-2.0
/*
 * tick_test - cause the tick-keeping paths that no user-space program can
 * reach, on one CPU, for the conformance suite.  Loaded only in the guest.
 *
 *   insmod tick_test.ko mode=MODE cpu=N ms=DURATION
 *
 * Modes:
 *   rcu      a kthread holds CPU N in the kernel with preemption off while
 *            insmod waits for a normal grace period: RCU needs the CPU.
 *   rcu_exp  the same with an expedited grace period: RCU_EXP.
 *            Both say what they caused: when, in the hold, RCU set its
 *            dependency on CPU N and when it cleared it (kprobes on
 *            tick_nohz_dep_set_cpu() and _clear_cpu()).  A starved vCPU
 *            can make that short, or never.
 *   timer    a timer re-armed every jiffy on CPU N: the next timer is always
 *            due within a tick, so a running tick is kept (TIMER_DUE).  It
 *            says how many of CPU N's decisions kept the tick while the
 *            timer was due within a tick (a kretprobe on
 *            tick_nohz_next_event() returning 0).
 *   irq_work the same timer also queues lazy irq_work, which waits for the
 *            next tick: a running tick is kept for it (IRQ_WORK).
 * A tick that is already stopped stays stopped in both (its timer is then
 * programmed to the next event, every jiffy): the scenario first makes the
 * tick run, with a second task on the CPU for a moment.
 *
 * Three modes make, with a kprobe, a condition that the kernel meets only in
 * a narrow race, at the moment the tick code tests it, at most hits=N times:
 *   need_resched   at idle entry on CPU N (tick_nohz_idle_stop_tick), mark
 *                  the idle task for rescheduling, as a remote wakeup of a
 *                  polling idle CPU does: NEED_RESCHED.
 *   softirq        at idle entry, mark the timer softirq pending, as when a
 *                  softirq is raised and not run: SOFTIRQ (6.1 reports it
 *                  with "NOHZ tick-stop error", at most 10 times a boot).
 *   timer_softirq  at interrupt exit on CPU N (tick_nohz_irq_exit), after
 *                  softirqs ran, mark the timer softirq pending: a running
 *                  tick is kept for it (TIMER_SOFTIRQ).
 * A pending timer softirq that nothing raised runs at the next interrupt and
 * finds no expired timer.
 *
 * Two modes count, with a kprobe, the idle loop's decisions on CPU N for ms
 * milliseconds, and say when they counted (ktime_get(): tickstat's mono trace
 * clock), so that the decisions tickstat reports in that time range can be
 * compared with the count:
 *   idle_loop      calls of tick_nohz_idle_retain_tick(), the idle loop
 *                  keeping a running tick (IDLE_LOOP without a cpuidle
 *                  driver); an empty work item wakes the CPU every 20 ms.
 *   timekeeping    calls of tick_nohz_idle_stop_tick(), each refused on the
 *                  CPU that keeps the time with nohz_full CPUs around
 *                  (TIMEKEEPING); the first hits=N of them also find the
 *                  timer softirq pending, as in mode softirq.
 *
 * One mode changes the kernel for the rest of the boot:
 *   clock_unstable mark the TSC unstable (x86's mark_tsc_unstable()), as
 *                  the clocksource watchdog does: sched_clock stops being
 *                  stable, which sets the CLOCK_UNSTABLE dependency for
 *                  good.  It says when the bit was set (a kprobe on
 *                  tick_nohz_dep_set()) and waits ms milliseconds.
 *
 * One mode races the tick's decisions:
 *   depstorm       for ms milliseconds, a kthread on CPU 0 sets and clears
 *                  PERF_EVENTS at CPU scope on every other nohz_full CPU, as
 *                  perf does for a throttled event, with a random gap of up
 *                  to a microsecond between set and clear: each set kicks
 *                  the CPU, which decides about its tick while the bit may
 *                  be going away.
 *   race           the worst case of that race, on demand: a data watchpoint
 *                  on the tick dependency mask of task pid=N (a task alone
 *                  on a nohz_full CPU).  Every few hundred microseconds the
 *                  module sets POSIX_TIMER in that mask (which kicks the
 *                  task's CPU); the first time the tick code on that CPU
 *                  reads the mask, the watchpoint clears the bit again, as
 *                  another CPU could between two instructions.
 *
 * One mode queues work for CPU N from an interrupt on another CPU:
 *   queue_irq      for ms milliseconds, an hrtimer on CPU 0 queues a work
 *                  item for CPU N every 10 ms from its hard interrupt
 *                  handler, as a driver's interrupt does.  The kernel's
 *                  workqueue_queue_work event then names the task the
 *                  interrupt hit, not a queuer.  It says how often it
 *                  queued the item and how often the item ran, on CPU N and
 *                  elsewhere.
 *
 * One mode gives the idle loop a cpuidle driver, which the guest lacks:
 *   cpuidle        register a driver with two idle states on every CPU for
 *                  the run, so that the idle loop asks its governor (menu)
 *                  whether to stop the tick.  State 1 halts and claims a
 *                  20 ms target residency, more than a tick.  State 0
 *                  halts too (poll=0: the governor asks to stop the tick
 *                  even for a short sleep), or polls (poll=1: it keeps the
 *                  tick for a short sleep, as with most x86 drivers).
 * insmod returns when the run is over; rmmod afterwards.
 */
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/hw_breakpoint.h>
#include <linux/cpuidle.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/idle.h>
#include <linux/tick.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

static char *mode = "rcu";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "rcu, rcu_exp, timer, irq_work, need_resched, softirq, timer_softirq, idle_loop, timekeeping, clock_unstable, depstorm, race, queue_irq or cpuidle");
static int cpu = 1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "the CPU to act on");
static unsigned int ms = 500;
module_param(ms, uint, 0444);
MODULE_PARM_DESC(ms, "how long, in milliseconds");

static unsigned int hits = 5;
module_param(hits, uint, 0444);
MODULE_PARM_DESC(hits, "kprobe modes: how many times to make the condition");

static int pid;
module_param(pid, int, 0444);
MODULE_PARM_DESC(pid, "race mode: the task whose tick dependency mask is watched");

static bool poll;
module_param(poll, bool, 0444);
MODULE_PARM_DESC(poll, "cpuidle mode: state 0 polls instead of halting");

static DECLARE_COMPLETION(held);
static DECLARE_COMPLETION(done);
static struct timer_list every_jiffy;
static unsigned long timer_end;
static bool timer_stop;

static int run_on_cpu(int (*fn)(void *))
{
	struct task_struct *k = kthread_create(fn, NULL, "tick_test/%d", cpu);

	if (IS_ERR(k))
		return PTR_ERR(k);
	kthread_bind(k, cpu);
	wake_up_process(k);
	return 0;
}

static ktime_t hold_start, hold_end;

/*
 * Hold the CPU in the kernel without a quiescent state, for ms of the
 * clock.  Not mdelay(): it scales by the CPU's loops_per_jiffy, which an
 * emulated secondary CPU often calibrates wrong at boot ("calibrate_delay_
 * direct() failed"); 600 ms of mdelay() held CPU 2 for 276 ms to 1.3 s.
 */
static int hold_cpu(void *unused)
{
	preempt_disable();
	hold_start = ktime_get();
	complete(&held);
	do {
		cpu_relax();
		hold_end = ktime_get();
	} while (ktime_ms_delta(hold_end, hold_start) < ms);
	preempt_enable();
	complete(&done);
	return 0;
}

/* When RCU set and cleared its dependency bit on the held CPU (0: never). */
static ktime_t rcu_set, rcu_clear;
static int rcu_bit;

static int at_dep_set(struct kprobe *p, struct pt_regs *regs)
{
	if (regs->di == cpu && regs->si == rcu_bit && !rcu_set)
		rcu_set = ktime_get();
	return 0;
}

static int at_dep_clear(struct kprobe *p, struct pt_regs *regs)
{
	if (regs->di == cpu && regs->si == rcu_bit && rcu_set && !rcu_clear)
		rcu_clear = ktime_get();
	return 0;
}

static struct kprobe dep_probes[] = {
	{ .symbol_name = "tick_nohz_dep_set_cpu", .pre_handler = at_dep_set },
	{ .symbol_name = "tick_nohz_dep_clear_cpu", .pre_handler = at_dep_clear },
};

static struct kprobe *dep_probe_list[] = { &dep_probes[0], &dep_probes[1] };

static int run_rcu(bool expedited)
{
	int ret;

	rcu_bit = expedited ? TICK_DEP_BIT_RCU_EXP : TICK_DEP_BIT_RCU;
	ret = register_kprobes(dep_probe_list, ARRAY_SIZE(dep_probe_list));
	if (ret) {
		pr_err("tick_test: cannot probe the tick dependencies: %d\n", ret);
		return ret;
	}
	ret = run_on_cpu(hold_cpu);
	if (ret)
		goto out;
	wait_for_completion(&held);
	if (expedited)
		synchronize_rcu_expedited();
	else
		synchronize_rcu();
	wait_for_completion(&done);
	msleep(20);
	if (!rcu_set)
		pr_info("tick_test: %s never set its dependency on CPU %d during the %lld ms hold\n",
			mode, cpu, ktime_ms_delta(hold_end, hold_start));
	else
		pr_info("tick_test: %s held CPU %d's tick from %lld to %lld ms of the %lld ms hold\n",
			mode, cpu, ktime_ms_delta(rcu_set, hold_start),
			ktime_ms_delta(rcu_clear ?: ktime_get(), hold_start),
			ktime_ms_delta(hold_end, hold_start));
out:
	unregister_kprobes(dep_probe_list, ARRAY_SIZE(dep_probe_list));
	return ret;
}

static void lazy_work_fn(struct irq_work *work)
{
}

static struct irq_work lazy_work = IRQ_WORK_INIT_LAZY(lazy_work_fn);

static bool with_irq_work;

/* CPU N's decisions that kept the tick while the timer was due within a tick */
static atomic_t kept_due;

static int at_next_event(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	bool *due = (bool *)ri->data;

	*due = smp_processor_id() == cpu && timer_pending(&every_jiffy) &&
	       time_before_eq(every_jiffy.expires, jiffies + 1) &&
	       !(local_softirq_pending() & BIT(TIMER_SOFTIRQ));
	return 0;
}

static int after_next_event(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (*(bool *)ri->data && !regs_return_value(regs))
		atomic_inc(&kept_due);
	return 0;
}

static struct kretprobe next_event_probe = {
	.kp.symbol_name = "tick_nohz_next_event",
	.entry_handler = at_next_event,
	.handler = after_next_event,
	.data_size = sizeof(bool),
	.maxactive = 8,
};

static atomic_t timer_fired;	/* runs of rearm(): tickstat's timer cause counts them */

static void rearm(struct timer_list *t)
{
	atomic_inc(&timer_fired);
	if (READ_ONCE(timer_stop) || !time_before(jiffies, timer_end))
		return;
	if (with_irq_work)
		irq_work_queue(&lazy_work);
	mod_timer(t, jiffies + 1);
}

static atomic_t hits_left;
static atomic_t hits_made;

/* Take one of the hits=N chances, on the chosen CPU only. */
static bool take_hit(void)
{
	if (smp_processor_id() != cpu)
		return false;
	if (atomic_dec_if_positive(&hits_left) < 0)
		return false;
	atomic_inc(&hits_made);
	return true;
}

static int at_idle_need_resched(struct kprobe *p, struct pt_regs *regs)
{
	if (take_hit()) {
		set_tsk_need_resched(current);
		set_preempt_need_resched();
	}
	return 0;
}

static int at_softirq_check(struct kprobe *p, struct pt_regs *regs)
{
	if (take_hit())
		or_softirq_pending(BIT(TIMER_SOFTIRQ));
	return 0;
}

static struct kprobe probe;

static void nudge(struct work_struct *unused)
{
}

static DECLARE_WORK(nudge_work, nudge);

/*
 * Place the probe on symbol and arm the hits once it is in: placing it
 * interrupts every CPU, and an idle CPU's entry after that finds its tick
 * stopped too, so the hits wait 20 ms for those entries to pass.
 */
static int arm_probe(const char *symbol, kprobe_pre_handler_t handler)
{
	int ret;

	probe.symbol_name = symbol;
	probe.pre_handler = handler;
	ret = register_kprobe(&probe);
	if (ret) {
		pr_err("tick_test: cannot probe %s: %d\n", symbol, ret);
		return ret;
	}
	msleep(20);
	atomic_set(&hits_left, hits);
	return 0;
}

/* Remove the probe; no nudge runs on the CPU after this returns. */
static void disarm_probe(void)
{
	unregister_kprobe(&probe);
	cancel_work_sync(&nudge_work);
}

/*
 * Arm the probe and wait until its hits are made or the time is over.  An
 * idle CPU enters its idle loop again after an interrupt: with wake_idle,
 * run an empty work item on it every 20 ms.  Work, not an IPI: the CPU
 * leaves idle for the kworker, which restarts a dynticks-idle CPU's tick,
 * so the idle entry that follows finds the tick running (an IPI returns to
 * the idle loop with the tick still stopped, where a refusal keeps nothing
 * running).
 */
static int run_probe(const char *symbol, kprobe_pre_handler_t handler, bool wake_idle)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	int ret;

	ret = arm_probe(symbol, handler);
	if (ret)
		return ret;
	pr_info("tick_test: %s armed on CPU %d\n", mode, cpu);
	while (atomic_read(&hits_left) && time_before(jiffies, end)) {
		if (wake_idle)
			schedule_work_on(cpu, &nudge_work);
		msleep(20);
	}
	disarm_probe();
	pr_info("tick_test: %s made %d times\n", mode, atomic_read(&hits_made));
	return 0;
}

/* Counting modes: the calls counted on CPU N, and when counting ran */
static atomic_t calls;
static bool counting;

/* Count a call of the probed function on the chosen CPU while counting runs. */
static bool count_call(void)
{
	if (smp_processor_id() != cpu || !READ_ONCE(counting))
		return false;
	atomic_inc(&calls);
	return true;
}

static int at_count(struct kprobe *p, struct pt_regs *regs)
{
	count_call();
	return 0;
}

static int at_count_softirq(struct kprobe *p, struct pt_regs *regs)
{
	if (count_call() && take_hit())
		or_softirq_pending(BIT(TIMER_SOFTIRQ));
	return 0;
}

/*
 * Count the calls of symbol on CPU N for ms milliseconds, with the hits
 * armed for handlers that take them; with wake_idle, run an empty work item
 * on the CPU every 20 ms (as run_probe() does).  The time range is read
 * outside the counting, so that every call counted lies inside it; a
 * decision's trace event follows its call within microseconds, so one call
 * at each end may fall on the other side of it.
 */
static int run_count(const char *symbol, kprobe_pre_handler_t handler, bool wake_idle)
{
	ktime_t start, end;
	unsigned long stop;
	int ret;

	ret = arm_probe(symbol, handler);
	if (ret)
		return ret;
	start = ktime_get();
	WRITE_ONCE(counting, true);
	stop = jiffies + msecs_to_jiffies(ms);
	while (time_before(jiffies, stop)) {
		if (wake_idle)
			schedule_work_on(cpu, &nudge_work);
		msleep(20);
	}
	WRITE_ONCE(counting, false);
	end = ktime_get();
	disarm_probe();
	pr_info("tick_test: %s counted %d calls of %s on CPU %d from %lld to %lld ns\n", mode,
		atomic_read(&calls), symbol, cpu, ktime_to_ns(start), ktime_to_ns(end));
	if (handler == at_count_softirq)
		pr_info("tick_test: %s made %d times\n", mode, atomic_read(&hits_made));
	return 0;
}

/* When tick_nohz_dep_set() set CLOCK_UNSTABLE (0: not yet) */
static ktime_t unstable_set;

static int at_dep_set_global(struct kprobe *p, struct pt_regs *regs)
{
	if (regs->di == TICK_DEP_BIT_CLOCK_UNSTABLE && !unstable_set)
		unstable_set = ktime_get();
	return 0;
}

/*
 * Mark the TSC unstable, which clears sched_clock's stability (once a boot:
 * a second call does nothing), and say when CLOCK_UNSTABLE was set.
 */
static int run_clock_unstable(void)
{
#ifdef CONFIG_X86
	ktime_t end;
	int ret;

	probe.symbol_name = "tick_nohz_dep_set";
	probe.pre_handler = at_dep_set_global;
	ret = register_kprobe(&probe);
	if (ret) {
		pr_err("tick_test: cannot probe tick_nohz_dep_set: %d\n", ret);
		return ret;
	}
	mark_tsc_unstable("tick_test");
	msleep(ms);
	end = ktime_get();
	unregister_kprobe(&probe);
	if (!unstable_set)
		pr_info("tick_test: clock_unstable never set CLOCK_UNSTABLE (sched_clock was not stable)\n");
	else
		pr_info("tick_test: clock_unstable set CLOCK_UNSTABLE, then waited, from %lld to %lld ns\n",
			ktime_to_ns(unstable_set), ktime_to_ns(end));
	return 0;
#else
	pr_err("tick_test: clock_unstable needs x86's TSC\n");
	return -EOPNOTSUPP;
#endif
}

/* Halt until an interrupt; returns with interrupts enabled, as 6.1 expects. */
static int enter_halt(struct cpuidle_device *dev, struct cpuidle_driver *drv, int index)
{
	if (current_clr_polling_and_test()) {
		local_irq_enable();
		return index;
	}
	raw_safe_halt();
	return index;
}

static struct cpuidle_driver idle_driver = {
	.name = "tick_test",
	.owner = THIS_MODULE,
	.states = {
		{
			.name = "HALT",
			.desc = "hlt",
			.enter = enter_halt,
			.exit_latency = 1,
			.target_residency = 1,
		},
		{
			.name = "HALT-20MS",
			.desc = "hlt, 20 ms residency",
			.enter = enter_halt,
			.exit_latency = 2,
			.target_residency = 20000,
		},
	},
	.state_count = 2,
};

/* Give the idle loop a cpuidle driver for the run. */
static int run_cpuidle(void)
{
	int ret;

	if (poll)
		cpuidle_poll_state_init(&idle_driver);
	ret = cpuidle_register(&idle_driver, NULL);
	if (ret) {
		pr_err("tick_test: cannot register a cpuidle driver: %d\n", ret);
		return ret;
	}
	pr_info("tick_test: cpuidle armed, state 0 %s\n", poll ? "polls" : "halts");
	msleep(ms);
	cpuidle_unregister(&idle_driver);
	return 0;
}

static unsigned long toggles;

/* Set and clear PERF_EVENTS on the other nohz_full CPUs until the time is over. */
static int storm(void *unused)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	u32 gap = 1;
	int c;

	while (time_before(jiffies, end)) {
		for_each_online_cpu(c) {
			if (c == raw_smp_processor_id() || !tick_nohz_full_cpu(c))
				continue;
			tick_nohz_dep_set_cpu(c, TICK_DEP_BIT_PERF_EVENTS);
			ndelay(gap % 1000);
			tick_nohz_dep_clear_cpu(c, TICK_DEP_BIT_PERF_EVENTS);
			toggles++;
			gap = gap * 1103515245 + 12345;
		}
		if (!(toggles & 1023))
			cond_resched();
	}
	complete(&done);
	return 0;
}

static struct task_struct *race_task;
static atomic_t race_armed;
static atomic_t race_cleared;

/* The watched mask was accessed: on the task's own CPU, take the bit away. */
static void on_mask_access(struct perf_event *bp, struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	if (current != race_task || !atomic_read(&race_armed))
		return;
	if (atomic_fetch_andnot(BIT(TICK_DEP_BIT_POSIX_TIMER), &race_task->tick_dep_mask) &
	    BIT(TICK_DEP_BIT_POSIX_TIMER)) {
		atomic_set(&race_armed, 0);
		atomic_inc(&race_cleared);
	}
}

static int run_race(void)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	struct perf_event_attr attr;
	struct perf_event * __percpu *bp;
	unsigned int sets = 0;

	race_task = get_pid_task(find_vpid(pid), PIDTYPE_PID);
	if (!race_task) {
		pr_err("tick_test: race: no task %d\n", pid);
		return -ESRCH;
	}
	hw_breakpoint_init(&attr);
	attr.bp_addr = (unsigned long)&race_task->tick_dep_mask;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.bp_type = HW_BREAKPOINT_RW;
	bp = register_wide_hw_breakpoint(&attr, on_mask_access, NULL);
	if (IS_ERR((void __force *)bp)) {
		put_task_struct(race_task);
		pr_err("tick_test: race: no watchpoint: %ld\n", PTR_ERR((void __force *)bp));
		return PTR_ERR((void __force *)bp);
	}
	while (time_before(jiffies, end)) {
		atomic_set(&race_armed, 1);
		tick_dep_set_task(race_task, TICK_DEP_BIT_POSIX_TIMER);
		sets++;
		usleep_range(300, 600);
		/* not read in time: take the bit away here */
		atomic_set(&race_armed, 0);
		tick_dep_clear_task(race_task, TICK_DEP_BIT_POSIX_TIMER);
	}
	unregister_wide_hw_breakpoint(bp);
	put_task_struct(race_task);
	pr_info("tick_test: race set the bit %u times, cleared it %d times right after the tick code read it\n",
		sets, atomic_read(&race_cleared));
	return 0;
}

/* queue_irq: what the hrtimer queued, and where its work item ran */
static struct hrtimer queue_timer;
static ktime_t queue_end;
static atomic_t irq_queued, irq_still_pending, work_ran, work_elsewhere;

static void queued_from_irq(struct work_struct *unused)
{
	atomic_inc(smp_processor_id() == cpu ? &work_ran : &work_elsewhere);
}

static DECLARE_WORK(irq_queued_work, queued_from_irq);

static enum hrtimer_restart queue_from_irq(struct hrtimer *t)
{
	/* a work item still pending is not queued again: no event either */
	if (queue_work_on(cpu, system_wq, &irq_queued_work))
		atomic_inc(&irq_queued);
	else
		atomic_inc(&irq_still_pending);
	if (ktime_after(hrtimer_cb_get_time(t), queue_end))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ms_to_ktime(10));
	return HRTIMER_RESTART;
}

/* Runs on CPU 0 (an IPI, or insmod's own CPU): pins the timer there. */
static void start_queue_timer(void *unused)
{
	hrtimer_start(&queue_timer, ms_to_ktime(10), HRTIMER_MODE_REL_PINNED_HARD);
}

static int run_queue_irq(void)
{
	int ret;

	if (cpu == 0) {
		pr_err("tick_test: queue_irq: cpu=0 is where the interrupt comes from\n");
		return -EINVAL;
	}
	hrtimer_init(&queue_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	queue_timer.function = queue_from_irq;
	queue_end = ktime_add_ms(ktime_get(), ms);
	ret = smp_call_function_single(0, start_queue_timer, NULL, 1);
	if (ret)
		return ret;
	msleep(ms + 30);
	hrtimer_cancel(&queue_timer);
	flush_work(&irq_queued_work);
	pr_info("tick_test: queue_irq queued %d times from an interrupt on CPU 0 (%d times still pending), its work ran %d times on CPU %d and %d elsewhere\n",
		atomic_read(&irq_queued), atomic_read(&irq_still_pending),
		atomic_read(&work_ran), cpu, atomic_read(&work_elsewhere));
	return 0;
}

static int __init tick_test_init(void)
{
	int ret = 0;

	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu) || cpu == raw_smp_processor_id()) {
		pr_err("tick_test: cpu=%d must be another online CPU\n", cpu);
		return -EINVAL;
	}
	if (!strcmp(mode, "rcu") || !strcmp(mode, "rcu_exp")) {
		ret = run_rcu(!strcmp(mode, "rcu_exp"));
	} else if (!strcmp(mode, "timer") || !strcmp(mode, "irq_work")) {
		with_irq_work = !strcmp(mode, "irq_work");
		if (!with_irq_work) {
			ret = register_kretprobe(&next_event_probe);
			if (ret) {
				pr_err("tick_test: cannot probe tick_nohz_next_event: %d\n", ret);
				return ret;
			}
		}
		timer_setup(&every_jiffy, rearm, TIMER_PINNED);
		timer_end = jiffies + msecs_to_jiffies(ms);
		every_jiffy.expires = jiffies + 1;
		add_timer_on(&every_jiffy, cpu);
		/* the scenario waits for this line before it makes the tick run */
		pr_info("tick_test: %s armed on CPU %d\n", mode, cpu);
		msleep(ms + 20);
		WRITE_ONCE(timer_stop, true);
		del_timer_sync(&every_jiffy);
		irq_work_sync(&lazy_work);
		pr_info("tick_test: timer fired %d times on CPU %d\n", atomic_read(&timer_fired),
			cpu);
		if (!with_irq_work) {
			unregister_kretprobe(&next_event_probe);
			pr_info("tick_test: timer: %d decisions on CPU %d kept the tick with the timer due within a tick\n",
				atomic_read(&kept_due), cpu);
		}
	} else if (!strcmp(mode, "need_resched")) {
		ret = run_probe("tick_nohz_idle_stop_tick", at_idle_need_resched, true);
	} else if (!strcmp(mode, "softirq")) {
		ret = run_probe("tick_nohz_idle_stop_tick", at_softirq_check, true);
	} else if (!strcmp(mode, "timer_softirq")) {
		ret = run_probe("tick_nohz_irq_exit", at_softirq_check, false);
	} else if (!strcmp(mode, "idle_loop")) {
		ret = run_count("tick_nohz_idle_retain_tick", at_count, true);
	} else if (!strcmp(mode, "timekeeping")) {
		ret = run_count("tick_nohz_idle_stop_tick", at_count_softirq, false);
	} else if (!strcmp(mode, "clock_unstable")) {
		ret = run_clock_unstable();
	} else if (!strcmp(mode, "cpuidle")) {
		ret = run_cpuidle();
	} else if (!strcmp(mode, "race")) {
		ret = run_race();
	} else if (!strcmp(mode, "queue_irq")) {
		ret = run_queue_irq();
	} else if (!strcmp(mode, "depstorm")) {
		cpu = 0;
		ret = run_on_cpu(storm);
		if (ret)
			return ret;
		wait_for_completion(&done);
		pr_info("tick_test: depstorm made %lu toggles\n", toggles);
	} else {
		pr_err("tick_test: unknown mode '%s'\n", mode);
		return -EINVAL;
	}
	if (ret)
		return ret;
	pr_info("tick_test: %s on CPU %d for %u ms done\n", mode, cpu, ms);
	return 0;
}

static void __exit tick_test_exit(void)
{
}

module_init(tick_test_init);
module_exit(tick_test_exit);
MODULE_DESCRIPTION("Cause tick-keeping paths for the tickstat conformance suite");
MODULE_LICENSE("GPL");
