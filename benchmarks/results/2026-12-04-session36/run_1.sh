#!/usr/bin/env bash
# Session 36 run 1: ct1d_pipe's x windows asked of L2 ahead of their cp.async loads
# (CT1D_PIPE_X_PREFETCH 1: per 128-byte line, 2: one bulk prefetch per row; AHEAD tiles past
# the ring's newest load), and the output copies without the evict-first policy, A/B on
# the sweep's fourteen ct1d_pipe calls (outputs NaN-poisoned and checked against torch).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
cd benchmarks && timeout 520 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 \
  up-32-16-s2 up-32-32-s4 up-16-16-s8 up-64-64-s3 sd-s2d2k3-c64 sd-s2d1k7 sd-s1d4k3 sd-s5d1k11 \
  g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --rounds 3 \
  --variant "line1=CT1D_PIPE_X_PREFETCH:1" --variant "bulk1=CT1D_PIPE_X_PREFETCH:2" \
  --variant "line2=CT1D_PIPE_X_PREFETCH:1,CT1D_PIPE_X_PREFETCH_AHEAD:2" \
  --variant "noevict=CT1D_BULK_EVICT_FIRST:0" > "$OUT/ab_prefetch.txt" 2>&1
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_prefetch.txt"; tail -3 "$OUT/ab_prefetch.txt"
