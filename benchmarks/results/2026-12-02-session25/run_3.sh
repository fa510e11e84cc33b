# Session 25 run 3: two output buffers for warpgroup tiles of one block per SM
# (MmaKey.out_bufs / the kernel's OB = 2, dispatch.MMA_WG_OUT_BUFS, off in the shipped
# tree): up-64-64-s3's stores alone ran at 1.3 TB/s (session 20). A/B in one process
# against the shipped single buffer, and the registers alone (CT1D_MMA_MINB1: ptxas
# 165 registers instead of 128 with 20 bytes spilled); then the GPU tests of the new path.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
cd benchmarks
timeout 300 python3 ab_variant.py auto up-64-64-s3 \
  --call u64s3d2=8,64,64,6,65536,3,2,2 --call u64s2k8=8,64,64,8,65536,2,3,1 \
  --call u48s3=8,48,48,6,65536,3,2,1 --call c64s2d3k6=8,64,64,6,65536,2,3,3 \
  --call u64s4k8=8,64,64,8,65536,4,2,1 --call u64-32s3=8,64,32,6,65536,3,2,1 --rounds 5 \
  --variant minb1=CT1D_MMA_MINB1:1 --variant ob2=dispatch.MMA_WG_OUT_BUFS:True \
  > "$OUT/ab_out_bufs.txt" 2>&1
echo "ab rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ab_out_bufs.txt"
grep -E "err (nan|[1-9]\.[0-9]e-0[1-6])" "$OUT/ab_out_bufs.txt" | grep -v "e-07\|e-08" | head -5
cd ..
timeout 240 python3 -m pytest -q -x tests/test_gpu.py -k "two_output_buffers or (warpgroup_random_calls and one_block) or ci64_tiles" \
  -p no:cacheprovider > "$OUT/gpu_tests_out_bufs.txt" 2>&1
echo "tests rc=$?"; tail -3 "$OUT/gpu_tests_out_bufs.txt"
