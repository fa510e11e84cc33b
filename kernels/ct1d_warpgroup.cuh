// Hopper warpgroup MMA (wgmma, sm_90a only) helpers shared by ct1d_wgmma.cu and
// ct1d_mma.cu's warpgroup path. Everything here exists only where NVRTC builds sm_90a
// code (-arch=sm_90a, which the keys that use it pass): other targets see nothing.
#pragma once
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

__device__ __forceinline__ void wgmma_fence() {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N>                     // at most N groups of this warpgroup still running
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory");
}
// the compiler may not move accesses of d across this point (after a wait)
template <int R>
__device__ __forceinline__ void wgmma_fence_regs(float (&d)[R]) {
#pragma unroll
    for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i]) :: "memory");
}
// Shared-memory matrix descriptor: start address, leading- and stride-dimension byte
// offsets (16-byte units), swizzle mode (0 none, 2: 64-byte)
__device__ __forceinline__ unsigned long long smem_desc(const void* p, unsigned lbo, unsigned sbo,
                                                        unsigned swizzle) {
    const unsigned a = (unsigned)__cvta_generic_to_shared(p);
    return (unsigned long long)((a & 0x3FFFFu) >> 4) | ((unsigned long long)(lbo >> 4) << 16)
           | ((unsigned long long)(sbo >> 4) << 32) | ((unsigned long long)swizzle << 62);
}

// d (+)= A*B for one m64n64k16 tile, both operands 16-bit (float16, or bfloat16 where
// BF16) from shared-memory descriptors (K-major), float32 accumulators; accumulate = 0
// starts from zero. Asynchronous, as above.
#define CT1D_WGMMA_M64N64K16(TYPE)                                                                \
    asm volatile(                                                                                 \
        "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"                                              \
        "wgmma.mma_async.sync.aligned.m64n64k16.f32." TYPE "." TYPE " "                           \
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                 \
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "       \
        "%32, %33, p, 1, 1, 0, 0;\n}\n"                                                           \
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),     \
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), \
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),           \
          "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),           \
          "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])            \
        : "l"(da), "l"(db), "r"(accumulate))
template <bool BF16>
__device__ __forceinline__ void wgmma_m64n64k16(float (&d)[32], unsigned long long da,
                                                unsigned long long db, int accumulate) {
    if constexpr (BF16) CT1D_WGMMA_M64N64K16("bf16");
    else CT1D_WGMMA_M64N64K16("f16");
}
#undef CT1D_WGMMA_M64N64K16

// The same for m64n16k16 and m64n32k16 (N = 16 or 32 columns: N/2 accumulators), and
// m64n64k16 by that name
#define CT1D_WGMMA_M64N16K16(TYPE)                                                                \
    asm volatile(                                                                                 \
        "{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"                                              \
        "wgmma.mma_async.sync.aligned.m64n16k16.f32." TYPE "." TYPE " "                           \
        "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;\n}\n"                          \
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),     \
          "+f"(d[7])                                                                              \
        : "l"(da), "l"(db), "r"(accumulate))
#define CT1D_WGMMA_M64N32K16(TYPE)                                                                \
    asm volatile(                                                                                 \
        "{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"                                              \
        "wgmma.mma_async.sync.aligned.m64n32k16.f32." TYPE "." TYPE " "                           \
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, "                \
        "%16, %17, p, 1, 1, 0, 0;\n}\n"                                                           \
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),     \
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), \
          "+f"(d[14]), "+f"(d[15])                                                                \
        : "l"(da), "l"(db), "r"(accumulate))
// ... and m64n128k16 (64 accumulators: tap groups of 8 classes x 16 channels)
#define CT1D_WGMMA_M64N128K16(TYPE)                                                        \
    asm volatile(                                                                          \
        "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"                                       \
        "wgmma.mma_async.sync.aligned.m64n128k16.f32." TYPE "." TYPE " "                   \
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17," \
        "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33,"  \
        "%34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49,"  \
        "%50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "          \
        "%64, %65, p, 1, 1, 0, 0;\n}\n"                                                    \
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),          \
          "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),        \
          "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),    \
          "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),    \
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),    \
          "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),    \
          "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),    \
          "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),    \
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),    \
          "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),    \
          "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])                               \
        : "l"(da), "l"(db), "r"(accumulate))
template <int N, bool BF16>
__device__ __forceinline__ void wgmma_m64nk16(float (&d)[N / 2], unsigned long long da,
                                              unsigned long long db, int accumulate) {
    static_assert(N == 16 || N == 32 || N == 64 || N == 128,
                  "m64n16k16, m64n32k16, m64n64k16 or m64n128k16");
    if constexpr (N == 128) {
        if constexpr (BF16) CT1D_WGMMA_M64N128K16("bf16");
        else CT1D_WGMMA_M64N128K16("f16");
    } else if constexpr (N == 64) {
        wgmma_m64n64k16<BF16>(d, da, db, accumulate);
    } else if constexpr (N == 16) {
        if constexpr (BF16) CT1D_WGMMA_M64N16K16("bf16");
        else CT1D_WGMMA_M64N16K16("f16");
    } else {
        if constexpr (BF16) CT1D_WGMMA_M64N32K16("bf16");
        else CT1D_WGMMA_M64N32K16("f16");
    }
}
#undef CT1D_WGMMA_M64N16K16
#undef CT1D_WGMMA_M64N32K16
#undef CT1D_WGMMA_M64N128K16

#endif  // __CUDA_ARCH_FEAT_SM90_ALL
