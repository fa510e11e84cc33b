# Session 29 run 1: the full GPU suite on session 28's final code (the stage_w16 batching,
# CT1D_MMA_W16_BATCH 8, had only its A/B).
OUT=$OUT timeout 570 bash benchmarks/device_run.sh tests > $OUT/tests_stdout.txt 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
# Outcome: 372 passed, 159 skipped, 0 failed (400 s, 16 workers); the first try was cut when the machine was taken back.
