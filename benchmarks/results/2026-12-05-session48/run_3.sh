#!/usr/bin/env bash
# Session 48 run 3 (either card): the epilogue's paired 8-byte shared-memory stores
# (CT1D_PIPE_PAIR_STORES; with CT1D_PIPE_OP16 the stride-4 rows 16 words apart mod 32)
# on the calls they apply to (every class live, S even, loc0 even, rows in 16-byte units)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 240 python3 ab_variant.py auto up-32-32-s4 up-16-16-s8 g8-256-k8-s4 \
   g16-512-k16-s8 --call s2k6p2=8,32,32,6,65536,2,2,1 --call s4k8p2=16,32,32,8,65536,4,2,1 --rounds 5 \
   --variant "pairs=CT1D_PIPE_PAIR_STORES:1" \
   --variant "pairs_op16=CT1D_PIPE_PAIR_STORES:1,CT1D_PIPE_OP16:1,dispatch.PIPE_OP16:True") \
   > "$OUT/ab_pairs.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_pairs.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_pairs.txt" | cut -c1-160
awk '/ err /{split($0,a," err "); split(a[2],b," "); if (b[1]+0 > m || b[1] !~ /e/) m = (b[1] ~ /e/ ? b[1]+0 : 99)} END {print "largest err", m}' "$OUT/ab_pairs.txt"
