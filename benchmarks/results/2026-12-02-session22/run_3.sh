# Session 22 run 3: the sweep on the final code (into $OUT/h200), then Nsight Compute on the
# bf16 seed with run 1's x_bulk variant (patch applied in a copy of the tree) and without,
# to see why staging x by the bulk-copy engine lost.
OUT0=$OUT
OUT=$OUT0/h200 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$?"
grep -E "^(seed|seed-bf16|seed-fp16|hifigan-u4-b16|up-32-16-s2|g4-128-k4-s2|encodec-s2) " "$OUT0/h200/bench.log" | head -12
grep -iE "geomean|geometric" "$OUT0/h200/bench.log" | head -3
rm -rf /tmp/xb && cp -r . /tmp/xb && (cd /tmp/xb && patch -p1 -s < benchmarks/variants/ct1d_mma_x_bulk.patch \
  && OUT=$OUT0/ncu_xbulk timeout 150 bash benchmarks/ncu_stalls.sh ct1d_mma seed-bf16)
OUT=$OUT0/ncu_shipped timeout 150 bash benchmarks/ncu_stalls.sh ct1d_mma seed-bf16
