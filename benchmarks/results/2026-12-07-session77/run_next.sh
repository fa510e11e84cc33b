#!/usr/bin/env bash
# Session 77's device steps: session 76's steps (../2026-12-07-session76/run_next.sh) in
# the order this session wants them.
# Usage: run_next.sh auto | STEP (any of session 76's steps: tests ntests sweep regs chains)
#   auto   on an H200: sweep (issue 4's record), then ntests, then chains;
#          on an H100: ntests, chains, regs; all within AUTO_S seconds
set -uo pipefail
s76=$(dirname "$0")/../2026-12-07-session76/run_next.sh
if [[ ${1:-} == auto ]]; then
  steps=(ntests chains regs)
  [[ $(nvidia-smi --query-gpu=name --format=csv,noheader) == *H200* ]] && steps=(sweep ntests chains)
  for step in "${steps[@]}"; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
    timeout "$left" bash "$s76" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
exec bash "$s76" "$@"
