#!/usr/bin/env bats
# oomtop's interactive screen, driven through tmux: keys in, the screen read back.
load helpers

setup() {
	command -v tmux >/dev/null || skip "tmux is not installed"
	SESSION="oomtop-$$-$BATS_TEST_NUMBER"
	PIDS=()
}

teardown() {
	tmux kill-session -t "$SESSION" 2>/dev/null || true
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
}

# A shell in a fixed-size tmux window with a recognisable prompt.
start_shell() {
	tmux new-session -d -s "$SESSION" -x 160 -y 40 "env -i PATH=$PATH TERM=screen HOME=$HOME bash --norc --noprofile"
	tmux send-keys -t "$SESSION" "PS1='READY\$ '" Enter
	wait_prompt
}

# Until the shell's prompt is the last line written: the program has handed the terminal back.
wait_prompt() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ "$(screen | grep -v '^$' | tail -1)" = 'READY$' ] && return 0
		sleep 0.1
	done
	echo "timed out waiting for the prompt on:" >&2
	screen >&2
	return 1
}

screen() {
	tmux capture-pane -t "$SESSION" -p
}

# wait_for REGEX [SECONDS]: until a line of the screen matches (extended regex).
wait_for() {
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	echo "timed out waiting for /$1/ on:" >&2
	screen >&2
	return 1
}

# A process that touched about 300 MiB, and idle ones beside it.
start_children() {
	python3 -c 'import time; x = b"\1" * (300 << 20); time.sleep(120)' &
	HOG=$!
	sleep 120 &
	IDLE1=$!
	sleep 120 &
	IDLE2=$!
	PIDS+=("$HOG" "$IDLE1" "$IDLE2")
	local i
	for ((i = 0; i < 100; i++)); do
		[ "$(awk '/^RssAnon/ { print $2 }' "/proc/$HOG/status" 2>/dev/null || echo 0)" -gt 250000 ] && return 0
		sleep 0.1
	done
	return 1
}

# The table's rows (PID first) in screen order.
row_pids() {
	screen | sed -n '/^ *PID USER/,$p' | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1 }'
}

@test "screen: starts, shows the header, ranks the memory hog above idle children" {
	start_children
	start_shell
	tmux send-keys -t "$SESSION" "$OOMTOP -d 0.5 -p $IDLE1,$HOG,$IDLE2" Enter
	wait_for '^ *PID USER +SCORE OOM_SCORE +ADJ +RSS +SWAP +%MEM COMMAND'
	wait_for "^ +$HOG "
	screen | grep -Eq '^totalpages [0-9]+ \((LRU\+SwapTotal|MemTotal\+SwapTotal)\)  MemTotal '
	screen | grep -Eq '^vm.panic_on_oom [0-9]  vm.oom_dump_tasks [0-9]'
	screen | grep -Eq 'heuristic rewrite  constraint none  delay 0.5s  processes [0-9]+ \([0-9]+ at -1000\)  (events|polling)'
	[ "$(row_pids | head -1)" = "$HOG" ]
	[ "$(row_pids | wc -l)" -eq 3 ]
	# The hog's RSS is shown in MiB.
	screen | grep -Eq "^ +$HOG +[^ ]+ +[0-9]+ +[0-9]+ +0 +(2[5-9][0-9]|3[0-9][0-9])M "
	tmux send-keys -t "$SESSION" q
	wait_prompt
}

@test "screen: + raises the selected child's oom_score_adj, - lowers it, EACCES is explained" {
	start_children
	start_shell
	tmux send-keys -t "$SESSION" "$OOMTOP -d 0.5 -p $IDLE1,$HOG,$IDLE2" Enter
	wait_for "^ +$HOG "
	[ "$(row_pids | head -1)" = "$HOG" ]
	tmux send-keys -t "$SESSION" +
	wait_for "PID $HOG: oom_score_adj 0 -> 100"
	[ "$(cat "/proc/$HOG/oom_score_adj")" -eq 100 ]
	tmux send-keys -t "$SESSION" +
	wait_for "PID $HOG: oom_score_adj 100 -> 200"
	[ "$(cat "/proc/$HOG/oom_score_adj")" -eq 200 ]
	# The selection follows the PID, not the row.
	tmux send-keys -t "$SESSION" -
	wait_for "PID $HOG: oom_score_adj 200 -> 100"
	[ "$(cat "/proc/$HOG/oom_score_adj")" -eq 100 ]
	tmux send-keys -t "$SESSION" - -
	# Below 0 needs CAP_SYS_RESOURCE, which root lacks on the test machines.
	local capeff
	capeff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
	if (((16#$capeff >> 24) & 1)); then
		wait_for "PID $HOG: oom_score_adj 0 -> -100"
		[ "$(cat "/proc/$HOG/oom_score_adj")" -eq -100 ]
	else
		wait_for "CAP_SYS_RESOURCE"
		[ "$(cat "/proc/$HOG/oom_score_adj")" -eq 0 ]
	fi
	# = sets an exact value.
	tmux send-keys -t "$SESSION" =
	wait_for "oom_score_adj for PID $HOG:"
	tmux send-keys -t "$SESSION" 345 Enter
	wait_for "PID $HOG: oom_score_adj -?[0-9]+ -> 345"
	[ "$(cat "/proc/$HOG/oom_score_adj")" -eq 345 ]
	tmux send-keys -t "$SESSION" q
	wait_prompt
}

@test "screen: / filters by name, s changes the sort, v marks the victim" {
	start_children
	start_shell
	tmux send-keys -t "$SESSION" "$OOMTOP -d 0.5 -p $IDLE1,$HOG,$IDLE2" Enter
	wait_for "^ +$HOG "
	tmux send-keys -t "$SESSION" /
	wait_for 'filter by name'
	tmux send-keys -t "$SESSION" sleep Enter
	wait_for 'name~sleep'
	sleep 0.6
	[ "$(row_pids | sort -n | tr '\n' ' ')" = "$(printf '%s\n' "$IDLE1" "$IDLE2" | sort -n | tr '\n' ' ')" ]
	tmux send-keys -t "$SESSION" /
	wait_for 'filter by name'
	tmux send-keys -t "$SESSION" Enter
	wait_for "^ +$HOG "
	# The victim is chosen system-wide: whoever it is (or whatever the outcome), the line says so.
	tmux send-keys -t "$SESSION" v
	wait_for '^sort score  (victim [0-9]+ \(|would panic|a kill is already in progress: [0-9]+|no killable processes)'
	tmux send-keys -t "$SESSION" s
	wait_for '^sort oom_score'
	tmux send-keys -t "$SESSION" h
	wait_for 'oomtop keys'
	tmux send-keys -t "$SESSION" x
	wait_for '^ *PID USER'
	tmux send-keys -t "$SESSION" q
	wait_prompt
}

@test "screen: q, Ctrl-C, SIGTERM and a crash restore the terminal" {
	local shell_pid pid
	start_shell
	shell_pid=$(tmux display-message -p -t "$SESSION" '#{pane_pid}')
	tmux send-keys -t "$SESSION" "stty -g > $BATS_TEST_TMPDIR/before" Enter
	wait_prompt
	for how in q C-c TERM SEGV; do
		tmux send-keys -t "$SESSION" clear Enter
		tmux send-keys -t "$SESSION" "$OOMTOP -d 0.3 -p 1" Enter
		wait_for '^ *PID USER'
		case $how in
		TERM | SEGV)
			# The shell's child is the oomtop we just started.
			pid=$(pgrep -P "$shell_pid" -x oomtop)
			[ -n "$pid" ]
			kill -"$how" "$pid"
			;;
		*) tmux send-keys -t "$SESSION" "$how" ;;
		esac
		wait_prompt
		# The table is gone (the alternate screen was left) and the line discipline is as before.
		! screen | grep -q '^ *PID USER'
		tmux send-keys -t "$SESSION" "stty -g > $BATS_TEST_TMPDIR/after; tput cnorm; echo tput=\$?" Enter
		wait_for '^tput=0'
		cmp "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/after"
	done
}

@test "screen: without process events it polls and says so" {
	unshare -r true 2>/dev/null || skip "no user namespaces here"
	start_shell
	# In a user namespace the kernel ignores proc connector subscriptions.
	tmux send-keys -t "$SESSION" "unshare -r $OOMTOP -d 0.5 -p 1" Enter
	wait_for 'polling \(process events not permitted\)'
	tmux send-keys -t "$SESSION" q
	wait_prompt
	tmux send-keys -t "$SESSION" "$OOMTOP --poll -d 0.5 -p 1" Enter
	wait_for 'at -1000\)  polling$'
	tmux send-keys -t "$SESSION" q
	wait_prompt
}

@test "screen: events add new processes between refreshes; an overrun is answered with a rescan" {
	start_shell
	tmux send-keys -t "$SESSION" "$OOMTOP -d 600 --event-buffer 1" Enter
	wait_for '^ *PID USER'
	if screen | grep -q 'polling'; then
		skip "process events are not permitted here"
	fi
	tmux send-keys -t "$SESSION" /
	wait_for 'filter by name'
	tmux send-keys -t "$SESSION" oomtop-late Enter
	wait_for 'name~oomtop-late'
	# A new process, long before the next refresh (600 s): only an event can show it.
	cp /bin/sleep "$BATS_TEST_TMPDIR/oomtop-late"
	"$BATS_TEST_TMPDIR/oomtop-late" 120 &
	PIDS+=($!)
	wait_for "^ +$! .* oomtop-late$"
	# A fork storm against a tiny receive buffer overruns the socket.
	for ((i = 0; i < 500; i++)); do /bin/true; done
	wait_for 'events \([0-9]+ overruns?, rescanned\)'
	# It carries on: the next new process is still seen.
	"$BATS_TEST_TMPDIR/oomtop-late" 121 &
	PIDS+=($!)
	wait_for "^ +$! .* oomtop-late$"
	tmux send-keys -t "$SESSION" q
	wait_prompt
}

@test "screen: v marks the victim and the child sacrificed for it, t shows children" {
	local root
	root=$(fixture basic)
	# Make 4035 (score 1: 296 pages, no CAP_SYS_ADMIN) a child of the hog 5882 (score 1000).
	sed -i 's/^PPid:.*/PPid:\t5882/' "$root/proc/4035/status"
	sed -i 's/) S [0-9]* /) S 5882 /' "$root/proc/4035/stat"
	start_shell
	tmux send-keys -t "$SESSION" "$OOMTOP --root $root -d 0.5" Enter
	wait_for '^ +5882 '
	tmux send-keys -t "$SESSION" v
	wait_for '^V +5882 root +1000 '
	wait_for '^C +4035 [^ ]+ +1 '
	wait_for 'victim 4035 \(:-\) 1 2 3 4 5 6\) sacrificed for its parent'
	tmux send-keys -t "$SESSION" t
	wait_for '^ +[0-9]+ .* `- '
	# Under the hog, its one child.
	screen | grep -A1 -E '^V +5882 ' | tail -1 | grep -Eq '^C +4035 .*`- :-\) 1 2 3 4 5 6$'
	# The kernel heuristic sacrifices no child (removed in Linux 5.1).
	tmux send-keys -t "$SESSION" H
	wait_for 'heuristic kernel'
	wait_for 'victim 5882 \(hog\)$'
	! screen | grep -q '^C '
	tmux send-keys -t "$SESSION" q
	wait_prompt
}

@test "screen: arrows move the selection, u filters by user, p pauses, a resize redraws" {
	start_children
	start_shell
	tmux send-keys -t "$SESSION" "$OOMTOP -d 0.3 -p $IDLE1,$HOG,$IDLE2" Enter
	wait_for "^ +$HOG "
	local second
	second=$(row_pids | sed -n 2p)
	[ "$second" = "$IDLE1" ] || [ "$second" = "$IDLE2" ]
	# Down, then +: the second row's process changes, not the hog.
	tmux send-keys -t "$SESSION" Down +
	wait_for "PID $second: oom_score_adj 0 -> 100"
	[ "$(cat "/proc/$second/oom_score_adj")" -eq 100 ]
	[ "$(cat "/proc/$HOG/oom_score_adj")" -eq 0 ]
	# End, Home, PgDn, PgUp keep it on the table.
	tmux send-keys -t "$SESSION" End Home NPage PPage +
	wait_for "PID $HOG: oom_score_adj 0 -> 100"
	# u: only processes of a user who owns none of them.
	tmux send-keys -t "$SESSION" u
	wait_for 'filter by user'
	tmux send-keys -t "$SESSION" nobody Enter
	wait_for 'user nobody'
	sleep 0.5
	[ -z "$(row_pids)" ]
	tmux send-keys -t "$SESSION" u
	wait_for 'filter by user'
	tmux send-keys -t "$SESSION" Enter
	wait_for "^ +$HOG "
	tmux send-keys -t "$SESSION" p
	wait_for 'PAUSED$'
	tmux send-keys -t "$SESSION" p
	wait_for '(events|polling[^)]*\)?)$'
	# A smaller window: the header is redrawn to fit and the table still shows.
	tmux resize-window -t "$SESSION" -x 90 -y 12
	wait_for "^ +$HOG "
	[ "$(screen | wc -l)" -eq 12 ]
	screen | grep -q '^totalpages '
	! screen | awk 'length > 90 { found = 1 } END { exit !found }'
	tmux send-keys -t "$SESSION" q
	wait_prompt
}

@test "screen: paused, it reads nothing and sleeps" {
	start_shell
	tmux send-keys -t "$SESSION" "$OOMTOP -d 0.2 -p 1" Enter
	wait_for '^ *PID USER'
	local pid a b
	pid=$(pgrep -P "$(tmux display-message -p -t "$SESSION" '#{pane_pid}')" -x oomtop)
	tmux send-keys -t "$SESSION" p
	wait_for 'PAUSED$'
	a=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	sleep 2
	b=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	# A busy loop would burn about 200 ticks (USER_HZ 100) in these two seconds.
	[ $((b - a)) -lt 20 ]
	tmux send-keys -t "$SESSION" q
	wait_prompt
}
