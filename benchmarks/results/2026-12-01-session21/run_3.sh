# Session 21 run 3: 16-bit warpgroup tiles of 256 positions with the copy-out in two
# groups (CT1D_MMA_SPLIT_COPY, on in this tree): each row's left part goes out after
# the first half of the products, and the next tile waits only for that group before it
# overwrites the left half (run 2: without the wait for the copies at all the bf16 seed
# read 0.210 against 0.219). A/B in one process against the single group (nosplit), then
# the full GPU suite on this tree.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
cd benchmarks
V="--variant nosplit=CT1D_MMA_SPLIT_COPY:0"
timeout 60 python3 ab_variant.py auto seed --dtype bfloat16 --rounds 9 $V > "$OUT/ab_split_bf16.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_split_bf16.txt"
timeout 40 python3 ab_variant.py auto seed --dtype float16 --rounds 9 $V > "$OUT/ab_split_f16.txt" 2>&1
echo "ab f16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_split_f16.txt"
cd ..
left=$(( 590 - (SECONDS - t0) ))
mkdir -p /tmp/t "$OUT/tests"; OUT=/tmp/t timeout $left bash benchmarks/device_run.sh tests > /dev/null 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -1 /tmp/t/gpu_tests.log; grep -E "FAILED|ERROR" /tmp/t/gpu_tests.log | head
grep -E "split_copy" /tmp/t/gpu_tests.log | head -4
cp /tmp/t/gpu_tests.log /tmp/t/gpu_test_stats.json "$OUT/tests/" 2>/dev/null
