#!/usr/bin/env bash
# Session 69 run 2 (the last ~4 device minutes, any card): run_1.sh's first two steps only:
# the torch CUDA dtype probe and session 68's rule tests (ct1d_scatter's pass rule, its
# edge cases with this session's two huge-stride calls, determinism, smaller shared memory).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/all"
timeout 60 python3 benchmarks/results/2026-12-06-session69/torch_cuda_rules.py 2>&1 | tee "$OUT/torch_cuda_rules.txt"
OUT=$OUT/all bash benchmarks/results/2026-12-06-session68/run_next.sh rule 2>&1 | tee "$OUT/rule.txt"
tar -C "$OUT" -czf "$OUT/all.tgz" all && rm -rf "$OUT/all"
