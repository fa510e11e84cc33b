#!/usr/bin/env bash
# Session 48 run 2. Either card: CT1D_PIPE_BUILD_AHEAD (plain blocks with >= 2 ring stages
# build tile i + 1's A while tile i's products run; 96 / 112: the register budget of both
# A sets and the accumulators) on the calls that qualify, on the H200's rules (on an H100
# by `dispatch.CARD_RULES:{}`). H200 only, then: session 47's run_1.sh (any16 A/B, the
# pipe tests and the sweep with it, WS shapes).
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
CALLS='up-32-16-s2 --call e32-16-k6s3=8,32,16,6,65536,3,1,1 --call g32-16-k2s1=8,32,16,2,131072,1,0,1
       --call m16-16-k3s1=8,16,16,3,131072,1,1,1 --call f48-16-k4s2=8,48,16,4,65536,2,1,1
       --call a32-16-k4s2=8,32,16,4,65536,2,1,1'
if grep -q H200 "$OUT/gpu.txt"; then R=""; else R="dispatch.CARD_RULES:{},"; fi
(cd benchmarks && timeout 200 python3 ab_variant.py auto $CALLS --rounds 5 \
   ${R:+--variant "h200rules=dispatch.CARD_RULES:{}"} \
   --variant "ahead96=${R}CT1D_PIPE_BUILD_AHEAD:96" --variant "ahead112=${R}CT1D_PIPE_BUILD_AHEAD:112") \
   > "$OUT/ab_ahead.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_ahead.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_ahead.txt" | cut -c1-160
awk '/ err /{split($0,a," err "); split(a[2],b," "); if (b[1]+0 > m || b[1] !~ /e/) m = (b[1] ~ /e/ ? b[1]+0 : 99)} END {print "largest err", m}' "$OUT/ab_ahead.txt"
grep -q H200 "$OUT/gpu.txt" || exit 0
bash benchmarks/results/2026-12-05-session47/run_1.sh
