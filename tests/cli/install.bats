#!/usr/bin/env bats
# make install: a separate program finds liboom with pkg-config, links and runs;
# the shared library exports only oom_* symbols.

load helpers

setup() {
	DEST="$BATS_TEST_TMPDIR/dest"
	make -s -C "$TOP" install DESTDIR="$DEST" PREFIX=/usr/local >/dev/null
	export PKG_CONFIG_SYSROOT_DIR="$DEST"
	export PKG_CONFIG_PATH="$DEST/usr/local/lib/pkgconfig"
}

@test "the installed tree holds the library, its links, header, pc file and tools" {
	[ -f "$DEST/usr/local/lib/liboom.so.0.1.0" ]
	[ "$(readlink "$DEST/usr/local/lib/liboom.so.0")" = liboom.so.0.1.0 ]
	[ "$(readlink "$DEST/usr/local/lib/liboom.so")" = liboom.so.0 ]
	[ -f "$DEST/usr/local/lib/liboom.a" ]
	[ -f "$DEST/usr/local/include/liboom.h" ]
	[ -x "$DEST/usr/local/bin/oom-dump" ]
	run objdump -p "$DEST/usr/local/lib/liboom.so.0.1.0"
	[[ "$output" == *"SONAME               liboom.so.0"* ]]
}

@test "a separate program links with pkg-config --cflags --libs liboom and runs" {
	cat > "$BATS_TEST_TMPDIR/prog.c" <<-'C'
	#include <stdio.h>
	#include <liboom.h>
	int main(void)
	{
		int s;
		if (oom_adj_to_score_adj(-17, &s) < 0)
			return 1;
		printf("%d\n", s);
		return 0;
	}
	C
	flags=$(pkg-config --cflags --libs liboom)
	[[ "$flags" == *"-loom"* ]]
	cc -o "$BATS_TEST_TMPDIR/prog" "$BATS_TEST_TMPDIR/prog.c" $flags
	run env LD_LIBRARY_PATH="$DEST/usr/local/lib" "$BATS_TEST_TMPDIR/prog"
	[ "$status" -eq 0 ]
	[ "$output" = "-1000" ]
}

@test "nm -D shows only oom_* symbols defined by the library" {
	run bash -c "nm -D --defined-only '$DEST/usr/local/lib/liboom.so.0.1.0' | awk '\$2 ~ /^[TDBRW]\$/ {print \$3}'"
	[ "$status" -eq 0 ]
	[ -n "$output" ]
	bad=$(printf '%s\n' "$output" | grep -v '^oom_' | grep -v '^LIBOOM_' || true)
	[ -z "$bad" ]
}

@test "uninstall removes what install put there" {
	make -s -C "$TOP" uninstall DESTDIR="$DEST" PREFIX=/usr/local >/dev/null
	[ ! -e "$DEST/usr/local/lib/liboom.so.0" ]
	[ ! -e "$DEST/usr/local/include/liboom.h" ]
	[ ! -e "$DEST/usr/local/bin/oom-dump" ]
}
