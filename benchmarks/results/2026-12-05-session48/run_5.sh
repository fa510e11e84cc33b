#!/usr/bin/env bash
# Session 48 run 5 (either card): WS consumers wait for their output buffer after issuing
# the products (CT1D_PIPE_WS_LATE_BUF), on the one-buffer WS calls (sd-s2d2k3-c64,
# sd-s2d1k7) and two-buffer ones. H200 only, then: session 47's run_1.sh.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 200 python3 ab_variant.py auto sd-s2d2k3-c64 sd-s2d1k7 up-32-32-s4 \
   g4-128-k4-s2 hifigan-u4-b16 --rounds 5 --variant "late=CT1D_PIPE_WS_LATE_BUF:1") \
   > "$OUT/ab_late_buf.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_late_buf.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_late_buf.txt" | cut -c1-160
awk '/ err /{split($0,a," err "); split(a[2],b," "); if (b[1]+0 > m || b[1] !~ /e/) m = (b[1] ~ /e/ ? b[1]+0 : 99)} END {print "largest err", m}' "$OUT/ab_late_buf.txt"
grep -q H200 "$OUT/gpu.txt" || exit 0
bash benchmarks/results/2026-12-05-session47/run_1.sh
