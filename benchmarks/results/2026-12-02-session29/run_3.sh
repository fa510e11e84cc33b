# Session 29 run 3: the full GPU suite on the final code (13-16-step chains in two
# segments), then the sweep (decided before the run: if it completes, it becomes
# results/h200/, the record of the final code; run 2's sweep is of the same kernels).
OUT=$OUT timeout 450 bash benchmarks/device_run.sh tests > $OUT/tests_stdout.txt 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 130 bash benchmarks/device_run.sh bench > $OUT/bench_stdout.txt 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-160
