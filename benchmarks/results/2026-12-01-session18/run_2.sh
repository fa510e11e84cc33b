# Session 18, final device call: the sweep on the final code again (a second machine
# reading), then stage ablations of the calls that changed (ablate_calls.py)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
OUT=$OUT/h200 timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$?"
awk '/^config  /{f=1} f' "$OUT/h200/bench.log" > "$OUT/h200/summary_table.txt"; cat "$OUT/h200/summary_table.txt"
cd benchmarks
timeout 240 python3 ablate_calls.py up-32-16-s2 g4-128-k4-s2 up-32-32-s4 sd-s3d2k5 \
  --variants no_xload,no_wgmma,no_store --rounds 2 > "$OUT/ablate_calls.txt" 2>&1
echo "ablate rc=$?"; grep median "$OUT/ablate_calls.txt"
