#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# race-load.sh LEADER_EXIT PIDFILE: churns short-lived processes until killed.
# Run it under setsid: its PID (written to PIDFILE) is then the process group
# the test kills, never a name. Each round starts plain processes that exit
# at once or after a few milliseconds, multi-threaded processes whose leader
# exits first (LEADER_EXIT), plain zombies nobody reaps for a while, and
# SIGKILLs some of them mid-life.
le=$1
echo $$ >"$2"
while :; do
	pids=()
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
		sleep "0.0$((RANDOM % 10))" &
		pids+=($!)
		/bin/true
	done
	for _ in 1 2 3; do
		"$le" $((1 + RANDOM % 4)) $((RANDOM % 150)) &
		pids+=($!)
	done
	# A plain zombie: its parent execs sleep and never reaps it.
	(sleep 0 & exec sleep 0.2) &
	pids+=($!)
	# Kill a random third of this round at a random moment.
	sleep "0.00$((RANDOM % 10))"
	for p in "${pids[@]}"; do
		((RANDOM % 3 == 0)) && kill -KILL "$p" 2>/dev/null
	done
	wait
done
