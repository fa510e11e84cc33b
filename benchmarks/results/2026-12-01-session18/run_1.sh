# Session 18, device call 1: GPU tests of the new paths (tap groups, split tiles), then
# A/B runs in one process each (ab_variant.py: the shipped source first, rows alternating).
#   bash benchmarks/results/2026-12-01-session18/run_1.sh   (GPU machine, repo root)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/environment.txt" 2>&1
timeout 200 python3 -m pytest -m gpu -q -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "warpgroup or overlapping or random_configurations" > "$OUT/gpu_tests_groups.txt" 2>&1
echo "tests rc=$?"; tail -3 "$OUT/gpu_tests_groups.txt"
cd benchmarks
ab() { out=$1; shift; timeout ${T:-120} python3 ab_variant.py "$@" > "$OUT/$out" 2>&1; echo "$out rc=$?"; grep median "$OUT/$out"; }
G=CT1D_MMA_WGT_GROUPS:0
ab ab_groups.txt ct1d_mma up-32-16-s2 g4-128-k4-s2 --rounds 5 --variant per_class=$G
ab ab_groups_bf16.txt ct1d_mma up-32-16-s2 g4-128-k4-s2 --dtype bfloat16 --rounds 3 --variant per_class=$G
# split32: the 16-channel transposed tiles against 32-channel mma.sync tiles, and ct1d_stream
ab ab_split32.txt ct1d_mma up-32-32-s4 g8-256-k8-s4 --rounds 3 \
  --variant per_class=$G --variant mma_sync=dispatch.MMA_WG_SPLIT_32:False
ab ab_split32_stream.txt ct1d_stream up-32-32-s4 g8-256-k8-s4 --rounds 3
