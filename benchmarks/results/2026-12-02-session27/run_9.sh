# Session 27 run 9 (typed as one command line): the depthwise GPU tests on the final code
# (ct1d_depthwise.cu gained the CT1D_DW_MIN_BLOCKS knob, off; _dispatch the
# _DEPTHWISE_MAX_U constant, 4 as before). Outcome: 61 passed, 16 skipped (forced family
# on calls it does not cover), 33 s.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc
timeout 250 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "depthwise" -n 16 > $OUT/gpu_tests_depthwise.txt 2>&1
