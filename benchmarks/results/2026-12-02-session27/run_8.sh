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
# Outcome (medians of 5, ms; shipped / clamp / ld256 / nc256): seed 0.408 / 0.753 / 0.646 /
# 0.643; seed-bf16 0.208 / 0.344 / 0.265 / 0.265; hifigan-u4-b16 0.142 / 0.215 / 0.174 /
# 0.173; encodec-s2 0.299 / 0.477 / 0.384 / 0.383; sd-s2d2k3-c16 0.207 / 0.361 / 0.284 /
# 0.282; sd-s3d2k5 0.191 / 0.349 / 0.265 / 0.266. Loading every register unconditionally
# from a clamped address is 1.5-1.8x slower, so run 7's form stays the only one measured
# near the shipped loads. Reverted (run 7's patch is the variant kept).
