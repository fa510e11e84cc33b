# Session 27 run 8: run 7's loads again, without its volatile asm: from a clamped (always
# valid) address, then selected, so the load may be scheduled freely. CT1D_MMA_X_LOAD 4 =
# plain C++ load (clamping alone), 5 = ld.global.L2::256B, 6 = ld.global.nc.L2::256B
# (both non-volatile asm; the float32 seed instance spills 8 bytes with them).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
t0=$SECONDS
(cd benchmarks && timeout 280 python3 ab_variant.py auto seed seed-bf16 sd-s2d2k3-c16 hifigan-u4-b16 \
  encodec-s2 sd-s3d2k5 --rounds 5 --variant clamp=CT1D_MMA_X_LOAD:4 --variant ld256=CT1D_MMA_X_LOAD:5 \
  --variant nc256=CT1D_MMA_X_LOAD:6 > "$OUT/ab_x_load.txt" 2>&1)
echo "rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_x_load.txt"
