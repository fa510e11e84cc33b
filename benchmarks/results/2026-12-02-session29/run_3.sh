# Session 29 run 3: the full GPU suite on the final code (13-16-step chains in two segments).
OUT=$OUT timeout 560 bash benchmarks/device_run.sh tests > $OUT/tests_stdout.txt 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
