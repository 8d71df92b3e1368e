# Shared set-up for the bats suites: tool paths and fixture copies.
TOP="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
OOM_DUMP="$TOP/tools/oom-dump"
OOMCTL="$TOP/tools/oomctl"
OOMTOP="$TOP/tools/oomtop"
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
