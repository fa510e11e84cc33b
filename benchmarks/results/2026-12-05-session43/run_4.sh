#!/usr/bin/env bash
# Session 43 run 4: ct1d_pipe with x split once per tile into shared memory (PipeKey.xsplit,
# A from shared memory: 1 = a window of its own, 2 = in place of the raw window) against
# the shipped split per column offset into A fragments, on the 13 sweep calls the family
# takes and one ANY_L call; each output NaN-poisoned and checked against float64.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/environment.txt" 2>&1
(cd benchmarks && timeout 500 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 \
  up-32-16-s2 up-32-32-s4 up-16-16-s8 up-64-64-s3 sd-s2d2k3-c64 sd-s2d1k7 sd-s1d4k3 sd-s5d1k11 \
  g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --call anyl-64-32=8,64,32,4,65536,2,2,1 --rounds 3 \
  --variant "xs1=dispatch.PIPE_XSPLIT:1" --variant "xs2=dispatch.PIPE_XSPLIT:2" > "$OUT/ab_xsplit.txt" 2>&1)
grep -E "^[a-z0-9-]+ \(|median|Error|error" "$OUT/ab_xsplit.txt" | cut -c1-150
grep -E "err [0-9.e+-]+" -o "$OUT/ab_xsplit.txt" | sort -t' ' -k2 -g | tail -2
# then the GPU tests of the new path (no xdist: one process, so the dispatcher constant set
# before pytest starts holds): the pipe random calls in both split modes, and the 3xFP16
# split's precision tests on ct1d_pipe (wide dynamic range, extreme magnitudes, non-finite
# x, edge cases) with PIPE_XSPLIT 1 and 2 in turn
for xs in 1 2; do
  timeout 200 python3 -c "import sys, pytest, cupyconv._dispatch as d; d.PIPE_XSPLIT = $xs; sys.exit(pytest.main(sys.argv[1:]))" \
    -q -m gpu -p no:cacheprovider tests/test_gpu.py \
    -k "pipe_family_random_calls and xsplit$xs or (pipe and (wide_dynamic or extreme_magnitudes or nonfinite or edge_cases))" \
    > "$OUT/gpu_tests_xsplit$xs.log" 2>&1
  echo "PIPE_XSPLIT=$xs: $(tail -1 "$OUT/gpu_tests_xsplit$xs.log")"; grep -E "^FAILED|Error" "$OUT/gpu_tests_xsplit$xs.log" | head -5
done
