#!/usr/bin/env bash
# Device run (session 44): ct1d_pipe's warp-specialised blocks against the shipped ones on
# the calls the dispatcher sends to ct1d_pipe (A/B in one process, errors against float64),
# then the family's GPU tests with warp-specialised blocks wherever they fit.
# Usage: bash benchmarks/pipe_ws_ab.sh OUTDIR [rounds]
# (session 44's runs 1-2; OVERLAP=1 adds the two-accumulator consumers, which need
# benchmarks/variants/ct1d_pipe_s44_ws_overlap.patch applied first)
set -u
out=$1; rounds=${2:-2}; mkdir -p "$out"
export PYTHONPATH=$PWD:$PWD/benchmarks CUPY_CACHE_DIR=${CUPY_CACHE_DIR:-/tmp/cc} PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$out/env.txt"
calls=${CALLS:-"hifigan-u4-b16 up-32-16-s2 up-32-32-s4 up-16-16-s8 up-64-64-s3 sd-s2d2k3-c64 sd-s2d1k7 sd-s1d4k3
       sd-s5d1k11 g4-128-k4-s2 g16-512-k16-s8 encodec-s2 g8-256-k8-s4 hifigan-u4-b4-long"}
A='((2,1,5,2),(2,1,4,2),(2,1,4,1))'
(cd benchmarks && timeout ${AB_LIMIT:-330} python ab_variant.py auto $calls --rounds "$rounds" \
   --variant "wsA=dispatch.PIPE_WS_SHAPES:$A" \
   ${OVERLAP:+--variant "wsAov=dispatch.PIPE_WS_SHAPES:$A,CT1D_PIPE_WS_OVERLAP:1"} \
   --variant "wsB=dispatch.PIPE_WS_SHAPES:((3,1,5,1),(3,1,5,2))" \
   --variant "wsC=dispatch.PIPE_WS_SHAPES:((2,2,5,2),(2,2,5,1))") > "$out/ab_ws.txt" 2>&1
echo "ab rc $?" >> "$out/ab_ws.txt"
par=(); python -c "import xdist" 2>/dev/null && par=(-n 16)
PIPE_WS_SHAPES="$A" timeout ${TEST_LIMIT:-200} python -m pytest -m gpu -q "${par[@]}" -p pipe_ws_plugin \
   -p no:cacheprovider tests/test_gpu.py -k pipe -W ignore > "$out/tests_ws.txt" 2>&1
echo "tests rc $?" >> "$out/tests_ws.txt"
