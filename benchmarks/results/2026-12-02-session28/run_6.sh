# Session 28 run 6: the sweep on the final code (W_ONCE), into h200/.
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 280 bash benchmarks/device_run.sh bench > $OUT/bench_stdout.txt 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-160
# Outcome (copy 4.22 TB/s, GEMM 763 TFLOP/s): seed 0.394 ms (80.6% of copy), bf16 0.209,
# geomean 5.04x, 40 of 40 faster, 6 of 26 memory-bound calls at >= 80% of copy; copied
# to benchmarks/results/h200/.
