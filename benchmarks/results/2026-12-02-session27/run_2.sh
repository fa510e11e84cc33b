# Session 27 run 2: ct1d_depthwise compiles to 113-127 registers (nvcc 13, sm_90a), so only
# 4 blocks of 128 threads (16 warps) fit an SM. A/B in one process: a launch bound of 8 or
# 10 blocks per SM (64 / 48 registers, no spills for float32), and a streaming or
# evict-first cache hint on the 16-byte output stores; float32 and bfloat16.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
t0=$SECONDS
V=(--variant mb8=CT1D_DW_MIN_BLOCKS:8 --variant mb10=CT1D_DW_MIN_BLOCKS:10
   --variant cs=CT1D_DW_STORE_HINT:1 --variant ef=CT1D_DW_STORE_HINT:2
   --variant mb8cs=CT1D_DW_MIN_BLOCKS:8,CT1D_DW_STORE_HINT:1)
C=(dw-512-k6-s3 dw-256-k4-s2 dw-64-k16-s8 dw-128-k3-s2d2 small-dw-128)
(cd benchmarks && timeout 200 python3 ab_variant.py ct1d_depthwise "${C[@]}" --rounds 5 "${V[@]}" \
  > "$OUT/ab_dw_f32.txt" 2>&1)
echo "f32 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_dw_f32.txt"
(cd benchmarks && timeout 150 python3 ab_variant.py ct1d_depthwise "${C[@]}" --rounds 5 --dtype bfloat16 "${V[@]}" \
  > "$OUT/ab_dw_bf16.txt" 2>&1)
echo "bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_dw_bf16.txt"
# Outcome: invalid as an A/B against the shipped kernel. The macro's default (1) wrote
# __launch_bounds__(THREADS, 1), which lets ptxas use up to 255 registers: every instance
# went from 44-72 to 113-127 registers, so "shipped" here is slower than session 23's
# shipped (dw-512-k6-s3 0.109 against 0.079 ms). Kept: the cache hints changed nothing at
# equal registers (mb8cs = mb8 within 1%), so they were removed. Run 3 repeats the bound.
