#!/usr/bin/env bash
# Session 48 run 12 (the H200 of run 11, warm): the pipe family's GPU tests, the card test and
# the route tests with PIPE_ANY_L_MAX_STEPS 16 patched into this copy of the tree
nvidia-smi --query-gpu=name --format=csv,noheader
sed -i 's/^PIPE_ANY_L_MAX_STEPS = 12$/PIPE_ANY_L_MAX_STEPS = 16/' cupyconv/_dispatch.py
grep -n "^PIPE_ANY_L_MAX_STEPS" cupyconv/_dispatch.py
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cupyconv-cache
timeout 250 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "pipe_family or device_card or route" \
  -p no:cacheprovider > $OUT/pipe_tests.log 2>&1; echo "rc $?"; tail -4 $OUT/pipe_tests.log
