# Session 16, device call 3: transposed tiles' chains pipelined (CT1D_MMA_WGT_PIPE), the
# x maximum after the copy-out (CT1D_MMA_XMAX=2), bf16 seed stage ablations
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
ab() { out=$1; shift; timeout ${T:-150} python3 ab_variant.py ct1d_mma "$@" > "$OUT/$out" 2>&1; echo "$out rc=$?"; grep median "$OUT/$out"; }
T=220 ab ab_wgt_pipe.txt up-32-16-s2 sd-s1d4k3 g4-128-k4-s2 sd-s4d3k5 sd-s2d2k3-c16 --rounds 3 \
  --variant pipe=CT1D_MMA_WGT_PIPE:1 --variant xmax2=CT1D_MMA_XMAX:2 \
  --variant pipe_xmax2=CT1D_MMA_WGT_PIPE:1,CT1D_MMA_XMAX:2
ab ab_wgt_pipe_bf16.txt up-32-16-s2 sd-s1d4k3 sd-s4d3k5 g4-128-k4-s2 --rounds 3 --dtype bfloat16 \
  --variant pipe=CT1D_MMA_WGT_PIPE:1
ab ab_xmax2_wg64.txt seed sd-s3d2k5 --rounds 3 --variant xmax2=CT1D_MMA_XMAX:2
timeout 150 python3 ablate_calls.py seed-bf16 --rounds 2 \
  --variants no_xload,no_store,no_wgmma,no_wait,only_store > "$OUT/ablate_bf16.txt" 2>&1
echo "ablate rc=$?"; grep median "$OUT/ablate_bf16.txt"
