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
# The live tests expect the processes they start to begin at oom_score_adj 0, whatever the
# runner's is (a login session may run at 100 or more). Going back down to 0 needs no
# privilege unless a privileged writer raised oom_score_adj_min: best effort.
echo 0 >/proc/self/oom_score_adj 2>/dev/null || true

# fixture NAME: a private copy of tests/fixtures/NAME (tests may write to it); prints its path.
fixture() {
	local dst="$BATS_TEST_TMPDIR/root-$1"
	rm -rf "$dst"
	cp -a "$FIXTURES/$1" "$dst"
	printf '%s\n' "$dst"
}
