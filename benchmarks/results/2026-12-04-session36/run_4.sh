#!/usr/bin/env bash
# Session 36 run 4: the shipped code (warp-uniform indices; per-lane copies; no L2 prefetch)
# with the new shape rules (one-stage rings for ANY_L and 4-byte-x calls, 5 warpgroups up to
# 48 fragment registers) A/B against session 35's rules, then the full GPU suite.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
(cd benchmarks && timeout 90 python3 ab_variant.py auto up-32-16-s2 up-64-64-s3 sd-s2d2k3-c64 \
  --call anyl64o32=16,64,32,4,65536,2,2,1 --call x4c32k8s4=8,32,32,8,65535,4,2,1 \
  --call anyl32o16=16,32,16,4,65536,2,2,1 --rounds 3 \
  --variant "s35rules=dispatch.PIPE_ONE_STAGE_ANY_L:False,dispatch.PIPE_ONE_STAGE_X4:False,dispatch.PIPE_WG5_MAX_REGS:0" \
  > "$OUT/ab_rules.txt" 2>&1)
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_rules.txt"; tail -1 "$OUT/ab_rules.txt"
OUT=$OUT timeout 480 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 "$OUT/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/gpu_tests.log" | head
