# Shared set-up for the bats suites: tool paths and fixture copies.
TOP="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
# OOM_TOOLS_DIR: where the tools are (make check-asan and check-valgrind point it elsewhere).
OOM_TOOLS_DIR="${OOM_TOOLS_DIR:-$TOP/tools}"
OOM_DUMP="$OOM_TOOLS_DIR/oom-dump"
OOMCTL="$OOM_TOOLS_DIR/oomctl"
OOMTOP="$OOM_TOOLS_DIR/oomtop"
FIXTURES="$TOP/tests/fixtures"
EXPECTED="$TOP/tests/cli/expected"
unset OOM_ROOT

# fixture NAME: a private copy of tests/fixtures/NAME (tests may write to it); prints its path.
fixture() {
	local dst="$BATS_TEST_TMPDIR/root-$1"
	rm -rf "$dst"
	cp -a "$FIXTURES/$1" "$dst"
	printf '%s\n' "$dst"
}

# sleep_at_zero SECS [PREFIX...]: a background `PREFIX... sleep SECS` (PREFIX e.g. setpriv)
# that starts at oom_score_adj 0 whatever this shell's is (a session may run at 100 or more;
# going back down to 0 needs no privilege unless a privileged writer raised oom_score_adj_min)
# and is this shell's child. Its PID in $ZERO_PID once it runs sleep; the test is skipped
# when 0 cannot be had here. The live tests expect their processes to start from 0.
sleep_at_zero() {
	local secs=$1
	shift
	(exec "$@" sh -c 'echo 0 >/proc/self/oom_score_adj 2>/dev/null; exec sleep "$0"' "$secs") &
	ZERO_PID=$!
	for _ in $(seq 100); do
		[ "$(cat "/proc/$ZERO_PID/comm" 2>/dev/null)" = sleep ] && break
		sleep 0.02
	done
	[ "$(cat "/proc/$ZERO_PID/oom_score_adj" 2>/dev/null)" = 0 ] ||
		skip "cannot start a process at oom_score_adj 0 here (oom_score_adj_min above 0)"
}
