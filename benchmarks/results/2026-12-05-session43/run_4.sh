#!/usr/bin/env bash
# (Ran on the tree of commit de6dc45, where PipeKey.xsplit and dispatch.PIPE_XSPLIT existed;
# the option is kept as benchmarks/variants/ct1d_pipe_s43_xsplit.patch.)
# Session 43 run 4: ct1d_pipe with x split once per tile into shared memory (PipeKey.xsplit,
# A from shared memory: 1 = a window of its own, 2 = in place of the raw window) against
# the shipped split per column offset into A fragments, on the 13 sweep calls the family
# takes and one ANY_L call; each output NaN-poisoned and checked against float64. Then the
# split mode the A/B found fastest (by the geometric mean of its medians over the shipped
# ones, if below 0.98) gets its GPU tests and the sweep; none if neither is (device time:
# failed machine starts had taken half of the session's).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/environment.txt" 2>&1
(cd benchmarks && timeout 240 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 \
  up-32-16-s2 up-32-32-s4 up-16-16-s8 up-64-64-s3 sd-s2d2k3-c64 sd-s2d1k7 sd-s1d4k3 sd-s5d1k11 \
  g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --call anyl-64-32=8,64,32,4,65536,2,2,1 --rounds 2 \
  --variant "xs1=dispatch.PIPE_XSPLIT:1" --variant "xs2=dispatch.PIPE_XSPLIT:2" > "$OUT/ab_xsplit.txt" 2>&1)
grep -E "median" "$OUT/ab_xsplit.txt" | cut -c1-100
grep -E "err [0-9.e+-]+" -o "$OUT/ab_xsplit.txt" | sort -t' ' -k2 -g | tail -1
mode=$(python3 - "$OUT/ab_xsplit.txt" <<'PY'
import math, re, sys
lines = open(sys.argv[1]).read().splitlines()
rows = [dict(re.findall(r"(\w+) ([0-9.]+) ms", l)) for l in lines if "median:" in l]
best, score = 0, 0.98
for v, m in (("xs1", 1), ("xs2", 2)):
    errs = [e for l in lines if l.split()[:1] == [v] for e in re.findall(r"err (\S+)", l)]
    if not errs or not all(float(e) <= 1e-6 for e in errs):      # (NaN fails too)
        print(f"{v}: errors {errs[:3]}... not taken", file=sys.stderr)
        continue
    g = math.exp(sum(math.log(float(r[v]) / float(r["shipped"])) for r in rows) / max(len(rows), 1))
    print(f"{v}: geometric mean {g:.4f} of shipped over {len(rows)} calls", file=sys.stderr)
    if rows and g < score:
        best, score = m, g
print(best)
PY
)
echo "sweep with PIPE_XSPLIT=$mode"
[[ $mode == 0 ]] && exit 0
# the new path's GPU tests (one process, no xdist, so the constant set before pytest holds)
timeout 150 python3 -c "import sys, pytest, cupyconv._dispatch as d; d.PIPE_XSPLIT = $mode; sys.exit(pytest.main(sys.argv[1:]))" \
  -q -m gpu -p no:cacheprovider tests/test_gpu.py \
  -k "pipe_family_random_calls and (shipped or xsplit1 or xsplit2) or (pipe and (wide_dynamic or extreme_magnitudes or nonfinite))" \
  > "$OUT/gpu_tests_xsplit.log" 2>&1
echo "PIPE_XSPLIT=$mode: $(tail -1 "$OUT/gpu_tests_xsplit.log")"; grep -E "^FAILED|Error" "$OUT/gpu_tests_xsplit.log" | head -5
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -o -i -E "h100|h200" | tr A-Z a-z)
mkdir -p "$OUT/${card:-gpu}"
timeout 170 python3 -c "import runpy, sys, cupyconv._dispatch as d; d.PIPE_XSPLIT = $mode; sys.argv[0] = 'bench'; runpy.run_module('cupyconv.bench', run_name='__main__')" \
  --json "$OUT/${card:-gpu}/bench.json" --chart "$OUT/${card:-gpu}/speedup.png" > "$OUT/${card:-gpu}/bench.log" 2>&1
grep -A12 "issue 4's targets" "$OUT/${card:-gpu}/bench.log" | head -14
