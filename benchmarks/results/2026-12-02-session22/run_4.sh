# Session 22 run 4: x_bulk again, with the commit from x_raw by transposing shared-memory
# loads (ldmatrix .trans: 8 channels x 8 columns per matrix, 4 per instruction, one operand
# word per lane) where L_in is a whole number of 16-byte units, instead of two 2-byte
# loads per word (run 3's profile: short-scoreboard stalls on those loads, 332 against 255
# us). The tree has it on for 16-bit warpgroup tiles (benchmarks/variants/ct1d_mma_x_bulk.patch
# plus this change); noxb = off (the code of runs 2-3). Then a re-check of the small calls
# (run 3's sweep read small-64-32-s2 at 24 us against 14 us wall per call).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 16)
timeout 200 python3 -m pytest -m gpu -q "${par[@]}" -W ignore -p no:cacheprovider tests/test_gpu.py \
  -k "warpgroup or alignment" > "$OUT/gpu_tests_wg.txt" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -2 "$OUT/gpu_tests_wg.txt"
cd benchmarks
V16="--variant noxb=dispatch.MMA_WG_X_BULK:() --variant xbnopf=CT1D_MMA_X_PREFETCH:0"
timeout 150 python3 ab_variant.py auto seed sd-s3d2k5 up-32-16-s2 hifigan-u4-b16 up-64-64-s3 sd-s2d2k3-c64 \
  sd-s2d1k7 g4-128-k4-s2 sd-s5d1k11 sd-s1d4k3 --dtype bfloat16 --rounds 5 $V16 > "$OUT/ab_bf16.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_bf16.txt"
timeout 50 python3 ab_variant.py auto seed --dtype float16 --rounds 7 $V16 > "$OUT/ab_f16.txt" 2>&1
echo "ab f16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_f16.txt"
cd ..
for i in 1 2; do timeout 40 python3 -m cupyconv.bench --only small-64-32-s2 small-seed seed-bf16 2>&1 | grep -E "^(small|seed)"; done
echo "at $((SECONDS - t0)) s"
OUT=$OUT/ncu_xbulk_ldm timeout 60 bash benchmarks/ncu_stalls.sh ct1d_mma seed-bf16
