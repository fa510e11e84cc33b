# Session 19 run 3: in-process A/Bs (ab_variant.py auto: the dispatcher picks the family)
# of five dispatcher/kernel options, each off in the shipped source:
#   MMA_WG_WIDE_W        <= 32 input channels whose mma.sync tile cannot stage all weights
#                        -> transposed tiles staging them all (sd-s2d1k7 leaves ct1d_gemm)
#   MMA_WG_CI64_TILES 4  ci64 calls in four 16-channel tiles (up-64-64-s3 leaves ct1d_gemm)
#   MMA_WG_CI64_ONE_BLOCK  ... or 32-channel tiles at one block per SM
#   MMA_WG_T_MAX_STRIDE 5 / 8  transposed tiles for strides 5 and 8 (sd-s5d1k11,
#                        g16-512-k16-s8 leave ct1d_stream), stride 8 with and without
#                        tap groups of 8 classes (CT1D_MMA_WGT_MAX_N 128: m64n128k16)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
ab() { out=$1; shift; timeout 170 python3 ab_variant.py auto "$@" --rounds 3 > "$OUT/$out" 2>&1; echo "$out rc=$?"; grep -E "^\S|median" "$OUT/$out"; }
ab ab_wide_w.txt sd-s2d1k7 --call wideW-a=8,32,64,8,65536,4,2,1 --call wideW-b=8,32,64,9,65536,2,4,1 \
   --variant widew=dispatch.MMA_WG_WIDE_W:True --variant widew_t4=dispatch.MMA_WG_WIDE_W:True,dispatch.MMA_WG_CI64_TILES:4
ab ab_ci64_tiles.txt up-64-64-s3 --call ci64-d=8,48,64,4,65536,2,1,1 --call ci64-e=8,64,64,6,65536,3,1,2 \
   --variant t4=dispatch.MMA_WG_CI64_TILES:4 --variant ob=dispatch.MMA_WG_CI64_ONE_BLOCK:True
ab ab_s5.txt sd-s5d1k11 --call s5-32-16=8,32,16,10,32768,5,3,1 --variant s5=dispatch.MMA_WG_T_MAX_STRIDE:5
ab ab_s8.txt up-16-16-s8 g16-512-k16-s8 --variant s8=dispatch.MMA_WG_T_MAX_STRIDE:8 \
   --variant s8n128=dispatch.MMA_WG_T_MAX_STRIDE:8,CT1D_MMA_WGT_MAX_N:128
ab ab_bf16.txt up-32-32-s4 g8-256-k8-s4 up-16-16-s8 sd-s2d1k7 up-64-64-s3 --dtype bfloat16 \
   --variant n128=CT1D_MMA_WGT_MAX_N:128 --variant s8n128=dispatch.MMA_WG_T_MAX_STRIDE:8,CT1D_MMA_WGT_MAX_N:128 \
   --variant widew_t4=dispatch.MMA_WG_WIDE_W:True,dispatch.MMA_WG_CI64_TILES:4
