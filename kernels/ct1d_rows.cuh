// Shared by the CUDA-core gather kernels (ct1d_depthwise.cu, ct1d_narrow.cu): a thread's
// input columns of one channel, loaded at once, and a row segment of outputs assembled in
// shared memory, stored in coalesced 16-byte vectors.
#pragma once
#include "ct1d_types.cuh"

// True when some tap reads column u - j (j = k*D div S for some k < K).
__device__ constexpr bool column_used(int j, int S, int D, int K) {
    for (int k = 0; k < K; ++k)
        if (k * D / S == j) return true;
    return false;
}

// xr[q][j] = xc[u - j] for the thread's positions u = u0 + q*STEP + t (q < U) and every
// column offset j that a tap reads; zero outside the row and at positions >= u_end. All
// loads in flight together. Raw values, converted at use: converting at the load lets the
// compiler reuse one register and serialise the loads (seen with bf16 in ct1d_mma).
template <int S, int D, int K, int STEP, typename T, int U, int SPAN>
__device__ __forceinline__ void fetch_columns(const T* xc, int u0, int t, int u_end, int L_in,
                                              T (&xr)[U][SPAN]) {
#pragma unroll
    for (int q = 0; q < U; ++q) {
        const int u = u0 + q * STEP + t;
#pragma unroll
        for (int j = 0; j < SPAN; ++j) {
            if (!column_used(j, S, D, K)) continue;
            const int i = u - j;
            xr[q][j] = (i >= 0 && i < L_in && u < u_end) ? xc[i] : T{};
        }
    }
}

// Raw bits of an element, for packing runs of them into 4..16-byte shared-memory stores.
__device__ __forceinline__ unsigned long long raw_bits(float v)  { return __float_as_uint(v); }
__device__ __forceinline__ unsigned long long raw_bits(double v) { return (unsigned long long)__double_as_longlong(v); }
__device__ __forceinline__ unsigned long long raw_bits(f16_t v)  { return v.bits; }
__device__ __forceinline__ unsigned long long raw_bits(bf16_t v) { return v.bits; }

// v[0:N] as 4-byte words, element 0 in the low bits (little-endian, as in memory).
template <typename T, int N>
__device__ __forceinline__ void pack_words(const T (&v)[N], unsigned (&wd)[N * sizeof(T) / 4]) {
    constexpr int WORDS = N * (int)sizeof(T) / 4;
#pragma unroll
    for (int i = 0; i < WORDS; ++i) {
        if constexpr (sizeof(T) == 8) {
            const unsigned long long b = raw_bits(v[i / 2]);
            wd[i] = (unsigned)(i % 2 ? b >> 32 : b);
        } else {
            constexpr int PER_WORD = 4 / (int)sizeof(T);
            unsigned word = 0;
#pragma unroll
            for (int e = 0; e < PER_WORD; ++e)
                word |= (unsigned)raw_bits(v[i * PER_WORD + e]) << (8 * (int)sizeof(T) * e);
            wd[i] = word;
        }
    }
}

// dst[0:N] = v[0:N] with the widest shared-memory stores the run allows. Runs start at
// multiples of N elements, so a warp writing consecutive runs of 8 or 16 bytes uses whole
// wavefronts instead of the N-way bank conflicts of element-wise stores.
template <typename T, int N>
__device__ __forceinline__ void store_run(T* dst, const T (&v)[N]) {
    constexpr int BYTES = N * (int)sizeof(T);
    if constexpr (BYTES % 8 != 0) {
#pragma unroll
        for (int i = 0; i < N; ++i) dst[i] = v[i];
    } else {
        unsigned wd[BYTES / 4];
        pack_words(v, wd);
#pragma unroll
        for (int i = 0; i < BYTES / 4; i += (BYTES % 16 == 0 ? 4 : 2)) {
            if constexpr (BYTES % 16 == 0)
                reinterpret_cast<uint4*>(dst)[i / 4] = make_uint4(wd[i], wd[i + 1], wd[i + 2], wd[i + 3]);
            else
                reinterpret_cast<uint2*>(dst)[i / 2] = make_uint2(wd[i], wd[i + 1]);
        }
    }
}

// Outputs [t_lo, t_hi) of one row of y (yr; the row starts at flat element row_start of
// y, which is 16-byte aligned), with out_s[e] holding output t0 + e, stored by THREADS
// threads in 16-byte vectors: the row starts anywhere (L_out is often odd), so a head and
// a tail of fewer than 16 bytes go out element by element.
template <typename T, int THREADS>
__device__ __forceinline__ void store_row_segment(T* yr, const T* out_s, long long row_start,
                                                  int t0, int t_lo, int t_hi, int tid) {
    constexpr int VEC = 16 / (int)sizeof(T);
    const long long f_lo = row_start + t_lo;    // y is 16-byte aligned
    const int head = min(t_hi - t_lo, (int)((VEC - f_lo % VEC) % VEC));
    const int t_a = t_lo + head;
    const int n_vec = (t_hi - t_a) / VEC;
    const int t_b = t_a + n_vec * VEC;
    if (tid < head) yr[t_lo + tid] = out_s[t_lo + tid - t0];
    if (tid < t_hi - t_b) yr[t_b + tid] = out_s[t_b + tid - t0];
    for (int v = tid; v < n_vec; v += THREADS) {
        T run[VEC];
#pragma unroll
        for (int e = 0; e < VEC; ++e) run[e] = out_s[t_a + v * VEC + e - t0];
        unsigned wd[4];
        pack_words(run, wd);
        *reinterpret_cast<uint4*>(yr + t_a + v * VEC) = make_uint4(wd[0], wd[1], wd[2], wd[3]);
    }
}
