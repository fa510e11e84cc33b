# Session 22 run 2: the full GPU suite on the final code (run 1's x_bulk measured slower
# everywhere and left as benchmarks/variants/ct1d_mma_x_bulk.patch; the L2 prefetch ships
# under its compile-time rule).
bash benchmarks/device_run.sh tests
