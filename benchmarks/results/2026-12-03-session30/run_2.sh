# Session 30 run 2: (1) the rotation that keeps each row's partial last tile last in the
# walk (CT1D_MMA_ROTATE 2, provisionally the default) against the rotation over all tiles
# (1: session 14-29's code, NVRTC SASS identical to it); (2) programmatic dependent launch
# for back-to-back calls (pdl_probe.py: CT1D_PDL kernels launched by cuLaunchKernelEx with
# the programmatic-serialization attribute, a dependent chain checked); (3) the sweep on
# this code (held launch queue, 500 + 200 us per call).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
(cd benchmarks && timeout 150 python3 ab_variant.py ct1d_mma seed-bf16 seed-fp16 seed seed-bias hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-16-s2 sd-s2d2k3-c64 sd-s3d2k5 g4-128-k4-s2 g16-512-k16-s8 --rounds 7 --variant rot1=CT1D_MMA_ROTATE:1) > $OUT/ab_rotate.txt 2>&1
grep -hE "^[a-z].*torch|median|Error|error" $OUT/ab_rotate.txt | cut -c1-160
(cd benchmarks && timeout 150 python3 pdl_probe.py --rounds 5) > $OUT/pdl_probe.txt 2>&1
grep -v "^compiled" $OUT/pdl_probe.txt | tail -12 | cut -c1-200
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 200 bash benchmarks/device_run.sh bench > $OUT/bench_stdout.txt 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-220
python3 -c "
import json; d=json.load(open('$OUT/h200/bench.json'))
for r in d['results'][:4]:
    print(f\"{r['name']:22} {r['dtype']:8} held {r['ms']:.4f} unheld {r['ms_unheld']:.4f} misses {r['hold_misses']} torch {r['torch_hold_misses']}\")
print('misses', sum(r['hold_misses'] for r in d['results']), sum(r['torch_hold_misses'] for r in d['results']))
"
