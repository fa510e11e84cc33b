// Wide-channel transposed convolution: one implicit GEMM per block over all residue classes.
//
// Same gather view and tensor-core arithmetic (3xTF32, or the scaled 3xFP16 split: below)
// as ct1d_mma.cu (see there and ct1d_tensor.cuh): output o = u*S + r - P of class r takes
// the taps k with k*D mod S == r from column u - c_k (c_k = k*D div S). ct1d_mma loops
// over the classes and, for each, over channel chunks, restaging the class's every-S-th
// taps from scattered weight elements; with hundreds of input channels that staging, not
// the arithmetic, is its time.
// Here the loops are the other way round, as in a GEMM whose rows are (output channel,
// class) pairs:
//
//   * the reduction runs over chunks of CK input channels; each chunk's weights
//     w[ci][co_tile][0:K] (all taps, contiguous per input channel: coalesced) and its x
//     columns are staged once by cp.async into a STAGES-deep ring, so the next chunks load
//     while this one computes and no register holds staged data;
//   * each warp owns one live class and MT x NT m16n8 tiles of (channels x positions u);
//     its accumulators stay in registers over the whole reduction, so every class reads
//     the same staged chunk: x is staged once instead of once per class;
//   * the block's output tile goes through shared memory (reusing the ring) and out with
//     coalesced stores.
//
// Tiles follow each class's own positions: class r's outputs o >= 0 start at
// u = floor(P/S) + shift_r with shift_r = (r < P mod S), so tile t covers u0 + shift_r +
// [0, NU) of class r (u0 = floor(P/S) + t*NU). Every class of a vocoder layer (K = 2S,
// P = S/2) then has exactly L_in positions and no tile is a sliver; the tile's outputs
// span S*(NU+1) positions, the first and last S shared with the neighbouring tiles.
//
// Shared memory per stage (float bits): w_s [CK][WP] with element (ci, co, k) at
// ci*WP + co*KP + k, and x_s [CK][XP] with (ci, j) at ci*XP + j for column u0 - CMAX + j.
// KP = K|1 is odd and WP, XP are 8 mod 32, so both fragment loads are bank-conflict free
// (lane (gq, tq) reads bank gq*KP + 8*tq, resp. gq + 8*tq, mod 32). That padding needs
// 4-byte copies.
//
// float32 instances with F16X3 use the scaled 3xFP16 split of ct1d_tensor.cuh instead of
// 3xTF32 (half the MMAs: three m16n8k16 per 16 products where 3xTF32 takes six m16n8k8),
// with one power of two per chunk for its weights and one for its x (the chunk's largest
// finite magnitudes into [2^14, 2^15)):
//   * each thread copies its weight elements (co, k) for all CK channels of a chunk, and x
//     as pairs of channels (2p, 2p+1) of one column. Once its own copies have landed
//     (cp.async writes are visible to the issuing thread after its wait) it takes their
//     largest exponents into the chunk's two block maxima before the barrier;
//   * after the barrier it rewrites its x pairs in place, scaled, as the float16x2 hi pair
//     (row 2p) and lo pair (row 2p+1): x is split once, and the B operands of a k16 step
//     are plain 4-byte loads. The weights stay raw and are split where they are used: an
//     element feeds only the NU positions of its tile, so a second pass over the stage
//     costs more than it saves (measured, results/2026-11-30-session8/);
//   * that puts two chunks of lag in the pipeline: while chunk ch computes, chunk ch+1 is
//     split and chunk ch+2 measured, so the ring is deeper for the same prefetch;
//   * the products of 2 k16 steps accumulate from zero in the tensor cores and join the
//     float32 sums through one FFMA by 2^-(s_w + s_x), exact.
// Its pitches are 4 mod 16, so lanes reading channels 2tq, 2tq+1 stay conflict-free.
//
// Calls of few blocks (small batches and lengths, wide reductions: fewer tiles than SMs)
// split the reduction instead (sm_90, ct1d_gemm_split): a cluster of SPLIT blocks takes
// each tile, block q the q-th run of its input-channel chunks, and the partial tiles are
// added in distributed shared memory in rank order (split_epilogue): no workspace, no
// atomics, the same bits on every run.
//
// float16/bfloat16: a 4-byte cp.async cannot stage single 16-bit elements, so each thread
// loads its elements of the next chunk into registers before this chunk's MMAs and stores
// them after them (two stages), packed as channel pairs (2p, 2p+1) in one 32-bit word per
// stage row p: the m16n8k16 bf16/f16 fragments then read the very words (offsets, pitches)
// that float32's m16n8k8 TF32 fragments read, half as many k-steps per chunk. A 16-bit
// product is exact in float32, so this is one MMA per 16 products at the 16-bit tensor
// rate (until session 71: values widened to floats, one TF32 MMA per 8 products).
//
// float64 (dispatch.GEMM_F64; no tensor cores: an H100's DMMA peak, ~32 TFLOP/s measured,
// is hardly above its DFMA one, ~28): the same cp.async ring with 8-byte copies into
// double stages, and each lane computes on CUDA cores the very C fragments its MMAs would
// hold (rows gq, gq+8 of each m16 tile x columns 2tq, 2tq+1 of each n8 tile), so the
// epilogue is float32's in double. Per input channel and tap it loads 2*MT weights and
// 2*NT x values (8-byte LDS) for 4*MT*NT DFMAs. A warp's weight loads read 8 rows gq*KP
// apart (KP odd: 8 distinct 8-byte banks), its x loads 4 neighbouring pairs, each
// broadcast to the lanes sharing it: conflict-free for any pitch, so the double stages are
// unpadded (WP = CO_B*KP, XP = XW). No cluster split (SPLIT 1).
#include "ct1d_types.cuh"
#include "ct1d_tensor.cuh"

__device__ constexpr int pitch_4_mod_16(int n) { return (n + 11) / 16 * 16 + 4; }  // >= n

// A stage element: doubles as doubles, the others as 32-bit words (floats, 16-bit pairs)
template <typename T> struct stage_of         { typedef float  type; };
template <>           struct stage_of<double> { typedef double type; };
template <typename E>
__device__ __forceinline__ void cp_async_elem(E* dst, const void* src, int src_size) {
    if constexpr (sizeof(E) == 8) cp_async8(dst, src, src_size);
    else cp_async4(dst, src, src_size);
}

// Accuracy knobs (benchmarks/tune_gemm.py measures them): k-steps per rounded flush of the
// MMA products into the float32 sums, and whether the low TF32 half is rounded (else the
// tensor core truncates f - hi, one more bit of error on a term 2^-11 smaller). Measured
// on the sweep's wide layers (results/2026-11-30-session5/): flushing every 4 k-steps
// with truncated low halves is 1.15-1.3x faster than every k-step with rounded ones,
// relative error 2.7e-7 instead of 2.2e-7.
#ifndef CT1D_GEMM_FLUSH
#define CT1D_GEMM_FLUSH 4
#endif
#ifndef CT1D_GEMM_ROUND_LO
#define CT1D_GEMM_ROUND_LO 0
#endif
// 0: instances with F16X3 run 3xTF32 instead (A/B measurement, benchmarks/ab_variant.py)
#ifndef CT1D_GEMM_F16X3
#define CT1D_GEMM_F16X3 1
#endif
// 1: the weights' maxima are not measured (timing only: wrong scale for |w| > 2)
// 16-bit inputs: 1 = m16n8k16 bf16/f16 MMAs from channel-pair stages; 0 = widened to floats,
// m16n8k8 TF32 MMAs (the path before session 71, kept for A/B timing)
#ifndef CT1D_GEMM_H16
#define CT1D_GEMM_H16 1
#endif
#ifndef CT1D_GEMM_ABLATE_WMAX
#define CT1D_GEMM_ABLATE_WMAX 0
#endif

__device__ __forceinline__ void split(float f, unsigned& hi, unsigned& lo) {
    hi = tf32_round(f);
    const float rest = f - __uint_as_float(hi);
    lo = CT1D_GEMM_ROUND_LO ? tf32_round(rest) : __float_as_uint(rest);
}

// SPLIT > 1 (sm_90): the output tile's sums from a cluster of SPLIT blocks, each over its
// own share of the input channels (the partial sums acc, without bias). Each block puts
// its partials into its shared memory (tile layout of the epilogue below, in float);
// after a cluster barrier, block q stores every SPLIT-th run of THREADS tile elements,
// adding the ranks' partials in rank order (the same bits on every run) from their shared
// memory, then the bias; a second barrier keeps each block's partials until all are read.
template <typename T, int S, int D, int K, int MT, int NT, int THREADS, int OUT_W, int SPLIT>
__device__ __forceinline__ void split_epilogue(const float (&acc)[MT][NT][4], float* part,
                                               int row0, int pos0, int r, int rank, int co_n,
                                               int pad_s, int o0, int L_out, const T* bg, T* yb)
{
    constexpr int OP = OUT_W + 1, NU = OUT_W / S - 1;
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = row0 + mt * 16 + 8 * h;
#pragma unroll
            for (int nt = 0; nt < NT; ++nt) {
                const int p = (pos0 + nt * 8) * S + r;
                part[row * OP + p] = acc[mt][nt][2 * h];
                part[row * OP + p + S] = acc[mt][nt][2 * h + 1];
            }
        }
    cluster_sync();
    for (int e = threadIdx.x + rank * THREADS; e < co_n * OUT_W; e += SPLIT * THREADS) {
        const int row = e / OUT_W, p = e - row * OUT_W;
        const int rr = p % S, i = p / S - (rr < pad_s), o = o0 + p;
        if (i < 0 || i >= NU || o < 0 || o >= L_out) continue;
        T v;
        if (live_classes(S, D, K) == S || class_taps(rr, S, D, K) > 0) {
            float sum = 0.f;
#pragma unroll
            for (int q = 0; q < SPLIT; ++q) sum += ld_cluster(part + row * OP + p, q);
            v = from_acc<T>(sum + (bg != nullptr ? to_acc(bg[row]) : 0.f));
        } else {
            v = bg != nullptr ? bg[row] : from_acc<T>(0.f);
        }
        yb[(long long)row * L_out + o] = v;
    }
    cluster_sync();
}

// Template parameters:
//   T          float (cp.async staging, 3xTF32), f16_t or bf16_t (register staging, one
//              16-bit MMA per product), double (cp.async staging, DFMAs)
//   S, D, K    stride, dilation, kernel size
//   MT, NT     m16 x n8 tiles per warp
//   WC, WN     warps along output channels x along positions, per live class: the block
//              has live_classes*WC*WN warps and covers CO_B = 16*MT*WC channels and
//              NU = 8*NT*WN positions u of every class
//   CK         input channels per stage (a multiple of 8)
//   STAGES     depth of the cp.async ring (>= 2; 2 for 16-bit types)
//   MINB       blocks per SM the registers must allow (2: at most 128 per thread for 8 warps)
//   F16X3_ON   float32 through the scaled 3xFP16 split (CK % 16 == 0)
//   SPLIT      blocks per cluster that share each tile's reduction (1: none; sm_90 only)
template <typename T, int S, int D, int K, int MT, int NT, int WC, int WN, int CK, int STAGES,
          bool F16X3_ON, int SPLIT>
__device__ __forceinline__ void
gemm_tiles(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
           T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
           int u_first, int n_tiles, int n_offset)
{
    pdl_prologue();
    constexpr bool F32 = is_f32<T>::value;           // else float16/bfloat16 or double
    constexpr bool F64 = sizeof(T) == 8;              // double: CUDA-core DFMAs
    constexpr bool CPA = F32 || F64;                  // staged by cp.async (else registers)
    typedef typename stage_of<T>::type E;             // stage element
    typedef typename acc_of<T>::type A;               // accumulator
    static_assert(CPA || sizeof(T) == 2, "ct1d_gemm: float, double, f16_t or bf16_t");
    static_assert(CPA || STAGES == 2, "16-bit chunks are double-buffered through registers");
    static_assert(!F64 || SPLIT == 1, "double: no cluster split");
    static_assert(CK % 8 == 0 && STAGES >= 2, "stage geometry");
    constexpr bool F16X3 = F16X3_ON && F32 && CK % 16 == 0 && CT1D_GEMM_F16X3;
    static_assert(!F16X3 || STAGES >= 3, "3xFP16 measures two chunks ahead: at least 3 stages");
    // 16-bit: stage rows hold channel PAIRS (2p, 2p+1) packed in one 32-bit word, so the
    // m16n8k16 fragments read the same words the TF32 m16n8k8 ones read (pair row = k8 row)
    constexpr bool P16 = !CPA && CT1D_GEMM_H16;
    static_assert(!P16 || CK % 16 == 0, "16-bit pairs: k16 steps");
    constexpr int RL = live_classes(S, D, K);
    constexpr int THREADS = RL * WC * WN * 32;
    constexpr int CO_B = 16 * MT * WC;
    constexpr int NU = 8 * NT * WN;
    constexpr int CMAX = (K - 1) * D / S;             // largest column offset c_k
    constexpr int XW = NU + CMAX + 1;                 // staged columns per channel
    constexpr int KP = K | 1;
    constexpr int WP = F64 ? CO_B * KP : F16X3 ? pitch_4_mod_16(CO_B * KP) : pitch_8_mod_32(CO_B * KP);
    constexpr int XP = F64 ? XW : F16X3 ? pitch_4_mod_16(XW) : pitch_8_mod_32(XW);
    constexpr int STAGE = CK * (WP + XP);             // elements E per stage
    constexpr int OUT_W = S * (NU + 1);               // output positions per tile row
    constexpr int OP = OUT_W + 1;                     // out_s pitch
    constexpr int MAXT = max_class_taps(S, D, K);
    constexpr int WCO = CO_B * K;                     // staged weight elements per channel
    constexpr int FLUSH = CT1D_GEMM_FLUSH;

    const BlockPlace bp = block_place(C_in, C_out, groups, CO_B, n_offset);
    const int cog = bp.cog, g = bp.g, co_base = bp.co_base, co_n = bp.co_n;
    const long long n = bp.n;
    // SPLIT: cluster rank q reduces over the group's input channels [ci_lo, ci_lo + cig)
    // only, an equal run of whole chunks (the dispatcher gives every rank at least one)
    const int rank = SPLIT > 1 ? (int)cluster_rank() : 0;
    const int ci_run = (bp.cig + CK * SPLIT - 1) / (CK * SPLIT) * CK;    // channels per rank
    const int ci_lo = SPLIT > 1 ? rank * ci_run : 0;
    const int cig = SPLIT > 1 ? max(0, min(bp.cig - ci_lo, ci_run)) : bp.cig;
    const int n_chunks = (cig + CK - 1) / CK;

    // F16X3: the largest exponents (weights, x) of chunks ch, ch+1, ch+2 at [ch % 3]
    __shared__ unsigned emax[3][2];
    if (F16X3) {
        if (threadIdx.x < 6) emax[threadIdx.x / 2][threadIdx.x % 2] = 0;
        __syncthreads();
    }
    extern __shared__ __align__(16) unsigned char smem_raw[];
    E* ring = reinterpret_cast<E*>(smem_raw);
    T* out_s = reinterpret_cast<T*>(smem_raw);        // the epilogue reuses the ring

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int gq = lane >> 2, tq = lane & 3;          // MMA fragment coordinates
    const int wr = warp / (WC * WN), wc = (warp / WN) % WC, wn = warp % WN;
    const int r = live_class(wr, S, D, K);            // this warp's class
    const int ntaps = class_taps(r, S, D, K);
    const int pad_s = pad % S;
    const int dr = r < pad_s;                         // the class's tile shift
    // Every class has MAXT taps (vocoder layers: K = 2S): no per-tap test in the loop.
    constexpr bool UNIFORM = RL * MAXT == K;

    const T* xn = x + (n * C_in + (long long)g * bp.cig + ci_lo) * L_in;
    const T* wg = w + ((long long)g * bp.cig + ci_lo) * cog * K + (long long)co_base * K;
    const long long row0 = n * C_out + (long long)g * cog + co_base;   // global row of tile row 0
    T* yb = y + row0 * L_out;
    const T* bg = bias == nullptr ? nullptr : bias + g * cog + co_base;

    const int co_w = wc * MT * 16;                    // this warp's first tile row
    const int u_w = wn * NT * 8;                      // ... and first position u
    // Fragment offsets in a stage, per tap of the class: lane (gq, tq) reads weights
    // (ci = tq, co = co_w + gq, k) and x (ci = tq, column u_w + gq + CMAX - c_k); k16
    // steps (F16X3) start at ci = 2tq. double: every lane reads every channel, weights
    // (co_w + gq, k) and x columns u_w + 2tq + CMAX - c_k (+1).
    constexpr int CI_LANE = F64 ? 0 : F16X3 ? 2 : 1;
    int a_off[MAXT], b_off[MAXT];
#pragma unroll
    for (int j = 0; j < MAXT; ++j) {
        const int k = j < ntaps ? class_tap(r, j, S, D, K) : 0;
        a_off[j] = CI_LANE * tq * WP + (co_w + gq) * KP + k;
        b_off[j] = CK * WP + CI_LANE * tq * XP + u_w + (F64 ? 2 * tq : gq) + dr + CMAX - k * D / S;
    }

    // This thread's copies, the same for every chunk: weight elements (co, k) =
    // divmod(tid + ri*THREADS, K) of each staged channel, and x elements e = tid + xi*THREADS
    // of the chunk's CK x XW columns. Copies with size 0 zero-fill (channels past the
    // group, columns outside the sequence); *_dst < 0: no element (a zero-filling copy
    // would still write).
    // (F16X3: elements e of the CK/2 x XW channel pairs, copying channels 2p and 2p+1 to
    // rows 2p and 2p+1; P16: both into the one packed word of pair row p.)
    constexpr int RI = (WCO + THREADS - 1) / THREADS;
    constexpr int X_ELEMS = (F16X3 || P16 ? CK / 2 : CK) * XW;
    constexpr int XI = (X_ELEMS + THREADS - 1) / THREADS;
    int w_dst[RI], w_size[RI];
#pragma unroll
    for (int ri = 0; ri < RI; ++ri) {
        const int rem = tid + ri * THREADS, co = rem / K;
        w_size[ri] = co < co_n ? (int)sizeof(E) : 0;
        w_dst[ri] = rem < WCO ? co * KP + rem - co * K : -1;
    }
    const long long w_step = (long long)cog * K;      // one input channel further

    // (a cluster's blocks are consecutive along x: they take the same tiles)
    for (int tile = blockIdx.x / SPLIT; tile < n_tiles; tile += gridDim.x / SPLIT) {
        const int u0 = u_first + tile * NU;
        const int o0 = u0 * S - pad;                  // output position of tile column 0

        int x_dst[XI], x_c[XI], x_size[XI];
        long long x_src[XI];
#pragma unroll
        for (int xi = 0; xi < XI; ++xi) {
            const int e = tid + xi * THREADS, ce = e / XW, j = e - ce * XW, i = u0 - CMAX + j;
            const int c = F16X3 || P16 ? 2 * ce : ce;
            const bool in = i >= 0 && i < L_in;
            x_dst[xi] = e < X_ELEMS ? CK * WP + (P16 ? ce : c) * XP + j : -1;
            x_c[xi] = c;
            x_size[xi] = in ? (int)sizeof(E) : 0;
            x_src[xi] = in ? (long long)c * L_in + i : 0;
        }

        // chunk ch -> stage buf
        auto load = [&](int ch, int buf) {
            const int ci0 = ch * CK, ci_n = min(CK, cig - ci0);
            E* st = ring + buf * STAGE;
            const T* wc0 = wg + ci0 * w_step + tid;
#pragma unroll
            for (int c = 0; c < CK; ++c) {
                const T* wrow = wc0 + c * w_step;
#pragma unroll
                for (int ri = 0; ri < RI; ++ri)
                    if ((ri + 1) * THREADS <= WCO || w_dst[ri] >= 0)
                        cp_async_elem(st + c * WP + w_dst[ri], wrow + ri * THREADS, c < ci_n ? w_size[ri] : 0);
            }
            const T* xc0 = xn + (long long)ci0 * L_in;
#pragma unroll
            for (int xi = 0; xi < XI; ++xi)
                if ((xi + 1) * THREADS <= X_ELEMS || x_dst[xi] >= 0) {
                    cp_async_elem(st + x_dst[xi], xc0 + x_src[xi], x_c[xi] < ci_n ? x_size[xi] : 0);
                    if (F16X3)
                        cp_async4(st + x_dst[xi] + XP, xc0 + x_src[xi] + L_in,
                                  x_c[xi] + 1 < ci_n ? x_size[xi] : 0);
                }
        };
        // F16X3: the largest finite exponents of this thread's elements of the chunk in stage
        // buf (its copies have landed) into the chunk's block maxima words[0] (weights) and
        // words[1] (x) ...
        auto chunk_max = [&](int buf, unsigned* words) {      // (E: float when called)
            const E* st = ring + buf * STAGE;
            // |v| maxima by float max (one instruction each, NaN ignored), four chains
            float m4[4] = {0.f, 0.f, 0.f, 0.f}, xm = 0.f;
#pragma unroll
            for (int c = 0; c < CK; ++c)
#pragma unroll
                for (int ri = 0; ri < RI; ++ri)
                    if (!CT1D_GEMM_ABLATE_WMAX && ((ri + 1) * THREADS <= WCO || w_dst[ri] >= 0))
                        m4[c & 3] = fmaxf(m4[c & 3], fabsf(st[c * WP + w_dst[ri]]));
            if (CT1D_GEMM_ABLATE_WMAX) m4[0] = 1.f;
#pragma unroll
            for (int xi = 0; xi < XI; ++xi)
                if ((xi + 1) * THREADS <= X_ELEMS || x_dst[xi] >= 0)
                    xm = fmaxf(xm, fmaxf(fabsf(st[x_dst[xi]]), fabsf(st[x_dst[xi] + XP])));
            // non-negative floats order as their bits
            unsigned wm = __reduce_max_sync(0xffffffffu, __float_as_uint(
                fmaxf(fmaxf(m4[0], m4[1]), fmaxf(m4[2], m4[3]))));
            unsigned xb = __reduce_max_sync(0xffffffffu, __float_as_uint(xm));
            if (wm >= 0x7f800000u || xb >= 0x7f800000u) {   // an infinity: without them (rare)
                wm = xb = 0;
#pragma unroll
                for (int c = 0; c < CK; ++c)
#pragma unroll
                    for (int ri = 0; ri < RI; ++ri)
                        if ((ri + 1) * THREADS <= WCO || w_dst[ri] >= 0)
                            wm = max(wm, finite_exp(st[c * WP + w_dst[ri]]));
#pragma unroll
                for (int xi = 0; xi < XI; ++xi)
                    if ((xi + 1) * THREADS <= X_ELEMS || x_dst[xi] >= 0)
                        xb = max(xb, max(finite_exp(st[x_dst[xi]]), finite_exp(st[x_dst[xi] + XP])));
                wm = __reduce_max_sync(0xffffffffu, wm);
                xb = __reduce_max_sync(0xffffffffu, xb);
            }
            if (lane == 0) {
                atomicMax(&words[0], wm & 0x7f800000u);
                atomicMax(&words[1], xb & 0x7f800000u);
            }
        };
        // ... and, once the maxima are complete, the x pairs rewritten in place as float16x2
        // hi pairs (rows 2p) and lo pairs (rows 2p + 1). Returns the chunk's weight scale
        // 2^s_w (its weights are split where they are used) and e = -(s_w + s_x).
        auto split_chunk = [&](int buf, const unsigned* words, float& w_scale, int& e) {
            const int sw = f16_scale_exp(words[0]), sx = f16_scale_exp(words[1]);
            const float x_scale = pow2(sx);
            w_scale = pow2(sw);
            e = -(sw + sx);
            unsigned* st = reinterpret_cast<unsigned*>(ring + buf * STAGE);
#pragma unroll
            for (int xi = 0; xi < XI; ++xi)
                if ((xi + 1) * THREADS <= X_ELEMS || x_dst[xi] >= 0) {
                    unsigned* v = st + x_dst[xi];
                    unsigned hi, lo;
                    f16x2_split(__uint_as_float(v[0]) * x_scale, __uint_as_float(v[XP]) * x_scale,
                                hi, lo);
                    v[0] = hi;
                    v[XP] = lo;
                }
        };

        // 16-bit: chunk ch's elements into registers (zero outside the group, the channel
        // tile and the sequence), issued before the previous chunk computes ...
        T wr[CPA ? 1 : CK * RI], xr[CPA ? 1 : (P16 ? 2 : 1) * XI];
        auto fetch = [&](int ch) {
            const int ci0 = ch * CK, ci_n = min(CK, cig - ci0);
            const T* wc0 = wg + ci0 * w_step + tid;
#pragma unroll
            for (int c = 0; c < CK; ++c)
#pragma unroll
                for (int ri = 0; ri < RI; ++ri)
                    wr[c * RI + ri] = (c < ci_n && w_dst[ri] >= 0 && w_size[ri] > 0)
                        ? wc0[c * w_step + ri * THREADS] : T{};
            const T* xc0 = xn + (long long)ci0 * L_in;
#pragma unroll
            for (int xi = 0; xi < XI; ++xi) {
                xr[xi] = (x_dst[xi] >= 0 && x_c[xi] < ci_n && x_size[xi] > 0) ? xc0[x_src[xi]] : T{};
                if constexpr (P16)                    // (channel c + 1 of the pair)
                    xr[XI + xi] = (x_dst[xi] >= 0 && x_c[xi] + 1 < ci_n && x_size[xi] > 0)
                        ? xc0[x_src[xi] + L_in] : T{};
            }
        };
        // ... and stored into stage buf after it: channel pairs packed in 32-bit words
        // (P16), else floats in float32's stage layout
        auto commit = [&](int buf) {
            E* st = ring + buf * STAGE;
            if constexpr (P16) {
                unsigned* su = reinterpret_cast<unsigned*>(st);
#pragma unroll
                for (int pp = 0; pp < CK / 2; ++pp)
#pragma unroll
                    for (int ri = 0; ri < RI; ++ri)
                        if (w_dst[ri] >= 0)
                            su[pp * WP + w_dst[ri]] = (unsigned)wr[2 * pp * RI + ri].bits
                                                      | ((unsigned)wr[(2 * pp + 1) * RI + ri].bits << 16);
#pragma unroll
                for (int xi = 0; xi < XI; ++xi)
                    if (x_dst[xi] >= 0) su[x_dst[xi]] = (unsigned)xr[xi].bits | ((unsigned)xr[XI + xi].bits << 16);
            } else {
#pragma unroll
                for (int c = 0; c < CK; ++c)
#pragma unroll
                    for (int ri = 0; ri < RI; ++ri)
                        if (w_dst[ri] >= 0) st[c * WP + w_dst[ri]] = to_acc(wr[c * RI + ri]);
#pragma unroll
                for (int xi = 0; xi < XI; ++xi)
                    if (x_dst[xi] >= 0) st[x_dst[xi]] = to_acc(xr[xi]);
            }
        };

        A acc[MT][NT][4];
        zero_tiles(acc);

        int e_cur = 0, e_next = 0;                    // F16X3: -(s_w + s_x) of chunks ch, ch+1
        float ws_cur = 1.f, ws_next = 1.f;            // ... and their weight scales 2^s_w
        if constexpr (CPA) {
#pragma unroll
            for (int s = 0; s < STAGES - 1; ++s) {
                if (s < n_chunks) load(s, s);
                cp_async_commit();                    // empty groups keep the count uniform
            }
            if constexpr (F16X3) {                    // chunks 0, 1 measured, 0 split
                cp_async_wait<STAGES - 3>();
                chunk_max(0, emax[0]);
                if (n_chunks > 1) chunk_max(1, emax[1]);
                __syncthreads();
                split_chunk(0, emax[0], ws_next, e_next);
            }
        } else {
            fetch(0);
            commit(0);
        }
        int buf = 0, fill = STAGES - 1;               // stages of chunk ch and ch + STAGES - 1
        for (int ch = 0; ch < n_chunks; ++ch) {
            if constexpr (F16X3) {
                // Two chunks of lag, so nothing but the barrier separates two chunks' MMAs:
                // chunk ch was split an iteration ago, chunk ch+1 measured (both visible
                // after this barrier); now chunk ch+1 is split and chunk ch+2 (this
                // thread's part, landed) measured, while the other warps compute.
                __syncthreads();                      // ... and stage ch-1 is free
                if (tid == 0) emax[ch % 3][0] = emax[ch % 3][1] = 0;   // read before it
                const int next = buf == STAGES - 1 ? 0 : buf + 1;
                e_cur = e_next;
                ws_cur = ws_next;
                if (ch + 1 < n_chunks) split_chunk(next, emax[(ch + 1) % 3], ws_next, e_next);
                if (ch + STAGES - 1 < n_chunks) load(ch + STAGES - 1, fill);
                cp_async_commit();
                fill = fill == STAGES - 1 ? 0 : fill + 1;
                if (ch + 2 < n_chunks) {
                    cp_async_wait<STAGES - 3>();
                    chunk_max(next == STAGES - 1 ? 0 : next + 1, emax[(ch + 2) % 3]);
                }
            } else if constexpr (CPA) {
                cp_async_wait<STAGES - 2>();          // chunk ch has landed (this thread's part)
                __syncthreads();                      // ... everyone's; stage ch-1 is free
                if (ch + STAGES - 1 < n_chunks) load(ch + STAGES - 1, fill);
                cp_async_commit();
                fill = fill == STAGES - 1 ? 0 : fill + 1;
            } else {
                __syncthreads();                      // chunk ch is staged; the other stage is free
                if (ch + 1 < n_chunks) fetch(ch + 1);
            }

            const E* st = ring + buf * STAGE;
            buf = buf == STAGES - 1 ? 0 : buf + 1;
            // float32: products start from zero every FLUSH k-steps (small terms first) and
            // join the running sum through a rounded add: the tensor cores truncate when
            // they accumulate, so the error would otherwise grow with the reduction length.
            // float16/bfloat16 products are exact in float32: one MMA per product, straight
            // into the sums (the truncation, 2^-23 per k-step, is far below the 16-bit result).
            float t[MT][NT][4];
#pragma unroll
            for (int j = 0; j < MAXT; ++j) {
                if (!UNIFORM && j >= ntaps) break;
                const E* wk = st + a_off[j];
                const E* xk = st + b_off[j];
                if constexpr (F16X3) {
                    const unsigned* xh = reinterpret_cast<const unsigned*>(xk);
#pragma unroll
                    for (int kc = 0; kc < CK / 16; ++kc) {
                        const int step = j * (CK / 16) + kc;
                        if (step % 2 == 0) zero_tiles(t);
                        // A: rows gq, gq+8 x channels (2tq, 2tq+1), (2tq+8, 2tq+9), scaled and
                        // split into float16 hi and lo operands
                        uint4 ah[MT], al[MT];
#pragma unroll
                        for (int mt = 0; mt < MT; ++mt) {
                            const float* a = wk + kc * 16 * WP + mt * 16 * KP;
                            f16x2_split(a[0] * ws_cur, a[WP] * ws_cur, ah[mt].x, al[mt].x);
                            f16x2_split(a[8 * KP] * ws_cur, a[WP + 8 * KP] * ws_cur, ah[mt].y, al[mt].y);
                            f16x2_split(a[8 * WP] * ws_cur, a[9 * WP] * ws_cur, ah[mt].z, al[mt].z);
                            f16x2_split(a[8 * WP + 8 * KP] * ws_cur, a[9 * WP + 8 * KP] * ws_cur,
                                        ah[mt].w, al[mt].w);
                        }
#pragma unroll
                        for (int nt = 0; nt < NT; ++nt) {
                            const unsigned* b = xh + kc * 16 * XP + nt * 8;
                            const unsigned bh0 = b[0], bh1 = b[8 * XP], bl0 = b[XP], bl1 = b[9 * XP];
#pragma unroll
                            for (int mt = 0; mt < MT; ++mt) {  // small terms first
                                mma_f16(t[mt][nt], al[mt], bh0, bh1);
                                mma_f16(t[mt][nt], ah[mt], bl0, bl1);
                                mma_f16(t[mt][nt], ah[mt], bh0, bh1);
                            }
                        }
                        const bool last = UNIFORM ? step == MAXT * (CK / 16) - 1
                                                  : (kc == CK / 16 - 1 && j + 1 >= ntaps);
                        if (step % 2 == 1 || last) {
                            // the products carry 2^(s_w + s_x): one exact power of two when
                            // 2^e_cur is a normal float, else two (values near the range ends)
                            if (e_cur >= -126 && e_cur <= 127) {       // block-uniform
                                fma_tiles(acc, t, pow2(e_cur));
                            } else {
                                scale_tiles(t, pow2(e_cur / 2));
                                fma_tiles(acc, t, pow2(e_cur - e_cur / 2));
                            }
                        }
                    }
                } else if constexpr (!CPA) {
                    // 16-bit, one MMA per product. P16: k16 steps over pair rows 8kc + tq
                    // (channels 2tq, 2tq+1) and + 4 (2tq+8, 2tq+9), m16n8k16 MMAs of T;
                    // else k8 steps over widened floats (rows kc + tq, + 4), TF32 MMAs. A
                    // step reads the same words either way.
                    const unsigned* wu = reinterpret_cast<const unsigned*>(wk);
                    const unsigned* xu = reinterpret_cast<const unsigned*>(xk);
#pragma unroll
                    for (int kc = 0; kc < CK / (P16 ? 16 : 8); ++kc) {
                        unsigned b[NT][2];
#pragma unroll
                        for (int nt = 0; nt < NT; ++nt) {
                            b[nt][0] = xu[kc * 8 * XP + nt * 8];
                            b[nt][1] = xu[(kc * 8 + 4) * XP + nt * 8];
                        }
#pragma unroll
                        for (int mt = 0; mt < MT; ++mt) {
                            const unsigned* a = wu + kc * 8 * WP + mt * 16 * KP;
                            const uint4 av = make_uint4(a[0], a[8 * KP], a[4 * WP], a[4 * WP + 8 * KP]);
#pragma unroll
                            for (int nt = 0; nt < NT; ++nt) {
                                if constexpr (P16) mma_k16<T>(acc[mt][nt], av, b[nt][0], b[nt][1]);
                                else mma_tf32(acc[mt][nt], av, b[nt][0], b[nt][1]);
                            }
                        }
                    }
                } else if constexpr (F64) {
                    // the MMA fragments' C elements, one input channel at a time: weights of
                    // rows gq, gq+8 of each m16 tile, x of columns 2tq, 2tq+1 of each n8 tile
#pragma unroll
                    for (int c = 0; c < CK; ++c) {
                        double a[MT][2], b[NT][2];
#pragma unroll
                        for (int mt = 0; mt < MT; ++mt) {
                            a[mt][0] = wk[c * WP + mt * 16 * KP];
                            a[mt][1] = wk[c * WP + (mt * 16 + 8) * KP];
                        }
#pragma unroll
                        for (int nt = 0; nt < NT; ++nt) {
                            b[nt][0] = xk[c * XP + nt * 8];
                            b[nt][1] = xk[c * XP + nt * 8 + 1];
                        }
#pragma unroll
                        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                            for (int nt = 0; nt < NT; ++nt)
#pragma unroll
                                for (int q = 0; q < 4; ++q)
                                    acc[mt][nt][q] = fma(a[mt][q / 2], b[nt][q % 2], acc[mt][nt][q]);
                    }
                } else {
#pragma unroll
                    for (int kc8 = 0; kc8 < CK / 8; ++kc8) {
                        const int step = j * (CK / 8) + kc8;
                        if (step % FLUSH == 0) zero_tiles(t);
                        unsigned bh[NT][2], bl[NT][2];
#pragma unroll
                        for (int nt = 0; nt < NT; ++nt) {
                            split(xk[kc8 * 8 * XP + nt * 8], bh[nt][0], bl[nt][0]);
                            split(xk[(kc8 * 8 + 4) * XP + nt * 8], bh[nt][1], bl[nt][1]);
                        }
#pragma unroll
                        for (int mt = 0; mt < MT; ++mt) {
                            const float* a = wk + kc8 * 8 * WP + mt * 16 * KP;
                            uint4 ah, al;
                            split(a[0], ah.x, al.x);                       // (co,    ci)
                            split(a[8 * KP], ah.y, al.y);                  // (co+8,  ci)
                            split(a[4 * WP], ah.z, al.z);                  // (co,    ci+4)
                            split(a[4 * WP + 8 * KP], ah.w, al.w);         // (co+8,  ci+4)
#pragma unroll
                            for (int nt = 0; nt < NT; ++nt) {
                                mma_tf32(t[mt][nt], al, bh[nt][0], bh[nt][1]);
                                mma_tf32(t[mt][nt], ah, bl[nt][0], bl[nt][1]);
                                mma_tf32(t[mt][nt], ah, bh[nt][0], bh[nt][1]);
                            }
                        }
                        // flush after every FLUSH-th k-step and after the chunk's last
                        const bool last = UNIFORM ? step == MAXT * (CK / 8) - 1
                                                  : (kc8 == CK / 8 - 1 && j + 1 >= ntaps);
                        if ((step + 1) % FLUSH == 0 || last) {
#pragma unroll
                            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt)
#pragma unroll
                                    for (int q = 0; q < 4; ++q) acc[mt][nt][q] += t[mt][nt][q];
                        }
                    }
                }
            }
            if constexpr (!CPA) {
                if (ch + 1 < n_chunks) commit(buf);   // stage buf: chunk ch + 1's
            }
        }
        cp_async_wait<0>();
        __syncthreads();                              // the ring is free for the output tile
        // (each chunk's words were cleared in its own iteration already; the next tile's
        // blocks start from zero either way)
        if (F16X3 && tid < 6) emax[tid / 2][tid % 2] = 0;

        if constexpr (SPLIT > 1) {
            split_epilogue<T, S, D, K, MT, NT, THREADS, OUT_W, SPLIT>(
                acc, reinterpret_cast<float*>(smem_raw), co_w + gq, u_w + 2 * tq + dr, r, rank,
                co_n, pad_s, o0, L_out, bg, yb);
        } else {
            // class r into the tile: position (u - u0)*S + r
#pragma unroll
            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int row = co_w + mt * 16 + gq + 8 * h;
                    const A b = (bg != nullptr && row < co_n) ? to_acc(bg[row]) : A(0);
#pragma unroll
                    for (int nt = 0; nt < NT; ++nt) {
                        const int p = (u_w + nt * 8 + 2 * tq + dr) * S + r;
                        out_s[row * OP + p] = from_acc<T>(acc[mt][nt][2 * h] + b);
                        out_s[row * OP + p + S] = from_acc<T>(acc[mt][nt][2 * h + 1] + b);
                    }
                }
            __syncthreads();
            // Copy-out, coalesced along each row: tile column p holds class p mod S at
            // u = u0 + p div S (its i-th position, i = u - u0 - shift), written here iff
            // 0 <= i < NU; classes that no tap reaches hold the bias.
            for (int e = tid; e < co_n * OUT_W; e += THREADS) {
                const int row = e / OUT_W, p = e - row * OUT_W;
                const int rr = p % S, i = p / S - (rr < pad_s), o = o0 + p;
                if (i < 0 || i >= NU || o < 0 || o >= L_out) continue;
                T v;
                if (RL == S || class_taps(rr, S, D, K) > 0) {
                    v = out_s[row * OP + p];
                } else {
                    v = bg != nullptr ? bg[row] : from_acc<T>(A(0));
                }
                yb[(long long)row * L_out + o] = v;
            }
            __syncthreads();                          // out_s read before the next ring fill
        }
    }
}

template <typename T, int S, int D, int K, int MT, int NT, int WC, int WN, int CK, int STAGES,
          int MINB, bool F16X3_ON>
__global__ void __launch_bounds__(live_classes(S, D, K) * WC * WN * 32, MINB)
ct1d_gemm(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
          T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
          int u_first, int n_tiles, int n_offset)
{
    gemm_tiles<T, S, D, K, MT, NT, WC, WN, CK, STAGES, F16X3_ON, 1>(
        x, w, bias, y, C_in, C_out, groups, L_in, L_out, pad, u_first, n_tiles, n_offset);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Split reduction: clusters of SPLIT blocks (grid x = SPLIT x the tile blocks), each rank a
// share of the input channels, reduced through distributed shared memory (split_epilogue)
template <typename T, int S, int D, int K, int MT, int NT, int WC, int WN, int CK, int STAGES,
          int MINB, bool F16X3_ON, int SPLIT>
__global__ void __cluster_dims__(SPLIT, 1, 1)
__launch_bounds__(live_classes(S, D, K) * WC * WN * 32, MINB)
ct1d_gemm_split(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
                T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
                int u_first, int n_tiles, int n_offset)
{
    static_assert(SPLIT >= 2 && SPLIT <= 8, "a portable cluster holds at most 8 blocks");
    gemm_tiles<T, S, D, K, MT, NT, WC, WN, CK, STAGES, F16X3_ON, SPLIT>(
        x, w, bias, y, C_in, C_out, groups, L_in, L_out, pad, u_first, n_tiles, n_offset);
}
#endif
