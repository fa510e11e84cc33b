# Session 31 run 2: where ct1d_pipe's time goes (stage ablations, wrong results on
# purpose) and its pipeline shape (warpgroups per block, ring stages), side by side with
# the shipped plans (benchmarks/pipe_probe.py).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
V="--variant pipe=wg:2,stages:3 --variant no_mma=wg:2,stages:3,CT1D_PIPE_ABLATE:1 --variant no_xload=wg:2,stages:3,CT1D_PIPE_ABLATE:2 --variant no_store=wg:2,stages:3,CT1D_PIPE_ABLATE:3 --variant no_abuild=wg:2,stages:3,CT1D_PIPE_ABLATE:4 --variant no_epi=wg:2,stages:3,CT1D_PIPE_ABLATE:5 --variant wg1s2=wg:1,stages:2 --variant wg1s3=wg:1,stages:3 --variant wg2s2=wg:2,stages:2 --variant wg2s4=wg:2,stages:4 --variant ov=wg:2,stages:3,CT1D_PIPE_OVERLAP:1 --variant ov_wg1=wg:1,stages:3,CT1D_PIPE_OVERLAP:1"
timeout 300 python3 benchmarks/pipe_probe.py hifigan-u4-b16 up-32-16-s2 sd-s1d4k3 g4-128-k4-s2 up-64-64-s3 sd-s4d3k5 --rounds 3 $V 2>&1 | tee $OUT/pipe_ablate.txt | cut -c1-300
timeout 200 python3 benchmarks/pipe_probe.py --rounds 3 --variant pipe=wg:2,stages:3 --variant ov=wg:2,stages:3,CT1D_PIPE_OVERLAP:1 2>&1 | tee $OUT/pipe_all.txt | cut -c1-300
