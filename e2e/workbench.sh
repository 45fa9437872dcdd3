#!/usr/bin/env bash
# End-to-end run of the real binary in a terminal (tmux): start the workbench
# on the built-in data, wait for the first cascade and keep it, change λ,
# wait for the warm restart to finish and keep that cascade too, open the
# compare view, start a λ sweep and cancel it after its first points, quit;
# then signals, and a quit on a load error. The captured screens must show
# the views and no panic.
# Screens are left in $OUT (default a temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { apt-get update -qq && apt-get install -y -qq tmux >/dev/null; }
out=${OUT:-$(mktemp -d)}
bin="$out/cronus"
go build -o "$bin" .
session=cronus-e2e-$$
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
start=(tmux new-session -d -s "$session" -x 160 -y 48 "$bin; echo EXITED \$?; sleep 30")
# tmux's server, just started, once exited at once ("server exited
# unexpectedly": CI of c690188, 2026-12-01; the script passed when run
# again, nothing on screen yet): try once more before giving up.
"${start[@]}" || { sleep 1; "${start[@]}"; }

wait_for() { # wait_for PATTERN SECONDS FILE
  for _ in $(seq "$2"); do
    tmux capture-pane -p -t "$session" > "$out/$3"
    if grep -q "$1" "$out/$3"; then return 0; fi
    if grep -qE 'panic|goroutine [0-9]' "$out/$3"; then echo "panic on screen:"; cat "$out/$3"; exit 1; fi
    sleep 1
  done
  echo "timed out waiting for '$1'; the screen was:"; cat "$out/$3"; exit 1
}

wait_for 'run [0-9]* finished' 180 first.txt
for want in 'objective (eq 8)' 'fraction of inputs reaching each stage' 'features first extracted per stage' 'versus cost per document' 'stages (K = 10)' 'params' 'NDCG@10'; do
  grep -q "$want" "$out/first.txt" || { echo "the first screen lacks '$want':"; cat "$out/first.txt"; exit 1; }
done
run=$(grep -o 'run [0-9]* finished' "$out/first.txt" | head -1 | awk '{print $2}')
tmux send-keys -t "$session" k
wait_for 'kept #1' 10 keep1.txt
tmux send-keys -t "$session" Right
wait_for 'λ 0.015' 10 edit.txt
wait_for "run $((run + 1)) finished" 180 second.txt
tmux send-keys -t "$session" k
wait_for 'kept #2' 10 keep2.txt
tmux send-keys -t "$session" c
wait_for 'compare kept cascades (2 of at most 4)' 10 compare.txt
for want in 'kept #1' 'kept #2' 'NDCG@10' 'P@5' 'p vs #1 ref' 'p vs #1 [0-9.<]'; do
  grep -q "$want" "$out/compare.txt" || { echo "the compare view lacks '$want':"; cat "$out/compare.txt"; exit 1; }
done
tmux send-keys -t "$session" c
tmux send-keys -t "$session" w
wait_for 'λ sweep [1-7]/8' 60 sweep.txt
grep -Eq '[×+]+ λ sweep' "$out/sweep.txt" || { echo "the plot has no λ sweep series:"; cat "$out/sweep.txt"; exit 1; }
tmux send-keys -t "$session" w
wait_for 'λ sweep cancelled at [1-8] of 8' 10 sweep-cancel.txt
tmux send-keys -t "$session" q
wait_for 'EXITED 0' 10 exit.txt

# A signal from outside ends the workbench at once with the signal's status
# and the terminal given back: SIGTERM as the first screen shows, SIGINT
# once a run has finished (Bubble Tea's own handler, beside the
# command's, hung it 1 time in 4 there, and a signal exited 1 or 0).
signal_ends() { # signal_ends SIGNAL STATUS WAIT_FOR
  tmux kill-session -t "$session" 2>/dev/null || true
  tmux new-session -d -s "$session" -x 160 -y 48 "$bin; echo EXITED \$?; sleep 30"
  wait_for "$3" 180 "sig-$1-before.txt"
  local shell pid
  shell=$(tmux display -p -t "$session" '#{pane_pid}')
  pid=$(pgrep -P "$shell" -x cronus)
  kill -s "$1" "$pid"
  wait_for "EXITED $2" 10 "sig-$1.txt"
  if grep -q 'objective (eq 8)\|training the base' "$out/sig-$1.txt"; then
    echo "the workbench's screen is still up after $1:"; cat "$out/sig-$1.txt"; exit 1
  fi
}
signal_ends TERM 143 'objective (eq 8)\|training'
signal_ends INT 130 'run [0-9]* finished'

# A workbench quit on a load error exits 1 and says why once its screen is
# gone, as a subcommand given the same file would.
tmux kill-session -t "$session" 2>/dev/null || true
printf '1 qid:1 1:0.5\n0 qid:1 1:x\n' > "$out/bad.txt"
tmux new-session -d -s "$session" -x 160 -y 48 "$bin tui --train $out/bad.txt --valid $out/bad.txt --costs builtin:mq2008/costs; echo EXITED \$?; sleep 30"
wait_for 'error:' 60 bad-load.txt
tmux send-keys -t "$session" q
wait_for 'EXITED 1' 10 bad-exit.txt
grep -q "the workbench ended on an error: .*bad.txt:2" "$out/bad-exit.txt" || { echo "the error is not printed on leaving:"; cat "$out/bad-exit.txt"; exit 1; }
echo "workbench e2e ok (screens in $out)"
