# Session 16, device call 2: stage ablations on the x-heavy ct1d_mma calls, two knobs
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 300 python3 ablate_calls.py seed up-32-16-s2 sd-s1d4k3 g4-128-k4-s2 sd-s3d2k5 --rounds 2 \
  --variants no_xload,no_xmax,no_store,no_wgmma,no_wait,only_store > "$OUT/ablate_calls.txt" 2>&1
echo "ablate rc=$?"; grep median "$OUT/ablate_calls.txt"
timeout 200 python3 ab_variant.py ct1d_mma up-32-16-s2 sd-s1d4k3 g4-128-k4-s2 sd-s3d2k5 --rounds 3 \
  --variant xmax0=CT1D_MMA_XMAX:0 --variant align16=CT1D_MMA_ROW_ALIGN32:0 > "$OUT/ab_xmax_align.txt" 2>&1
echo "knobs rc=$?"; grep median "$OUT/ab_xmax_align.txt"
