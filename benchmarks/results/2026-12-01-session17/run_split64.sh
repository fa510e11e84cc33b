# Session 17: MMA_WG_SPLIT_64 (one-block 64-channel calls as two transposed 32-channel
# tiles) on the sweep's sd-s3d2k5 and four calls outside the sweep, float32 and bfloat16,
# against the one-block tile (off); x1 went to ct1d_stream before (timed there too); then
# the warpgroup GPU tests.   bash benchmarks/results/2026-12-01-session17/run_split64.sh
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
CALLS="--call x1=8,32,64,6,65536,3,2,1 --call x2=8,32,64,5,65536,4,3,3 --call x3=8,32,64,4,65536,3,1,1 --call x4=8,32,64,6,65536,4,2,2"
cd benchmarks
timeout 200 python3 ab_variant.py ct1d_mma sd-s3d2k5 $CALLS --rounds 3 \
  --variant off=dispatch.MMA_WG_SPLIT_64:False > "$OUT/ab_split64.txt" 2>&1
echo "f32 rc=$?"; grep -B1 median "$OUT/ab_split64.txt" | grep -v "^--"
timeout 120 python3 ab_variant.py ct1d_mma sd-s3d2k5 --call x3=8,32,64,4,65536,3,1,1 --call x2=8,32,64,5,65536,4,3,3 \
  --dtype bfloat16 --rounds 3 --variant off=dispatch.MMA_WG_SPLIT_64:False > "$OUT/ab_split64_bf16.txt" 2>&1
echo "bf16 rc=$?"; grep median "$OUT/ab_split64_bf16.txt"
timeout 60 python3 ab_variant.py ct1d_stream --call x1=8,32,64,6,65536,3,2,1 --rounds 3 > "$OUT/ab_split64_stream.txt" 2>&1
echo "stream rc=$?"; grep median "$OUT/ab_split64_stream.txt"
cd ..
timeout 200 python3 -m pytest -m gpu -q -n 8 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "warpgroup" > "$OUT/gpu_tests_split64.txt" 2>&1
echo "tests rc=$?"; tail -3 "$OUT/gpu_tests_split64.txt"
