# Session 31 run 1: first light of ct1d_pipe (kernels/ct1d_pipe.cu), the pipelined
# warpgroup kernel for memory-bound float32 calls, against the shipped plans: outputs
# checked against float64, times side by side (benchmarks/pipe_probe.py).
# (benchmarks/pipe_probe.py, which this ran, was folded into ab_variant.py after this run:
# FAMILY auto with dispatch.PIPE_ROUTE:True compares the same plans; run 2 on.)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
timeout 400 python3 benchmarks/pipe_probe.py --rounds 3 2>&1 | tee $OUT/pipe_probe.txt | cut -c1-400
