# Session 27 run 7: ct1d_mma's x loads (prefetch registers) with an explicit L2 prefetch
# size (CT1D_MMA_X_LOAD: 1 = ld.global.nc.L2::256B, 2 = the same with L1::no_allocate,
# 3 = .L2::128B; 0 = the compiler's plain ld.global.nc / ld.global). Reads mixed into the
# write stream cost about twice their byte share (session 26 run 2): larger L2 fills might
# give DRAM longer read bursts. A/B in one process on the x-heavy and seed calls.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
t0=$SECONDS
(cd benchmarks && timeout 280 python3 ab_variant.py auto seed seed-bf16 sd-s2d2k3-c16 up-32-16-s2 hifigan-u4-b16 \
  encodec-s2 sd-s3d2k5 --rounds 5 --variant x256=CT1D_MMA_X_LOAD:1 --variant x256na=CT1D_MMA_X_LOAD:2 \
  --variant x128=CT1D_MMA_X_LOAD:3 > "$OUT/ab_x_load.txt" 2>&1)
echo "rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_x_load.txt"
# First attempt failed to compile (NVRTC has no __builtin_memcpy); the second (reinterpret
# casts) ran. Outcome (medians of 5, ms; shipped / x256 / x256na / x128): seed 0.417 / 0.411
# / 0.451 / 0.416 (rounds overlap: noise); seed-bf16 0.223 / 0.241 / 0.263 / 0.242;
# hifigan-u4-b16 0.147 / 0.169 / 0.174 / 0.169; encodec-s2 0.300 / 0.351 / 0.371 / 0.354;
# up-32-16-s2 0.198 / 0.197 / 0.214 / 0.198; sd-s2d2k3-c16 0.215 / 0.213 / 0.217 / 0.211;
# sd-s3d2k5 0.202 / 0.197 / 0.213 / 0.195. x128 loses as much as x256 where they lose, so
# the loss is the volatile asm load (ordering, the bf16 loads turned .nc), not the
# prefetch size; the gains are at most 3% (sd-s3d2k5). Reverted; kept as
# benchmarks/variants/ct1d_mma_x_load_hint.patch.
