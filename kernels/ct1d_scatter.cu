// Phase-decomposed scatter for torch.nn.functional.conv_transpose1d.
//
//   y[n, g*Cog + co, i*S + k*D - P] += x[n, g*Cig + ci, i] * w[g*Cig + ci, co, k]
//
// One block owns an output tile: channels [co_base, co_base + CO_T) of one group and
// positions [o0, o0 + tile_out) of one batch item. It stages the input columns that reach
// the tile (a halo of about (K-1)*D/S columns is recomputed by the neighbouring tile, never
// exchanged through global memory) and computes, for every staged column i and tap k,
// the vector W_k^T x[:, i] in registers. Those vectors are added into an on-chip copy of
// the tile in T = ceil(((K-1)*D + 1)/S) passes, pass t taking the columns with
// i mod T == t: columns of one phase have disjoint footprints, so a pass needs no
// atomics, and every output element sums its contributions in the same fixed order
// (bias, phase 0, phase 1, ...; each column's sum over channels in channel order) on
// every run and for every tile size. The tile is then stored once; bias and positions
// that no tap reaches are written by the same store.
#include "ct1d_types.cuh"

// Output positions [o0, o0 + to_n) of a tile and the input columns [i_lo, i_lo + ncol)
// that reach it through taps k_lo <= k < k_end (i*S + k*D - pad inside the tile for some
// such k); ncol may be <= 0.
struct TileCols { int o0, to_n, i_lo, ncol; };

__device__ __forceinline__ TileCols tile_cols(int tile, int tile_out, int L_out, int L_in,
                                              int pad, int S, int D, int k_end, int k_lo = 0) {
    TileCols t;
    t.o0 = tile * tile_out;
    t.to_n = min(tile_out, L_out - t.o0);
    const int lo = t.o0 + pad - (k_end - 1) * D;
    t.i_lo = lo > 0 ? (lo + S - 1) / S : 0;
    // (hi < 0 only where k_lo > 0; integer division would round it up to column 0)
    const int hi = t.o0 + t.to_n - 1 + pad - k_lo * D;
    t.ncol = (k_lo > 0 && hi < 0 ? -1 : min(hi / S, L_in - 1)) - t.i_lo + 1;
    return t;
}

// Load this thread's share of a [CI_CHUNK][NCOL] input stage into registers
// (zero outside the channel chunk and the tile's columns).
template <typename A, typename T, int XPT, int NCOL, int CI_CHUNK, int THREADS>
__device__ __forceinline__ void fetch_x(A (&xr)[XPT], const T* __restrict__ xn, int L_in,
                                        int i_lo, int ncol, int ci0, int ci_n) {
#pragma unroll
    for (int q = 0; q < XPT; ++q) {
        const int e = threadIdx.x + q * THREADS, c = e / NCOL, j = e % NCOL;
        xr[q] = (e < CI_CHUNK * NCOL && c < ci_n && j < ncol)
            ? to_acc(xn[(long long)(ci0 + c) * L_in + i_lo + j]) : A(0);
    }
}

// Template parameters:
//   T           element type in memory: float, double, f16_t, bf16_t
//   S_, D_, K_  stride, dilation, kernel size; 0 means "use the runtime argument"
//               (the runtime-parameter instance, for kernels too large to unroll)
//   CO_THREADS  threads along output channels; each owns RC consecutive channels
//   RC, RJ      register block: RC output channels x RJ consecutive staged columns
//   KB          taps held in registers at once; K is processed in ceil(K/KB) blocks
//   CI_CHUNK    input channels staged in shared memory at once
//   THREADS     threads per block
//   TAP_COLS    stage each tap block's own columns, restaged per block, in
//               ceil(((KB-1)*D + 1)/S) passes; with KB = 1 (as dispatched) one pass
//               per tap, and a tile of up to about NCOL*S outputs needs NCOL columns
//               whatever D is: for calls whose reach (K-1)*D/S is more columns than a
//               tile stages (large dilation), and where the all-taps staging would run
//               many more passes (ceil(K/KB) x T, each behind a barrier) than K
//
// Shared memory (dynamic, in accumulator type A):
//   x_s  [CI_CHUNK][NCOL]      staged input columns
//   w_s  [CI_CHUNK][KB][CO_T]  staged weights, channel-contiguous for vector loads
//   out  [CO_T][tile_out | 1]  the output tile (odd pitch spreads rows over banks)
template <typename T, int S_, int D_, int K_, int CO_THREADS, int RC, int RJ, int KB,
          int CI_CHUNK, int THREADS, bool TAP_COLS = false>
__global__ void __launch_bounds__(THREADS, 2)
ct1d_scatter(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
             T* __restrict__ y,
             int C_in, int C_out, int groups, int L_in, int L_out, int pad,
             int s_rt, int d_rt, int k_rt, int tile_out, int n_tiles, int n_offset)
{
    pdl_prologue();
    typedef typename acc_of<T>::type A;
    constexpr int CO_T = CO_THREADS * RC;
    constexpr int NCOL = (THREADS / CO_THREADS) * RJ;
    const int S = S_ ? S_ : s_rt;
    const int D = D_ ? D_ : d_rt;
    const int K = K_ ? K_ : k_rt;
    const int n_phases = ((K - 1) * D + S) / S;   // T in the design notes

    const BlockPlace bp = block_place(C_in, C_out, groups, CO_T, n_offset);
    const int cig = bp.cig, cog = bp.cog, g = bp.g, co_base = bp.co_base, co_n = bp.co_n;
    const long long n = bp.n;

    extern __shared__ __align__(16) unsigned char smem_raw[];
    A* x_s = reinterpret_cast<A*>(smem_raw);
    A* w_s = x_s + CI_CHUNK * NCOL;
    A* out_s = w_s + CI_CHUNK * KB * CO_T;
    const int pitch = tile_out | 1;

    const int tid = threadIdx.x;
    const int c0 = (tid % CO_THREADS) * RC;   // first owned channel, block-relative
    const int j0 = (tid / CO_THREADS) * RJ;   // first owned staged column
    const int n_chunks = (cig + CI_CHUNK - 1) / CI_CHUNK;
    const int n_kb = (K + KB - 1) / KB;
    // With one channel chunk and one tap block the weights stay in shared memory
    // for every tile this block visits.
    const bool w_resident = n_chunks <= 1 && n_kb == 1;
    bool w_loaded = false;

    const T* xn = x + (n * C_in + (long long)g * cig) * L_in;
    const T* wg = w + (long long)g * cig * cog * K;
    T* yn = y + (n * C_out + (long long)g * cog + co_base) * L_out;

    // x staging goes through registers, so the next tile's loads can be in flight
    // while this tile computes.
    constexpr int XPT = (CI_CHUNK * NCOL + THREADS - 1) / THREADS;
    A xr[XPT];
    const bool prefetch = !TAP_COLS && n_chunks == 1 && n_kb == 1;
    const int warp = tid / 32, lane = tid % 32;
    constexpr int WARPS = THREADS / 32;
    if (prefetch && (int)blockIdx.x < n_tiles) {
        const TileCols tc = tile_cols(blockIdx.x, tile_out, L_out, L_in, pad, S, D, K);
        fetch_x<A, T, XPT, NCOL, CI_CHUNK, THREADS>(xr, xn, L_in, tc.i_lo, tc.ncol, 0, cig);
    }

    for (int tile = blockIdx.x; tile < n_tiles; tile += gridDim.x) {
        const TileCols tc = tile_cols(tile, tile_out, L_out, L_in, pad, S, D, K);
        const int o0 = tc.o0, to_n = tc.to_n;

        __syncthreads();   // the previous tile's store has finished reading out_s
        for (int r = warp; r < CO_T; r += WARPS) {
            const A bv = (bias != nullptr && r < co_n) ? to_acc(bias[g * cog + co_base + r]) : A(0);
            for (int p = lane; p < pitch; p += 32) out_s[r * pitch + p] = bv;
        }

        for (int kb = 0; kb < n_kb; ++kb) {
            TileCols tk = tc;
            int n_ph = n_phases;
            if (TAP_COLS) {   // (uniform over the block: skipping is barrier-safe)
                const int k_lo = kb * KB, k_end = min(K, k_lo + KB);
                tk = tile_cols(tile, tile_out, L_out, L_in, pad, S, D, k_end, k_lo);
                if (tk.ncol <= 0) continue;
                n_ph = ((k_end - 1 - k_lo) * D + S) / S;
            }
            const int i_lo = tk.i_lo, ncol = tk.ncol;
            A acc[KB][RC][RJ];
#pragma unroll
            for (int kk = 0; kk < KB; ++kk)
#pragma unroll
                for (int r = 0; r < RC; ++r)
#pragma unroll
                    for (int j = 0; j < RJ; ++j) acc[kk][r][j] = A(0);

            for (int ch = 0; ch < n_chunks; ++ch) {
                const int ci0 = ch * CI_CHUNK;
                const int ci_n = min(CI_CHUNK, cig - ci0);
                const bool load_x = TAP_COLS || n_chunks > 1 || kb == 0;
                const bool load_w = !(w_resident && w_loaded);
                if (load_x || load_w) {
                    __syncthreads();   // everyone is done with the previous chunk
                    if (load_x) {
                        if (!prefetch)
                            fetch_x<A, T, XPT, NCOL, CI_CHUNK, THREADS>(xr, xn, L_in, i_lo, ncol, ci0, ci_n);
#pragma unroll
                        for (int q = 0; q < XPT; ++q) {
                            const int e = tid + q * THREADS;
                            if (e < CI_CHUNK * NCOL) x_s[e] = xr[q];
                        }
                    }
                    if (load_w) {
                        // tap-fastest order: consecutive threads read consecutive weights
#pragma unroll 2
                        for (int e = tid; e < CI_CHUNK * KB * CO_T; e += THREADS) {
                            const int c = e / (KB * CO_T), r = (e / KB) % CO_T, kk = e % KB;
                            const int k = kb * KB + kk;
                            w_s[(c * KB + kk) * CO_T + r] = (c < ci_n && r < co_n && k < K)
                                ? to_acc(wg[((long long)(ci0 + c) * cog + co_base + r) * K + k])
                                : A(0);
                        }
                        w_loaded = true;
                    }
                    __syncthreads();
                }
                if (prefetch && tile + (int)gridDim.x < n_tiles) {
                    const TileCols nx = tile_cols(tile + gridDim.x, tile_out, L_out, L_in, pad, S, D, K);
                    fetch_x<A, T, XPT, NCOL, CI_CHUNK, THREADS>(xr, xn, L_in, nx.i_lo, nx.ncol, 0, cig);
                }
#pragma unroll 1
                for (int c = 0; c < ci_n; ++c) {
                    A xv[RJ];
#pragma unroll
                    for (int j = 0; j < RJ; ++j) xv[j] = x_s[c * NCOL + j0 + j];
#pragma unroll
                    for (int kk = 0; kk < KB; ++kk) {
                        A wv[RC];
#pragma unroll
                        for (int r = 0; r < RC; ++r) wv[r] = w_s[(c * KB + kk) * CO_T + c0 + r];
#pragma unroll
                        for (int r = 0; r < RC; ++r)
#pragma unroll
                            for (int j = 0; j < RJ; ++j) acc[kk][r][j] += wv[r] * xv[j];
                    }
                }
            }

            // T non-overlapping passes into the on-chip tile.
            const int ph0 = (i_lo + j0) % n_ph;
            for (int t = 0; t < n_ph; ++t) {
                __syncthreads();
#pragma unroll
                for (int j = 0; j < RJ; ++j) {
                    if (j0 + j >= ncol || (ph0 + j) % n_ph != t) continue;
                    const int i = i_lo + j0 + j;
#pragma unroll
                    for (int kk = 0; kk < KB; ++kk) {
                        const int k = kb * KB + kk;
                        const int pos = i * S + k * D - pad - o0;
                        if (k >= K || pos < 0 || pos >= to_n) continue;
#pragma unroll
                        for (int r = 0; r < RC; ++r) out_s[(c0 + r) * pitch + pos] += acc[kk][r][j];
                    }
                }
            }
        }

        __syncthreads();
        // Each output element is written to global memory exactly once.
        for (int r = warp; r < co_n; r += WARPS)
            for (int p = lane; p < to_n; p += 32)
                yn[(long long)r * L_out + o0 + p] = from_acc<T>(out_s[r * pitch + p]);
    }
}
