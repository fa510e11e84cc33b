// Tensor-core transposed convolution for narrow channel groups (at most 64 input channels
// per group): warps that stream tiles on their own, float32 in a scaled 3xFP16 split.
//
// The same gather view as ct1d_mma.cu (see there and ct1d_tensor.cuh): output
// o = u*S + r - P of residue class r takes the taps k with k*D mod S == r from input
// column u - c_k (c_k = k*D div S); each class is a stride-1 implicit GEMM on tensor
// cores, each output summed in one fixed order in registers: no atomics, bitwise
// reproducible. What differs:
//
//   * Schedule. The block stages the weights of its channel tile once (every tap and input
//     channel) and meets its warps at one barrier; after it each warp runs its own tiles
//     (all CO_T = 16*MT channels x NU = 8*NT positions u) with no block-wide
//     synchronisation: it stages the tile's x in its own shared-memory slice from registers
//     loaded one tile ahead, multiplies, assembles the S*NU outputs of each row in its own
//     output slice and stores them with 16-byte vectors.
//   * float32 arithmetic (CT1D_STREAM_F16X3, default): x of each warp tile and the block's
//     weights are scaled by powers of two so that their largest finite magnitudes lie in
//     [2^14, 2^15), split into float16 hi + lo, and multiplied as lo*hi + hi*lo + hi*hi
//     with m16n8k16 MMAs (float32 accumulation, each k-step's products from zero, then a
//     rounded float add): 3 MMAs per 16 products instead of 3xTF32's 6, the same 11+11
//     bits per operand. Error per product ~2^-22 of |x*w|, plus at most 2^-39 of
//     (largest |x| of the tile) * (largest |w| of the block) where values lie over 2^17
//     below their tile's largest (float16 subnormals). Unscaling multiplies by powers of
//     two (exact). 16-bit inputs take one exact TF32 MMA per product.
//
// Measured on the H200 (benchmarks/NOTES.md, session 7): 1.2-1.5x faster than ct1d_mma
// where each output takes >= 64 multiply-adds with >= 32 output channels; 2x slower on the
// seed, whose warp tiles write 128-byte row segments (ct1d_mma: 1 KB) and are bound by
// those stores. The dispatcher sends it only the former.
//
// Shared memory (float bits for the operands):
//   w_s uint4 [K][KB][MT][2][32]  weights in fragment order (KB = CIGP/16 blocks of 16
//                                 input channels per tap, 2 k8-steps per block)
//   per warp: x_s uint4 [CIGP/4][XP]  slot (4*kb + tq, j) holds x of channels 16kb + 2tq
//                                 + {0, 1, 8, 9} at column u0 - CMAX + j
//             out_s T [CO_T][OP]  the tile's outputs, each row shifted to its global
//                                 alignment (as in ct1d_mma)
// With 3xFP16 (float32) a slot holds the float16 B operands {hi(c, c+1), hi(c+8, c+9),
// lo(c, c+1), lo(c+8, c+9)} of one m16n8k16 step, and each lane's pair of weight uint4
// its A operands hi and lo. With TF32 a k16 block of 16 channels is two m16n8k8 steps over
// a permuted channel order (step s pairs channels 16kb + 8s + 2tq and +1 where the MMA
// pairs k-indices tq and tq+4); the weights use the same permutation, so the sum is
// unchanged and each lane's B operands of both steps come from one 16-byte load.
#include "ct1d_types.cuh"
#include "ct1d_tensor.cuh"

// float32 arithmetic. 1: the scaled 3xFP16 split (above). 0: 3xTF32 as in ct1d_mma (three
// m16n8k8 MMAs per 8 products), 1.0-1.45x slower on the calls the dispatcher sends here.
#ifndef CT1D_STREAM_F16X3
#define CT1D_STREAM_F16X3 1
#endif
// Measurement only (benchmarks/tune_stream.py; wrong results): 1 skips the global
// stores, 2 the MMAs, 3 the x loads.
// Tile order. 1: each warp takes a contiguous range of tiles and carries the last partial
// 32-byte sector of every row to its next tile, so every store inside a range covers whole
// sectors (measured 1.0-1.3x faster where row segments are short, session 7). 0: warp w of
// block b takes tiles b*WARPS + w, then steps of all warps, and writes the partial vectors
// at both ends of each row segment element by element.
#ifndef CT1D_STREAM_CARRY
#define CT1D_STREAM_CARRY 1
#endif
#ifndef CT1D_STREAM_ABLATE
#define CT1D_STREAM_ABLATE 0
#endif

// Template parameters:
//   T          element type in memory: float, f16_t, bf16_t
//   S, D, K    stride, dilation, kernel size
//   MT, NT     m16 x n8 tiles per warp: CO_T = 16*MT channels x NU = 8*NT positions u
//   WARPS      warps per block (each streams its own tiles)
//   CIGP       input channels per group rounded up to a multiple of 16 (zero-padded)
//   MINB       blocks per SM the register allocation must allow
//
// Grid: x = blocks along the row (warp tile t = blockIdx.x*WARPS + warp, then steps of
// gridDim.x*WARPS), y = group x channel tile, z = batch item.
template <typename T, int S, int D, int K, int MT, int NT, int WARPS, int CIGP, int MINB>
__global__ void __launch_bounds__(WARPS * 32, MINB)
ct1d_stream(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
            T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
            int u_first, int n_tiles, int n_offset)
{
    pdl_prologue();
    constexpr int THREADS = WARPS * 32;
    constexpr int CO_T = 16 * MT;
    constexpr int NU = 8 * NT;
    constexpr int KB = CIGP / 16;
    constexpr int CMAX = (K - 1) * D / S;             // largest column offset c_k
    constexpr int XW = NU + CMAX;                     // staged columns
    constexpr int XP = (XW + 5) / 8 * 8 + 2;          // >= XW, 2 mod 8: conflict-free B loads
    constexpr int SLOT_ROWS = CIGP / 4;
    constexpr int ITEMS = SLOT_ROWS * XW;             // x slots per tile
    constexpr int IPL = (ITEMS + 31) / 32;            // ... per lane
    constexpr int VEC = 16 / sizeof(T);               // elements per 16 bytes
    // rows are aligned to whole 32-byte sectors where tiles are a multiple of them apart
    constexpr int ALIGN = (CT1D_STREAM_CARRY && (S * NU * (int)sizeof(T)) % 32 == 0) ? 32 / (int)sizeof(T) : VEC;
    constexpr int OP = S * NU + 32 / (int)sizeof(T);  // room for the row's alignment shift
    constexpr bool SPLIT = is_f32<T>::value;
    constexpr bool F16X3 = SPLIT && CT1D_STREAM_F16X3;
    constexpr int W_FRAGS = K * KB * MT * 2 * 32;     // uint4 of weights
    static_assert(CIGP % 16 == 0 && sizeof(T) <= 4, "ct1d_stream: float, f16_t or bf16_t");

    const BlockPlace bp = block_place(C_in, C_out, groups, CO_T, n_offset);
    const int cig = bp.cig, cog = bp.cog, co_base = bp.co_base, co_n = bp.co_n;

    extern __shared__ __align__(16) unsigned char smem_raw[];
    uint4* w_s = reinterpret_cast<uint4*>(smem_raw);
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int gq = lane >> 2, tq = lane & 3;          // MMA fragment coordinates
    uint4* x_s = w_s + W_FRAGS + warp * (SLOT_ROWS * XP + CO_T * OP * (int)sizeof(T) / 16);
    T* out_s = reinterpret_cast<T*>(x_s + SLOT_ROWS * XP);

    const T* xn = x + (bp.n * C_in + (long long)bp.g * cig) * L_in;
    const T* wg = w + ((long long)bp.g * cig * cog + co_base) * K;
    const long long row0 = bp.n * C_out + (long long)bp.g * cog + co_base;
    T* yb = y + row0 * L_out;
    const T* bg = bias == nullptr ? nullptr : bias + bp.g * cog + co_base;

    // Weights in fragment order: element q of uint4 s of lane (gq, tq), m16 tile mt, block
    // kb, tap k is w[ci = 16kb + 8s + 2tq + (q>>1)][co = 16mt + gq + 8(q&1)][k].
    {
        unsigned* ws = reinterpret_cast<unsigned*>(w_s);
        for (int e = tid; e < W_FRAGS * 4; e += THREADS) {
            const int q = e & 3, ln = (e >> 2) & 31, s = (e >> 7) & 1, f = e >> 8;
            const int mt = f % MT, kb = (f / MT) % KB, k = f / (MT * KB);
            const int ci = 16 * kb + 8 * s + 2 * (ln & 3) + (q >> 1);
            const int co = 16 * mt + (ln >> 2) + 8 * (q & 1);
            const float v = (ci < cig && co < co_n) ? to_acc(wg[((long long)ci * cog + co) * K + k]) : 0.f;
            ws[e] = __float_as_uint(v);
        }
    }
    // 3xFP16: the block's weights scaled by 2^sw into float16's range and each lane's two
    // uint4 of a fragment (8 floats) rewritten in place as its float16 hi and lo operands
    float unscale_w = 1.f;
    if (F16X3) {
        __shared__ unsigned w_emax;
        if (tid == 0) w_emax = 0;
        __syncthreads();
        unscale_w = split_a_operands_block(w_s, W_FRAGS, &w_emax, tid, THREADS);
    }

    // Alignment shift of out_s row `row`: its element p sits at row*OP + shift + p,
    // congruent to its global index mod VEC (tiles start NU*S, a multiple of VEC, apart).
    auto shift = [&](int row) -> int {
        return (int)(((row0 + row) * L_out + (long long)u_first * S - pad) & (ALIGN - 1));
    };
    float bv[MT][2];
    int ro[MT][2];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int co = 16 * mt + gq + 8 * h;
            bv[mt][h] = (bg != nullptr && co < co_n) ? to_acc(bg[co]) : 0.f;
            ro[mt][h] = co * OP + shift(co);
        }
    // Positions of classes no tap reaches hold the bias in every tile: written once.
    if (live_classes(S, D, K) < S) {
        for (int row = 0; row < CO_T; ++row) {
            const T b = from_acc<T>((bg != nullptr && row < co_n) ? to_acc(bg[row]) : 0.f);
            const int sh = shift(row);
            for (int p = lane; p < S * NU; p += 32)
                if (class_taps(p % S, S, D, K) == 0) out_s[row * OP + sh + p] = b;
        }
    }

    // x of a tile through registers, one tile ahead. Item e = lane + 32*i is slot
    // (e / XW, e % XW): 4 channels at one column, coalesced along the columns. Raw values
    // until the commit (converting at the load would serialise the loads, NOTES session 3).
    T xr[IPL][4];
    auto fetch = [&](int u0) {
#pragma unroll
        for (int i = 0; i < IPL; ++i) {
            const int e = lane + 32 * i, sr = e / XW, j = e - sr * XW;
            const int col = u0 - CMAX + j;
            const bool in = e < ITEMS && col >= 0 && col < L_in;
            const int c0 = 16 * (sr >> 2) + 2 * (sr & 3);
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const int c = c0 + (q & 1) + 8 * (q >> 1);
                xr[i][q] = (in && c < cig && CT1D_STREAM_ABLATE != 3) ? xn[(long long)c * L_in + col] : T{};
            }
        }
    };
    // 3xFP16: the tile's x scaled by 2^sx (per warp tile) and stored as the float16 B
    // operands {hi(c, c+1), hi(c+8, c+9), lo(c, c+1), lo(c+8, c+9)}; returns 2^-sx
    auto commit = [&]() -> float {
        if (F16X3) {
            unsigned m = 0;
#pragma unroll
            for (int i = 0; i < IPL; ++i)
#pragma unroll
                for (int q = 0; q < 4; ++q) m = max(m, finite_exp(to_acc(xr[i][q])));
            const int sx = f16_scale_exp(__reduce_max_sync(0xffffffffu, m));
            const float scale = pow2(sx);
#pragma unroll
            for (int i = 0; i < IPL; ++i) {
                const int e = lane + 32 * i, sr = e / XW, j = e - sr * XW;
                const uint4 v = f16_b_operands(to_acc(xr[i][0]), to_acc(xr[i][1]),
                                               to_acc(xr[i][2]), to_acc(xr[i][3]), scale);
                if (e < ITEMS) x_s[sr * XP + j] = v;
            }
            return pow2(-sx);
        }
#pragma unroll
        for (int i = 0; i < IPL; ++i) {
            const int e = lane + 32 * i, sr = e / XW, j = e - sr * XW;
            if (e < ITEMS)
                x_s[sr * XP + j] = make_uint4(__float_as_uint(to_acc(xr[i][0])), __float_as_uint(to_acc(xr[i][1])),
                                              __float_as_uint(to_acc(xr[i][2])), __float_as_uint(to_acc(xr[i][3])));
        }
        return 1.f;
    };

    __syncthreads();          // weights staged: from here on the warps run independently

    const int wid = blockIdx.x * WARPS + warp;
    const int per_warp = (n_tiles + gridDim.x * WARPS - 1) / (gridDim.x * WARPS);
    const int step = CT1D_STREAM_CARRY ? 1 : gridDim.x * WARPS;
    const int t_begin = CT1D_STREAM_CARRY ? wid * per_warp : wid;
    const int t_end = CT1D_STREAM_CARRY ? min(n_tiles, t_begin + per_warp) : n_tiles;
    if (t_begin < t_end) fetch(u_first + t_begin * NU);
    for (int tile = t_begin; tile < t_end; tile += step) {
        const int u0 = u_first + tile * NU;
        __syncwarp();         // the previous tile's MMAs and copy-out are done with x_s, out_s
        const float unscale_x = commit();
        __syncwarp();
        if (tile + step < t_end) fetch(u0 + step * NU);

#pragma unroll
        for (int r = 0; r < S; ++r) {
            constexpr int MAXT = max_class_taps(S, D, K);
            const int ntaps = class_taps(r, S, D, K);
            if (ntaps == 0) continue;                 // bias only, already in out_s
            float acc[MT][NT][4];
            zero_tiles(acc);
#pragma unroll
            for (int tk = 0; tk < MAXT; ++tk) {
                if (tk >= ntaps) break;
                int k = 0;
#pragma unroll
                for (int jj = 0; jj < MAXT; ++jj)
                    if (jj == tk) k = class_tap(r, jj, S, D, K);
                const int ck = k * D / S;
#pragma unroll
                for (int kb = 0; kb < (CT1D_STREAM_ABLATE == 2 ? 0 : KB); ++kb) {
                    const uint4* xk = x_s + (4 * kb + tq) * XP + gq + CMAX - ck;
                    const uint4* wk = w_s + (k * KB + kb) * MT * 64 + lane;
                    uint4 xv[NT];
#pragma unroll
                    for (int nt = 0; nt < NT; ++nt) xv[nt] = xk[nt * 8];
                    if (F16X3) {
#pragma unroll
                        for (int mt = 0; mt < MT; ++mt) {
                            const uint4 ahi = wk[(2 * mt) * 32], alo = wk[(2 * mt + 1) * 32];
#pragma unroll
                            for (int nt = 0; nt < NT; ++nt) {
                                float t[4];
                                mma_f16x3(t, ahi, alo, xv[nt]);
#pragma unroll
                                for (int q = 0; q < 4; ++q) acc[mt][nt][q] += t[q];
                            }
                        }
                        continue;
                    }
#pragma unroll
                    for (int s = 0; s < 2; ++s) {
                        unsigned bhi[NT][2], blo[NT][2];
#pragma unroll
                        for (int nt = 0; nt < NT; ++nt) {
                            bhi[nt][0] = s ? xv[nt].z : xv[nt].x;
                            bhi[nt][1] = s ? xv[nt].w : xv[nt].y;
                            if (SPLIT) {
                                tf32_split(__uint_as_float(bhi[nt][0]), bhi[nt][0], blo[nt][0]);
                                tf32_split(__uint_as_float(bhi[nt][1]), bhi[nt][1], blo[nt][1]);
                            }
                        }
#pragma unroll
                        for (int mt = 0; mt < MT; ++mt) {
                            uint4 ahi = wk[(2 * mt + s) * 32];
                            if (SPLIT) {
                                // each k-step's products join the running sum by one add
                                uint4 alo;
                                tf32_split(__uint_as_float(ahi.x), ahi.x, alo.x);
                                tf32_split(__uint_as_float(ahi.y), ahi.y, alo.y);
                                tf32_split(__uint_as_float(ahi.z), ahi.z, alo.z);
                                tf32_split(__uint_as_float(ahi.w), ahi.w, alo.w);
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt)
                                    mma_tf32x3(acc[mt][nt], ahi, alo, bhi[nt][0], bhi[nt][1],
                                               blo[nt][0], blo[nt][1]);
                            } else {
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt)
                                    mma_tf32(acc[mt][nt], ahi, bhi[nt][0], bhi[nt][1]);
                            }
                        }
                    }
                }
            }
            // class r into the tile: position (u - u0)*S + r, each written once
            tiles_to_out<F16X3, S>(out_s, acc, ro, bv, 0, tq, r, unscale_x, unscale_w);
        }
        __syncwarp();

        // Copy-out, each output once: slot c of a row covers out_s columns [c*VEC, c*VEC +
        // VEC), congruent to global indices mod VEC: a 16-byte store where all of them
        // are to be written, element by element at the ends. Columns [sh, sh + S*NU) hold
        // this tile's outputs; with CT1D_STREAM_CARRY, [0, sh) the previous tile's last
        // ones (not at a range's first tile), and a range's last tile writes its own last
        // ones while the others carry them.
        const int o0 = u0 * S - pad;
        const int p_lo = max(0, -o0), p_hi = min(S * NU, L_out - o0);
        const bool first = tile == t_begin || !CT1D_STREAM_CARRY;
        const bool last = tile + step >= t_end || !CT1D_STREAM_CARRY;
        constexpr int SLOTS = (S * NU + ALIGN) / VEC;
        for (int v = lane; v < (CT1D_STREAM_ABLATE == 1 ? 0 : co_n * SLOTS); v += 32) {
            const int row = v / SLOTS, q = (v - row * SLOTS) * VEC;
            const int sh = shift(row);
            const int qa = first ? sh + p_lo : 0, qb = last ? sh + p_hi : S * NU;
            const T* src = out_s + row * OP + q;
            T* dst = yb + (long long)row * L_out + (o0 - sh + q);
            const int lo = max(q, qa) - q, hi = min(q + VEC, qb) - q;
            if (lo == 0 && hi == VEC) {
                *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
            } else {
                for (int e = lo; e < hi; ++e) dst[e] = src[e];
            }
        }
        if (CT1D_STREAM_CARRY && !last) {
            __syncwarp();     // every lane has read the columns it stored
            for (int v = lane; v < co_n * ALIGN; v += 32) {
                const int row = v / ALIGN, j = v - row * ALIGN;
                if (j < shift(row)) out_s[row * OP + j] = out_s[row * OP + S * NU + j];
            }
        }
    }
}
