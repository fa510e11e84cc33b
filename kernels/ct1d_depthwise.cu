// Depthwise and narrow-group transposed convolution on CUDA cores: the dispatcher sends it
// calls with at most 4 input channels per group, and groups of up to 32 input and fewer
// than 8 output channels that no tensor-core family takes.
//
// Gather view (BRIEF section 3): output o = u*S + r - P of residue class r takes the taps k
// with k*D mod S == r, tap k reading input column u - c_k with c_k = k*D div S. For a given
// tap both the class and the column offset are compile-time constants, so one thread that
// owns a position u computes all S outputs u*S - P + [0, S) in straight-line code: exactly
// K multiply-adds per input channel, no per-output search over the taps, each input column
// loaded once per position that reads it (consecutive threads own consecutive positions, so
// the loads are coalesced and neighbours' columns come from L1).
//
// With one input channel per output the op moves S+1 floats per K multiply-adds: it is
// bound by memory, not arithmetic. A block computes a segment of one output row into
// shared memory with the classes interleaved as in y (a thread's S outputs are adjacent
// there, written as vectors), then stores it with coalesced 16-byte writes. Blocks take
// segments (tiles) in turn, of any row; with one input channel per group the next tile's
// x loads are issued before this tile is stored, so they are in flight meanwhile.
//
// Every output is written once by one thread, summed in one fixed order (bias, then per
// input channel in order, taps k = 0..K-1): no atomics, bitwise-reproducible results.
#include "ct1d_types.cuh"

// True when some tap reads column u - j (j = k*D div S for some k < K).
__device__ constexpr bool column_used(int j, int S, int D, int K) {
    for (int k = 0; k < K; ++k)
        if (k * D / S == j) return true;
    return false;
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

// Orders the multiply-adds into acc before the memory operations that follow: a volatile
// asm reading and writing every sum, with a memory clobber. Without it the compiler hoists
// the next tile's weight loads above this tile's multiply-adds into fresh registers.
template <typename A, int U, int S>
__device__ __forceinline__ void settle(A (&acc)[U][S]) {
#pragma unroll
    for (int q = 0; q < U; ++q)
#pragma unroll
        for (int r = 0; r < S; ++r) {
            if constexpr (sizeof(A) == 8) asm volatile("" : "+d"(acc[q][r]) :: "memory");
            else asm volatile("" : "+f"(acc[q][r]) :: "memory");
        }
}

// The row segment goes out in 16-byte vectors: the row starts anywhere (L_out is often
// odd), so a head and a tail of fewer than 16 bytes go out element by element. 0: one
// element per thread and store instead (fully coalesced 4-byte stores). Vectors measured
// 0-10% faster on the sweep's depthwise calls (results/2026-11-30-session6/).
#ifndef CT1D_DW_VECTOR_STORE
#define CT1D_DW_VECTOR_STORE 1
#endif

// Template parameters:
//   T          element type in memory: float, double, f16_t, bf16_t
//   S, D, K    stride, dilation, kernel size
//   U          positions u per thread and tile: a tile holds at most NU = U*THREADS
//              positions, S*NU outputs (the dynamic shared memory)
//   THREADS    threads per block
//
// Tiles: each output row's positions split into n_tiles equal segments (so no tile is a
// sliver), numbered row-major over the launch's n_items batch items x C_out rows (the
// host keeps that count below 2^31). A 1-D grid walks them: block b takes tiles b,
// b + gridDim.x, ..., whatever row they fall in, so a grid of the resident blocks ends
// with every block at most one tile from the rest (blocks bound to a row, with a few
// tiles each, left a partial last wave: S = 8's 16 KB tiles ran 4.4 waves). The plan
// guarantees ceil(positions / n_tiles) <= NU.
// Blocks per SM the registers must allow (__launch_bounds__' second argument); 0: none
// given. (Even a 1 there is not neutral: ptxas then took 117-123 registers instead of 48-94.)
#ifndef CT1D_DW_MIN_BLOCKS
#define CT1D_DW_MIN_BLOCKS 0
#endif
#if CT1D_DW_MIN_BLOCKS > 0
#define CT1D_DW_BOUNDS(threads) __launch_bounds__(threads, CT1D_DW_MIN_BLOCKS)
#else
#define CT1D_DW_BOUNDS(threads) __launch_bounds__(threads)
#endif

template <typename T, int S, int D, int K, int U, int THREADS>
__global__ void CT1D_DW_BOUNDS(THREADS)
ct1d_depthwise(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
               T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
               int u_first, int n_tiles, int n_offset, int n_items)
{
    typedef typename acc_of<T>::type A;
    constexpr int SPAN = (K - 1) * D / S + 1;       // columns u - SPAN + 1 .. u

    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* out_s = reinterpret_cast<T*>(smem_raw);      // [S * NU]: outputs u0*S - P + [0, S*NU)

    const int cig = C_in / groups, cog = C_out / groups;
    const int u_end_row = (L_out - 1 + pad) / S + 1;
    const int tile_u = (u_end_row - u_first + n_tiles - 1) / n_tiles;   // equal segments
    const int n_total = n_items * C_out * n_tiles;
    const int tid = threadIdx.x;

    // Where tile t lies: its row (batch item, output channel), that row's x, weights and
    // output, and its positions [u0, u_end).
    struct Place { const T* xg; const T* wg; T* yr; int co, u0, u_end; };
    auto place = [&](int t) {
        const int row = t / n_tiles, seg = t - row * n_tiles;
        const int item = row / C_out, co = row - item * C_out;
        const int g = co / cog;
        const long long n = (long long)item + n_offset;
        Place pl;
        pl.xg = x + (n * C_in + (long long)g * cig) * L_in;
        pl.wg = w + ((long long)g * cig * cog + (co - g * cog)) * K;     // + ci*cog*K + k
        pl.yr = y + (n * C_out + co) * L_out;
        pl.co = co;
        pl.u0 = u_first + seg * tile_u;
        pl.u_end = min(pl.u0 + tile_u, u_end_row);
        return pl;
    };

    // x of one input channel at the positions of a tile, all loads in flight together.
    // Raw values, converted at use: converting at the load lets the compiler reuse one
    // register and serialise the loads (seen with bf16 in ct1d_mma).
    auto fetch = [&](const T* xc, int u0, int u_end, T (&xr)[U][SPAN]) {
#pragma unroll
        for (int q = 0; q < U; ++q) {
            const int u = u0 + q * THREADS + tid;
#pragma unroll
            for (int j = 0; j < SPAN; ++j) {
                if (!column_used(j, S, D, K)) continue;
                const int i = u - j;
                xr[q][j] = (i >= 0 && i < L_in && u < u_end) ? xc[i] : T{};
            }
        }
    };
    auto weights = [&](const T* wg, int ci, A (&wk)[K]) {
#pragma unroll
        for (int k = 0; k < K; ++k) wk[k] = to_acc(wg[(long long)ci * cog * K + k]);
    };
    auto bias_of = [&](int co) { return bias != nullptr ? to_acc(bias[co]) : A(0); };
    auto fma_tile = [&](const A (&wk)[K], const T (&xr)[U][SPAN], A (&acc)[U][S]) {
#pragma unroll
        for (int q = 0; q < U; ++q)
#pragma unroll
            for (int k = 0; k < K; ++k)
                acc[q][k * D % S] += wk[k] * to_acc(xr[q][k * D / S]);
    };

    // One input channel per group (depthwise): the next tile's weights, bias and x are
    // loaded right after this tile's multiply-adds, so they are in flight while it is
    // stored.
    const bool one_channel = cig == 1;
    A wk[K], b0 = A(0);
    T xr[U][SPAN];
    if (one_channel && (int)blockIdx.x < n_total) {
        const Place first = place(blockIdx.x);
        weights(first.wg, 0, wk);
        b0 = bias_of(first.co);
        fetch(first.xg, first.u0, first.u_end, xr);
    }

    for (int tile = blockIdx.x; tile < n_total; tile += gridDim.x) {
        const Place pl = place(tile);
        A acc[U][S];
        const A b_tile = one_channel ? b0 : bias_of(pl.co);
#pragma unroll
        for (int q = 0; q < U; ++q)
#pragma unroll
            for (int r = 0; r < S; ++r) acc[q][r] = b_tile;

        if (one_channel) {
            fma_tile(wk, xr, acc);
            settle(acc);
            const int next = tile + gridDim.x;
            if (next < n_total) {
                const Place np = place(next);
                weights(np.wg, 0, wk);
                b0 = bias_of(np.co);
                fetch(np.xg, np.u0, np.u_end, xr);
            }
        } else {
            for (int ci = 0; ci < cig; ++ci) {
                weights(pl.wg, ci, wk);
                fetch(pl.xg + (long long)ci * L_in, pl.u0, pl.u_end, xr);
                fma_tile(wk, xr, acc);
            }
        }

        __syncthreads();        // the previous tile's store has read out_s
#pragma unroll
        for (int q = 0; q < U; ++q) {
            T v[S];
#pragma unroll
            for (int r = 0; r < S; ++r) v[r] = from_acc<T>(acc[q][r]);
            store_run(out_s + (q * THREADS + tid) * S, v);
        }
        __syncthreads();

        // outputs [t_lo, t_hi) of the row; out_s[e] holds output t0 + e
        T* yr = pl.yr;
        const int t0 = pl.u0 * S - pad;
        const int t_lo = max(0, t0), t_hi = min(L_out, pl.u_end * S - pad);
        if (CT1D_DW_VECTOR_STORE) {
            constexpr int VEC = 16 / (int)sizeof(T);
            // y is 16-byte aligned, so the row's first vector starts where yr + t is
            const long long f_lo = (long long)(yr - y) + t_lo;
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
        } else {
            for (int t = t_lo + tid; t < t_hi; t += THREADS) yr[t] = out_s[t - t0];
        }
    }
}
