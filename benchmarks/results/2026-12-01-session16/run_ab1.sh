# Session 16, device call 1: four A/B runs (ab_variant.py, one process each)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
ab() { out=$1; shift; timeout ${T:-150} python3 ab_variant.py ct1d_mma "$@" > "$OUT/$out" 2>&1; echo "$out rc=$?"; tail -4 "$OUT/$out"; }
R=dispatch.MMA_ITEM_LOOP_RESIDENT:True
ab ab_resident.txt sd-s3d2k5 --rounds 5 --variant resident=$R
ab ab_x_first.txt seed seed-bf16 sd-s2d2k3-c16 up-32-16-s2 --rounds 5 --variant x_first=CT1D_MMA_X_FIRST:1
ab ab_s8_transposed.txt up-16-16-s8 --rounds 3 \
  --variant t128=dispatch.MMA_WG_T_MAX_STRIDE:8,$R \
  --variant t256_one=dispatch.MMA_WG_T_MAX_STRIDE:8,dispatch.MMA_WG_T_ONE_BLOCK:True,dispatch.MMA_WG_T_POSITIONS:\(256,\),$R
T=200 ab ab_wgt_blocks.txt up-32-16-s2 sd-s2d2k3-c16 sd-s1d4k3 g4-128-k4-s2 --rounds 3 \
  --variant t128=dispatch.MMA_WG_T_POSITIONS:\(128,\),$R \
  --variant t128_b3=CT1D_MMA_WGT_BLOCKS:3,dispatch.MMA_WG_T_POSITIONS:\(128,\),$R
