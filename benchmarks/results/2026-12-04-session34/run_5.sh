# Session 34 run 5: 16-step reductions on 3 warpgroups (NVRTC: no spills at 168 registers)
# against the shipped ct1d_mma plans (run 1 had them on 2 warpgroups: 5% slower).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 200 python3 ab_variant.py auto sd-s2d4k4 --rounds 3 --call c64-s1k4=8,64,64,4,65536,1,0 --call c48-s1k5=8,48,48,5,65536,1,0 \
  --variant "s16w3=dispatch.PIPE_MAX_STEPS:16,dispatch.PIPE_STEPS_WG:((8,4),(16,3))" > $OUT/ab_steps16.txt 2>&1
echo "ab rc=$?"; grep -E "^\S.*torch|median" $OUT/ab_steps16.txt | cut -c1-250; grep -E "s16w3" $OUT/ab_steps16.txt | head -2
