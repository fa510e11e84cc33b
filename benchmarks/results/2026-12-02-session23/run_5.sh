# Session 23 run 5: the full GPU suite on the final code (kernels as at e24da3f; the
# depthwise grid's new tiles-per-block rule on the host).
bash benchmarks/device_run.sh tests
