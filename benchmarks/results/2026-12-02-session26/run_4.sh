# Session 26 run 4: the small calls' GPU time (behind torch.cuda._sleep, no host share)
# for the planned ct1d_mma tile and narrower ones, along positions down to one warp of
# 8 positions and along channels down to 16 per block (benchmarks/small_calls.py): in CUDA
# graphs (run 3) small-64-32-s2 and small-seed ran 12.9 / 8.2 us against torch's 11.6 / 6.2.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
cd benchmarks
timeout 300 python3 small_calls.py > "$OUT/small_calls.txt" 2>&1
echo "rc=$?"; cat "$OUT/small_calls.txt"
