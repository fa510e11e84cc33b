#!/usr/bin/env bash
# Session 47 run 3 (an H100): per-card dispatch rules (plan's card, CARD_RULES["h100"]):
# the device's card, the GPU tests that plan as the launcher does (device_plan) or force
# ct1d_pipe, then the sweep on the H100's rules
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
python3 -c "from cupyconv import _gpu; print('arch', _gpu.device_arch(0), 'card', repr(_gpu.device_card(0)))" | tee "$OUT/card.txt"
timeout 280 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "device_card or random_configurations or small_calls_random or pipe_family" > "$OUT/gpu_tests.log" 2>&1
echo "tests rc $?"; tail -4 "$OUT/gpu_tests.log"
OUT=$OUT/bench timeout 260 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
tail -24 "$OUT/bench/bench.log" | cut -c1-160
