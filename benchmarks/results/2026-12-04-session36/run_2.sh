#!/usr/bin/env bash
# Session 36 run 2: ct1d_pipe's output copies issued per warp from uniform registers
# (CT1D_PIPE_UNIFORM_COPIES 1, now shipped; NVRTC: no spills left in any sweep instance), the
# pipe family's GPU tests on it, an A/B against the per-lane copies on the pipe's calls, the
# shapes the freed registers allow (4 warpgroups at 112 fragment registers, one-stage rings
# for ANY_L and 4-byte-x calls, 5 warpgroups), and stage ablations (timing only).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 12)
timeout 200 python3 -m pytest -m gpu -v -W ignore "${par[@]}" tests/test_gpu.py -k "pipe" \
  -p no:cacheprovider > "$OUT/gpu_tests.log" 2>&1
tail -3 "$OUT/gpu_tests.log"; grep -c PASSED "$OUT/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/gpu_tests.log" | head
cd benchmarks
CALLS="--call anyl64o32=16,64,32,4,65536,2,2,1 --call x4c32k8s4=8,32,32,8,65535,4,2,1"
timeout 200 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 \
  up-32-16-s2 up-32-32-s4 up-16-16-s8 up-64-64-s3 sd-s2d2k3-c64 sd-s2d1k7 sd-s1d4k3 sd-s5d1k11 \
  g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 $CALLS --rounds 3 \
  --variant "lanecopy=CT1D_PIPE_UNIFORM_COPIES:0" > "$OUT/ab_copies.txt" 2>&1
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_copies.txt"; tail -2 "$OUT/ab_copies.txt"
SH='((4,3,2),(4,2,2),(4,1,2),(4,3,1),(4,2,1),(4,1,1),(3,3,2),(3,2,2),(3,3,1),(3,2,1),(3,1,2),(3,1,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))'
W5="((5,3,2),(5,2,2),(5,3,1),(5,2,1),${SH:1}"
timeout 200 python3 ab_variant.py auto up-64-64-s3 up-32-16-s2 sd-s1d4k3 g4-128-k4-s2 up-16-16-s8 $CALLS --rounds 3 \
  --variant "wg4r112=dispatch.PIPE_WG4_MAX_REGS:112" \
  --variant "onestage=dispatch.PIPE_ONE_STAGE_ANY_L:True,dispatch.PIPE_ONE_STAGE_X4:True" \
  --variant "wg5=dispatch.PIPE_WG5_MAX_REGS:80,dispatch.PIPE_SHAPES:$W5" > "$OUT/ab_shapes.txt" 2>&1
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_shapes.txt"; grep -E "ct1d_pipe<" "$OUT/ab_shapes.txt" | awk '{print $NF}' | sort | uniq -c; tail -2 "$OUT/ab_shapes.txt"
timeout 100 python3 ab_variant.py auto hifigan-u4-b16 up-32-16-s2 up-64-64-s3 --rounds 2 \
  --variant "nowgmma=CT1D_PIPE_ABLATE:1" --variant "nox=CT1D_PIPE_ABLATE:2" --variant "nocopy=CT1D_PIPE_ABLATE:3" \
  --variant "nobuild=CT1D_PIPE_ABLATE:4" --variant "noepi=CT1D_PIPE_ABLATE:5" > "$OUT/ablate.txt" 2>&1
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ablate.txt"
