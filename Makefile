# SPDX-License-Identifier: LGPL-2.1-or-later
# liboom: plain GNU make. The user's CFLAGS, CPPFLAGS and LDFLAGS are added to ours.

VERSION := 0.1.0
SOVERSION := 0

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DESTDIR ?=

CC ?= cc
AR ?= ar
PKG_CONFIG ?= pkg-config
INSTALL ?= install

# Debian packages the build and the tests need (make deps).
DEB_PKGS := libmnl-dev libcmocka-dev libncurses-dev pkg-config bats jq tmux groff-base python3 procps util-linux bsdutils

ifeq ($(V),1)
Q :=
else
Q := @
endif

WARNINGS := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wno-format-nonliteral -Wstrict-prototypes \
	-Wmissing-prototypes -Wpointer-arith -Wvla
HARDEN := -D_FORTIFY_SOURCE=3 -fstack-protector-strong
OUR_CFLAGS := -std=gnu11 -O2 -g -pipe $(WARNINGS) -D_GNU_SOURCE -Ilib
ALL_CFLAGS := $(OUR_CFLAGS) $(HARDEN) $(CPPFLAGS) $(CFLAGS)
LIB_CFLAGS := $(ALL_CFLAGS) -fPIC -fvisibility=hidden

B := build
LIB_HDRS := $(wildcard lib/*.h)
LIB_SRCS := $(sort $(wildcard lib/*.c))
LIB_OBJS := $(LIB_SRCS:lib/%.c=$(B)/lib/%.o)
LIB_SO := lib/liboom.so.$(VERSION)
LIB_SONAME := liboom.so.$(SOVERSION)
LIB_A := lib/liboom.a
LIB_PC := lib/liboom.pc
LIB_MAP := lib/liboom.sym

TOOL_NAMES := oom-dump oomctl oomtop
TOOLS := $(patsubst %.c,%,$(filter $(TOOL_NAMES:%=tools/%.c),$(wildcard tools/*.c)))
TOOL_COMMON_SRCS := $(filter-out $(TOOLS:%=%.c),$(wildcard tools/*.c))
TOOL_COMMON_OBJS := $(TOOL_COMMON_SRCS:tools/%.c=$(B)/tools/%.o)

LIB_LIBS = $(shell $(PKG_CONFIG) --libs libmnl 2>/dev/null || echo -lmnl)
TOOL_LIBS :=
NCURSES_LIBS = $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)

UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)

.PHONY: all lib tools check check-unit check-cli install uninstall deps run bench clean

all: lib tools

lib: $(LIB_SO) $(LIB_A) $(LIB_PC) lib/$(LIB_SONAME) lib/liboom.so

tools: $(TOOLS)

$(B)/lib/%.o: lib/%.c $(LIB_HDRS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(LIB_CFLAGS) -c -o $@ $<

$(LIB_SO): $(LIB_OBJS) $(LIB_MAP)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=$(LIB_MAP) \
		-Wl,--no-undefined $(LDFLAGS) -o $@ $(LIB_OBJS) $(LIB_LIBS)

lib/$(LIB_SONAME) lib/liboom.so: $(LIB_SO)
	$(Q)ln -sf $(notdir $(LIB_SO)) $@

$(LIB_A): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIB_PC): lib/liboom.pc.in Makefile
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' -e 's|@LIBS@|$(LIB_LIBS)|' $< > $@

$(B)/tools/%.o: tools/%.c lib/liboom.h $(wildcard tools/*.h)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -DLIBOOM_VERSION='"$(VERSION)"' -c -o $@ $<

# Tools link liboom statically: no rpath, and the same code the tests exercise.
tools/%: $(B)/tools/%.o $(TOOL_COMMON_OBJS) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(TOOL_COMMON_OBJS) $(LIB_A) $(LIB_LIBS) \
		$(if $(filter tools/oomtop,$@),$(NCURSES_LIBS))

$(B)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(LIB_A)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Itests/unit -DFIXTURES='"$(CURDIR)/tests/fixtures"' \
		$(LDFLAGS) -o $@ $< $(LIB_A) $(LIB_LIBS) $(CMOCKA_LIBS)

check: deps
	$(Q)$(MAKE) --no-print-directory check-unit check-cli scenarios

check-unit: $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do echo "== $$t"; $$t || fail=1; done; exit $$fail

check-cli: all
	$(Q)bats tests/cli

deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "Installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else \
		echo "Missing packages. Run: sudo apt-get install -y$$missing" >&2; exit 1; \
	fi

run: deps all
	$(Q)./tools/oom-dump

install: all
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIB_SO)) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/liboom.so
	$(INSTALL) -m 0644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 0644 lib/liboom.h $(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL) -m 0644 $(LIB_PC) $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 0755 $(TOOLS) $(DESTDIR)$(BINDIR)/
	@for m in $(wildcard man/*.[1-8]); do \
		s=$${m##*.}; $(INSTALL) -d $(DESTDIR)$(MANDIR)/man$$s; \
		echo $(INSTALL) -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/; $(INSTALL) -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/; \
	done
	@if [ -n "$(wildcard completions/*)" ]; then \
		$(INSTALL) -d $(DESTDIR)$(BASHCOMPDIR) && $(INSTALL) -m 0644 $(wildcard completions/*) $(DESTDIR)$(BASHCOMPDIR)/; \
	fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(notdir $(LIB_SO)) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME) $(DESTDIR)$(LIBDIR)/liboom.so
	rm -f $(DESTDIR)$(LIBDIR)/liboom.a $(DESTDIR)$(INCLUDEDIR)/liboom.h $(DESTDIR)$(PKGCONFIGDIR)/liboom.pc
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(TOOLS)))
	rm -f $(foreach m,$(wildcard man/*.[1-8]),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m)))
	rm -f $(addprefix $(DESTDIR)$(BASHCOMPDIR)/,$(notdir $(wildcard completions/*)))

clean:
	rm -rf $(B) lib/liboom.so* $(LIB_A) $(LIB_PC) $(TOOLS)

# ---- hardening: fuzzing, sanitizers, valgrind, clang-tidy (issue 7) ----------------------
# Each build goes to its own directory from the same sources; the default build is untouched.
# Tools: clang (libclang-rt-14-dev has the libFuzzer runtime), valgrind, clang-tidy.

HARDEN_PKGS := clang libclang-rt-14-dev valgrind clang-tidy

# make fuzz [FUZZ_SECONDS=60]: every tests/fuzz/fuzz-*.c harness, built against the library
# sources with libFuzzer+ASan+UBSan, first replays tests/fuzz/regress/, then fuzzes from
# tests/fuzz/corpus/NAME (new inputs go to build-fuzz/corpus/NAME, crashes to build-fuzz/artifacts).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_B := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=gnu11 -O1 -g $(WARNINGS) -D_GNU_SOURCE -Ilib $(FUZZ_SAN)
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_B)/%)
FUZZ_LIB_OBJS := $(LIB_SRCS:lib/%.c=$(FUZZ_B)/lib/%.o)

$(FUZZ_B)/lib/%.o: lib/%.c $(LIB_HDRS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_B)/liboom.a: $(FUZZ_LIB_OBJS)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(FUZZ_B)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(FUZZ_B)/liboom.a
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_B)/liboom.a $(LIB_LIBS)

.PHONY: fuzz-build fuzz check-asan check-valgrind tidy

# The unit test that replays the corpora includes the harness sources.
$(B)/tests/test-fuzz-regress $(ASAN_B)/tests/test-fuzz-regress: $(FUZZ_SRCS) tests/fuzz/fuzz.h

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@fail=0; for bin in $(FUZZ_BINS); do \
		n=$${bin##*/fuzz-}; echo "== fuzz-$$n ($(FUZZ_SECONDS) s)"; \
		mkdir -p $(FUZZ_B)/corpus/$$n $(FUZZ_B)/artifacts; \
		regress=$$(ls tests/fuzz/regress/$$n-* 2>/dev/null); \
		if [ -n "$$regress" ] && ! $$bin $$regress >$(FUZZ_B)/$$n-regress.log 2>&1; then \
			echo "fuzz-$$n: a regression input fails (see $(FUZZ_B)/$$n-regress.log)"; fail=1; continue; \
		fi; \
		dict=; [ -f tests/fuzz/dict/$$n.dict ] && dict=-dict=tests/fuzz/dict/$$n.dict; \
		$$bin -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_B)/artifacts/$$n- $$dict \
			$(FUZZ_B)/corpus/$$n tests/fuzz/corpus/$$n >$(FUZZ_B)/$$n.log 2>&1; \
		rc=$$?; grep -E '^stat::number_of_executed_units|^Done' $(FUZZ_B)/$$n.log | tr '\n' ' '; echo; \
		if [ $$rc != 0 ]; then tail -n 40 $(FUZZ_B)/$$n.log; fail=1; fi; \
	done; exit $$fail

# make check-asan: library, tools and unit tests with ASan+UBSan (aborting on the first
# report, leaks included) in build-asan/; then the unit suite and the CLI suite against them.
ASAN_B := build-asan
ASAN_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# -Wno-error: warnings are enforced by the default builds; at -O1 with instrumentation gcc's
# flow analysis differs (spurious -Wformat-truncation, -Wmaybe-uninitialized).
ASAN_CFLAGS := $(filter-out -O2,$(OUR_CFLAGS)) -O1 $(ASAN_SAN) -Wno-error $(CPPFLAGS) $(CFLAGS)
ASAN_LIB_OBJS := $(LIB_SRCS:lib/%.c=$(ASAN_B)/lib/%.o)
ASAN_TOOL_COMMON_OBJS := $(TOOL_COMMON_SRCS:tools/%.c=$(ASAN_B)/tools/%.o)
ASAN_TOOLS := $(TOOLS:tools/%=$(ASAN_B)/bin/%)
ASAN_UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(ASAN_B)/tests/%)
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

$(ASAN_B)/lib/%.o: lib/%.c $(LIB_HDRS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  ASANCC  $@")
	$(Q)$(CC) $(ASAN_CFLAGS) -c -o $@ $<

$(ASAN_B)/liboom.a: $(ASAN_LIB_OBJS)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(ASAN_B)/tools/%.o: tools/%.c lib/liboom.h $(wildcard tools/*.h)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  ASANCC  $@")
	$(Q)$(CC) $(ASAN_CFLAGS) -DLIBOOM_VERSION='"$(VERSION)"' -c -o $@ $<

$(ASAN_B)/bin/%: $(ASAN_B)/tools/%.o $(ASAN_TOOL_COMMON_OBJS) $(ASAN_B)/liboom.a
	@mkdir -p $(@D)
	@$(if $(Q),echo "  ASANLD  $@")
	$(Q)$(CC) $(ASAN_CFLAGS) $(LDFLAGS) -o $@ $< $(ASAN_TOOL_COMMON_OBJS) $(ASAN_B)/liboom.a $(LIB_LIBS) \
		$(if $(filter %/oomtop,$@),$(NCURSES_LIBS))

$(ASAN_B)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(ASAN_B)/liboom.a
	@mkdir -p $(@D)
	@$(if $(Q),echo "  ASANCC  $@")
	$(Q)$(CC) $(ASAN_CFLAGS) -Wno-missing-prototypes -Itests/unit -DFIXTURES='"$(CURDIR)/tests/fixtures"' \
		$(LDFLAGS) -o $@ $< $(ASAN_B)/liboom.a $(LIB_LIBS) $(CMOCKA_LIBS)

check-asan: $(ASAN_UNIT_BINS) $(ASAN_TOOLS)
	@fail=0; for t in $(ASAN_UNIT_BINS); do echo "== $$t"; $(ASAN_ENV) $$t || fail=1; done; \
	echo "== bats tests/cli (tools from $(ASAN_B)/bin)"; \
	$(ASAN_ENV) OOM_TOOLS_DIR=$(CURDIR)/$(ASAN_B)/bin bats tests/cli || fail=1; exit $$fail

# make check-valgrind: the CLI suite with every tool run under valgrind, through wrapper
# scripts that exec it, so the tool keeps the PID (and gets the signals) the test gave the
# wrapper. Valgrind's own messages go to a log file per process (valgrind 3.19 warns about
# openat2 on "--PID--" lines, which would otherwise land in the tools' stderr); its error and
# definite-leak reports are the "==PID==" lines, so any log holding one fails the target, even
# where a test accepts any non-zero status. Each log has the command line next to it.
# The wrappers and logs are usable by the tests that drop to nobody (setpriv).
# VALGRIND_TESTS picks the bats files (default: all of tests/cli).
VALGRIND ?= valgrind
VALGRIND_TESTS ?= tests/cli
VALGRIND_FLAGS := -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite

check-valgrind: all
	@w=$$(mktemp -d) && trap 'rm -rf "$$w"' EXIT && mkdir "$$w/bin" "$$w/log" && \
	chmod 755 "$$w" "$$w/bin" && chmod 1777 "$$w/log" && \
	for t in $(TOOLS); do \
		{ echo '#!/bin/sh'; \
		  echo 'printf "%s\\n" "$$0 $$*" >'"$$w/log/$${t##*/}"'.$$$$.cmd'; \
		  echo "exec $(VALGRIND) $(VALGRIND_FLAGS) --log-file=$$w/log/$${t##*/}.%p $(CURDIR)/$$t \"\$$@\""; \
		} >"$$w/bin/$${t##*/}" && chmod +x "$$w/bin/$${t##*/}" || exit 1; \
	done && echo "== bats tests/cli (tools under valgrind)" && \
	{ OOM_TOOLS_DIR="$$w/bin" bats $(VALGRIND_TESTS); rc=$$?; } ; \
	for l in $$(grep -l '^==[0-9]*==' $$w/log/* 2>/dev/null); do \
		echo "== valgrind: $$(cat "$$l.cmd" 2>/dev/null)"; cat "$$l"; rc=1; \
	done; exit $$rc

# make tidy: clang-tidy with the checked-in .clang-tidy over the library and the tools, with
# the project's flags minus _FORTIFY_SOURCE (its inline printf wrappers make clang 14's
# analyzer report every va_list as uninitialized).
CLANG_TIDY ?= clang-tidy
# One process per file: clang-tidy 14 crashed ("unknown parser") part-way through one long run.
tidy:
	@fail=0; for f in $(LIB_SRCS) $(wildcard tools/*.c); do \
		$(CLANG_TIDY) --quiet $$f -- $(OUR_CFLAGS) -DLIBOOM_VERSION='"$(VERSION)"' || fail=1; \
	done; exit $$fail

# ---- make bench (tests/bench/, issue 9) ------------------------------------
# The tools against ps, top and floor scanners at 1,000 and 10,000 idle
# processes. Never part of make check. BENCH_ARGS passes options to
# tests/bench/bench.sh, e.g. make bench BENCH_ARGS="-q" for a smoke run.
BENCH_BINS := $(B)/bench/spawn $(B)/bench/floor $(B)/bench/run
BENCH_PKGS := strace procps tmux

$(B)/bench/%: tests/bench/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

bench: all $(BENCH_BINS)
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(BENCH_PKGS)"
	$(Q)tests/bench/bench.sh $(BENCH_ARGS)

# ---- scenario corpus (tests/scenarios, issue 8) ----------------------------
# Every scenario through the three heuristics as a table; fails when a
# heuristic a scenario asserts picks the wrong victim, or when a committed
# tree no longer matches its generator (checked when python3 is there) or
# oom-dump cannot print it.
# Part of `make check`.
SCENARIOS_BIN := $(B)/scenarios/scenarios

$(SCENARIOS_BIN): tests/scenarios/scenarios.c lib/liboom.h $(LIB_A)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LIB_LIBS)

.PHONY: scenarios
scenarios: $(SCENARIOS_BIN) tools/oom-dump
	@if command -v python3 >/dev/null 2>&1; then python3 tests/scenarios/mkscenario.py --check; \
	else echo "scenarios: no python3, trees not compared with mkscenario.py"; fi
	@for d in tests/scenarios/*/; do \
		tools/oom-dump --root "$$d" >/dev/null && tools/oom-dump --root "$$d" --format modern >/dev/null \
		|| { echo "scenarios: oom-dump cannot read $$d" >&2; exit 1; }; \
	done
	$(Q)$(SCENARIOS_BIN) tests/scenarios
