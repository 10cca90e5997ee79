# charscan: every entry point.  `make help` lists them.
#
# libclang: the newest of Debian 12's (libclang-19-dev) when installed, else
# the default libclang-dev (14); override with LLVM_CONFIG=.

LLVM_CONFIG ?= $(firstword $(wildcard /usr/lib/llvm-19/bin/llvm-config) llvm-config)
PREFIX ?= /usr/local
DESTDIR ?=
KERNEL_SRC ?= $(CURDIR)/work/linux-6.1
CONFIG ?= tiny
# The kernel's architecture for make scan and evaluate (docs/kernel.md,
# "Other architectures"): clang's own cross target, no cross gcc.
ARCH ?= x86_64
JOBS ?= $(shell nproc)
SHARDS ?= 1
# Where SARIF helpUri points: the rule pages (set it to your published copy,
# e.g. https://github.com/OWNER/charscan/blob/main/rules/).
RULES_URI ?= file://$(CURDIR)/rules/
INFO_URI ?= file://$(CURDIR)/README.md

LLVM_LIBDIR := $(shell $(LLVM_CONFIG) --libdir)
CC ?= cc
WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
ifeq ($(SANITIZE),1)
BUILD := out/asan
CFLAGS += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else ifeq ($(SANITIZE),thread)
# Races between threads (confirm's workers; the scan's are processes):
# ThreadSanitizer.
BUILD := out/tsan
CFLAGS += -O1 -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS += -fsanitize=thread
else
BUILD := out/build
endif
CPPFLAGS += -I$(shell $(LLVM_CONFIG) --includedir) -Iscanner -Irules -I$(BUILD) -D_GNU_SOURCE \
	-DCHARSCAN_RULES_URI='"$(RULES_URI)"' \
	-DCHARSCAN_INFO_URI='"$(INFO_URI)"'
# libclang's folder, for a libclang outside the loader's path (RPATH= for
# one that is in it: Debian's package, see debian/rules).
RPATH ?= -Wl,-rpath,$(LLVM_LIBDIR)
LDLIBS += -L$(LLVM_LIBDIR) $(RPATH) -lclang -ljansson -lcrypto -lpthread

SRCS := $(wildcard scanner/*/*.c)
OBJS := $(SRCS:scanner/%.c=$(BUILD)/%.o)
RULE_DOCS := $(sort $(wildcard rules/CS*.md))
CHARSCAN := $(BUILD)/charscan
# Fuzz harnesses (fuzz/NAME.c); make check replays their corpora.
FUZZERS := compdb config suppress sarif-read writers wire fix rspfile literal
REPLAYS := $(FUZZERS:%=$(BUILD)/replay-%)

all: $(CHARSCAN) $(BUILD)/charscan.1

$(CHARSCAN): $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(BUILD)/%.o: scanner/%.c $(wildcard scanner/*/*.h) rules/rules.def rules/verdicts.def $(BUILD)/rule_help.h | $(BUILD)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

$(BUILD)/rule_help.h: scanner/cli/gen-help.sh $(RULE_DOCS) | $(BUILD)
	sh scanner/cli/gen-help.sh $(RULE_DOCS) > $@.tmp && mv $@.tmp $@

$(BUILD):
	mkdir -p $@

# The man page is --help, typeset.
$(BUILD)/charscan.1: $(CHARSCAN) scanner/cli/gen-man.sh
	sh scanner/cli/gen-man.sh $(CHARSCAN) > $@.tmp && mv $@.tmp $@

install: $(CHARSCAN) $(BUILD)/charscan.1
	install -D -m 755 $(CHARSCAN) $(DESTDIR)$(PREFIX)/bin/charscan
	install -D -m 644 $(BUILD)/charscan.1 $(DESTDIR)$(PREFIX)/share/man/man1/charscan.1
	install -d $(DESTDIR)$(PREFIX)/share/doc/charscan/rules
	install -m 644 README.md SECURITY.md $(DESTDIR)$(PREFIX)/share/doc/charscan/
	install -d $(DESTDIR)$(PREFIX)/share/doc/charscan/docs
	install -m 644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/charscan/docs/
	install -m 644 $(RULE_DOCS) $(DESTDIR)$(PREFIX)/share/doc/charscan/rules/

# Tests: rule cases, bad input, SARIF schema, determinism.
check: $(CHARSCAN) $(BUILD)/charscan.1 $(REPLAYS) tests/node_modules/.installed
	python3 tests/run.py --charscan $(CHARSCAN)

# Our own parsers fuzzed (fuzz/NAME.c): each harness on its own with
# libFuzzer, clang-19, ASan and UBSan, for FUZZ_SECONDS each; new inputs go
# to out/fuzz/corpus/NAME, crashes to out/fuzz/NAME-crash-*.  make check
# replays the corpora in fuzz/corpus/ with the scanner's own build.
FUZZ_CC ?= clang-19
FUZZ_SECONDS ?= 60
FUZZ_BUILD := out/fuzz
FUZZ_FLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
LIB_OBJS = $(filter-out %/main.o,$(OBJS))
FUZZ_OBJS := $(filter-out %/main.o,$(SRCS:scanner/%.c=$(FUZZ_BUILD)/obj/%.o))
FUZZ_CPPFLAGS = $(CPPFLAGS) -Ifuzz

$(FUZZ_BUILD)/obj/%.o: scanner/%.c $(wildcard scanner/*/*.h) rules/rules.def rules/verdicts.def $(BUILD)/rule_help.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu11 $(CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(WARN) -c -o $@ $<

$(FUZZ_BUILD)/%: fuzz/%.c fuzz/fuzz.c fuzz/fuzz.h $(FUZZ_OBJS)
	$(FUZZ_CC) -std=gnu11 $(FUZZ_CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer $(WARN) \
		-o $@ $< fuzz/fuzz.c $(FUZZ_OBJS) $(LDLIBS)

# The same harnesses with a plain main(): make check replays the corpora.
$(BUILD)/replay-%: fuzz/%.c fuzz/fuzz.c fuzz/replay.c fuzz/fuzz.h $(LIB_OBJS)
	$(CC) -std=gnu11 $(FUZZ_CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) -o $@ $< fuzz/fuzz.c \
		fuzz/replay.c $(LIB_OBJS) $(LDLIBS)

check-fuzz: $(FUZZERS:%=$(FUZZ_BUILD)/%)
	sh fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZERS)

tests/node_modules/.installed: tests/package.json tests/package-lock.json
	cd tests && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# A scan of the bundled rule cases: SARIF in out/demo.sarif, text on stdout.
demo: $(CHARSCAN)
	mkdir -p out/demo
	python3 tests/rule-db.py rules/tests out/demo/compile_commands.json
	$(CHARSCAN) -p out/demo --srcroot $(CURDIR) -o out/demo.sarif --format text; \
	  rc=$$?; [ $$rc -le 1 ] || exit $$rc; echo "SARIF report: out/demo.sarif"

# The main job: the packaged kernel, scanned.
# SCAN_BUILD=DIR SCAN_FRAGMENT=FILE: scan a tree make boot built (no rebuild).
# SHARDS=N: N shards on GNU parallel, merged (the same report).
scan: $(CHARSCAN)
	SHARDS=$(SHARDS) ARCH=$(ARCH) sh kernel/scan.sh $(CHARSCAN) $(KERNEL_SRC) $(CONFIG) $(SCAN_BUILD) $(SCAN_FRAGMENT)

# The scan against the codegen oracle (charscan confirm): explained,
# accounted and confirmed figures, out/<config>-unaccounted.tsv.
# SAMPLE=N: every Nth TU only (a big config's first figure).
evaluate: $(CHARSCAN)
	SAMPLE=$(or $(SAMPLE),1) ARCH=$(ARCH) sh kernel/evaluate.sh $(CHARSCAN) $(KERNEL_SRC) $(CONFIG)

# make C=1 / C=2 CHECK="charscan --kbuild" on a built tree (make boot's
# signed one: the packaged tree and the KUnit suites), against make scan's
# report of the packaged tree.
KBUILD_TREE ?= $(CURDIR)/work/linux-6.1-signed
KBUILD_DIR ?= $(CURDIR)/work/kbuild/signed
kbuild-check: $(CHARSCAN)
	python3 tests/kbuild-check.py $(CHARSCAN) $(KBUILD_TREE) $(KBUILD_DIR) out/$(notdir $(KERNEL_SRC)).sarif

# Four kernels, char signed and unsigned, without and with the fixes,
# booted: each fix proven by its KUnit cases (out/boot-report.txt).
boot:
	ARCH=x86_64 sh boot/boot.sh $(KERNEL_SRC)

# BENCH_DB=compile_commands.json BENCH_TUS=200 BENCH_RUNS=3; the tables
# are appended to bench/RESULTS.md.  BENCH_FLAGS: --no-cache-rows leaves
# the cache table out, --cache-header PATH changes that header in it.
BENCH_DB ?= $(CURDIR)/work/kbuild/scan-linux-6.1/compile_commands.json
bench: $(CHARSCAN)
	python3 tests/bench.py $(CHARSCAN) $(BENCH_DB) $(or $(BENCH_TUS),200) $(or $(BENCH_RUNS),3) \
		--results bench/RESULTS.md $(BENCH_FLAGS)

clean:
	rm -rf out

help:
	@echo "make [all]      build $(CHARSCAN) (LLVM_CONFIG=$(LLVM_CONFIG))"
	@echo "make check      run the tests (SANITIZE=1: under ASan+UBSan, SANITIZE=thread: TSan)"
	@echo "make check-fuzz run each fuzz/ harness FUZZ_SECONDS=$(FUZZ_SECONDS) s (libFuzzer)"
	@echo "make scan       scan Debian's linux-source-6.1 -> out/linux-6.1.sarif (ARCH=arm64...)"
	@echo "make evaluate   the scan against the codegen oracle (CONFIG=tiny|defconfig, ARCH=)"
	@echo "make kbuild-check  make C=1/C=2 CHECK=charscan on the tree make boot built"
	@echo "make boot       build and boot four kernels: each fix proven in QEMU"
	@echo "make bench      charscan vs clang -fsyntax-only and clang-tidy; cache rows"
	@echo "make install    PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)"

.PHONY: all install check check-fuzz demo scan evaluate kbuild-check boot bench clean help
