# Session 16, device call 6: the last round of tiles split by rows over all blocks
# (CT1D_MMA_SPLIT_TAIL), blocks that exit once their copies have read shared memory
# (CT1D_MMA_EXIT_READ); "head" = the committed kernel before both
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
H=$PWD/variants/ct1d_mma_s16_head.cu     # (git show 87a9a97:kernels/ct1d_mma.cu, not kept)
timeout 250 python3 ab_variant.py ct1d_mma seed-bf16 seed sd-s1d4k3 g4-128-k4-s2 sd-s3d2k5 up-32-16-s2 --rounds 5 \
  --variant head=source:$H --variant split=CT1D_MMA_SPLIT_TAIL:1 --variant exit_read=CT1D_MMA_EXIT_READ:1 \
  --variant both=CT1D_MMA_SPLIT_TAIL:1,CT1D_MMA_EXIT_READ:1 > "$OUT/ab_split_tail.txt" 2>&1
echo "rc=$?"; grep median "$OUT/ab_split_tail.txt"
echo "rows with err > 1e-2 (wrong results):"; awk '/ err /{e=$NF+0; if (e > 1e-2 || $NF ~ /nan/) print}' "$OUT/ab_split_tail.txt"
