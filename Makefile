# tickstat: make every tick-stop decision observable.
#
#   make demo    build everything, boot the patched kernel, record a scenario, report
#   make check   all tests (host and guest)
#   make shell   an interactive guest (patched kernel; TREE=stock, debian-6.1,
#                debian-6.1-rt, debian-6.12 or debian-6.12-rt for another)
#   make tools   only tickstat and tickplot (needs only the libraries' -dev packages)
#   make install / make uninstall   the tools, man pages, docs, Prometheus rules, bash
#                completion and monitor service (PREFIX, DESTDIR, SYSCONFDIR)
#   make deb     Debian packages of the tools, in build/deb
#   make kernel-deb   Debian packages of the patched kernel (KCONFIG=guest|debian)
#
# V=1 shows the commands and the kernel build output.

BUILD := build
TREE ?= patched
VARIANT ?= nohz_full
V ?= 0
export V

# make check records how long each phase takes (scripts/timed, tests/run-tests)
# and prints the table at the end (scripts/phases); other targets record nothing.
TIMED := scripts/timed
PHASES := $(CURDIR)/$(BUILD)/check-phases.tsv
ifneq ($(filter check check-stage1,$(MAKECMDGOALS)),)
export TICKSTAT_PHASES := $(PHASES)
endif

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
INSNCOUNT := $(BUILD)/tests/bench/insncount.so

.PHONY: all deps kernel kernel-stock kernel-patched kernel-variants kernel-source debian-kernels kmod \
	kmod-patched \
	image workloads tickstat demo check check-start scenario bench soak shell kernels-doc clean distclean

all: kernel image tickstat

deps:
	$(Q)$(TIMED) "build deps" scripts/install-deps.sh

# The kernel build is incremental inside build-kernel.sh: make decides per object.
kernel: kernel-stock kernel-patched
kernel-stock kernel-patched: kernel-%: deps
	$(Q)$(TIMED) "build kernel $*-nohz_full" scripts/build-kernel.sh $* nohz_full

# The patched tree with the other tick configs, booted by the conformance
# suite's variant scenarios (make check-variants; not in make check: each is
# nearly a whole kernel, docs/check-time.md).  nohz_idle starts from a copy
# of the nohz_full objects
# (build-kernel.sh), so it comes after kmod-patched, the last step that
# writes into them; hz_periodic starts from nohz_idle's, the variant it
# differs from least, so it comes after that (a rebuild of about 40 objects
# instead of a whole kernel).
# (Pattern rules: make skips the implicit-rule search for .PHONY targets, so
# kernel-variant-% and kmod-debian-% stay out of .PHONY; no file has their
# names.)
KERNEL_VARIANTS := nohz_idle hz_periodic
kernel-variants: $(addprefix kernel-variant-,$(KERNEL_VARIANTS))
kernel-variant-%: deps kmod-patched
	$(Q)$(TIMED) "build kernel patched-$*" scripts/build-kernel.sh patched $*
kernel-variant-hz_periodic: kernel-variant-nohz_idle

# The stock tree, extracted only: checkpatch.test runs its scripts/checkpatch.pl
kernel-source: deps
	$(Q)$(TIMED) "build kernel-source stock" scripts/build-kernel.sh stock nohz_full source

# Debian's own kernels (make check boots them), fetched with apt-get download
# into build/debian, each with its headers, for the test module
debian-kernels: deps
	$(Q)$(TIMED) "build debian-kernels" sh -c 'scripts/debian-kernel.py --headers debian-6.1 \
		debian-6.12 debian-6.1-rt debian-6.12-rt >/dev/null'

# The conformance suite's test module, per kernel (loaded only in the guest):
# the patched kernel, Debian's 6.1 (the stock side of make check), 6.12 (its
# scenarios with tickstat's probes) and the PREEMPT_RT ones (the causes)
kmod: kmod-patched kmod-debian-6.1 kmod-debian-6.12 kmod-debian-6.1-rt kmod-debian-6.12-rt
kmod-patched: kernel-patched
	$(Q)$(TIMED) "build kmod patched" scripts/build-kmod.sh patched
kmod-debian-%: debian-kernels
	$(Q)$(TIMED) "build kmod debian-$*" scripts/build-kmod.sh debian-$*

workloads: $(WORKLOADS)
$(BUILD)/tests/workloads/%: tests/workloads/%.c tests/workloads/workload.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)gcc -O2 -Wall -Wextra -Werror -static -o $@ $<

# QEMU plugin that counts guest instructions, for tests/bench/cost
$(INSNCOUNT): tests/bench/insncount.c tests/bench/qemu-plugin-api.h
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	$(Q)gcc -O2 -Wall -Wextra -Wno-unused-parameter -Werror -shared -fPIC -fvisibility=hidden -o $@ $<

tickstat: $(TICKSTAT)
$(TICKSTAT): $(TICKSTAT_SRC)
	@echo "  CC $@"
	$(Q)$(TIMED) "build tickstat" $(MAKE) -s -C tools/tickstat O=$(CURDIR)/$(BUILD)/tools/tickstat

image: $(INITRAMFS)
$(INITRAMFS): guest-image/manifest guest-image/init guest-image/initramfs.py $(WORKLOADS) \
		tests/workloads/loc-delta $(TICKSTAT)
	@echo "  INITRAMFS $@"
	$(Q)$(TIMED) "build initramfs" guest-image/initramfs.py guest-image/manifest $@

demo: deps kernel-patched image
	$(Q)tests/demo.sh

# make check runs in two stages (docs/check-time.md).  The first builds what
# the tests need and runs the tests that boot no guest, with make -j2: a
# download, an extraction, a link or a packaging step leaves a core idle,
# which another job then takes.  Its tests write their TAP into build/check/.
# The second stage runs every other test, one at a time: the guests measure
# time, and a host busy with other work changes what they see.  At the end,
# scripts/phases prints how long each phase took, and the failures are
# printed once more after that table: CI keeps a long log's tail.
CHECK := $(BUILD)/check
# the tests that need only the tools, the fixtures and Debian's packages
TOOL_TESTS := host/analysis-owner host/bad-outputs host/check-gate host/completion host/deb.test host/install \
	host/diagnosis-rules host/doctor host/doctor-recording host/manpages host/monitor-service \
	host/monitor-unit host/perf-rotation host/vector-armers host/prometheus-rules host/runner-scan host/tickplot \
	host/tickstat-fuzz host/tickstat-unit host/doc-examples host/scenario-names host/runner-retry \
	host/quota-marks host/page-sums host/tick-cpus host/range-agreement
# stage1-test NAME PATTERNS: run these tests into $(CHECK)/NAME.tap; a
# failure is counted at the end, and the builds go on
stage1-test = tests/run-tests $(2) >$(CHECK)/$(1).tap 2>&1 || true

# The packages first, on their own: under -j2 on a fresh machine, stage 1
# compiled tickstat while apt-get was still installing its libraries.
# (Not as a prerequisite of the builds: make tools and make install, which
# debian/rules and users run, must not install the development packages.)
check: check-start
	$(Q)$(MAKE) --no-print-directory deps
	$(Q)$(TIMED) "stage 1: builds and the tests without a guest (make -j2)" \
		$(MAKE) -j2 --no-print-directory check-stage1 TICKSTAT_PHASES=$(CHECK)/stage1.tsv
	$(Q)$(BESIDE_CHECK)
	$(Q){ tests/run-tests $$(for f in $(CHECK)/*.tap; do printf -- '--earlier %s ' "$$f"; done); \
		echo $$? >$(CHECK)/stage2.rc; } | tee $(CHECK)/stage2.out; \
		scripts/phases $(PHASES) $(BUILD)/check-phases.txt; rc=$$(cat $(CHECK)/stage2.rc 2>/dev/null || echo 1); \
		[ "$$rc" = 0 ] || sed -n '/^# the failures again:$$/,$$p' $(CHECK)/stage2.out; exit "$${rc:-1}"

# The patched 6.12 (its kernel, test module and the series' bisect walk)
# builds beside the second stage at nice 19 (scripts/beside-check, in a
# process group of its own but in make check's session: the scheduler's
# autogroups are per session, and a build in a session of its own took half
# the CPU whatever its nice, stretching the first stage by 8 minutes when it
# started there).  The guests keep about one core of two busy, and the build
# takes the other when they leave it idle (a whole kernel in the first stage
# would cost 7 of the budget's 40 minutes; docs/check-time.md).
# guest/series-6.12.test, run last, waits for the kernel and its module
# ($(CHECK)/beside-kernel.rc), boots it while the bisect walk goes on, then
# waits for that too ($(CHECK)/beside-stage2.rc); guest/top.test, which a
# busy host fails, stops the build while its guest runs.
BESIDE_CHECK = python3 -c 'import os, sys; os.setpgid(0, 0); os.execvp(sys.argv[1], sys.argv[1:])' \
	scripts/beside-check $(CHECK) $(MAKE) </dev/null >/dev/null 2>&1 &
.PHONY: series-6.12 series-6.12-kernel series-6.12-bisect
series-6.12: series-6.12-kernel
	$(Q)$(MAKE) --no-print-directory series-6.12-bisect
series-6.12-kernel: deps
	$(Q)$(TIMED) "build kernel patched-6.12" scripts/build-kernel.sh patched-6.12 nohz_full
	$(Q)$(TIMED) "build kmod patched-6.12" scripts/build-kmod.sh patched-6.12
# the walk starts from a copy of the patched 6.12's objects: build them first
series-6.12-bisect: deps
	$(Q)[ -f $(BUILD)/kernel/obj/patched-6.12-nohz_full/vmlinux ] || \
		{ echo "series-6.12-bisect: no patched 6.12 objects: make series-6.12-kernel first" >&2; exit 1; }
	$(Q)$(TIMED) "bisect the 6.12 series" scripts/bisect-series.sh 6.12

check-start:
	@# a build beside an earlier make check that was stopped must not race this one
	@if [ -f $(CHECK)/beside.pgid ]; then pg=$$(cat $(CHECK)/beside.pgid); \
		kill -CONT -- -$$pg 2>/dev/null; kill -TERM -- -$$pg 2>/dev/null; sleep 1; true; fi
	@rm -rf $(CHECK)
	@mkdir -p $(CHECK)
	@printf 'start\t%s\n' "$$(date +%s.%N)" >$(PHASES)

.PHONY: check-variants check-stage1 check-tools check-runner check-bisect check-config-matrix check-checkpatch \
	check-kernel-deb
check-stage1: check-tools check-runner check-bisect check-config-matrix check-checkpatch \
	check-kernel-deb kernel-patched kernel-source kmod image kernel-deb
check-tools: deps $(TICKSTAT)
	$(Q)$(call stage1-test,tools,$(TOOL_TESTS))
# the runner's own tests boot guests but measure no time (exit codes, files):
# they wait on timeouts and boots while the builds run
check-runner: deps kernel-patched image
	$(Q)$(call stage1-test,runner,guest/runner-failures guest/runner-io)
# the bisect tree starts as a copy of the patched tree and its objects
check-bisect: kmod-patched
	$(Q)$(call stage1-test,bisect,host/bisect)
# its variants start from a copy of the nohz_full objects, which
# kmod-patched writes into last
check-config-matrix: kmod-patched
	$(Q)$(call stage1-test,config-matrix,host/config-matrix)
check-checkpatch: kernel-source
	$(Q)$(call stage1-test,checkpatch,host/checkpatch)
check-kernel-deb: kernel-deb
	$(Q)$(call stage1-test,kernel-deb,host/kernel-deb)

# The conformance scenarios that boot the other tick configs (nohz-idle-build,
# hz-periodic): their kernels cost about 8 minutes of make check's 40, so
# they run here, not there (docs/check-time.md)
check-variants: deps kernel-variants image
	$(Q)tests/conformance/run --tree patched --variant others

# One conformance scenario (or several: NAME="lone-task two-tasks") on the
# patched kernel, or TREE=stock, debian-6.1, ... (its test module built first)
scenario: deps kernel-patched image
	$(Q)case "$(TREE)" in stock) scripts/build-kernel.sh stock nohz_full;; esac
	$(Q)case "$(TREE)" in patched) \
		need=" $$(tests/conformance/run --variants-of $(NAME) | tr '\n' ' ')" || exit; \
		for v in $(KERNEL_VARIANTS); do \
			case "$$need" in *" $$v "*) scripts/build-kernel.sh patched $$v || exit;; esac; \
		done;; esac
	$(Q)scripts/build-kmod.sh $(TREE)
	$(Q)tests/conformance/run --tree $(TREE) -v $(NAME)

# docs/kernels.md: the support matrix, measured on every kernel
kernels-doc: deps kernel-patched series-6.12 image
	$(Q)scripts/kernel-matrix.py -o docs/kernels.md

# Benchmarks (not part of check): observer effect, report throughput, the
# recorders against trace-cmd at 8, 32 and 64 vCPUs (scale), the report
# against a trace.dat's saved command lines (cmdlines), the series'
# cost against the stock kernel of the same config (the bench
# variant: nohz_full, -O2, which bench builds itself), and what tickstat's
# probes cost on Debian's 6.12; docs/performance.md is regenerated
bench: deps kernel image debian-kernels $(INSNCOUNT)
	$(Q)scripts/build-kernel.sh stock bench
	$(Q)scripts/build-kernel.sh patched bench
	$(Q)tests/bench/run
	$(Q)tests/bench/scale --doc docs/performance.md
	$(Q)scripts/install-deps.sh valgrind
	$(Q)tests/bench/cmdlines --doc docs/performance.md
	$(Q)tests/bench/cost --doc docs/performance.md
	$(Q)tests/bench/probes --doc docs/performance.md

# tickstat monitor for about 14 minutes in a guest: its memory and CPU time
# (not part of check; docs/monitoring.md has the figures)
soak: deps kernel image
	$(Q)tests/bench/monitor-soak

shell: deps image
	$(Q)case "$(TREE)" in debian-*) ;; *) scripts/build-kernel.sh $(TREE) $(VARIANT);; esac
	$(Q)guest-image/run-guest --tree $(TREE) --variant $(VARIANT) --shell

clean:
	rm -rf $(BUILD)/tests $(INITRAMFS)

distclean:
	rm -rf $(BUILD)

# ---- installing: the tools, their man pages, the docs and tickstat monitor's unit ----
# make install [PREFIX=/usr/local] [DESTDIR=...]; make uninstall removes exactly that.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/tickstat
# what tickstat needs at run time, where /usr/share/doc may be left out
# (minimal images drop it): the Prometheus rules and their promtool tests
PKGDATADIR ?= $(DATADIR)/tickstat
PROMDIR := $(PKGDATADIR)/prometheus
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
# the monitor service's options (EnvironmentFile= of its unit: /etc/default)
SYSCONFDIR ?= /etc
TICKPLOT_DIR := $(DATADIR)/tickplot
MAN_PAGES := $(wildcard tools/tickstat/man/*.1) tools/tickplot/man/tickplot.1
# the users' docs; those of the project's development stay in the source tree
DEV_DOCS := docs/guest.md docs/performance.md docs/design.md docs/check-time.md
DOCS := README.md $(filter-out $(DEV_DOCS),$(wildcard docs/*.md))
DOCS_SCENARIOS := $(wildcard docs/scenarios/*.md)
DOCS_IMAGES := $(wildcard docs/images/*.png)
PROMETHEUS := docs/prometheus/tickstat.rules.yml docs/prometheus/tickstat.rules.test.yml
COMPLETIONS := tools/tickstat/bash-completion/tickstat tools/tickplot/bash-completion/tickplot
# tickstat monitor's unit; systemd also reads /usr/local/lib/systemd/system
UNITDIR ?= $(PREFIX)/lib/systemd/system
UNIT := tools/tickstat/systemd/tickstat-monitor.service
UNIT_DEFAULTS := tools/tickstat/systemd/tickstat-monitor.default
INSTALLED := $(BINDIR)/tickstat $(BINDIR)/tickplot \
	$(TICKPLOT_DIR)/tickplot $(TICKPLOT_DIR)/tickplot.py \
	$(patsubst %,$(MANDIR)/man1/%,$(notdir $(MAN_PAGES))) \
	$(patsubst %,$(DOCDIR)/%,$(notdir $(DOCS))) \
	$(patsubst %,$(DOCDIR)/scenarios/%,$(notdir $(DOCS_SCENARIOS))) \
	$(patsubst %,$(DOCDIR)/images/%,$(notdir $(DOCS_IMAGES))) \
	$(patsubst %,$(PROMDIR)/%,$(notdir $(PROMETHEUS))) \
	$(patsubst %,$(BASHCOMPDIR)/%,$(notdir $(COMPLETIONS))) \
	$(UNITDIR)/$(notdir $(UNIT)) $(SYSCONFDIR)/default/tickstat-monitor
# The man pages, the unit and the rules name the Debian package's paths of
# the docs and rules (/usr/share/...): they get the ones installed to.
INSTALL_PATHS := sed -e 's|/usr/share/doc/tickstat|$(DOCDIR)|g' \
	-e 's|/usr/share/tickstat|$(PKGDATADIR)|g' -e 's|/etc/default/tickstat|$(SYSCONFDIR)/default/tickstat|g'

.PHONY: tools install uninstall deb kernel-deb

tools: $(TICKSTAT)

install: tools
	@echo "  INSTALL $(DESTDIR)$(PREFIX)"
	$(Q)install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(TICKPLOT_DIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(DOCDIR)/scenarios $(DESTDIR)$(DOCDIR)/images $(DESTDIR)$(PROMDIR) \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/default
	$(Q)install -m 755 $(TICKSTAT) $(DESTDIR)$(BINDIR)/tickstat
	$(Q)install -m 755 tools/tickplot/tickplot $(DESTDIR)$(TICKPLOT_DIR)/tickplot
	$(Q)install -m 644 tools/tickplot/tickplot.py $(DESTDIR)$(TICKPLOT_DIR)/tickplot.py
	$(Q)ln -sfn $$(realpath -m --relative-to=$(BINDIR) $(TICKPLOT_DIR)/tickplot) \
		$(DESTDIR)$(BINDIR)/tickplot
	$(Q)for f in $(MAN_PAGES); do \
		$(INSTALL_PATHS) $$f >$(DESTDIR)$(MANDIR)/man1/$${f##*/} && \
		chmod 644 $(DESTDIR)$(MANDIR)/man1/$${f##*/} || exit 1; done
	$(Q)install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	$(Q)install -m 644 $(DOCS_SCENARIOS) $(DESTDIR)$(DOCDIR)/scenarios/
	$(Q)install -m 644 $(DOCS_IMAGES) $(DESTDIR)$(DOCDIR)/images/
	$(Q)for f in $(PROMETHEUS); do \
		$(INSTALL_PATHS) $$f >$(DESTDIR)$(PROMDIR)/$${f##*/} && \
		chmod 644 $(DESTDIR)$(PROMDIR)/$${f##*/} || exit 1; done
	$(Q)install -m 644 $(COMPLETIONS) $(DESTDIR)$(BASHCOMPDIR)/
	$(Q)$(INSTALL_PATHS) -e 's|^ExecStart=/usr/bin/tickstat |ExecStart=$(BINDIR)/tickstat |' $(UNIT) \
		>$(DESTDIR)$(UNITDIR)/$(notdir $(UNIT))
	$(Q)chmod 644 $(DESTDIR)$(UNITDIR)/$(notdir $(UNIT))
	$(Q)install -m 644 $(UNIT_DEFAULTS) $(DESTDIR)$(SYSCONFDIR)/default/tickstat-monitor

# Python's byte-code cache, written when root first runs tickplot, goes too.
uninstall:
	@echo "  UNINSTALL $(DESTDIR)$(PREFIX)"
	$(Q)rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	$(Q)rm -rf $(DESTDIR)$(TICKPLOT_DIR)/__pycache__
	$(Q)for d in $(DOCDIR)/images $(DOCDIR)/scenarios $(DOCDIR) $(PROMDIR) $(PKGDATADIR) \
		$(TICKPLOT_DIR); do [ ! -d "$(DESTDIR)$$d" ] || rmdir "$(DESTDIR)$$d"; done

# The tools' .deb files (tickstat, tickplot), built from a copy of this tree in build/deb
deb:
	$(Q)scripts/build-deb.sh $(BUILD)/deb

# The patched kernel as linux-image and linux-headers .deb files in build/kernel-deb.
# KCONFIG=guest (default): the guest's nohz_full config, packaged from a copy of
# the objects the guest tests boot; KCONFIG=debian: Debian's config for FLAVOUR.
KCONFIG ?= guest
FLAVOUR ?= cloud-amd64
# after kmod-patched, the last step that writes into the objects it copies
kernel-deb: deps kmod-patched
	$(Q)$(TIMED) "build kernel-deb $(KCONFIG)" scripts/build-kernel-deb.sh $(KCONFIG) $(FLAVOUR)
