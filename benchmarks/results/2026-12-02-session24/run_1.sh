# Session 24 run 1: (a) x fetched as 16-byte vectors in warpgroup tiles (CT1D_MMA_XVEC=1)
# against the shipped element loads, outputs checked against torch; (b) where the bf16 and
# fp32 seeds' x time goes: L2 prefetch off, then every tile loading one L2-resident window
# (x's loads and commit stay, its DRAM reads go), then no x loads at all.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/environment.txt"
cd benchmarks
C32="seed seed-bias up-32-16-s2 hifigan-u4-b16 encodec-s2 g4-128-k4-s2 sd-s3d2k5 sd-s4d3k5 up-32-32-s4 sd-s1d4k3 up-64-64-s3 sd-s2d2k3-c64"
timeout 200 python3 ab_variant.py ct1d_mma seed-bf16 seed-fp16 --variant xvec=CT1D_MMA_XVEC:1 --rounds 7 > "$OUT/ab_xvec16.txt" 2>&1
echo "ab16 rc=$? at $((SECONDS - t0)) s"
timeout 200 python3 ab_variant.py ct1d_mma up-32-16-s2 up-64-64-s3 sd-s2d2k3-c64 hifigan-u4-b16 g16-512-k16-s8 --dtype bfloat16 --variant xvec=CT1D_MMA_XVEC:1 --rounds 5 > "$OUT/ab_xvec_bf16.txt" 2>&1
echo "abbf rc=$? at $((SECONDS - t0)) s"
timeout 260 python3 ab_variant.py ct1d_mma $C32 --variant xvec=CT1D_MMA_XVEC:1 --rounds 5 > "$OUT/ab_xvec32.txt" 2>&1
echo "ab32 rc=$? at $((SECONDS - t0)) s"
for f in ab_xvec16 ab_xvec_bf16 ab_xvec32; do grep -E "^[a-z0-9-]+ \(|median|FAIL|rror" "$OUT/$f.txt" | head -60; done
timeout 150 python3 ablate_calls.py seed-bf16 seed --variants no_pf,x_l2+no_pf,no_xload+no_pf --rounds 5 > "$OUT/ablate_x.txt" 2>&1
echo "ablate rc=$? at $((SECONDS - t0)) s"
grep -E "^[a-z0-9-]+ \(|median|rror" "$OUT/ablate_x.txt" | head -30
