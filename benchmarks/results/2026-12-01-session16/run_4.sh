# Session 16, device call 4: mma.sync grid waves on up-16-16-s8, the seeds' time at a
# length where the tiles divide evenly over the blocks, then the full GPU test suite
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
(cd benchmarks
 timeout 100 python3 ab_variant.py ct1d_mma up-16-16-s8 --rounds 5 --variant w1=waves.ct1d_mma:1 \
   --variant w4=waves.ct1d_mma:4 > "$OUT/ab_waves_s8.txt" 2>&1; grep median "$OUT/ab_waves_s8.txt"
 timeout 100 python3 length_scan.py seed seed-bf16 --factors 0.99 0.999016 1.0 --rounds 5 \
   > "$OUT/length_scan_balance.txt" 2>&1; cat "$OUT/length_scan_balance.txt")
OUT=$OUT/tests timeout 420 bash benchmarks/device_run.sh tests > /dev/null 2>&1; echo "tests rc=$?"
tail -3 "$OUT/tests/gpu_tests.log"
