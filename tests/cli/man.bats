#!/usr/bin/env bats
# Every man page renders without a groff warning.

load helpers

@test "man pages render cleanly with groff -man -ww" {
	n=0
	for page in "$TOP"/man/*.[1-8]; do
		run groff -man -ww -z "$page"
		echo "$page: $output"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
		n=$((n + 1))
	done
	[ "$n" -ge 1 ]
}
