#!/usr/bin/env bash
# Session 48 run 8 (either card): WS consumers issue a tile's output copies at their next
# tile, behind its products (CT1D_PIPE_DEFER_COPIES), on the WS calls. H200 only, then
# run_h200.sh.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 150 python3 ab_variant.py auto sd-s2d2k3-c64 up-32-32-s4 g4-128-k4-s2 \
   sd-s2d1k7 up-16-16-s8 g8-256-k8-s4 sd-s5d1k11 g16-512-k16-s8 hifigan-u4-b16 up-32-16-s2 \
   --rounds 4 --variant "defer=CT1D_PIPE_DEFER_COPIES:1") > "$OUT/ab_defer.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_defer.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_defer.txt" | cut -c1-160
awk '/ err /{split($0,a," err "); split(a[2],b," "); if (b[1]+0 > m || b[1] !~ /e/) m = (b[1] ~ /e/ ? b[1]+0 : 99)} END {print "largest err", m}' "$OUT/ab_defer.txt"
grep -q H200 "$OUT/gpu.txt" || exit 0
bash benchmarks/results/2026-12-05-session48/run_h200.sh
