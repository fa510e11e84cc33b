# Session 33 run 1: ct1d_pipe's one-buffer shapes wait for the previous tile's copies after
# issuing the products (LATE_WAIT, shipped) instead of at the tile's top (early); shapes
# without output buffers, each thread storing its outputs from registers (d4: 4 warpgroups
# first, d3: 3; d4cs: streaming stores). A/B in one process on the eleven pipe calls, then
# the family's GPU tests (the new no_buffers shapes among them).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
D4="((4,3,0),(4,2,0),(3,3,0),(3,2,0),(2,3,0),(2,2,0))"
D3="((3,3,0),(3,2,0),(2,3,0),(2,2,0))"
timeout 330 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-16-s2 up-32-32-s4 \
  up-16-16-s8 sd-s2d1k7 sd-s1d4k3 g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --rounds 2 \
  --variant early=CT1D_PIPE_LATE_WAIT:0 --variant d4="dispatch.PIPE_SHAPES:$D4" \
  --variant d3="dispatch.PIPE_SHAPES:$D3" --variant d4cs="dispatch.PIPE_SHAPES:$D4,CT1D_PIPE_STORE_CS:1" \
  > $OUT/ab_pipe.txt 2>&1
echo "ab rc=$?"; grep -E "median" $OUT/ab_pipe.txt | cut -c1-250
cd ..
timeout 200 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py -rf \
  -k "pipe or nonfinite or extreme_magnitudes or wide_dynamic" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
