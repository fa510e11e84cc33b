# Session 25 run 4: run 3's register finding as shipped code: warpgroup tiles of one
# block per SM compiled for one block (MmaKey.one_block, the kernel's ONE_BLOCK template
# argument, dispatch.MMA_WG_ONE_BLOCK_REGS) against the same tiles at 128 registers
# (the flag off), in one process; then the GPU tests of one-block instances.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
cd benchmarks
timeout 300 python3 ab_variant.py auto up-64-64-s3 \
  --call u64s3d2=8,64,64,6,65536,3,2,2 --call u64s2k8=8,64,64,8,65536,2,3,1 \
  --call u48s3=8,48,48,6,65536,3,2,1 --call c64s2d3k6=8,64,64,6,65536,2,3,3 \
  --call u64s4k8=8,64,64,8,65536,4,2,1 --call u64-32s3=8,64,32,6,65536,3,2,1 --rounds 5 \
  --variant regs128=dispatch.MMA_WG_ONE_BLOCK_REGS:False > "$OUT/ab_one_block.txt" 2>&1
echo "ab rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ab_one_block.txt"
cd ..
timeout 200 python3 -m pytest -q tests/test_gpu.py -k "one_block or ci64_tiles or ci64wide" \
  -p no:cacheprovider > "$OUT/gpu_tests_one_block.txt" 2>&1
echo "tests rc=$?"; tail -3 "$OUT/gpu_tests_one_block.txt"
