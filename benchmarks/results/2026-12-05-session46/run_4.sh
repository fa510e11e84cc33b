#!/usr/bin/env bash
# Session 46 run 4 (any sm_90 card; A/B in one process): ct1d_pipe's warp-specialised
# blocks of 64 output channels (PIPE_WS_NCO64_MAX_N), where each x window is loaded and
# split once per 64 channels, not by two blocks of 32. GPU tests of the pipe family first
# (the new ws_64_channels parameter among them), then the A/B: shipped / n64 / n64 with two
# producers (n64p2) / n64 with the ANY_L routing opened (n64any: the seed on ct1d_pipe).
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
timeout 300 python3 -m pytest -m gpu -n 16 -q tests/test_gpu.py -k "pipe_family" > "$OUT/tests_pipe.txt" 2>&1
echo "tests rc $?" >> "$OUT/tests_pipe.txt"
tail -3 "$OUT/tests_pipe.txt"
(cd benchmarks && timeout 200 python3 ab_variant.py auto seed sd-s2d2k3-c64 sd-s2d1k7 --rounds 5 \
   --call "c64-s1k3=16,64,64,3,65536,1,1,1" --call "up-32-64-s2=16,32,64,4,65536,2,1,1" \
   --variant "n64=dispatch.PIPE_WS_NCO64_MAX_N:192" \
   --variant "n64p2=dispatch.PIPE_WS_NCO64_MAX_N:192,dispatch.PIPE_WS_SHAPES:((2, 2, 5, 1), (2, 1, 5, 1), (2, 2, 5, 2))" \
   --variant "n64any=dispatch.PIPE_WS_NCO64_MAX_N:192,dispatch.PIPE_ANY_L_MIN_STEPS:0") > "$OUT/ab_nco64.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_nco64.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_nco64.txt" | cut -c1-160
