# Session 34 run 7: 13-16-step reductions on 3 warpgroups at 32-48 input channels per
# group (run 5: 48 -> 48 K=5 S=1 1.33x faster than ct1d_mma, the 64-channel 16-step calls
# slower), against the shipped plans (ct1d_mma), to see whether a rule by channels holds.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 200 python3 ab_variant.py auto --rounds 3 --call c48-s1k5=8,48,48,5,65536,1,2 \
  --call c32-s1k7=8,32,32,7,65536,1,3 --call c32-s1k8=8,32,32,8,65536,1,4 \
  --call c48-s2k10=8,48,48,10,65536,2,4 --call c32-s2k16=8,32,32,16,65536,2,7 \
  --variant "s16w3=dispatch.PIPE_MAX_STEPS:16,dispatch.PIPE_STEPS_WG:((8,4),(16,3))" > $OUT/ab_steps16.txt 2>&1
echo "ab rc=$?"; grep -E "^\S.*torch|median" $OUT/ab_steps16.txt | cut -c1-250; grep -c nan $OUT/ab_steps16.txt
