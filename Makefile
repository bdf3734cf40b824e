# tickstat: make every tick-stop decision observable.
#
#   make demo    build everything, boot the patched kernel, record a scenario, report
#   make check   all tests (host and guest)
#   make shell   an interactive guest (patched kernel; TREE=stock, debian-6.1,
#                debian-6.1-rt, debian-6.12 or debian-6.12-rt for another)
#
# V=1 shows the commands and the kernel build output.

BUILD := build
TREE ?= patched
VARIANT ?= nohz_full
V ?= 0
export V

ifeq ($(V),1)
Q :=
else
Q := @
endif

WORKLOADS := $(patsubst tests/workloads/%.c,$(BUILD)/tests/workloads/%,$(wildcard tests/workloads/*.c))
KERNELS := $(BUILD)/kernel/obj/stock-nohz_full/arch/x86/boot/bzImage \
	   $(BUILD)/kernel/obj/patched-nohz_full/arch/x86/boot/bzImage
INITRAMFS := $(BUILD)/initramfs.cpio.gz
TICKSTAT := $(BUILD)/tools/tickstat/tickstat
TICKSTAT_SRC := $(wildcard tools/tickstat/src/*.[ch]) tools/tickstat/Makefile

.PHONY: all deps kernel kernel-stock kernel-patched kernel-variants kernel-source debian-kernels kmod \
	image workloads tickstat demo check scenario bench shell kernels-doc clean distclean

all: kernel image tickstat

deps:
	$(Q)scripts/install-deps.sh

# The kernel build is incremental inside build-kernel.sh: make decides per object.
kernel: kernel-stock kernel-patched
kernel-stock kernel-patched: kernel-%: deps
	$(Q)scripts/build-kernel.sh $* nohz_full

# The patched tree with the other tick configs, booted by the conformance suite
kernel-variants: deps
	$(Q)scripts/build-kernel.sh patched nohz_idle
	$(Q)scripts/build-kernel.sh patched hz_periodic

# The stock tree, extracted only: checkpatch.test runs its scripts/checkpatch.pl
kernel-source: deps
	$(Q)scripts/build-kernel.sh stock nohz_full source

# Debian's own kernels (make check boots them), fetched with apt-get download
# into build/debian; debian-6.1 with its headers, for the test module
debian-kernels: deps
	$(Q)scripts/debian-kernel.py --headers debian-6.1 >/dev/null
	$(Q)scripts/debian-kernel.py debian-6.1-rt debian-6.12 >/dev/null

# The conformance suite's test module, per kernel (loaded only in the guest):
# the patched kernel and Debian's 6.1, the stock side of make check
kmod: kernel-patched debian-kernels
	$(Q)scripts/build-kmod.sh patched
	$(Q)scripts/build-kmod.sh debian-6.1

workloads: $(WORKLOADS)
$(BUILD)/tests/workloads/%: tests/workloads/%.c tests/workloads/workload.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)gcc -O2 -Wall -Wextra -Werror -static -o $@ $<

tickstat: $(TICKSTAT)
$(TICKSTAT): $(TICKSTAT_SRC)
	@echo "  CC $@"
	$(Q)$(MAKE) -s -C tools/tickstat O=$(CURDIR)/$(BUILD)/tools/tickstat

image: $(INITRAMFS)
$(INITRAMFS): guest-image/manifest guest-image/init guest-image/initramfs.py $(WORKLOADS) \
		tests/workloads/loc-delta $(TICKSTAT)
	@echo "  INITRAMFS $@"
	$(Q)guest-image/initramfs.py guest-image/manifest $@

demo: deps kernel-patched image
	$(Q)tests/demo.sh

check: deps kernel-patched kernel-variants kernel-source kmod image
	$(Q)tests/run-tests

# One conformance scenario (or several: NAME="lone-task two-tasks") on the
# patched kernel, or TREE=stock, debian-6.1, ... (its test module built first)
scenario: deps kernel-patched kernel-variants image
	$(Q)case "$(TREE)" in stock) scripts/build-kernel.sh stock nohz_full;; esac
	$(Q)scripts/build-kmod.sh $(TREE)
	$(Q)tests/conformance/run --tree $(TREE) -v $(NAME)

# docs/kernels.md: the support matrix, measured on every kernel
kernels-doc: deps kernel-patched image
	$(Q)scripts/kernel-matrix.py -o docs/kernels.md

# Benchmarks (not part of check): observer effect and report throughput
bench: deps kernel image
	$(Q)tests/bench/run

shell: deps image
	$(Q)case "$(TREE)" in debian-*) ;; *) scripts/build-kernel.sh $(TREE) $(VARIANT);; esac
	$(Q)guest-image/run-guest --tree $(TREE) --variant $(VARIANT) --shell

clean:
	rm -rf $(BUILD)/tests $(INITRAMFS)

distclean:
	rm -rf $(BUILD)
