# Session 24 run 2: float32 warpgroup chains longer than 24 k16 steps split into segments
# summed on the CUDA cores (kernel CT1D_MMA_WG_CHAIN_STEPS, dispatcher MMA_WG_SPLIT_CHAINS):
# (a) speed on long-chain calls against the dispatcher's current choice (ct1d_gemm), one
# unsplit chain (inaccurate: the price of the split) and the mma.sync tile; (b) the GPU
# tests of the warpgroup path and the new split-chain tests; (c) the accuracy scan with
# the split on.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/environment.txt"
CALLS="--call L7=16,64,64,7,32768,1,3,1 --call L9=8,64,64,9,65536,1,4,1 --call L15c32=8,32,32,15,65536,1,7,1
 --call K16S2=16,64,64,16,32768,2,7,1 --call K13S1c32=8,32,32,13,65536,1,6,1 --call K9S1c48=8,48,48,9,65536,1,4,1
 --call K7S1d2=16,64,32,7,32768,1,6,2"
(cd benchmarks && timeout 240 python3 ab_variant.py auto seed $CALLS --rounds 5 \
  --variant split=dispatch.MMA_WG_SPLIT_CHAINS:True \
  --variant onechain=dispatch.MMA_WG_SPLIT_CHAINS:True,CT1D_MMA_WG_CHAIN_STEPS:999 \
  --variant sync=dispatch.MMA_WGMMA:False > "$OUT/ab_split.txt" 2>&1)
echo "ab rc=$? at $((SECONDS - t0)) s"
grep -E "^[A-Za-z0-9-]+ \(|median" "$OUT/ab_split.txt"
awk '/err/ {print $1, $NF}' "$OUT/ab_split.txt" | sort -k2 -g | tail -4
CUPYCONV_REPORT_DIR=$OUT timeout 300 python3 -m pytest -m gpu -q -rs -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "long_reductions or split_chains or mma_warpgroup or mma_overlapping" > "$OUT/gpu_tests.txt" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -3 "$OUT/gpu_tests.txt"
python3 benchmarks/merge_gpu_stats.py "$OUT" > /dev/null 2>&1
grep -A3 "long_reduction\|split_chains" "$OUT"/gpu_test_stats.json | grep -E "max|err\"" | head -20
(cd benchmarks && timeout 120 python3 -c "
import cupyconv._dispatch as d; d.MMA_WG_SPLIT_CHAINS = True
import runpy; runpy.run_path('accuracy_scan.py', run_name='__main__')" > "$OUT/accuracy_scan_split.txt" 2>&1)
echo "scan rc=$? at $((SECONDS - t0)) s"; tail -25 "$OUT/accuracy_scan_split.txt"
