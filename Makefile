# tickstat: make every tick-stop decision observable.
#
#   make demo    build everything, boot the patched kernel, record a scenario, report
#   make check   all tests (host and guest)
#   make shell   an interactive guest (patched kernel; TREE=stock for the other)
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

.PHONY: all deps kernel kernel-stock kernel-patched kernel-variants kmod image workloads tickstat demo check \
	scenario bench shell clean distclean

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

# The conformance suite's test module, per kernel (loaded only in the guest)
kmod: kernel
	$(Q)scripts/build-kmod.sh stock
	$(Q)scripts/build-kmod.sh patched

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

demo: deps kernel image
	$(Q)tests/demo.sh

check: deps kernel kernel-variants kmod image
	$(Q)tests/run-tests

# One conformance scenario (or several: NAME="lone-task two-tasks"); TREE=stock
scenario: deps kernel kernel-variants kmod image
	$(Q)tests/conformance/run --tree $(TREE) -v $(NAME)

# Benchmarks (not part of check): observer effect, report throughput, and
# the series' cost against the stock kernel of the same config (the bench
# variant: nohz_full, -O2), which bench builds itself; docs/performance.md
# is regenerated
bench: deps kernel image
	$(Q)scripts/build-kernel.sh stock bench
	$(Q)scripts/build-kernel.sh patched bench
	$(Q)tests/bench/run
	$(Q)tests/bench/cost --doc docs/performance.md

shell: deps image
	$(Q)scripts/build-kernel.sh $(TREE) $(VARIANT)
	$(Q)guest-image/run-guest --tree $(TREE) --variant $(VARIANT) --shell

clean:
	rm -rf $(BUILD)/tests $(INITRAMFS)

distclean:
	rm -rf $(BUILD)
