// Tensor-core transposed convolution: the phase decomposition with its passes in registers.
//
// Gather view of the same sum that ct1d_scatter.cu scatters (BRIEF section 3): write an
// output position as o = u*S + r - P with residue r in [0, S). Class r receives exactly
// the taps k with k*D mod S == r, tap k from column i = u - c_k (c_k = k*D div S):
//
//   y[co, u*S + r - P] = bias[co] + sum over k in class r, ci of w[ci, co, k] * x[ci, u - c_k]
//
// Those taps come from distinct columns, one per phase at most, so each output's running
// sum lives in one register (an MMA accumulator) and takes its T contributions in a fixed
// order: the T non-overlapping passes of the scatter happen in registers, without atomics
// and bitwise reproducibly. Each class is a stride-1 implicit GEMM
// (M = output channels, N = positions u, reduction = taps of the class x input channels),
// done with mma.sync m16n8k8 TF32 tensor-core instructions:
//   * float32 inputs use the 3xTF32 split a*b ~ a_hi*b_hi + a_hi*b_lo + a_lo*b_hi, which
//     keeps float32 accuracy (error ~2^-22 per product, accumulation in float32);
//   * float16 and bfloat16 values are exactly representable in TF32, so one MMA per
//     product is exact (float32 accumulation).
// A block owns CO_T output channels x NU positions u of every class, i.e. S*NU consecutive
// output positions; classes that no tap reaches are filled with the bias. The tile is
// assembled in shared memory and stored to global memory once, coalesced.
#include "ct1d_types.cuh"

__device__ __forceinline__ unsigned tf32_bits(float f) {
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(f));
    return r;
}

// d += a * b for one m16n8k8 tile (A row-major 16x8, B column-major 8x8, f32 accumulate)
__device__ __forceinline__ void mma_tf32(float (&d)[4], const unsigned (&a)[4],
                                         const unsigned (&b)[2]) {
    // not volatile: the compiler may interleave independent MMAs to hide their latency
    asm(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
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


// This thread's share of an input stage [CI_CHUNK][XW]: columns u0 - CMAX + j of channels
// ci0 + c, zero outside the chunk and the sequence.
template <typename T, int XPT, int XW, int CI_CHUNK, int THREADS, int CMAX>
__device__ __forceinline__ void fetch_cols(float (&xr)[XPT], const T* __restrict__ xn, int L_in,
                                           int u0, int ci0, int ci_n) {
#pragma unroll
    for (int q = 0; q < XPT; ++q) {
        const int e = threadIdx.x + q * THREADS, c = e / XW, j = e % XW;
        const int i = u0 - CMAX + j;
        xr[q] = (e < CI_CHUNK * XW && c < ci_n && i >= 0 && i < L_in)
            ? to_acc(xn[(long long)(ci0 + c) * L_in + i]) : 0.f;
    }
}

template <int XPT, int XW, int XP, int CI_CHUNK, int THREADS>
__device__ __forceinline__ void commit_cols(const float (&xr)[XPT], float* x_s) {
#pragma unroll
    for (int q = 0; q < XPT; ++q) {
        const int e = threadIdx.x + q * THREADS;
        if (e < CI_CHUNK * XW) x_s[(e / XW) * XP + e % XW] = xr[q];
    }
}

template <typename T> struct is_f32        { static constexpr bool value = false; };
template <>           struct is_f32<float> { static constexpr bool value = true; };

// Template parameters:
//   T          element type in memory: float, f16_t, bf16_t
//   S, D, K    stride, dilation, kernel size (compile-time: the class structure is static)
//   MT         m16 tiles per warp: the block covers CO_T = 16*MT output channels
//   NT         n8 tiles per warp; WARPS warps side by side cover NU = WARPS*NT*8 positions u
//   CI_CHUNK   input channels staged per step (a multiple of 8)
//   W_ALL      all K taps of a single channel chunk stay in shared memory for every tile
//
// Shared memory (floats): x_s [CI_CHUNK][XP], w_s [taps][CI_CHUNK][CP], out_s [CO_T][OP]
template <typename T, int S, int D, int K, int MT, int NT, int WARPS, int CI_CHUNK, bool W_ALL>
__global__ void __launch_bounds__(WARPS * 32, 2)
ct1d_mma(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
         T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
         int u_first, int n_tiles, int n_offset)
{
    constexpr int THREADS = WARPS * 32;
    constexpr int CO_T = 16 * MT;
    constexpr int NU = WARPS * NT * 8;
    constexpr int CMAX = (K - 1) * D / S;             // largest column offset c_k
    constexpr int XW = NU + CMAX;                     // staged columns per channel
    constexpr int XP = ((XW - 8 + 31) / 32) * 32 + 8; // pitch = 8 mod 32: conflict-free B loads
    constexpr int CP = CO_T + 8;                      // pitch = 8 mod 16: conflict-free A loads
    constexpr int OP = S * NU + 4;
    constexpr int WTAPS = W_ALL ? K : max_class_taps(S, D, K);
    constexpr bool SPLIT = is_f32<T>::value;
    constexpr int XPT = (CI_CHUNK * XW + THREADS - 1) / THREADS;

    const int cig = C_in / groups, cog = C_out / groups;
    const int co_chunks = (cog + CO_T - 1) / CO_T;
    const int g = blockIdx.y / co_chunks;
    const int co_base = (blockIdx.y % co_chunks) * CO_T;
    const int co_n = min(CO_T, cog - co_base);
    const long long n = (long long)blockIdx.z + n_offset;
    const int n_chunks = (cig + CI_CHUNK - 1) / CI_CHUNK;

    extern __shared__ __align__(16) float smem[];
    float* x_s = smem;
    float* w_s = x_s + CI_CHUNK * XP;
    float* out_s = w_s + WTAPS * CI_CHUNK * CP;

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int gq = lane >> 2, tq = lane & 3;          // MMA fragment coordinates
    const int uw = warp * NT * 8;                     // this warp's first position u

    const T* xn = x + (n * C_in + (long long)g * cig) * L_in;
    const T* wg = w + (long long)g * cig * cog * K;
    T* yn = y + (n * C_out + (long long)g * cog + co_base) * L_out;

    float bv[MT][2];                                  // bias of this thread's fragment rows
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int co = mt * 16 + gq + 8 * h;
            bv[mt][h] = (bias != nullptr && co < co_n) ? to_acc(bias[g * cog + co_base + co]) : 0.f;
        }

    // x staging goes through registers: with one channel chunk, the next tile's loads
    // are in flight while this tile computes.
    float xr[XPT];
    // weights of the listed taps, transposed to [tap][ci][co] (zero outside the block)
    auto stage_w = [&](int r, int ci0, int ci_n) {
        constexpr int NTAP = WTAPS;
        for (int e = tid; e < CI_CHUNK * CO_T * NTAP; e += THREADS) {
            const int c = e / (CO_T * NTAP), co = (e / NTAP) % CO_T, tk = e % NTAP;
            int k = tk;
            if (!W_ALL) {
                k = -1;
#pragma unroll
                for (int rr = 0; rr < S; ++rr)
                    if (rr == r && tk < class_taps(rr, S, D, K)) {
#pragma unroll
                        for (int jj = 0; jj < max_class_taps(S, D, K); ++jj)
                            if (jj == tk) k = class_tap(rr, jj, S, D, K);
                    }
            }
            w_s[(tk * CI_CHUNK + c) * CP + co] = (k >= 0 && c < ci_n && co < co_n)
                ? to_acc(wg[((long long)(ci0 + c) * cog + co_base + co) * K + k]) : 0.f;
        }
    };

    const bool one_chunk = n_chunks == 1;
    bool w_loaded = false;
    if (one_chunk && (int)blockIdx.x < n_tiles) fetch_cols<T, XPT, XW, CI_CHUNK, THREADS, CMAX>(xr, xn, L_in, u_first + blockIdx.x * NU, 0, cig);

    for (int tile = blockIdx.x; tile < n_tiles; tile += gridDim.x) {
        const int u0 = u_first + tile * NU;
        const int o0 = u0 * S - pad;                  // output position of out_s column 0

        __syncthreads();                              // previous tile fully stored
        if (one_chunk) {
            commit_cols<XPT, XW, XP, CI_CHUNK, THREADS>(xr, x_s);
            if (W_ALL && !w_loaded) { stage_w(0, 0, cig); w_loaded = true; }
            __syncthreads();
            if (tile + (int)gridDim.x < n_tiles)
                fetch_cols<T, XPT, XW, CI_CHUNK, THREADS, CMAX>(xr, xn, L_in, u0 + gridDim.x * NU, 0, cig);
        }

#pragma unroll
        for (int r = 0; r < S; ++r) {
            const int ntaps = class_taps(r, S, D, K);
            if (ntaps == 0) {
                // no tap reaches this residue class: bias only, written once
                for (int e = tid; e < CO_T * NU; e += THREADS) {
                    const int co = e / NU, u = e % NU;
                    out_s[co * OP + u * S + r] =
                        (bias != nullptr && co < co_n) ? to_acc(bias[g * cog + co_base + co]) : 0.f;
                }
                continue;
            }
            float acc[MT][NT][4];
#pragma unroll
            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                for (int nt = 0; nt < NT; ++nt)
#pragma unroll
                    for (int q = 0; q < 4; ++q) acc[mt][nt][q] = 0.f;

            for (int ch = 0; ch < n_chunks; ++ch) {
                const int ci0 = ch * CI_CHUNK, ci_n = min(CI_CHUNK, cig - ci0);
                if (!one_chunk || !W_ALL) {
                    __syncthreads();                  // done reading the previous stage
                    if (!one_chunk) {
                        fetch_cols<T, XPT, XW, CI_CHUNK, THREADS, CMAX>(xr, xn, L_in, u0, ci0, ci_n);
                        commit_cols<XPT, XW, XP, CI_CHUNK, THREADS>(xr, x_s);
                    }
                    if (!W_ALL) stage_w(r, ci0, ci_n);
                    __syncthreads();
                }
#pragma unroll
                for (int tk = 0; tk < max_class_taps(S, D, K); ++tk) {
                    if (tk >= ntaps) break;
                    int k = 0;
#pragma unroll
                    for (int jj = 0; jj < max_class_taps(S, D, K); ++jj)
                        if (jj == tk) k = class_tap(r, jj, S, D, K);
                    const int ck = k * D / S;
                    const float* wk = w_s + (W_ALL ? k : tk) * CI_CHUNK * CP;
                    const float* xk = x_s + uw + gq + CMAX - ck;
#pragma unroll 2
                    for (int kc = 0; kc < CI_CHUNK; kc += 8) {
                        unsigned ahi[MT][4], alo[MT][4];
#pragma unroll
                        for (int mt = 0; mt < MT; ++mt) {
                            const float* a = wk + (kc + tq) * CP + mt * 16 + gq;
                            const float av[4] = {a[0], a[8], a[4 * CP], a[4 * CP + 8]};
#pragma unroll
                            for (int q = 0; q < 4; ++q) {
                                ahi[mt][q] = tf32_bits(av[q]);
                                if (SPLIT) alo[mt][q] = tf32_bits(av[q] - __uint_as_float(ahi[mt][q]));
                            }
                        }
                        unsigned bhi[NT][2], blo[NT][2];
#pragma unroll
                        for (int nt = 0; nt < NT; ++nt) {
                            const float* b = xk + (kc + tq) * XP + nt * 8;
                            const float bvv[2] = {b[0], b[4 * XP]};
#pragma unroll
                            for (int q = 0; q < 2; ++q) {
                                bhi[nt][q] = tf32_bits(bvv[q]);
                                if (SPLIT) blo[nt][q] = tf32_bits(bvv[q] - __uint_as_float(bhi[nt][q]));
                            }
                        }
                        // MT*NT independent accumulators between dependent MMAs;
                        // the small split terms first
                        if (SPLIT) {
#pragma unroll
                            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt) mma_tf32(acc[mt][nt], alo[mt], bhi[nt]);
#pragma unroll
                            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt) mma_tf32(acc[mt][nt], ahi[mt], blo[nt]);
                        }
#pragma unroll
                        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                            for (int nt = 0; nt < NT; ++nt) mma_tf32(acc[mt][nt], ahi[mt], bhi[nt]);
                    }
                }
            }
            // class r into the tile: position (u - u0)*S + r, each written once
#pragma unroll
            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                for (int nt = 0; nt < NT; ++nt) {
                    const int u = uw + nt * 8 + 2 * tq;
                    float* o_lo = out_s + (mt * 16 + gq) * OP + u * S + r;
                    float* o_hi = o_lo + 8 * OP;
                    o_lo[0] = acc[mt][nt][0] + bv[mt][0];
                    o_lo[S] = acc[mt][nt][1] + bv[mt][0];
                    o_hi[0] = acc[mt][nt][2] + bv[mt][1];
                    o_hi[S] = acc[mt][nt][3] + bv[mt][1];
                }
        }

        __syncthreads();
        // each output element goes to global memory exactly once, coalesced along positions
        const int p_lo = max(0, -o0), p_hi = min(S * NU, L_out - o0);
        for (int row = warp; row < co_n; row += WARPS)
#pragma unroll 4
            for (int p = p_lo + lane; p < p_hi; p += 32)
                yn[(long long)row * L_out + o0 + p] = from_acc<T>(out_s[row * OP + p]);
    }
}
