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
