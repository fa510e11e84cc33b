# Session 20 run 3 (session 19's kernels: the tile step is reverted): where the time of
# the calls furthest from the copy bandwidth goes. Stage ablations (ablate_calls.py, wrong
# results on purpose) and Nsight Compute warp-state profiles of up-64-64-s3 (30% of copy)
# and g16-512-k16-s8 (29%).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 200 python3 ablate_calls.py up-64-64-s3 hifigan-u4-b16 g16-512-k16-s8 sd-s2d2k3-c64 sd-s5d1k11 \
  --rounds 2 --variants no_xload,no_xmax,no_store,no_wgmma,no_wait,only_store > "$OUT/ablate_calls.txt" 2>&1
echo "ablate rc=$?"; grep -E "^\S|median" "$OUT/ablate_calls.txt"
cd ..
OUT=$OUT timeout 200 bash benchmarks/ncu_stalls.sh ct1d_mma up-64-64-s3 g16-512-k16-s8; echo "ncu rc=$?"
