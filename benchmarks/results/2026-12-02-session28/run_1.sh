# Session 28 run 1: does the copy engine mix its DRAM traffic with the SMs' better than
# the SMs mix their own (the premise of NOTES' untried "output through cudaMemcpyAsync"
# idea)? benchmarks/ce_mix.py, then the seeds as this machine reads them.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/env.txt
python3 -c "import cupy, cupy_backends.cuda.api.driver as d; print(cupy.__version__, [n for n in dir(d) if 'aunch' in n])" >> $OUT/env.txt 2>&1
(cd benchmarks && timeout 240 python3 ce_mix.py) 2>&1 | tee $OUT/ce_mix.txt
timeout 240 python3 -m cupyconv.bench --only seed seed-bf16 --reps 50 --json $OUT/seeds.json 2>&1 | tee $OUT/seeds.txt
# Outcome (ce_mix.txt): the idea is refuted. The copy engine's 4.21 TB/s counts its reads
# even when they hit L2: y written from a 16 MiB L2-resident source ran at 1.88 TB/s
# (4 MiB chunks 0.60: ~5 us per memcpy), x read into a 16 MiB L2-resident destination at
# 1.70. Concurrent pairs with the seed's bytes: SM writes + CE reads 0.431 ms (3.11
# TB/s), SM reads + CE writes 0.654 ms (2.05); the SMs alone at the same mix (rd1wr4)
# 0.365 ms (3.68 TB/s, 87% of the copy). Seeds on this machine: 0.407 / 0.207 ms.
