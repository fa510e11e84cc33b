# Session 22 run 5: the sweep again on the final code (run 3 read small-64-32-s2 at 24 us by
# events against 14 us wall per call; run 4 saw it at 1.7x torch on another machine)
OUT=$OUT/h200 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$?"
sed -n "/^config/,\$p" "$OUT/h200/bench.log"
