# Session 29 run 3: the full GPU suite on the final code (13-16-step chains in two
# segments). (No sweep: two failed starts left too little device time; run 2's sweep ran
# the same kernels, whose source has changed only in comments since.)
OUT=$OUT timeout 470 bash benchmarks/device_run.sh tests > $OUT/tests_stdout.txt 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
