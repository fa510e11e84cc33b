// Element types and conversions shared by the cupyconv kernels.
//
// Half and bfloat16 are carried as 16-bit storage structs with explicit conversions,
// so the kernels need no CUDA toolkit header (cuda_fp16.h / cuda_bf16.h): NVRTC
// compiles them the same with or without a toolkit on the machine.
#pragma once

struct f16_t  { unsigned short bits; };
struct bf16_t { unsigned short bits; };

// Accumulator type: fp16/bf16/fp32 accumulate in float, fp64 in double.
template <typename T> struct acc_of          { typedef float  type; };
template <>           struct acc_of<double>  { typedef double type; };

__device__ __forceinline__ float  to_acc(float v)  { return v; }
__device__ __forceinline__ double to_acc(double v) { return v; }
__device__ __forceinline__ float  to_acc(f16_t v) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.bits));
    return f;
}
__device__ __forceinline__ float to_acc(bf16_t v) {
    return __uint_as_float(((unsigned int)v.bits) << 16);
}

template <typename T> __device__ __forceinline__ T from_acc(float v);
template <typename T> __device__ __forceinline__ T from_acc(double v);
template <> __device__ __forceinline__ float  from_acc<float>(float v)   { return v; }
template <> __device__ __forceinline__ double from_acc<double>(double v) { return v; }
template <> __device__ __forceinline__ f16_t from_acc<f16_t>(float v) {
    f16_t h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(v));
    return h;
}
// float -> bfloat16 bits, rounded to nearest even on the bit pattern, NaN kept a (quiet)
// NaN: every sm; also the GPU tests' reference for the hardware conversion below
__device__ __forceinline__ unsigned short bf16_bits_rne(float v) {
    const unsigned int u = __float_as_uint(v);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);
    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
// sm_80 and later convert in one instruction (the same rounding, for every float; NaN
// gives the canonical NaN): the integer rounding cost the bfloat16 epilogues ~6
// instructions per element. CT1D_BF16_CVT=0 keeps the integer path (A/B runs).
#ifndef CT1D_BF16_CVT
#define CT1D_BF16_CVT 1
#endif
template <> __device__ __forceinline__ bf16_t from_acc<bf16_t>(float v) {
    bf16_t b;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && CT1D_BF16_CVT
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b.bits) : "f"(v));
#else
    b.bits = bf16_bits_rne(v);
#endif
    return b;
}

// A block's place in the launch grid, the same for every family: blockIdx.y = group *
// co_chunks + channel tile (co_tile output channels each), blockIdx.z = batch item
// (n_offset: the first of this launch's slice).
struct BlockPlace {
    int cig, cog;           // input / output channels per group
    int g;                  // group
    int co_base, co_n;      // first output channel of the tile in its group, channels in it
    long long n;            // batch item
};
__device__ __forceinline__ BlockPlace block_place(int C_in, int C_out, int groups, int co_tile,
                                                  int n_offset) {
    BlockPlace b;
    b.cig = C_in / groups;
    b.cog = C_out / groups;
    const int co_chunks = (b.cog + co_tile - 1) / co_tile;
    b.g = blockIdx.y / co_chunks;
    b.co_base = (blockIdx.y % co_chunks) * co_tile;
    b.co_n = min(co_tile, b.cog - b.co_base);
    b.n = (long long)blockIdx.z + n_offset;
    return b;
}

// Programmatic dependent launch (sm_90+): the launcher (cupyconv._gpu) starts every
// kernel with the programmatic-serialization attribute, so a launch may begin while the
// grid before it in the stream drains. Each kernel's first statement therefore waits for
// that grid's completion and memory (griddepcontrol.wait, before any global access; a
// no-op for a launch without the attribute), then lets the next launch start its blocks,
// which wait the same way. Back-to-back calls gain about 1 us each: small calls' GPU
// time 5.5 -> 4.6 us, the bf16 seed 199.6 -> 198.5 (results/2026-12-03-session30/run_2,
// pdl_probe.txt). CT1D_PDL=0 leaves the instructions out (A/B runs).
#ifndef CT1D_PDL
#define CT1D_PDL 1
#endif
__device__ __forceinline__ void pdl_prologue() {
#if CT1D_PDL && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Thread-block clusters (sm_90+): this block's rank in its cluster, a barrier of all the
// cluster's threads (release / acquire: shared-memory writes before it are visible to every
// block of the cluster after it), and a float read from the shared memory of block `rank`
// at the offset of `p` in this block's own (distributed shared memory). Earlier cards have no
// clusters: only sm_90 instances call these (ct1d_gemm_split, ct1d_narrow_split).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ unsigned cluster_rank() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;"
                 ::: "memory");
}
__device__ __forceinline__ float ld_cluster(const float* p, unsigned rank) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(p);
    unsigned remote;
    float v;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(s), "r"(rank));
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(remote) : "memory");
    return v;
}
#else
__device__ __forceinline__ unsigned cluster_rank() { return 0; }
__device__ __forceinline__ void cluster_sync() { __trap(); }
__device__ __forceinline__ float ld_cluster(const float*, unsigned) { __trap(); return 0.f; }
#endif
