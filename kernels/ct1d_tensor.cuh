// Tensor-core helpers shared by ct1d_mma.cu and ct1d_gemm.cu: TF32 rounding and the
// 3xTF32 split, the m16n8k8 TF32 MMA, and the compile-time residue-class structure
// (BRIEF section 3: output o = u*S + r - P takes tap k iff k*D mod S == r).
#pragma once

// Round to TF32 (10 mantissa bits), to nearest with ties away from zero, as cvt.rna does
// for finite values; the low 13 bits come back zero.
__device__ __forceinline__ unsigned tf32_round(float f) {
    return (__float_as_uint(f) + 0x1000u) & 0xffffe000u;
}

// f = hi + lo with hi, lo in TF32 (f - hi is exact in float32)
__device__ __forceinline__ void tf32_split(float f, unsigned& hi, unsigned& lo) {
    hi = tf32_round(f);
    lo = tf32_round(f - __uint_as_float(hi));
}

// d += a * b for one m16n8k8 tile (A row-major 16x8, B column-major 8x8, f32 accumulate)
__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint4& a, unsigned b0, unsigned b1) {
    // not volatile: the compiler may interleave independent MMAs to hide their latency
    asm(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

// The compile-time tap structure of a residue class.
__device__ constexpr int class_taps(int r, int S, int D, int K) {
    int n = 0;
    for (int k = 0; k < K; ++k) n += (k * D) % S == r;
    return n;
}
__device__ constexpr int class_tap(int r, int j, int S, int D, int K) {   // j-th tap of class r
    for (int k = 0; k < K; ++k)
        if ((k * D) % S == r && j-- == 0) return k;
    return -1;
}
__device__ constexpr int max_class_taps(int S, int D, int K) {
    int m = 0;
    for (int r = 0; r < S; ++r) m = class_taps(r, S, D, K) > m ? class_taps(r, S, D, K) : m;
    return m;
}

__device__ constexpr int first_live_class(int S, int D, int K) {
    for (int r = 0; r < S; ++r)
        if (class_taps(r, S, D, K) > 0) return r;
    return -1;
}
__device__ constexpr int live_classes(int S, int D, int K) {   // classes reached by a tap
    int n = 0;
    for (int r = 0; r < S; ++r) n += class_taps(r, S, D, K) > 0;
    return n;
}
__device__ constexpr int live_class(int i, int S, int D, int K) {  // the i-th of them
    for (int r = 0; r < S; ++r)
        if (class_taps(r, S, D, K) > 0 && i-- == 0) return r;
    return -1;
}

template <typename T> struct is_f32        { static constexpr bool value = false; };
template <>           struct is_f32<float> { static constexpr bool value = true; };
