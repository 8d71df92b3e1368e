#!/usr/bin/env bats
# The bash completion for oom-dump: loads, completes options, formats, heuristics and directories.

load helpers

setup() {
	source "$TOP/completions/oom-dump"
}

# comp WORD...: completes the last word of "oom-dump WORD..."; prints COMPREPLY sorted.
comp() {
	COMP_WORDS=(oom-dump "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_oom_dump
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

@test "the completion is registered for oom-dump" {
	complete -p oom-dump | grep -q _oom_dump
}

@test "--format= completes the four formats, in both word splittings" {
	# bash splits at '=' by default: "--format" "=" ""
	[ "$(comp --format = '' | tr '\n' ' ')" = "2.6.36 json modern prometheus " ]
	[ "$(comp --format = m)" = modern ]
	# one word (COMP_WORDBREAKS without '='): the replies keep the option
	[ "$(comp --format= | tr '\n' ' ')" = "--format=2.6.36 --format=json --format=modern --format=prometheus " ]
	[ "$(comp --format=p)" = --format=prometheus ]
	[ "$(comp -f j)" = json ]
}

@test "--heuristic and --sort complete their names" {
	[ "$(comp --heuristic '' | tr '\n' ' ')" = "kernel legacy rewrite " ]
	[ "$(comp --heuristic = le)" = legacy ]
	[ "$(comp --sort s | tr '\n' ' ')" = "score swap " ]
}

@test "options complete from a dash" {
	out=$(comp --sa)
	[ "$out" = "$(printf '%s\n' --save --save-cmdline)" ]
	comp - | grep -qx -- --from-log
	comp - | grep -qx -- --header
	comp --c | grep -qx -- --cpuset-of
	[ "$(comp --se | tr '\n' ' ')" = "--select " ]
}

@test "--root and --save complete directories only" {
	mkdir -p "$BATS_TEST_TMPDIR/tree/dirA"
	touch "$BATS_TEST_TMPDIR/tree/fileB"
	cd "$BATS_TEST_TMPDIR/tree"
	[ "$(comp --root '')" = dirA ]
	[ "$(comp --save d)" = dirA ]
	[ "$(comp --root=d)" = --root=dirA ]
	[ "$(comp --root = d)" = dirA ]
}
