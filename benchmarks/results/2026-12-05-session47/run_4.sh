#!/usr/bin/env bash
# Session 47 run 4: on an H200, run 1 (any16 and WS-shape A/Bs, pipe tests and sweep with
# any16); on any card, the per-card rule test (its kw lacked groups in run 3)
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash benchmarks/results/2026-12-05-session47/run_1.sh
  sed -i 's/^PIPE_ANY_L_MAX_STEPS = 16$/PIPE_ANY_L_MAX_STEPS = 12/' cupyconv/_dispatch.py   # (run 1 patched it)
fi
timeout 120 python3 -m pytest -m gpu -q -W ignore tests/test_gpu.py -p no:cacheprovider -k "device_card" \
  > "$OUT/card_test.log" 2>&1; echo "card test rc $?"; tail -2 "$OUT/card_test.log"
