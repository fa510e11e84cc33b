# Session 27 run 1: the full GPU test suite on the final code of session 26 (which never got
# a complete run). Typed as: OUT=$OUT bash benchmarks/device_run.sh tests
OUT=$OUT bash benchmarks/device_run.sh tests
