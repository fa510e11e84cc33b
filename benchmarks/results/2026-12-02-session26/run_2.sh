# Session 26 run 2: is the 16-bit seed's store side (0.163 ms without x loads, 3.3 TB/s;
# session 24) set by the output pattern or by the kernel's epilogue? The pattern's
# skeleton with and without x loads (write_floor.py: the bf16 seed's 1 KB rows, 33 blocks
# x 16 items; the float32 seed's for comparison), against the kernel without x loads,
# without its epilogue's shared-memory stores, and without both.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
cd benchmarks
timeout 120 python3 write_floor.py copy st128 "mix16 1KB" "mix 33x16 x loads o" > "$OUT/write_floor.txt" 2>&1
echo "floor rc=$?"; cat "$OUT/write_floor.txt" | tail -8
timeout 300 python3 ablate_calls.py seed-bf16 seed --rounds 5 \
  --variants no_xload,no_xload+no_epi,no_epi,no_store > "$OUT/ablate_store_side.txt" 2>&1
echo "ablate rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ablate_store_side.txt"
