# Ran as session 19 run 1: the full GPU suite on session 18's final code, then
# an in-process A/B of MMA_WG_CI64's calls against the families they left (the dispatcher
# picks the family: ab_variant.py auto; off = ct1d_gemm for sd-s2d2k3-c64 and sd-s2d4k4,
# ct1d_stream for the 64 -> 32 vocoder layers).   bash benchmarks/results/next/run_next.sh
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
OUT=$OUT/tests timeout 380 bash benchmarks/device_run.sh tests > /dev/null 2>&1; echo "tests rc=$?"
tail -1 "$OUT/tests/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests/gpu_tests.log" | head
cd benchmarks
timeout 150 python3 ab_variant.py auto sd-s2d2k3-c64 sd-s2d4k4 hifigan-u4-b16 encodec-s2 --rounds 3 \
  --variant off=dispatch.MMA_WG_CI64:False > "$OUT/ab_ci64_families.txt" 2>&1
echo "ab rc=$?"; grep -E "^\S|median" "$OUT/ab_ci64_families.txt"
