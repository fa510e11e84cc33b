# Session 31 run 3: ct1d_pipe with its epilogue at fixed offsets (no per-column tables)
# and output buffers as a shape choice: more warpgroups per SM where shared memory allows
# (run 2: the "wide" shapes won most), against the shipped plans (ab_variant.py, outputs
# checked against float64); then its GPU test on random covered calls.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
R=dispatch.PIPE_ROUTE:True
MANY="((4,3,2),(4,2,2),(4,3,1),(4,2,1),(3,3,2),(3,2,2),(3,3,1),(3,2,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))"
B1="((4,3,1),(4,2,1),(3,3,1),(3,2,1),(2,3,1),(2,2,1),(1,3,1))"
timeout 240 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-16-s2 up-32-32-s4 \
  up-16-16-s8 sd-s2d1k7 sd-s1d4k3 sd-s4d3k5 g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --rounds 3 \
  --variant pipe=$R --variant many=$R,"dispatch.PIPE_SHAPES:$MANY" --variant b1=$R,"dispatch.PIPE_SHAPES:$B1" \
  --variant w3s2b1=$R,"dispatch.PIPE_SHAPES:((3,2,1),)" > $OUT/ab_pipe.txt 2>&1
echo "ab rc=$?"; grep -E "^\S|median" $OUT/ab_pipe.txt | cut -c1-250
cd ..
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "pipe" 2>&1 | tail -3
