# Session 22 run 1: (a) x staged by the bulk-copy engine (MmaKey.x_bulk, kernel X_BULK):
# each tile's next x window lands in a row-major shared-memory buffer through one bulk copy
# per channel row and an mbarrier, and the commit reads it from there instead of from
# prefetch registers (session 21: x's reads cost twice their bytes' share of the mixed
# floor); (b) the L2 prefetch of session 21 under its compile-time rule (16-bit 256-position
# tiles, float32 tap-group tiles at stride 2). GPU tests of the warpgroup path first, then
# A/B in one process, outputs checked against torch in float64.
#   shipped = x_bulk (16-bit) + prefetch rule; noxb = prefetch rule only;
#   s21 = neither (session 19's code); xb32 = x_bulk for float32 too
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 16)
timeout 230 python3 -m pytest -m gpu -q "${par[@]}" -W ignore -p no:cacheprovider tests/test_gpu.py \
  -k "warpgroup or alignment" > "$OUT/gpu_tests_wg.txt" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -3 "$OUT/gpu_tests_wg.txt"
cd benchmarks
V16="--variant noxb=dispatch.MMA_WG_X_BULK:() --variant s21=dispatch.MMA_WG_X_BULK:(),CT1D_MMA_X_PREFETCH:0"
timeout 130 python3 ab_variant.py auto seed sd-s3d2k5 up-32-16-s2 hifigan-u4-b16 up-64-64-s3 sd-s2d2k3-c64 \
  sd-s2d1k7 g4-128-k4-s2 sd-s5d1k11 --dtype bfloat16 --rounds 5 $V16 > "$OUT/ab_bf16.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_bf16.txt"
timeout 50 python3 ab_variant.py auto seed --dtype float16 --rounds 7 $V16 > "$OUT/ab_f16.txt" 2>&1
echo "ab f16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_f16.txt"
V32=(--variant nopf=CT1D_MMA_X_PREFETCH:0 --variant "xb32=dispatch.MMA_WG_X_BULK:('float32','float16','bfloat16')")
timeout 130 python3 ab_variant.py auto seed up-32-16-s2 hifigan-u4-b16 g4-128-k4-s2 encodec-s2 sd-s1d4k3 up-64-64-s3 sd-s2d2k3-c16 \
  sd-s3d2k5 sd-s2d1k7 --rounds 5 "${V32[@]}" > "$OUT/ab_f32.txt" 2>&1
echo "ab f32 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_f32.txt"
grep -hE "err [0-9.]+e-0[1-4]|err nan|Error|error" "$OUT"/ab_*.txt | head -20
