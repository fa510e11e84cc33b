# Session 33 run 8: more calls that the class-major columns newly route to ct1d_pipe
# (3, 5, 6, 7 live classes, 16-64 input channels, several channel tiles), against the
# plans they had (noroute: ct1d_mma or ct1d_stream), to check the routing rule.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 240 python3 ab_variant.py auto --rounds 3 \
  --call c16-s3k3=8,16,16,3,65536,3,0 --call c48-s3k3=8,48,48,3,65536,3,0 --call c64-s3k3=4,64,128,3,65536,3,2 \
  --call c32-s5k5=8,32,32,5,65536,5,2 --call c16-s5k9=8,16,16,9,65536,5,4 --call c32-s6k6=8,32,64,6,65536,6,2 \
  --call c64-s7k7=4,64,64,7,65536,7,0 \
  --variant noroute=dispatch.PIPE_ROUTE:False > $OUT/ab_route.txt 2>&1
echo "ab rc=$?"; grep -E "^\S.*torch|median" $OUT/ab_route.txt | cut -c1-250
