# Session 30 run 2: the rotation that keeps each row's partial last tile last in the walk
# (CT1D_MMA_ROTATE 2, provisionally the default) against the rotation over all tiles (1,
# session 14-29's code, SASS identical to it); then the full GPU suite on this code and the
# sweep (held launch queue; hold sized 500 + 200 us per call).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
(cd benchmarks && timeout 150 python3 ab_variant.py ct1d_mma seed-bf16 seed-fp16 seed seed-bias hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-16-s2 sd-s2d2k3-c64 sd-s3d2k5 g4-128-k4-s2 g16-512-k16-s8 --rounds 7 --variant rot1=CT1D_MMA_ROTATE:1) > $OUT/ab_rotate.txt 2>&1
grep -hE "^[a-z].*torch|median|Error|error" $OUT/ab_rotate.txt | cut -c1-160
OUT=$OUT timeout 420 bash benchmarks/device_run.sh tests > $OUT/tests_stdout.txt 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 150 bash benchmarks/device_run.sh bench > $OUT/bench_stdout.txt 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-220
python3 -c "
import json; d=json.load(open('$OUT/h200/bench.json'))
for r in d['results'][:4]:
    print(f\"{r['name']:22} {r['dtype']:8} held {r['ms']:.4f} unheld {r['ms_unheld']:.4f} misses {r['hold_misses']} torch {r['torch_hold_misses']}\")
print('misses', sum(r['hold_misses'] for r in d['results']), sum(r['torch_hold_misses'] for r in d['results']))
"
