#!/usr/bin/env bash
# Session 48 run 13 (an H100): the card test as updated for the 16-step rule on every card
nvidia-smi --query-gpu=name --format=csv,noheader
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cupyconv-cache
timeout 150 python3 -m pytest -m gpu -q -W ignore tests/test_gpu.py -p no:cacheprovider -k "device_card" \
  > $OUT/card_test.log 2>&1; echo "rc $?"; tail -2 $OUT/card_test.log
