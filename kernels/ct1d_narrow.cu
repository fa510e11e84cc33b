// Narrow-output transposed convolution on CUDA cores: few output channels per group (at
// most 8) from any number of input channels, e.g. a decoder's last upsampling layer to a
// handful of channels, or a projection to one.
//
// The tensor-core families tile output channels by 16 or 64 (MMA rows): with 1-8 of them
// most of each MMA is padding, and ct1d_depthwise reads every input row once per output
// channel. Here one block owns a segment of positions u of one group and batch item with
// ALL its COG output channels and S residue classes, so x is read once. (Small calls with
// wide reductions also come here with more output channels per group, in chunks of COG:
// x is read once per chunk, from L2.) Gather view
// (BRIEF section 3): output o = u*S + r - P of class r takes the taps k with k*D mod S == r
// from column u - c_k (c_k = k*D div S); a thread owns U positions u and computes their
// U*S*COG outputs in registers, each input column it loads feeding COG*K multiply-adds.
//
// Wide reductions over few positions would leave most SMs idle, so the block's THREADS
// are CS groups of NT = THREADS/CS position threads: group s sums its own contiguous share
// of each chunk of input channels, and the groups' partial sums are added at the end in
// shared memory in the fixed order bias + group 0 + group 1 + ... (group 0 starts from the
// bias). Every output is written by one thread of one block (or, in the channels two
// overlapping chunks share, by one of each with the same bits), every sum in one fixed
// order (per group: input channels ascending, taps k ascending within a channel): no
// atomics, bitwise-reproducible results.
//
// A group's float32 sum is one chain of additions, whose rounding error grows with its
// length (ceil(channels / CS) x a class's taps: 4096 read 1.5e-6 against float64). Where
// the dispatcher's CS leaves it too long (cupyconv._dispatch.NARROW_MAX_CHAIN: float32 at
// any CS, 16-bit beyond CS = 8), BLK sums each chunk's products from zero and adds that
// partial sum to the running one: chains of at most CPS x taps and of the chunk count
// (the same call: 2.8e-7).
//
// Calls of few tiles and long reductions leave most SMs idle even with 8 groups: on sm_90
// a cluster of SPLIT blocks can share each tile (ct1d_narrow_split), rank q summing its
// own run of the input channels; each rank joins its groups' sums into shared memory, and
// after a cluster barrier rank q adds the ranks' sums of output rows q, q + SPLIT, ... in
// rank order through distributed shared memory and stores them. No workspace, no atomics.
//
// Shared memory (bytes): weights of two chunks of CK input channels, 2*CK*WP accumulator
// elements (A = float, double for float64), each channel's K*COG weights transposed to
// [k][co] and padded to WP (16-byte vectors); then (CS-1)*S*NU accumulator elements for
// the groups' partial sums of one output row, with SPLIT COG*S*NU for the rank's sums of
// every row, and S*NU elements of T for the row segment.
// cupyconv._keys.NarrowKey.smem_bytes mirrors this.
#include "ct1d_types.cuh"
#include "ct1d_rows.cuh"

// A/B knob: ptxas must fit this many blocks of THREADS per SM (0 = no bound; 1 is not the
// same: it lets ptxas use up to 255 registers; 2 caps 256 threads at 128)
#ifndef CT1D_NARROW_MIN_BLOCKS
#define CT1D_NARROW_MIN_BLOCKS 0
#endif
#if CT1D_NARROW_MIN_BLOCKS > 0
#define CT1D_NARROW_BOUNDS __launch_bounds__(THREADS, CT1D_NARROW_MIN_BLOCKS)
#else
#define CT1D_NARROW_BOUNDS __launch_bounds__(THREADS)
#endif

// Input channels whose x a thread has in flight ahead of the one it multiplies: 2 against
// 1, with the wave-aware plan, H100 (benchmarks/results/2026-12-06-session55/run_3):
// in512-out8-s2 0.461 -> 0.386 ms, in1024-out4-s4 0.181 -> 0.144, r145 0.066 -> 0.054
// 1: where it saves x loads (narrow::contig_pays), a thread's U positions are contiguous
// (u0 + pt*U + q) instead of NT apart (u0 + q*NT + pt), so they share the x columns their
// taps read: U + SPAN - 1 loads and registers per input channel instead of U*SPAN. On an
// H100 (results/2026-12-06-session66, runs 1-2, 81 narrow calls): 1.061x over the 44
// calls it takes (0.89-1.39x; in256-out8-k16d2 1.18x, 16 -> 1 K16 S2 1.39x), the others
// compile as before; out of sample (run 4, 72 calls that take it) 1.11x (0.72-1.75x).
// 0: never (A/B).
#ifndef CT1D_NARROW_CONTIG
#define CT1D_NARROW_CONTIG 1
#endif

#ifndef CT1D_NARROW_AHEAD
#define CT1D_NARROW_AHEAD 2
#endif


// A/B knob: BLK instances join their partial sums after about this many products per
// output (every max(1, TERMS / (CPS * K)) weight chunks); 0: after every chunk. Joining
// every 8 one-channel chunks (K = 24-32: 256 products) measured 1.02-1.32x faster on an
// H100 than every chunk, errors 2.7-4.0e-7 (results/2026-12-07-session74/run_4); with
// float32's blocked sums on fewer groups (NARROW_BLK_ANY_CS) it added nothing (1.078x
// against 1.080x on 24 calls, results/2026-12-07-session75/run_1), so the default stays 0.
#ifndef CT1D_NARROW_BLK_TERMS
#define CT1D_NARROW_BLK_TERMS 0
#endif

namespace narrow {

// v[0:N] = p[0:N] from shared memory in the widest vectors N and the type allow (p is
// aligned to them: every run starts at a multiple of N elements of a 16-byte aligned row).
template <typename A, int N>
__device__ __forceinline__ void load_run(const A* p, A (&v)[N]) {
    if constexpr (sizeof(A) == 4 && N % 4 == 0) {
#pragma unroll
        for (int i = 0; i < N; i += 4) {
            const float4 t = *reinterpret_cast<const float4*>(p + i);
            v[i] = t.x; v[i + 1] = t.y; v[i + 2] = t.z; v[i + 3] = t.w;
        }
    } else if constexpr (N % 2 == 0) {
#pragma unroll
        for (int i = 0; i < N; i += 2) {
            if constexpr (sizeof(A) == 4) {
                const float2 t = *reinterpret_cast<const float2*>(p + i);
                v[i] = t.x; v[i + 1] = t.y;
            } else {
                const double2 t = *reinterpret_cast<const double2*>(p + i);
                v[i] = t.x; v[i + 1] = t.y;
            }
        }
    } else {
#pragma unroll
        for (int i = 0; i < N; ++i) v[i] = p[i];
    }
}

// (CONTIG) column m of a thread's run holds x at ub + m - (SPAN - 1) for its
// positions ub .. ub + U - 1: used where some position q and tap column j have
// q - j + SPAN - 1 == m
template <int S, int D, int K, int U, int SPAN>
__device__ constexpr bool run_used(int m) {
    for (int q = 0; q < U; ++q) {
        const int j = q + SPAN - 1 - m;
        if (j >= 0 && j < SPAN && column_used(j, S, D, K)) return true;
    }
    return false;
}

// Contiguous positions pay where a thread has more than one and its run of columns needs
// fewer loads than U separate windows of the used columns.
template <int S, int D, int K, int U, int SPAN>
__device__ constexpr bool contig_pays() {
    if (U < 2) return false;
    int run = 0, windows = 0;
    for (int m = 0; m < U + SPAN - 1; ++m) run += run_used<S, D, K, U, SPAN>(m);
    for (int j = 0; j < SPAN; ++j) windows += column_used(j, S, D, K);
    return run < U * windows;
}

// xw[m] = xc[ub + m - (SPAN - 1)] for the used columns of the run, zero outside the row.
// (Positions past the tile's end compute values that are never stored.)
template <int S, int D, int K, int U, int SPAN, typename T>
__device__ __forceinline__ void fetch_run(const T* xc, int ub, int L_in, T (&xw)[U + SPAN - 1]) {
#pragma unroll
    for (int m = 0; m < U + SPAN - 1; ++m) {
        if (!run_used<S, D, K, U, SPAN>(m)) continue;
        const int i = ub + m - (SPAN - 1);
        xw[m] = (i >= 0 && i < L_in) ? xc[i] : T{};
    }
}

// X if B, else Y (a type)
template <bool B, typename X, typename Y> struct pick_type { typedef X type; };
template <typename X, typename Y> struct pick_type<false, X, Y> { typedef Y type; };

// x if B, else y (BLK's chunk sums, or the running sums themselves)
template <bool B, typename X, typename Y>
__device__ __forceinline__ auto& pick(X& x, Y& y) {
    if constexpr (B) return x; else return y;
}

}  // namespace narrow

// Template parameters:
//   T          element type in memory: float, double, f16_t, bf16_t
//   S, D, K    stride, dilation, kernel size
//   COG        output channels per block: all of the group's, or a chunk of them (grid y
//              = group x chunk)
//   U          positions u per thread
//   CS         input-channel groups per block (THREADS/CS a multiple of 32)
//   THREADS    threads per block
//   BLK        each chunk's products summed from zero, then added to the running sums
//   SPLIT      blocks (an sm_90 cluster) sharing each tile's reduction (1: none)
//   XCH        the x prefetch runs on across weight chunks (see XCHAIN below)
//
// Grid: x = tiles of one row of positions (the row's positions split into n_tiles equal
// segments of at most NU = U*THREADS/CS; block x takes tiles x, x + gridDim.x, ...; with
// SPLIT, cluster x / SPLIT takes tiles x / SPLIT, x / SPLIT + gridDim.x / SPLIT, ...),
// y = group x output-channel chunk, z = batch item (+ n_offset).
template <typename T, int S, int D, int K, int COG, int U, int CS, int THREADS, bool BLK, int SPLIT,
          bool XCH>
__device__ __forceinline__ void
narrow_tiles(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
             T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
             int u_first, int n_tiles, int n_offset)
{
    pdl_prologue();
    typedef typename acc_of<T>::type A;
    constexpr int SPAN = (K - 1) * D / S + 1;       // columns u - SPAN + 1 .. u
    constexpr int NT = THREADS / CS;                 // position threads per group
    constexpr int NU = U * NT;                       // positions per tile
    constexpr int VEC = 16 / (int)sizeof(A);
    constexpr int WP = (K * COG + VEC - 1) / VEC * VEC;   // one channel's weights, padded
    // channels per group and chunk (fully unrolled): at most 8, and the staging registers
    // hold at most 8 weights per thread
    constexpr int CPS0 = (8 * THREADS / (K * COG)) / CS;
    constexpr int CPS = CPS0 < 1 ? 1 : (CPS0 > 8 ? 8 : CPS0);
    constexpr int CK = CS * CPS;
    constexpr int CHUNK = CK * K * COG;              // weights per chunk (global: runs of K*COG)
    constexpr int E = (CHUNK + THREADS - 1) / THREADS;
    static_assert(NT % 32 == 0, "each warp belongs to one input-channel group");
    static_assert(SPLIT == 1 || sizeof(A) == 4, "cluster partial sums are read as float");

    extern __shared__ __align__(16) unsigned char smem_raw[];
    A* w_s = reinterpret_cast<A*>(smem_raw);                  // [2][CK][WP]
    A* part_s = w_s + 2 * CK * WP;                            // [CS-1][S*NU]
    A* rank_s = part_s + (CS - 1) * S * NU;                   // SPLIT: [COG][S*NU]
    T* out_s = reinterpret_cast<T*>(rank_s + (SPLIT > 1 ? COG * S * NU : 0));   // [S*NU]

    const BlockPlace bp = block_place(C_in, C_out, groups, COG, n_offset);
    // the block's COG channels from co_base; the last chunk ends at the group's last
    // channel, overlapping the one before where COG does not divide cog: those outputs are
    // computed twice, in the same order, and stored twice with the same bits
    const int co_base = min(bp.co_base, bp.cog - COG);
    // SPLIT: cluster rank q sums the group's input channels [ci_lo, ci_lo + cig) only, an
    // equal run of whole chunks (the dispatcher gives every rank at least one)
    const int rank = SPLIT > 1 ? (int)cluster_rank() : 0;
    const int ci_run = (bp.cig + CK * SPLIT - 1) / (CK * SPLIT) * CK;
    const int ci_lo = SPLIT > 1 ? rank * ci_run : 0;
    const int cig = SPLIT > 1 ? max(0, min(bp.cig - ci_lo, ci_run)) : bp.cig;
    const T* xg = x + (bp.n * C_in + (long long)bp.g * bp.cig) * L_in;
    // + ci*cog*K + co*K + k (a channel ci's weights of the block's channels are contiguous)
    const T* wg = w + ((long long)bp.g * bp.cig * bp.cog + co_base) * K;
    const int w_stride = bp.cog * K;                 // one input channel's weights
    const int w_gap = w_stride - COG * K;            // those not the block's (0: none)
    if constexpr (SPLIT > 1) {
        xg += (long long)ci_lo * L_in;
        wg += (long long)ci_lo * w_stride;
    }
    const int tid = threadIdx.x;
    const int pt = tid % NT, grp = tid / NT;
    const int n_chunks = (cig + CK - 1) / CK;

    const int u_end_row = (L_out - 1 + pad) / S + 1;
    const int tile_u = (u_end_row - u_first + n_tiles - 1) / n_tiles;   // equal segments

    // A chunk's weights: global (ci, co, k) -> w_s[ci][k][co], zero past the group's
    // input channels; loaded to registers one chunk ahead, stored after the chunk's
    // products.
    A wr[E];
    auto load_chunk = [&](int c) {
        const int c0 = c * CK;
        const int n = min(CK, cig - c0) * K * COG;
        const T* wc = wg + (long long)c0 * w_stride;
#pragma unroll
        for (int e = 0; e < E; ++e) {
            const int i = e * THREADS + tid;        // channel i / (K*COG), co*K + k = i % (K*COG)
            wr[e] = i < n ? to_acc(wc[i + i / (K * COG) * w_gap]) : A(0);
        }
    };
    auto store_chunk = [&](int buf) {
#pragma unroll
        for (int e = 0; e < E; ++e) {
            const int i = e * THREADS + tid;
            if (i < CHUNK) {
                const int ci = i / (K * COG), co = i / K % COG, k = i % K;
                w_s[(buf * CK + ci) * WP + k * COG + co] = wr[e];
            }
        }
    };

    auto fetch = [&](const T* xc, int u0, int u_end, T (&xr)[U][SPAN]) {
        fetch_columns<S, D, K, NT>(xc, u0, pt, u_end, L_in, xr);
    };
    // acc += one input channel's products; x(q, j): the thread's q-th position's x at
    // column offset j (raw, converted here)
    auto fma_taps = [&](const A* wc, auto x, A (&acc)[U][S][COG]) {
#pragma unroll
        for (int k = 0; k < K; ++k) {
            A wv[COG];
            narrow::load_run(wc + k * COG, wv);
#pragma unroll
            for (int q = 0; q < U; ++q) {
                const A xv = to_acc(x(q, k * D / S));
#pragma unroll
                for (int co = 0; co < COG; ++co) acc[q][k * D % S][co] += wv[co] * xv;
            }
        }
    };
    auto fma_channel = [&](const A* wc, const T (&xr)[U][SPAN], A (&acc)[U][S][COG]) {
        fma_taps(wc, [&](int q, int j) { return xr[q][j]; }, acc);
    };
    // the run of a thread's contiguous positions (CONTIG)
    constexpr bool CONTIG = CT1D_NARROW_CONTIG && narrow::contig_pays<S, D, K, U, SPAN>();
    constexpr int XN = U + SPAN - 1;
    auto fma_run = [&](const A* wc, const T (&xw)[XN], A (&acc)[U][S][COG]) {
        fma_taps(wc, [&](int q, int j) { return xw[q - j + SPAN - 1]; }, acc);
    };
    // the tile position (0 .. NU - 1) of a thread's q-th position
    auto pos = [&](int q) { return CONTIG ? pt * U + q : q * NT + pt; };
    // out_s holds sum_at(q, r) for the thread's positions q and classes r (one row)
    auto stage_row = [&](auto sum_at) {
#pragma unroll
        for (int q = 0; q < U; ++q) {
            T v[S];
#pragma unroll
            for (int r = 0; r < S; ++r) v[r] = from_acc<T>(sum_at(q, r));
            store_run(out_s + pos(q) * S, v);
        }
    };

    // (a cluster's blocks are consecutive along x: they take the same tiles)
    for (int tile = blockIdx.x / SPLIT; tile < n_tiles; tile += gridDim.x / SPLIT) {
        const int u0 = u_first + tile * tile_u;
        const int u_end = min(u0 + tile_u, u_end_row);

        A acc[U][S][COG];
#pragma unroll
        for (int co = 0; co < COG; ++co) {
            const A b0 = (grp == 0 && rank == 0 && bias != nullptr)
                             ? to_acc(bias[bp.g * bp.cog + co_base + co]) : A(0);
#pragma unroll
            for (int q = 0; q < U; ++q)
#pragma unroll
                for (int r = 0; r < S; ++r) acc[q][r][co] = b0;
        }

        __syncthreads();            // the previous tile is done with w_s and out_s
        load_chunk(0);
        store_chunk(0);
        constexpr int JOIN_TERMS = CT1D_NARROW_BLK_TERMS / (CPS * K);   // chunks per join
        constexpr int JOIN = JOIN_TERMS > 1 ? JOIN_TERMS : 1;
        A part[BLK ? U : 1][BLK ? S : 1][BLK ? COG : 1] = {};
        auto& sums = narrow::pick<BLK>(part, acc);  // where the chunk's products go
        // x of AH channels in flight ahead of the one multiplied, in a ring of NB
        // buffers (CT1D_NARROW_AHEAD; 0 and 1 both mean one ahead)
        constexpr int AH = CT1D_NARROW_AHEAD > 1 ? CT1D_NARROW_AHEAD : 1, NB = AH + 1;
        // XCH (session 80, off: cupyconv._dispatch.NARROW_XCHAIN says why): a group's last
        // AH channels of a weight chunk fetch the x of its first AH channels of the next
        // chunk into xn, so the x ring runs on across chunks. Without it each chunk starts
        // its ring afresh, and every warp of the block waits one x latency per chunk after
        // the barrier (with one block per SM nothing else runs then: session 78's wide
        // reductions at 34% of FFMA peak). It costs registers (u08: 224 -> 240; a
        // 125-register instance 230), hence only where one block per SM fits anyway.
        constexpr bool XCHAIN = XCH && CPS >= AH;
        // (a ring buffer's shape: a run of columns, or U windows)
        typename narrow::pick_type<CONTIG, T[XN], T[U][SPAN]>::type xn[XCHAIN ? AH : 1];
        for (int c = 0; c < n_chunks; ++c) {
            __syncthreads();        // chunk c is in w_s[c % 2]; w_s[(c + 1) % 2] is free
            if (c + 1 < n_chunks) load_chunk(c + 1);
            const A* wb = w_s + (c % 2) * CK * WP;
            const int ci0 = c * CK + grp * CPS;              // this group's channels
            const int n_ci = min(CPS, cig - ci0);
            const int ci_next = ci0 + CK;                    // ... and the next chunk's
            const bool chain = XCHAIN && c + 1 < n_chunks;   // (then n_ci == CPS)
            if constexpr (CONTIG) {
                T xw[NB][XN];
                const int ub = u0 + pt * U;
                auto fetch_x = [&](int ci, T (&to)[XN]) {
                    narrow::fetch_run<S, D, K, U, SPAN>(xg + (long long)ci * L_in, ub, L_in, to);
                };
#pragma unroll
                for (int j = 0; j < AH; ++j)
                    if (j < n_ci) {
                        if (XCHAIN && c > 0) {
#pragma unroll
                            for (int m = 0; m < XN; ++m) xw[j][m] = xn[XCHAIN ? j : 0][m];
                        } else {
                            fetch_x(ci0 + j, xw[j]);
                        }
                    }
#pragma unroll
                for (int j = 0; j < CPS; ++j) {
                    if (j >= n_ci) break;
                    if (j + AH < n_ci) fetch_x(ci0 + j + AH, xw[(j + AH) % NB]);
                    else if (XCHAIN && chain && ci_next + j + AH - CPS < cig)   // (n_ci == CPS)
                        fetch_x(ci_next + j + AH - CPS, xn[XCHAIN ? max(0, j + AH - CPS) : 0]);
                    fma_run(wb + (grp * CPS + j) * WP, xw[j % NB], sums);
                }
            } else {
                T xr[NB][U][SPAN];
#pragma unroll
                for (int j = 0; j < AH; ++j)
                    if (j < n_ci) {
                        if (XCHAIN && c > 0) {
#pragma unroll
                            for (int q = 0; q < U; ++q)
#pragma unroll
                                for (int m = 0; m < SPAN; ++m) xr[j][q][m] = xn[XCHAIN ? j : 0][q][m];
                        } else {
                            fetch(xg + (long long)(ci0 + j) * L_in, u0, u_end, xr[j]);
                        }
                    }
#pragma unroll
                for (int j = 0; j < CPS; ++j) {
                    if (j >= n_ci) break;
                    if (j + AH < n_ci) fetch(xg + (long long)(ci0 + j + AH) * L_in, u0, u_end, xr[(j + AH) % NB]);
                    else if (XCHAIN && chain && ci_next + j + AH - CPS < cig)   // (n_ci == CPS)
                        fetch(xg + (long long)(ci_next + j + AH - CPS) * L_in, u0, u_end,
                              xn[XCHAIN ? max(0, j + AH - CPS) : 0]);
                    fma_channel(wb + (grp * CPS + j) * WP, xr[j % NB], sums);
                }
            }
            if constexpr (BLK) {
                if ((c + 1) % JOIN == 0 || c + 1 == n_chunks) {
#pragma unroll
                    for (int q = 0; q < U; ++q)
#pragma unroll
                        for (int r = 0; r < S; ++r)
#pragma unroll
                            for (int co = 0; co < COG; ++co) {
                                acc[q][r][co] += part[q][r][co];
                                part[q][r][co] = A(0);
                            }
                }
            }
            if (c + 1 < n_chunks) store_chunk((c + 1) % 2);
        }

        // each output row: the groups' partial sums added in order, then stored
        const int t0 = u0 * S - pad;
        const int t_lo = max(0, t0), t_hi = min(L_out, u_end * S - pad);
        // output row co's segment of this tile, from out_s
        auto store_row = [&](int co) {
            const long long row = bp.n * C_out + bp.g * bp.cog + co_base + co;
            store_row_segment<T, THREADS>(y + row * L_out, out_s, row * L_out, t0, t_lo, t_hi, tid);
        };
#pragma unroll
        for (int co = 0; co < COG; ++co) {
            __syncthreads();        // out_s and part_s are free
            if constexpr (CS > 1) {
                if (grp > 0) {
#pragma unroll
                    for (int q = 0; q < U; ++q)
#pragma unroll
                        for (int r = 0; r < S; ++r)
                            part_s[(grp - 1) * S * NU + pos(q) * S + r] = acc[q][r][co];
                }
                __syncthreads();
            }
            auto groups_sum = [&](int q, int r) {
                A sum = acc[q][r][co];
#pragma unroll
                for (int g2 = 1; g2 < CS; ++g2) sum += part_s[(g2 - 1) * S * NU + pos(q) * S + r];
                return sum;
            };
            if (grp == 0) {
                if constexpr (SPLIT == 1) {
                    stage_row(groups_sum);
                } else {
#pragma unroll
                    for (int q = 0; q < U; ++q)
#pragma unroll
                        for (int r = 0; r < S; ++r) rank_s[(co * NU + pos(q)) * S + r] = groups_sum(q, r);
                }
            }
            if constexpr (SPLIT == 1) {
                __syncthreads();
                store_row(co);
            }
        }
        if constexpr (SPLIT > 1) {
            // the ranks' sums of each output row added in rank order (the same bits on
            // every run) from their shared memory; rank q stores rows q, q + SPLIT, ...
            cluster_sync();
            for (int co = rank; co < COG; co += SPLIT) {
                if (grp == 0) {
                    stage_row([&](int q, int r) {
                        const A* p = rank_s + (co * NU + pos(q)) * S + r;
                        A sum = ld_cluster(p, 0);
#pragma unroll
                        for (int q2 = 1; q2 < SPLIT; ++q2) sum += ld_cluster(p, q2);
                        return sum;
                    });
                }
                __syncthreads();
                store_row(co);
                __syncthreads();    // out_s is free
            }
            cluster_sync();         // every rank has read this tile's rank_s
        }
    }
}

template <typename T, int S, int D, int K, int COG, int U, int CS, int THREADS, bool BLK = false,
          bool XCH = false>
__global__ void CT1D_NARROW_BOUNDS
ct1d_narrow(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
            T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
            int u_first, int n_tiles, int n_offset)
{
    narrow_tiles<T, S, D, K, COG, U, CS, THREADS, BLK, 1, XCH>(
        x, w, bias, y, C_in, C_out, groups, L_in, L_out, pad, u_first, n_tiles, n_offset);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Split reduction for calls of few tiles and long reductions: clusters of SPLIT blocks
// (grid x = SPLIT x the tile blocks), each rank a share of the input channels, joined
// through distributed shared memory (rank_s)
template <typename T, int S, int D, int K, int COG, int U, int CS, int THREADS, bool BLK, int SPLIT,
          bool XCH = false>
__global__ void __cluster_dims__(SPLIT, 1, 1) CT1D_NARROW_BOUNDS
ct1d_narrow_split(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
                  T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
                  int u_first, int n_tiles, int n_offset)
{
    static_assert(SPLIT >= 2 && SPLIT <= 8, "a portable cluster holds at most 8 blocks");
    narrow_tiles<T, S, D, K, COG, U, CS, THREADS, BLK, SPLIT, XCH>(
        x, w, bias, y, C_in, C_out, groups, L_in, L_out, pad, u_first, n_tiles, n_offset);
}
#endif
