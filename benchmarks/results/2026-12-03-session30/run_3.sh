# Session 30 run 3, the final code: programmatic dependent launch in every family
# (pdl_prologue at each kernel's top, cuLaunchKernelEx with the attribute on sm_90;
# CT1D_MMA_ROTATE back to 1). (1) pdl_probe.py: CT1D_PDL=0 plain / shipped plain / shipped
# with PDL, held queue, a dependent chain checked; (2) the full GPU suite; (3) the sweep
# (held queue, PDL) and its seeds and small calls again with --no-pdl.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
(cd benchmarks && timeout 100 python3 pdl_probe.py seed-bf16 seed hifigan-u4-b16 dw-256-k4-s2 up-256-256-s2 small-seed small-64-32-s2 small-16-16-k3 small-dw-128 --rounds 3) > $OUT/pdl_probe.txt 2>&1
grep -v "^compiled" $OUT/pdl_probe.txt | tail -12 | cut -c1-200
OUT=$OUT timeout 400 bash benchmarks/device_run.sh tests > $OUT/tests_stdout.txt 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 120 bash benchmarks/device_run.sh bench > $OUT/bench_stdout.txt 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-240
timeout 40 python3 -m cupyconv.bench --no-pdl --only seed seed-bf16 seed-fp16 small-seed small-64-32-s2 small-16-16-k3 small-dw-128 --json $OUT/bench_no_pdl.json > $OUT/bench_no_pdl.log 2>&1
python3 -c "
import json
a = {r['name']: r for r in json.load(open('$OUT/h200/bench.json'))['results']}
b = {r['name']: r for r in json.load(open('$OUT/bench_no_pdl.json'))['results']}
for n in b:
    print(f\"{n:18} pdl {a[n]['ms']*1e3:8.2f} us  no pdl {b[n]['ms']*1e3:8.2f} us  unheld {a[n]['ms_unheld']*1e3:8.2f} us  wall {a[n].get('wall_ms', 0)*1e3:6.1f} / {b[n].get('wall_ms', 0)*1e3:6.1f} us\")
"
