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
// there, written as vectors), then stores it with coalesced 16-byte writes. Blocks take a
// few segments of their row in turn; with one input channel per group the next segment's
// x loads are issued before this segment is stored, so they are in flight meanwhile.
//
// Every output is written once by one thread, summed in one fixed order (bias, then per
// input channel in order, taps k = 0..K-1): no atomics, bitwise-reproducible results.
#include "ct1d_types.cuh"
#include "ct1d_rows.cuh"

// The row segment goes out in 16-byte vectors: the row starts anywhere (L_out is often
// odd), so a head and a tail of fewer than 16 bytes go out element by element. 0: one
// element per thread and store instead (fully coalesced 4-byte stores). Vectors measured
// 0-10% faster on the sweep's depthwise calls (results/2026-11-30-session6/).
#ifndef CT1D_DW_VECTOR_STORE
#define CT1D_DW_VECTOR_STORE 1
#endif
// A/B knob: ptxas must fit this many blocks of THREADS per SM (0 = no bound; note that 1
// is not the same as none: it lets ptxas use up to 255 registers, 72 -> 127 at S = 8)
#ifndef CT1D_DW_MIN_BLOCKS
#define CT1D_DW_MIN_BLOCKS 0
#endif
#if CT1D_DW_MIN_BLOCKS > 0
#define CT1D_DW_BOUNDS __launch_bounds__(THREADS, CT1D_DW_MIN_BLOCKS)
#else
#define CT1D_DW_BOUNDS __launch_bounds__(THREADS)
#endif

// Template parameters:
//   T          element type in memory: float, double, f16_t, bf16_t
//   S, D, K    stride, dilation, kernel size
//   U          positions u per thread and tile: a tile holds at most NU = U*THREADS
//              positions, S*NU outputs (the dynamic shared memory)
//   THREADS    threads per block
//
// Grid: x = tiles of one row (the row's positions split into n_tiles equal segments, so
// no tile is a sliver; block x takes tiles x, x + gridDim.x, ...), y = output channel (all
// groups), z = batch item. The plan guarantees ceil(positions / n_tiles) <= NU.
template <typename T, int S, int D, int K, int U, int THREADS>
__global__ void CT1D_DW_BOUNDS
ct1d_depthwise(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
               T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
               int u_first, int n_tiles, int n_offset)
{
    pdl_prologue();
    typedef typename acc_of<T>::type A;
    constexpr int SPAN = (K - 1) * D / S + 1;       // columns u - SPAN + 1 .. u

    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* out_s = reinterpret_cast<T*>(smem_raw);      // [S * NU]: outputs u0*S - P + [0, S*NU)

    const BlockPlace bp = block_place(C_in, C_out, groups, 1, n_offset);
    const int co = bp.g * bp.cog + bp.co_base;      // output channel (all groups)
    const T* xg = x + (bp.n * C_in + (long long)bp.g * bp.cig) * L_in;
    const T* wg = w + ((long long)bp.g * bp.cig * bp.cog + bp.co_base) * K;   // + ci*cog*K + k
    T* yr = y + (bp.n * C_out + co) * L_out;
    const A b0 = bias != nullptr ? to_acc(bias[co]) : A(0);

    const int u_end_row = (L_out - 1 + pad) / S + 1;
    const int tile_u = (u_end_row - u_first + n_tiles - 1) / n_tiles;   // equal segments
    const int tid = threadIdx.x;

    // x of one input channel at the positions of a tile (fetch_columns)
    auto fetch = [&](const T* xc, int u0, int u_end, T (&xr)[U][SPAN]) {
        fetch_columns<S, D, K, THREADS>(xc, u0, tid, u_end, L_in, xr);
    };
    auto weights = [&](int ci, A (&wk)[K]) {
#pragma unroll
        for (int k = 0; k < K; ++k) wk[k] = to_acc(wg[(long long)ci * bp.cog * K + k]);
    };
    auto fma_tile = [&](const A (&wk)[K], const T (&xr)[U][SPAN], A (&acc)[U][S]) {
#pragma unroll
        for (int q = 0; q < U; ++q)
#pragma unroll
            for (int k = 0; k < K; ++k)
                acc[q][k * D % S] += wk[k] * to_acc(xr[q][k * D / S]);
    };

    // One input channel per group (depthwise): its weights stay in registers and the next
    // tile's x is loaded while this tile is stored.
    const bool one_channel = bp.cig == 1;
    A wk[K];
    T xr[U][SPAN];
    if (one_channel) {
        weights(0, wk);
        if ((int)blockIdx.x < n_tiles) {
            const int u0 = u_first + blockIdx.x * tile_u;
            fetch(xg, u0, min(u0 + tile_u, u_end_row), xr);
        }
    }

    for (int tile = blockIdx.x; tile < n_tiles; tile += gridDim.x) {
        const int u0 = u_first + tile * tile_u;
        const int u_end = min(u0 + tile_u, u_end_row);

        A acc[U][S];
#pragma unroll
        for (int q = 0; q < U; ++q)
#pragma unroll
            for (int r = 0; r < S; ++r) acc[q][r] = b0;

        if (one_channel) {
            fma_tile(wk, xr, acc);
            const int next = tile + gridDim.x;
            if (next < n_tiles) {
                const int n0 = u_first + next * tile_u;
                fetch(xg, n0, min(n0 + tile_u, u_end_row), xr);
            }
        } else {
            for (int ci = 0; ci < bp.cig; ++ci) {
                weights(ci, wk);
                fetch(xg + (long long)ci * L_in, u0, u_end, xr);
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
        const int t0 = u0 * S - pad;
        const int t_lo = max(0, t0), t_hi = min(L_out, u_end * S - pad);
        if (CT1D_DW_VECTOR_STORE) {
            store_row_segment<T, THREADS>(yr, out_s, (bp.n * C_out + co) * L_out, t0, t_lo, t_hi, tid);
        } else {
            for (int t = t_lo + tid; t < t_hi; t += THREADS) yr[t] = out_s[t - t0];
        }
    }
}
