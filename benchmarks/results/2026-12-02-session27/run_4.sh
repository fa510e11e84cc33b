# Session 27 run 4: dw-64-k16-s8 (78% of copy) with less output per block. A block's
# lifetime is about (output resident per SM) / (SM bandwidth) = 7 blocks x 32 KB / ~25 GB/s
# = ~9 us, and the last blocks' spread costs up to that at the end of a ~92 us kernel.
# Shipped: 4 positions per thread (16 KB segments), 2 per block. Variants: 3 positions
# (12 KB x 2), 2 positions (8 KB x 4 or x 2), 1 position (4 KB x 2).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
t0=$SECONDS
V=(--variant u3=dispatch._DEPTHWISE_REGS:30
   --variant u2b32=dispatch._DEPTHWISE_REGS:20 --variant u2b16=dispatch._DEPTHWISE_REGS:20,dispatch.DEPTHWISE_BLOCK_BYTES:16384
   --variant u1b8=dispatch._DEPTHWISE_REGS:10,dispatch.DEPTHWISE_BLOCK_BYTES:8192)
for dt in float32 bfloat16; do
  (cd benchmarks && timeout 120 python3 ab_variant.py ct1d_depthwise dw-64-k16-s8 --rounds 9 --dtype $dt "${V[@]}" \
    > "$OUT/ab_dw_$dt.txt" 2>&1)
  echo "$dt rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_dw_$dt.txt"
done
# Outcome (medians of 9, ms): float32 shipped 0.093, u3 0.090 (9 of 9 rounds faster), u2b32
# 0.095, u2b16 0.093, u1b8 0.101; bfloat16 0.064 / 0.063 / 0.067 / 0.067 / 0.074.
