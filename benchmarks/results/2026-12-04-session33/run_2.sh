# Session 33 run 2: what ct1d_pipe's epilogue sync costs. A/B in one process on the eleven
# pipe calls: no proxy fence before the copies (timing only), the ring's next loads issued
# after the epilogue's barrier (3-stage shapes), one warp waiting for the outputs and
# issuing the copies while the others only arrive (cw0: warp 0, cw: the tile's turn), and
# ablations (abl2: no x loads, abl3: no copies; wrong results, timing only).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 300 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-16-s2 up-32-32-s4 \
  up-16-16-s8 sd-s2d1k7 sd-s1d4k3 g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --rounds 2 \
  --variant nofence=CT1D_PIPE_EPI_FENCE:0 --variant late=CT1D_PIPE_LOAD_LATE:1 \
  --variant cw0=CT1D_PIPE_COPY_WARP:1 --variant cw=CT1D_PIPE_COPY_WARP:2 \
  --variant abl2=CT1D_PIPE_ABLATE:2 --variant abl3=CT1D_PIPE_ABLATE:3 \
  > $OUT/ab_pipe.txt 2>&1
echo "ab rc=$?"; grep -E "median" $OUT/ab_pipe.txt | cut -c1-250
