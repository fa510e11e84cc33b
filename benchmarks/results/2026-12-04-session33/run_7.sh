# Session 33 run 7: ct1d_pipe for GEMMs under half dense (PIPE_MIN_DENSITY 0.3): sd-s4d3k5
# (5 of 16) and a 3-class call at 4 of 9, against their ct1d_mma plans.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 200 python3 ab_variant.py auto sd-s4d3k5 --rounds 3 --call s3d2k4=8,32,32,4,65536,3,0,2 \
  --variant dens03=dispatch.PIPE_MIN_DENSITY:0.3 > $OUT/ab_density.txt 2>&1
echo "ab rc=$?"; grep -E "^\S.*torch|median" $OUT/ab_density.txt | cut -c1-250
