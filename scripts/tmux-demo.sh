#!/usr/bin/env bash
# tmux-demo.sh drives the rewardlens dashboard as a person would: it runs
# the binary (BIN, else $BIN, else one it builds) on the embedded sample in
# a detached tmux session of 120x40, sends keys (the tabs, a group opened,
# the help, / to find a trajectory, enter on the Pareto tab and back, a
# Steps chart full screen, a method switch, the next batch, a weight edit,
# a constraint typed in the weights editor, quit) and saves what the
# screen shows after each one in a
# directory it prints. It exits non-zero when a screen lacks what the key
# should have brought (the new method in the header, the next batch...).
# Then it runs scripts/tmux-follow-demo.sh on the same binary: --follow
# on files that grow, rotate and disappear, and stats --follow. Its tmux
# server is its own (tmux -L), which it prints.
#
#   scripts/tmux-demo.sh [BIN]      then look at the captures it lists
#   BIN=/tmp/rewardlens scripts/tmux-demo.sh
#   tmux -L <socket> attach         (while it runs) to watch
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
demo_setup tmux-demo "${1:-}"

session="rewardlens-demo-$$"
tmux new-session -d -s "$session" -x 120 -y 40 "$bin"
trap end_tmux EXIT

step=0
failed=0

# expect NAME TEXT: waits up to 5 s for the screen to show TEXT, then saves
# the screen as NN-NAME.txt; a screen that never shows TEXT is a failure.
expect() {
	local name=$1 text=$2 file
	step=$((step + 1))
	file=$(printf '%s/%02d-%s.txt' "$out" "$step" "$name")
	for _ in $(seq 50); do
		tmux capture-pane -p -t "$session" >"$file"
		if grep -qF -- "$text" "$file"; then
			echo "PASS  $file: $text"
			return
		fi
		sleep 0.1
	done
	echo "FAIL  $file: no \"$text\""
	failed=1
}

# press KEY NAME TEXT: sends KEY (a tmux key name) and expects TEXT.
press() {
	tmux send-keys -t "$session" "$1"
	expect "$2" "$3"
}

echo "captures in $out"
expect start "frac_zero_std_groups"
press 1 tab1-rewards "[1 Rewards]"
press 2 tab2-groups "2 without GRPO signal (zero spread)"
# The Groups tab: a group's completions, one of them whole, back, sorted.
press Down groups-down "[2 Groups]"
press Enter groups-open "prompt  p01"
press Enter groups-completion "s00-p01-c0 · in group p01"
press Escape groups-back-to-group "8 completions"
press Escape groups-back "16 groups"
press s groups-sort "sorted by signal"
press ? help-open "Help: Groups"
press Escape help-closed "16 groups"
press 3 tab3-objectives "Pearson correlation"
press 4 tab4-pareto "[4 Pareto]"
press 5 tab5-trajectories "[5 Trajectories]"
press 6 tab6-steps "[6 Steps]"
press 7 tab7-compare "[7 Compare]"
# / from any tab finds a trajectory by id on the Trajectories tab.
press / find "[5 Trajectories]"
tmux send-keys -t "$session" -l "s00-p07-c3"
press Enter find-kept "1 trajectory"
press Enter find-open "read from"
press Escape find-back "1 trajectory"
press Escape find-cleared "128 trajectories"
# tab_key TITLE prints the number key of the tab titled TITLE, read from
# the tab bar: the tabs' numbers follow their order, which may change.
tab_key() {
	tmux capture-pane -p -t "$session" | sed -n 2p | grep -oE "[0-9] $1" | cut -c1
}

# The Pareto tab: enter opens the selected trajectory, esc goes back.
press "$(tab_key Pareto)" pareto "Pareto ranks:"
# The first point is the leftmost, of the batch's 4th group.
press Down pareto-next-group "group 5 of 16"
press Enter pareto-open "esc: back to the plot"
expect pareto-open-detail "computed (pareto)"
press Escape pareto-back "Pareto ranks:"
press + pareto-zoom "zoom ×2"
press 0 pareto-reset "Pareto ranks:"
# The Steps tab: enter shows the selected chart alone, esc all of them.
press "$(tab_key Steps)" steps "reward std"
press Down steps-next "▸ reward std"
press Enter steps-full "esc: all charts"
press Escape steps-grid "frac_zero_std_grou"
# Back to a tab of few keys, whose help line leaves room for the
# global ones the weight edit checks.
press "$(tab_key Compare)" compare-again "(A) against"
# The sample is opened with method pareto; m goes to the next one of
# engine.Methods.
press m method-next "method: pareto-crowding"
press ']' batch-next "batch 2/40 step 1"
press w weights "[accuracy 0.60]"
press Down weights-down "[safety 0.30]"
press + weights-plus "[safety 0.35]"
# A constraint typed in the weights editor: refused with the CLI's error,
# fixed, applied (the header's feasible share), removed.
press c constraint-typing "constraint>"
tmux send-keys -t "$session" -l "safety + 1"
press Enter constraint-refused "is not a boolean"
tmux send-keys -t "$session" C-u
tmux send-keys -t "$session" -l "safety >= 0.9"
press Enter constraint-applied "feasible"
press x constraint-removed "constraints (c) none"
press Escape weights-done "m/M method" # the footer of the tab, not the editor's
tmux send-keys -t "$session" q
for _ in $(seq 50); do
	tmux has-session -t "$session" 2>/dev/null || break
	sleep 0.1
done
if tmux has-session -t "$session" 2>/dev/null; then
	echo "FAIL  q did not quit"
	failed=1
else
	echo "PASS  q quit"
fi

echo
scripts/tmux-follow-demo.sh "$bin" || failed=1
exit "$failed"
