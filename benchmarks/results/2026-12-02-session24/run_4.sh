# Session 24 run 4: chains split into segments of 16 (shipped now) against 24 (run 2's) and
# 8, on long-chain calls of 20-36 steps (outputs checked against torch); then the sweep on
# the final code (its plans and the SASS of its ct1d_mma instances are session 23's).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
CALLS="--call c64k6=16,64,64,6,32768,1,2,1 --call c32k11=8,32,32,11,65536,1,5,1 --call c48k5=16,48,48,5,32768,1,2,1
 --call L7=16,64,64,7,32768,1,3,1 --call K16S2=16,64,64,16,32768,2,7,1 --call K13S1c32=8,32,32,13,65536,1,6,1"
mkdir -p "$OUT/h200"
(cd benchmarks && timeout 150 python3 ab_variant.py auto $CALLS --rounds 5 \
  --variant seg24=CT1D_MMA_WG_CHAIN_STEPS:24,dispatch.MMA_WG_CHAIN_STEPS:24 \
  --variant seg8=CT1D_MMA_WG_CHAIN_STEPS:8,dispatch.MMA_WG_CHAIN_STEPS:8 \
  --variant gemm=dispatch.MMA_WG_SPLIT_CHAINS:False > "$OUT/ab_seg16.txt" 2>&1)
echo "ab rc=$? at $((SECONDS - t0)) s"
grep -E "^[A-Za-z0-9-]+ \(|median" "$OUT/ab_seg16.txt"
awk '/^[A-Za-z0-9-]+ \(/ {c=$1} / err / {print c, $1, $NF}' "$OUT/ab_seg16.txt" | sort -u | sort -k3g | tail -6
OUT=$OUT/h200 timeout 380 bash benchmarks/device_run.sh bench > "$OUT/bench_stdout.txt" 2>&1
echo "bench rc=$? at $((SECONDS - t0)) s"
grep -E "^(seed|geometric|dw-64|sd-s2d2k3|sd-s2d4k4)" "$OUT/h200/bench.log" | head -12
