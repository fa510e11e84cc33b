# Session 30 run 1: (1) do the seeds' power-of-two row pitches cost time (pitch_probe.py:
# lengths near 131072 with the same tiles; x / y rows padded by 64 elements at 131072);
# (2) A/B of the x L2 prefetch distance skewed by channel row (CT1D_MMA_X_PREFETCH_SKEW),
# which spreads one window's rows over several tiles' time; (3) the sweep with the held
# launch queue (bench.py: each sample's calls queued behind a GPU wait; ms_unheld keeps
# the former timing of cupyconv's calls next to it).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem --format=csv > $OUT/env.txt 2>&1
(cd benchmarks && timeout 170 python3 pitch_probe.py seed-bf16 seed --rounds 5) > $OUT/pitch_probe.txt 2>&1
grep -v "^compiled" $OUT/pitch_probe.txt | cut -c1-120
(cd benchmarks && timeout 150 python3 ab_variant.py ct1d_mma seed-bf16 seed-fp16 up-32-16-s2 g4-128-k4-s2 --rounds 5 --variant skew1=CT1D_MMA_X_PREFETCH_SKEW:1 --variant skew2=CT1D_MMA_X_PREFETCH_SKEW:2) > $OUT/ab_skew.txt 2>&1
grep -hE "^[a-z].*torch|median|Error|error" $OUT/ab_skew.txt | cut -c1-160
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 230 bash benchmarks/device_run.sh bench > $OUT/bench_stdout.txt 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-200
python3 -c "
import json; d=json.load(open('$OUT/h200/bench.json'))
for r in d['results']:
    print(f\"{r['name']:22} {r['dtype']:8} held {r['ms']:.4f} unheld {r['ms_unheld']:.4f} misses {r['hold_misses']}\")
" | head -50
