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
DEB_PKGS := libmnl-dev libcmocka-dev libncurses-dev pkg-config bats jq tmux groff-base

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

$(B)/lib/%.o: lib/%.c lib/liboom.h lib/internal.h
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

$(B)/tests/%: tests/unit/%.c tests/unit/unit.h $(LIB_A)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Itests/unit -DFIXTURES='"$(CURDIR)/tests/fixtures"' \
		$(LDFLAGS) -o $@ $< $(LIB_A) $(LIB_LIBS) $(CMOCKA_LIBS)

check: deps
	$(Q)$(MAKE) --no-print-directory check-unit check-cli

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

# ---- make bench (tests/bench/, issue 9) ------------------------------------
# The tools against ps, top and floor scanners at 1,000 and 10,000 idle
# processes. Never part of make check. BENCH_ARGS passes options to
# tests/bench/bench.sh, e.g. make bench BENCH_ARGS="-q" for a smoke run.
BENCH_BINS := $(B)/bench/spawn $(B)/bench/floor $(B)/bench/run
BENCH_PKGS := strace procps

$(B)/bench/%: tests/bench/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

bench: all $(BENCH_BINS)
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(BENCH_PKGS)"
	$(Q)tests/bench/bench.sh $(BENCH_ARGS)
