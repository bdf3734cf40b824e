// SPDX-License-Identifier: GPL-2.0
/*
 * insncount - a QEMU TCG plugin that counts the guest instructions each
 * vCPU executes between two marker instructions, for tests/bench/cost.
 *
 * Under TCG, wall-clock time depends on the emulator as much as on the
 * guest: how translated blocks and guest pages happen to fall in QEMU's
 * lookup caches.  An instruction count does not, so it tells whether two
 * kernels do different work on the same workload.  (QEMU's -icount would
 * do the same for the whole guest, but QEMU 7.2 does not bring up a
 * second CPU with it; docs/performance.md.)
 *
 * The markers are multi-byte NOPs with a tag in the displacement,
 * "nopl TAG(%rax)" (0f 1f 80 TAG), which tests/workloads/costloop.c puts
 * around its loops: TAG 0x71c5WWW1 starts counting on the vCPU that
 * executes it, 0x71c5WWW2 stops and writes one line:
 *	insncount vcpu=1 tag=0x71c50012 insns=123456789
 * Everything the vCPU runs in between counts: the program, the kernel, the
 * interrupts it takes.  Blocks count whole when entered, so an exception in
 * the middle of a block counts the rest of it too (rare in these loops).
 * The kernel's part (blocks at the kernel's half of the address space) is
 * written on a second line, for telling a program's own work from the
 * system's:
 *	insncount-kernel vcpu=1 tag=0x71c50012 insns=23456789
 *
 * With kprof=FILE, each kernel block's count is kept apart too, for the
 * first vCPU that starts counting only (tests/bench/scale counts on CPU
 * 0), and at each of its stops the blocks that ran since its start are
 * written to FILE, for tests/bench/scale --kprof to name their functions
 * (System.map):
 *	stop vcpu=0 tag=0x71c50062
 *	ffffffff810a1b20 1234
 * The blocks are every kernel block translated, kept for the run and
 * scanned at each of that vCPU's markers: a bench's tool, not a profiler.
 *
 * usage: qemu-system-x86_64 -plugin insncount.so,out=FILE[,kprof=FILE] ...
 *
 * Built against QEMU 7.2's plugin API (version 1): qemu-plugin-api.h.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-api.h"

PLUGIN_EXPORT int qemu_plugin_version = 1;

#define MAX_VCPUS	64
#define TAG_MASK	0xffff000fu
#define TAG_START	0x71c50001u
#define TAG_STOP	0x71c50002u

/* x86-64's kernel half: canonical addresses with the top bit set */
#define KERNEL_START	0xffff800000000000ull
/* in a block's callback data, beside its instruction count: a kernel block */
#define KERNEL_BLOCK	((uintptr_t)1 << 31)

/* each slot is touched only by its vCPU's thread */
static struct vcpu_count {
	uint64_t insns;
	uint64_t kernel_insns;
	bool counting;
} vcpus[MAX_VCPUS];

static FILE *out;

/* kprof: every kernel block translated, with what it ran while counting */
struct kblock {
	uint64_t vaddr;
	uint64_t insns;
	unsigned int n;
};

static FILE *kprof;
static int kprof_vcpu = -1;		/* the vCPU profiled: the first to count */
static struct kblock **kblocks;
static size_t nr_kblocks, cap_kblocks;
static pthread_mutex_t kblocks_lock = PTHREAD_MUTEX_INITIALIZER;

static void tb_exec(unsigned int vcpu, void *data)
{
	uintptr_t n = (uintptr_t)data & ~KERNEL_BLOCK;

	if (vcpu >= MAX_VCPUS || !vcpus[vcpu].counting)
		return;
	vcpus[vcpu].insns += n;
	if ((uintptr_t)data & KERNEL_BLOCK)
		vcpus[vcpu].kernel_insns += n;
}

/* a kernel block, with kprof: counted in its own slot too */
static void kblock_exec(unsigned int vcpu, void *data)
{
	struct kblock *k = data;

	if (vcpu >= MAX_VCPUS || !vcpus[vcpu].counting)
		return;
	vcpus[vcpu].insns += k->n;
	vcpus[vcpu].kernel_insns += k->n;
	if ((int)vcpu == __atomic_load_n(&kprof_vcpu, __ATOMIC_RELAXED))
		__atomic_fetch_add(&k->insns, k->n, __ATOMIC_RELAXED);
}

static struct kblock *new_kblock(uint64_t vaddr, unsigned int n)
{
	struct kblock *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->vaddr = vaddr;
	k->n = n;
	pthread_mutex_lock(&kblocks_lock);
	if (nr_kblocks == cap_kblocks) {
		size_t cap = cap_kblocks ? 2 * cap_kblocks : 4096;
		struct kblock **more = realloc(kblocks, cap * sizeof(*more));

		if (!more) {
			pthread_mutex_unlock(&kblocks_lock);
			free(k);
			return NULL;
		}
		kblocks = more;
		cap_kblocks = cap;
	}
	kblocks[nr_kblocks++] = k;
	pthread_mutex_unlock(&kblocks_lock);
	return k;
}

/*
 * The kernel blocks that ran since the last start, their counts zeroed:
 * written at a stop (write), only zeroed at a start.
 */
static void take_kprof(unsigned int vcpu, uint32_t tag, bool write)
{
	int first = -1;

	/* the first vCPU to count is the one profiled; another's markers do nothing here */
	__atomic_compare_exchange_n(&kprof_vcpu, &first, (int)vcpu, false, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED);
	if ((int)vcpu != __atomic_load_n(&kprof_vcpu, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&kblocks_lock);
	if (write)
		fprintf(kprof, "stop vcpu=%u tag=0x%08x\n", vcpu, (unsigned int)tag);
	for (size_t i = 0; i < nr_kblocks; i++) {
		uint64_t n = __atomic_exchange_n(&kblocks[i]->insns, 0, __ATOMIC_RELAXED);

		if (n && write)
			fprintf(kprof, "%llx %llu\n", (unsigned long long)kblocks[i]->vaddr,
				(unsigned long long)n);
	}
	pthread_mutex_unlock(&kblocks_lock);
	if (write)
		fflush(kprof);
}

static void marker_exec(unsigned int vcpu, void *tag_ptr)
{
	uint32_t tag = (uintptr_t)tag_ptr;

	if (vcpu >= MAX_VCPUS)
		return;
	if ((tag & TAG_MASK) == TAG_START) {
		vcpus[vcpu].insns = 0;
		vcpus[vcpu].kernel_insns = 0;
		vcpus[vcpu].counting = true;
		if (kprof)
			take_kprof(vcpu, tag, false);
	} else if (vcpus[vcpu].counting) {
		vcpus[vcpu].counting = false;
		fprintf(out, "insncount vcpu=%u tag=0x%08x insns=%llu\n", vcpu,
			(unsigned int)tag, (unsigned long long)vcpus[vcpu].insns);
		fprintf(out, "insncount-kernel vcpu=%u tag=0x%08x insns=%llu\n", vcpu,
			(unsigned int)tag, (unsigned long long)vcpus[vcpu].kernel_insns);
		fflush(out);
		if (kprof)
			take_kprof(vcpu, tag, true);
	}
}

/* the tag of a marker instruction, or 0 */
static uint32_t marker_tag(const struct qemu_plugin_insn *insn)
{
	const unsigned char *b = qemu_plugin_insn_data(insn);
	uint32_t tag;

	if (qemu_plugin_insn_size(insn) != 7 || b[0] != 0x0f || b[1] != 0x1f ||
	    b[2] != 0x80)
		return 0;
	memcpy(&tag, b + 3, sizeof(tag));	/* x86 is little-endian */
	if ((tag & TAG_MASK) != TAG_START && (tag & TAG_MASK) != TAG_STOP)
		return 0;
	return tag;
}

static void tb_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct kblock *k = kprof && vaddr >= KERNEL_START ? new_kblock(vaddr, n) : NULL;
	uintptr_t data = n;

	if (vaddr >= KERNEL_START)
		data |= KERNEL_BLOCK;
	if (k)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, kblock_exec, QEMU_PLUGIN_CB_NO_REGS, k);
	else
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)data);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint32_t tag = marker_tag(insn);

		if (tag)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)tag);
	}
}

static void at_exit(qemu_plugin_id_t id, void *unused)
{
	fclose(out);
	if (kprof)
		fclose(kprof);
}

PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				      const struct qemu_info_t *info, int argc,
				      char **argv)
{
	const char *path = NULL, *kprof_path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else if (!strncmp(argv[i], "kprof=", 6))
			kprof_path = argv[i] + 6;
	}
	if (!path) {
		fprintf(stderr, "insncount: give out=FILE\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	if (kprof_path) {
		kprof = fopen(kprof_path, "w");
		if (!kprof) {
			perror(kprof_path);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
