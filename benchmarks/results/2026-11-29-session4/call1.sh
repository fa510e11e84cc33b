export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
cd benchmarks
( time python write_floor.py ) > $OUT/write_floor.txt 2>&1
( time python ablate_mma.py --variants base,no_kstep_add,unrolled_fp32,no_loop,only_store,no_store ) > $OUT/ablate_v8.txt 2>&1
( time python tune_mma.py --seed-only ) > $OUT/tune_v8.txt 2>&1
( time python family_compare.py ) > $OUT/family_compare_v8.txt 2>&1
tail -n 5 $OUT/*.txt
