#!/usr/bin/env bash
# Session 35 run 4: the sweep (run 3, the same with the GPU suite, lost: machine taken back)
OUT=$OUT/h200 bash benchmarks/device_run.sh bench
