# Session 28 run 6: the sweep on the final code (W_ONCE), into h200/.
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 280 bash benchmarks/device_run.sh bench > $OUT/bench_stdout.txt 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-160
