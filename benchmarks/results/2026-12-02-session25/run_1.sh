# Session 25 run 1: the sweep with the roofline columns and the targets check (bench.py
# now measures a bf16 GEMM rate for the compute floor), the seeds again with 100 samples,
# and the store / read-write-mix ceilings of write_floor.py on the same machine.
mkdir -p "$OUT/h200"
t0=$SECONDS
OUT=$OUT/h200 timeout 240 bash benchmarks/device_run.sh bench > "$OUT/bench_stdout.txt" 2>&1
echo "bench rc=$? at $((SECONDS - t0)) s"
grep -A12 "^issue 4's targets" "$OUT/h200/bench.log"
PYTHONPATH=$PWD timeout 120 python3 -m cupyconv.bench --only seed seed-bf16 seed-fp16 seed-bias \
  --reps 100 --json "$OUT/seeds_reps100.json" > "$OUT/seeds_reps100.txt" 2>&1
echo "seeds rc=$? at $((SECONDS - t0)) s"; head -7 "$OUT/seeds_reps100.txt"
(cd benchmarks && timeout 120 python3 write_floor.py copy st128 rd4wr16 "mix 33x16" "mix 132x16" \
  "mix16 1KB") > "$OUT/write_floor.txt" 2>&1
echo "write_floor rc=$? at $((SECONDS - t0)) s"; cat "$OUT/write_floor.txt"
