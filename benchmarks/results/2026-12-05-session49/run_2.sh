#!/usr/bin/env bash
# Session 49 run 2 (any card): ct1d_pipe tiles stored as one box of a tensor map
# (cp.async.bulk.tensor.3d, PipeKey.box, dispatch.PIPE_TMA_STORE) against one bulk copy per
# row, on every sweep call it applies to and three off-sweep calls (a dead class, channel
# tiles clipped at 48 channels, two groups of 48); outputs NaN-poisoned, checked in float64.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$1" | cut -c1-170; }
(cd benchmarks && timeout 400 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 \
   up-32-16-s2 up-32-32-s4 up-64-64-s3 sd-s2d1k7 g4-128-k4-s2 g8-256-k8-s4 --rounds 4 \
   --call "dead=8,32,32,2,65536,4,1,1" --call "c48=8,32,48,4,65536,2,1,1" \
   --call "g2c48=4,64,96,4,32768,2,1,1,2" \
   --variant "tma=dispatch.PIPE_TMA_STORE:True") > "$OUT/ab_tma.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_tma.txt"; summ "$OUT/ab_tma.txt"
