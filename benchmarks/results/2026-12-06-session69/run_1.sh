#!/usr/bin/env bash
# Session 69 run 1 (<= 9 min, any card): session 68's prepared runs in one command
# (the scatter edge cases now include two huge-stride calls), after a probe of torch's
# CUDA dtype rules.
#   1. run_next.sh rule      GPU tests under ct1d_scatter's tap-mode pass rule + A/B (~3 min)
#   2. run_next.sh f64narrow float64 narrow-output calls: ct1d_narrow vs tap-mode scatter (~1 min)
#   3. on an H200 only: run_next.sh h200 (the issue-4 sweep refreshing results/h200/ + scan)
# Everything lands in one archive plus the short logs (the device returns <= 8 files).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/all"
N=benchmarks/results/2026-12-06-session68/run_next.sh
# torch's CUDA rules where its CPU kernels are loose (README, Semantics): a bias of another
# dtype, integer and complex inputs
timeout 60 python3 benchmarks/results/2026-12-06-session69/torch_cuda_rules.py 2>&1 | tee "$OUT/torch_cuda_rules.txt"
# (archived after each step, so a run cut short by the device limit still returns it)
OUT=$OUT/all bash $N rule 2>&1 | tee "$OUT/rule.txt"; tar -C "$OUT" -czf "$OUT/all.tgz" all
OUT=$OUT/all bash $N f64narrow 2>&1 | tee "$OUT/f64narrow.txt"; tar -C "$OUT" -czf "$OUT/all.tgz" all
OUT=$OUT/all/h200 bash $N h200 2>&1 | tee "$OUT/h200.txt"; tar -C "$OUT" -czf "$OUT/all.tgz" all
rm -rf "$OUT/all"
