#!/usr/bin/env bash
# Session 35 run 5: the full GPU suite
OUT=$OUT/h200 timeout 560 bash benchmarks/device_run.sh tests
