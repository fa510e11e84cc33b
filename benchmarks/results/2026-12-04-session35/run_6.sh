#!/usr/bin/env bash
# Session 35 run 6: the two fixed tests (pipe random calls, every edge case)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc
timeout 250 python3 -m pytest -m gpu -v -W ignore -n 8 tests/test_gpu.py -k "pipe_family_random or edge_cases" -p no:cacheprovider > $OUT/gpu_tests.log 2>&1
