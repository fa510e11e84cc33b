#!/usr/bin/env bash
# Session 48 run 4 (either card): WS producers' L2 prefetch of their own x windows 1-3
# tiles past the one being loaded (CT1D_PIPE_WS_PREFETCH), and the no-x-loads ablation
# (wrong results: its err column is meaningless) to see how much the x path costs the WS
# calls. H200 only, then: session 47's run_1.sh.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 240 python3 ab_variant.py auto up-32-32-s4 up-16-16-s8 g8-256-k8-s4 \
   g4-128-k4-s2 sd-s2d2k3-c64 sd-s5d1k11 --rounds 4 \
   --variant "pf1=CT1D_PIPE_WS_PREFETCH:1" --variant "pf2=CT1D_PIPE_WS_PREFETCH:2" \
   --variant "pf3=CT1D_PIPE_WS_PREFETCH:3" --variant "nox=CT1D_PIPE_ABLATE:2") \
   > "$OUT/ab_prefetch.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_prefetch.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_prefetch.txt" | cut -c1-160
grep -v "nox" "$OUT/ab_prefetch.txt" | awk '/ err /{split($0,a," err "); split(a[2],b," "); if (b[1]+0 > m || b[1] !~ /e/) m = (b[1] ~ /e/ ? b[1]+0 : 99)} END {print "largest err (not nox)", m}'
grep -q H200 "$OUT/gpu.txt" || exit 0
bash benchmarks/results/2026-12-05-session47/run_1.sh
