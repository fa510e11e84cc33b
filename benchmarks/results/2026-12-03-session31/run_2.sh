# Session 31 run 2: ct1d_pipe through the dispatcher (PIPE_ROUTE on) against the shipped
# plans on every sweep call it covers (ab_variant.py, outputs checked against float64),
# its pipeline shapes, two tiles in flight per warpgroup (CT1D_PIPE_OVERLAP), and stage
# ablations (wrong results on purpose) on four calls.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
R=dispatch.PIPE_ROUTE:True
timeout 230 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-16-s2 up-32-32-s4 \
  up-16-16-s8 sd-s2d1k7 sd-s1d4k3 g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --rounds 3 \
  --variant pipe=$R --variant ov=$R,CT1D_PIPE_OVERLAP:1 --variant wg1=$R,"dispatch.PIPE_SHAPES:((1,3),)" \
  --variant s2=$R,"dispatch.PIPE_SHAPES:((2,2),)" --variant wide=$R,"dispatch.PIPE_SHAPES:((4,3),(4,2),(3,3),(3,2),(2,3),(2,2),(1,3))" \
  --variant wide_ov=$R,CT1D_PIPE_OVERLAP:1,"dispatch.PIPE_SHAPES:((4,3),(4,2),(3,3),(3,2),(2,3),(2,2),(1,3))" > $OUT/ab_pipe.txt 2>&1
echo "ab rc=$?"; grep -E "^\S|median" $OUT/ab_pipe.txt | cut -c1-250
timeout 150 python3 ab_variant.py auto hifigan-u4-b16 up-32-16-s2 sd-s1d4k3 g16-512-k16-s8 --rounds 2 \
  --variant pipe=$R --variant no_mma=$R,CT1D_PIPE_ABLATE:1 --variant no_xload=$R,CT1D_PIPE_ABLATE:2 \
  --variant no_store=$R,CT1D_PIPE_ABLATE:3 --variant no_abuild=$R,CT1D_PIPE_ABLATE:4 \
  --variant no_epi=$R,CT1D_PIPE_ABLATE:5 > $OUT/ablate_pipe.txt 2>&1
echo "ablate rc=$?"; grep -E "^\S|median" $OUT/ablate_pipe.txt | cut -c1-250
