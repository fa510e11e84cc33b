# Session 24 run 3: the segment length of float32 warpgroup chains (CT1D_MMA_WG_CHAIN_STEPS,
# shipped 24): 8 and 12 on the sweep's two calls with chains above 8 steps (sd-s2d2k3-c64:
# 12, sd-s2d4k4: 16; shorter segments spill less there, ptxas: 32 -> 20 and 64 -> 0 bytes at
# 8) and on long chains, outputs checked against torch; then the accuracy scan (split on).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/environment.txt"
CALLS="--call L7=16,64,64,7,32768,1,3,1 --call L9=8,64,64,9,65536,1,4,1 --call K16S2=16,64,64,16,32768,2,7,1
 --call K13S1c32=8,32,32,13,65536,1,6,1"
(cd benchmarks && timeout 200 python3 ab_variant.py ct1d_mma seed sd-s2d2k3-c64 sd-s2d4k4 $CALLS --rounds 7 \
  --variant seg8=CT1D_MMA_WG_CHAIN_STEPS:8 --variant seg12=CT1D_MMA_WG_CHAIN_STEPS:12 \
  --variant seg16=CT1D_MMA_WG_CHAIN_STEPS:16 > "$OUT/ab_seglen.txt" 2>&1)
echo "ab rc=$? at $((SECONDS - t0)) s"
grep -E "^[A-Za-z0-9-]+ \(|median" "$OUT/ab_seglen.txt"
awk '/^[A-Za-z0-9-]+ \(/ {c=$1} / err / {print c, $1, $NF}' "$OUT/ab_seglen.txt" | sort -u
timeout 150 python3 benchmarks/accuracy_scan.py > "$OUT/accuracy_scan.txt" 2>&1
echo "scan rc=$? at $((SECONDS - t0)) s"; tail -12 "$OUT/accuracy_scan.txt"
