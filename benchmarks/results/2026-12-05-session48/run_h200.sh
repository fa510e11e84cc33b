#!/usr/bin/env bash
# Session 48, H200 only (exits rc 3 at once elsewhere). 1: session 46's run_13 / session 47's
# run_1 A/B: rows of y of any length up to 16 k16 steps on ct1d_pipe (`any16`, the H100's rule
# since session 47); 2: the card test; 3: any16 patched into this copy of the tree, the pipe
# family's GPU tests and the sweep. (This session's kernel variants, measured on H100s only,
# are in benchmarks/variants/ct1d_pipe_s48_variants.patch; the tree runs session 47's code.)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
grep -q H200 "$OUT/gpu.txt" || { echo "not an H200: nothing run"; exit 3; }
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|rc" "$1" | cut -c1-150; }
(cd benchmarks && timeout 120 python3 ab_variant.py auto sd-s2d4k4 --rounds 5 \
   --call "c64-s1k4=8,64,64,4,65536,1,1,1" --call "c32-s1k8=8,32,32,8,131072,1,3,1" \
   --call "c48-s1k5=8,48,48,5,65536,1,1,1" \
   --variant "any16=dispatch.PIPE_ANY_L_MAX_STEPS:16") > "$OUT/ab_any16.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_any16.txt"; summ "$OUT/ab_any16.txt"
timeout 40 python3 -m pytest -m gpu -q -W ignore tests/test_gpu.py -p no:cacheprovider -k "device_card" \
  > "$OUT/card_test.log" 2>&1; echo "card test rc $?"; tail -1 "$OUT/card_test.log"
sed -i 's/^PIPE_ANY_L_MAX_STEPS = 12$/PIPE_ANY_L_MAX_STEPS = 16/' cupyconv/_dispatch.py
grep -n "^PIPE_ANY_L_MAX_STEPS" cupyconv/_dispatch.py
timeout 110 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "pipe_family" -p no:cacheprovider \
  > "$OUT/pipe_tests.log" 2>&1; echo "pipe tests rc $?"; tail -3 "$OUT/pipe_tests.log"
OUT=$OUT/bench timeout 190 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
tail -25 "$OUT/bench/bench.log" | cut -c1-160
sed -i 's/^PIPE_ANY_L_MAX_STEPS = 16$/PIPE_ANY_L_MAX_STEPS = 12/' cupyconv/_dispatch.py
