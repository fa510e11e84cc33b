# Session 20 run 4: ct1d_mma's copy-out with a warp's rows in turn, all lanes on one row
# (CT1D_MMA_WARP_ROWS = 1, the default in this run), so that each bulk copy's issue loop
# runs once (run 3's profiles: 8-12% of the stall samples at that loop's branch, which
# waited for the previous lane's copy). In one process: against a lane per row
# (lane_rows, session 19's code) and ordinary 16-byte stores (nobulk). Then the full
# GPU suite on this code, then the sweep if time is left (one call: 600 s at most).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
cd benchmarks
V="--variant lane_rows=CT1D_MMA_WARP_ROWS:0 --variant nobulk=CT1D_BULK_STORE:0"
timeout 75 python3 ab_variant.py auto seed up-64-64-s3 g16-512-k16-s8 hifigan-u4-b16 sd-s2d2k3-c64 sd-s5d1k11 \
  sd-s3d2k5 up-32-16-s2 sd-s2d1k7 g4-128-k4-s2 up-16-16-s8 small-seed --rounds 3 $V > "$OUT/ab_warp_rows_f32.txt" 2>&1
echo "ab f32 rc=$?"; grep -E "median" "$OUT/ab_warp_rows_f32.txt"
timeout 40 python3 ab_variant.py auto seed up-64-64-s3 g16-512-k16-s8 sd-s2d1k7 sd-s5d1k11 up-32-16-s2 \
  --dtype bfloat16 --rounds 3 $V > "$OUT/ab_warp_rows_bf16.txt" 2>&1
echo "ab bf16 rc=$?"; grep -E "median" "$OUT/ab_warp_rows_bf16.txt"
cd ..
left=$(( 585 - (SECONDS - t0) - 50 ))
mkdir -p /tmp/t "$OUT/tests"; OUT=/tmp/t timeout $(( left < 470 ? left : 470 )) bash benchmarks/device_run.sh tests > /dev/null 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -1 /tmp/t/gpu_tests.log; grep -E "FAILED|ERROR" /tmp/t/gpu_tests.log | head
cp /tmp/t/gpu_tests.log /tmp/t/gpu_test_stats.json "$OUT/tests/" 2>/dev/null
left=$(( 590 - (SECONDS - t0) ))
if (( left > 60 )); then
  OUT=$OUT/h200 timeout $left bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$?"
  grep -E "^(seed|up-64|g16|hifigan-u4-b16|sd-s5|geometric)" "$OUT/h200/bench.log" | tail -9
fi
