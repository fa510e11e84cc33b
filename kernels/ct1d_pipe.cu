// Pipelined warpgroup transposed convolution for memory-bound float32 calls (sm_90a only).
//
// The same implicit GEMM as ct1d_mma's transposed warpgroup tiles (positions u as the
// MMA's M, (channel, class) pairs as its N, (column offset, input channel) as its
// reduction; BRIEF section 3):
//
//   y[co, u*S + r - P] = bias[co] + sum over c, ci of x[ci, u - c] * W[(c, ci), (co, r)]
//
// with W[(c, ci), (co, r)] = w[ci, co, k] for the tap k*D = c*S + r (zero where there is
// none; only offsets c and classes r that some tap reaches are kept). What differs is the
// data path, built so that every SM keeps reads and writes in flight all the time:
//
//   * each warpgroup is its own pipeline over a sequence of 64-position tiles, with a
//     ring of STAGES raw float32 x windows that 16-byte cp.async fill STAGES - 1 tiles
//     ahead (no registers held for loads in flight, no transposition);
//   * A (x) goes from the raw window straight into registers in the m16n8k16 fragment
//     layout, scaled per position (each GEMM row m has its own power of two, found by
//     two shuffles among the four lanes holding that row) and split into float16 hi and
//     lo parts there: wgmma reads A from registers, so x costs no operand shared memory
//     and no commit barrier;
//   * B (the weights, 3xFP16 hi and lo, one scale per block) is staged once per block;
//   * products: lo*hi, hi*lo, then hi*hi, one asynchronous chain per tile;
//   * each output lands at a fixed offset per thread (a column block of 8 holds whole
//     channels, or with 3, 5, 6 or 7 live classes 8 channels of one class) in one of
//     OUTBUF output buffers, each
//     row at its global address modulo 32 bytes, and leaves by bulk copies
//     (cp.async.bulk), which a later tile's epilogue waits for only when it needs that
//     buffer.
// Two barriers per tile, both named barriers of the warpgroup (the warpgroups of a block
// share only the weights). A tile's steps run one after another in its warpgroup (about
// 850 instructions per warp for a 64 -> 32 channel stride-2 tile, ~4.5 us per tile: the
// pipeline is latency-bound), so blocks take the most warpgroups that fit: the others
// fill the gaps (benchmarks/NOTES.md sessions 31-32). Or (WS, session 44) the block's
// warpgroups specialise: producers load x and split each tile's window once, in place,
// into float16 hi/lo units (one scale per tile); consumers run the products with A from
// shared memory, the epilogue and the copies; 2-7% faster where the reduction is long
// (9-16 k16 steps) or x narrow (<= 32 channels), and 12-40% on the H200 in blocks of 64
// output channels, whose windows are then loaded and split once for all 64
// (cupyconv._dispatch.pipe_ws_shapes, benchmarks/NOTES.md sessions 44-46).
//
// The dispatcher (cupyconv._dispatch.pipe_key, pipe_geometry) sends only calls that fit:
// float32, input channels per group a multiple of 16 up to 64, N = live classes x NCO <=
// 192; where a class gets no tap, its bias-only places must not move between tiles (L_out
// a multiple of 8 unless S divides 4, or with ANY_L channels per group a multiple of 8).
// Rows of y of any length (ANY_L) sit in out_s at a pitch equal to L_out modulo 8 floats,
// so that one shift per tile puts every row at its global address modulo 32 bytes; each
// row's bulk copy takes the whole 16-byte units of its part, its thread stores the up to
// 3 + 3 elements at the ends. x rows may start at any 4-byte alignment (4-byte copies
// then: x not 16-byte aligned, or L_in % 4 != 0); y is 16-byte aligned (the launcher's
// rule).
#include "ct1d_types.cuh"
#include "ct1d_tensor.cuh"
#include "ct1d_warpgroup.cuh"
#include "ct1d_wgmma_rs.cuh"
#include "ct1d_wgmma_ss.cuh"

// Timing ablations (benchmarks only; wrong results): 1 no wgmma, 2 no x loads, 3 no bulk
// copies, 4 no A build (raw x from constants), 5 no epilogue stores
#ifndef CT1D_PIPE_ABLATE
#define CT1D_PIPE_ABLATE 0
#endif
// Prologue: weight loads per thread in flight at once (1: 0.0434 -> 0.0456 ms on
// g16-512-k16-s8, 0.1112 -> 0.1145 on hifigan-u4-b16); 1 = the first tiles' x loads start
// before the weights where that helps (W_IN_OUT below)
#ifndef CT1D_PIPE_W_BATCH
#define CT1D_PIPE_W_BATCH 8
#endif
#ifndef CT1D_PIPE_EARLY_X
#define CT1D_PIPE_EARLY_X 1
#endif
// Epilogue: 1 = one multiply by the joint unscale factor where it is normal; 0 = always two
// (0: hifigan-u4-b4-long 0.1983 -> 0.2125 ms, g8-256-k8-s4 0.1156 -> 0.1207; session 32 run 4)
#ifndef CT1D_PIPE_JOINT_UNSCALE
#define CT1D_PIPE_JOINT_UNSCALE 1
#endif
// WS: a producer's x-window passes unrolled where a thread makes at least this many
// (64-channel windows: 10, the 32-channel ones 5); 0 = always, 99 = never
#ifndef CT1D_PIPE_WS_UNROLL
#define CT1D_PIPE_WS_UNROLL 8
#endif

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

namespace pipe {

__device__ __forceinline__ void bar_wg(int id) {          // the warpgroup's 128 threads
    asm volatile("bar.sync %0, 128;" :: "r"(id) : "memory");
}
// a producer and a consumer warpgroup (WS): one waits, the other passes on
__device__ __forceinline__ void bar_pair_wait(int id) {
    asm volatile("bar.sync %0, 256;" :: "r"(id) : "memory");
}
__device__ __forceinline__ void bar_pair_arrive(int id) {
    asm volatile("bar.arrive %0, 256;" :: "r"(id) : "memory");
}
// column offsets c in [0, CMAX] reached by some tap, and the i-th of them
__device__ constexpr bool offset_live(int c, int S, int D, int K) {
    for (int k = 0; k < K; ++k)
        if (k * D / S == c) return true;
    return false;
}
__device__ constexpr int live_offsets(int S, int D, int K) {
    int n = 0;
    for (int c = 0; c <= (K - 1) * D / S; ++c) n += offset_live(c, S, D, K);
    return n;
}
__device__ constexpr int live_offset(int i, int S, int D, int K) {
    for (int c = 0; c <= (K - 1) * D / S; ++c)
        if (offset_live(c, S, D, K) && i-- == 0) return c;
    return -1;
}

}  // namespace pipe

// Template parameters:
//   S, D, K   stride, dilation, kernel size
//   CI        input channels per group (a multiple of 16, <= 64)
//   NCO       output channels per block (16 or 32; WS: or 64)
//   WG        warpgroups per block (independent pipelines sharing the weights)
//   STAGES    x windows in each warpgroup's ring (1: the one window is refilled with the
//             next tile's as soon as the warpgroup has read it into registers, behind a
//             second barrier per tile, so that more warpgroups fit the shared memory)
//   OUTBUF    output buffers per warpgroup (2: a tile's epilogue waits for the copies of
//             the tile before the previous one; 1: of the previous one)
//   ANY_L     rows of y of any length (else L_out % 4 == 0: whole 16-byte units)
//   WS        0: as above. > 0: warp-specialised, WS producer warpgroups and WG consumer
//             warpgroups share one ring of STAGES x windows per block. A producer waits
//             for its tile's window, scales it by one power of two per tile (the window's
//             largest finite magnitude) and splits it in place into K-major float16 hi and
//             lo units; the consumer runs the products with A from shared memory (every
//             column offset through a descriptor started c units earlier), frees the
//             stage and runs the epilogue. Block tile i: stage i % STAGES, producer
//             i % WS, consumer i % WG; named barriers full[s] and empty[s] pair them. The
//             A build (~400 instructions a tile) and the products/epilogue then run on
//             different warps at once.
// Grid: x = blocks per (group, channel tile) row, y = groups x channel tiles. A block's
// warpgroup q = blockIdx.x * WG + wg takes units q, q + gridDim.x * WG, ... of the
// n_items x n_t (batch item from n_offset, tile) sequence. Tile t covers the TO = S*U
// outputs [t*TO, (t+1)*TO) of every row, from positions u_base = t*U + e0 on (64
// computed, as many as needed used; cupyconv._dispatch.pipe_geometry).
template <int S, int D, int K, int CI, int NCO, int WG, int STAGES, int OUTBUF, bool ANY_L,
          int WS>
__global__ void __launch_bounds__((WG + WS) * 128, 1)
ct1d_pipe(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias,
          float* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
          int e0, int n_t, int n_offset, int n_items, int TO) {
    pdl_prologue();
    constexpr int CMAX = (K - 1) * D / S;
    constexpr int NOFF = pipe::live_offsets(S, D, K);
    constexpr int NCLS = live_classes(S, D, K);
    constexpr int N = NCO * NCLS;                     // GEMM columns (channel, class index):
    // n = co * NCLS + class where NCLS divides 8 (a column block of 8 holds whole channels),
    // else class-major, n = class * NCO + co (a block of 8 holds 8 channels of one class;
    // not everywhere: at S = 4 its epilogue stores would conflict 4-way, not 2-way)
    constexpr bool CLASS_MAJOR = 8 % NCLS != 0;
    constexpr int KD = NOFF * CI;                     // reduction: (offset index, ci)
    constexpr int KSTEPS = KD / 16;
    constexpr int CSTEPS = CI / 16;                   // k16 steps per offset
    constexpr int W4 = (67 + CMAX + 3) / 4 * 4;       // window: positions [0, off0 + CMAX + 64)
    constexpr int XP = (W4 + 11) / 16 * 16 + 4;       // row pitch = 4 mod 16 words: conflict-free A loads
    constexpr int XCH = W4 / 4;                       // 16-byte chunks per row
    constexpr int OP = pitch_8_mod_32(64 * S + 4);    // output row pitch (floats; + the shift below)
    constexpr int OP_MAX = ANY_L ? OP + 7 : OP;       // (ANY_L: + L_out mod 8)
    constexpr int TO_MAX = 64 * S;
    static_assert(CI % 16 == 0 && CI <= 64, "input channels per group: a multiple of 16, <= 64");
    static_assert(N % 16 == 0 && N <= 192, "N = classes x channels: a multiple of 16, <= 192");
    // (64: WS blocks only, whose consumers hold no A fragments; one channel tile where C_out
    // has 64 per group, so each x window is loaded and split once, not once per 32 channels)
    static_assert(NCO % 8 == 0 && (NCO <= 32 || (WS && NCO == 64)),
                  "NCO: 16 or 32, or 64 in WS blocks (8 and 24 untested)");
    constexpr int NT = (WG + WS) * 128;               // threads of the block
    // WS: named barriers 1 + WS + WG + 2 STAGES <= 16, stage i's producer and consumer fixed
    static_assert(!WS || (WS + WG + 2 * STAGES <= 15 && STAGES > WG + WS), "WS: named barriers, stages");
    constexpr int XW = 64 + CMAX;                     // WS: positions of a split window
    constexpr int XUNITS = CI / 8 * XW;               // its 16-byte units per half
    constexpr int XITER = (XUNITS + 127) / 128;       // units per producer thread

    extern __shared__ __align__(128) unsigned char smem[];
    // w_s: [hi/lo][KD/8][N] 16-byte units (8 k of one column n), the K-major core-matrix layout
    unsigned char* w_s = smem;
    constexpr int W_BYTES = 2 * KD * N * 2;
    float* x_all = reinterpret_cast<float*>(smem + W_BYTES);
    constexpr int X_FLOATS = STAGES * CI * XP;        // per warpgroup (WS: the block's one ring)
    float* o_all = x_all + (WS ? 1 : WG) * X_FLOATS;
    constexpr int O_FLOATS = OUTBUF * NCO * OP_MAX;   // per warpgroup
    float* bias_c = o_all + WG * O_FLOATS;            // [NCO]: the block's channels' bias
    unsigned* wmax = reinterpret_cast<unsigned*>(bias_c + NCO);
    unsigned* xmax_all = wmax + 4;                    // WS: [WS][4] the producers' warp
                                                      // maxima (16-byte aligned: read as a uint4)
    float* us_s = reinterpret_cast<float*>(xmax_all + 4 * WS);   // WS: [STAGES] unscale per tile

    const int tid = threadIdx.x;
    const BlockPlace b = block_place(C_in, C_out, groups, NCO, n_offset);
    const int U = TO / S;                             // positions per tile
    const bool has_bias = bias != nullptr;
    // A row's part of a tile sits in out_s at its global address modulo 32 bytes (bulk
    // copies with source and destination 16 bytes apart modulo 32 run 1.6x slower,
    // benchmarks/NOTES.md session 11): shifted by 4 floats where tile start o0 or the row
    // (L_out = 4 mod 8: every other row) is 16 bytes off. ANY_L: row co at co*op, op = L_out
    // mod 8, and every row shifted by the block's first row's sh (Tile)
    const bool rows_alternate = !ANY_L && L_out % 8 != 0;
    const int op = ANY_L ? OP + (L_out & 7) : OP;

    // ---- the warpgroup's pipeline: its tiles, their x windows
    // (the warp and warpgroup indices broadcast from lane 0, so that the compiler knows them
    // warp-uniform: up-64-64-s3 0.2515 -> 0.2380 ms, sd-s2d2k3-c64 0.4181 -> 0.3913, the
    // others within +-2%; benchmarks/results/2026-12-04-session36/run_3/ab_copies.txt)
    // (WS: producers first, then consumers; wg indexes the warpgroup's role)
    const int wgi = __shfl_sync(0xffffffffu, tid / 128, 0), wl = tid % 128;
    const bool producer = WS && wgi < WS;
    const int wg = WS && !producer ? wgi - WS : wgi;
    // the warpgroup's own barrier (computed where used: as a register, 16 more spilled bytes)
#define bar_own (1 + (WS && !producer ? WS + wg : wg))
    constexpr int BAR_FULL = 1 + WS + WG, BAR_EMPTY = BAR_FULL + STAGES;    // (WS)
    const int warp = __shfl_sync(0xffffffffu, wl / 32, 0), lane = tid % 32;
    const int g = lane / 4, tq = lane % 4;
    float* x_s = x_all + (WS ? 0 : wg * X_FLOATS);
    float* o_s = o_all + wg * O_FLOATS;
    // WS: the block's tiles i = 0, 1, ... are units blockIdx.x + i * gridDim.x
    const int q = WS ? blockIdx.x : blockIdx.x * WG + wg, Q = WS ? gridDim.x : gridDim.x * WG;
    const float* xg = x + (long long)b.g * b.cig * L_in;       // + item * C_in * L_in
    float* yg = y + ((long long)b.g * b.cog + b.co_base) * L_out;

    // The warpgroup's tiles are units q, q + Q, ... of the n_items x n_t (batch item, tile)
    // sequence; a cursor steps through them without dividing (Q = Qd rows and Qm tiles)
    // (WS: each role steps through its own tiles of the block's, the producer's every WS-th
    // from tile wg on, the consumer's every WG-th)
    const int first_i = WS ? wg : 0, q_first = WS ? q + first_i * Q : q;
    const int Q_own = WS ? (producer ? WS : WG) * Q : Q;
    struct Unit { int item, t; };                     // batch item from b.n on, tile of the row
    const int Qd = Q_own / n_t, Qm = Q_own % n_t;
    auto advance = [&](Unit u) {
        u.item += Qd;
        u.t += Qm;
        if (u.t >= n_t) { u.t -= n_t; ++u.item; }
        return u;
    };
    const Unit first = {q_first / n_t, q_first % n_t};
    // a tile: batch item, tile t of the row, its first output, where its window starts
    // below u_base - CMAX, whether its rows sit 16 bytes off in out_s (ANY_L: the shift
    // sh of its rows in out_s, the block's first row's global index)
    struct Tile { long long item, row0; int t, o0, off0, flip, sh; };
    auto tile_of = [&](Unit u) {
        Tile T;
        T.item = b.n + u.item;
        T.t = u.t;
        T.o0 = T.t * TO;
        T.off0 = (T.t * U + e0 - CMAX) & 3;
        T.row0 = T.item * C_out + (long long)b.g * b.cog + b.co_base;
        T.flip = ((T.o0 >> 2) ^ (rows_alternate ? (int)(T.row0 & 1) : 0)) & 1;
        T.sh = ANY_L ? ((int)(T.row0 & 7) * (L_out & 7) + T.o0) & 7 : 0;
        return T;
    };
    // where row co of a tile starts in its output buffer, past co * op
    auto row_shift = [&](const Tile& T, int co) {
        return ANY_L ? T.sh : 4 * (T.flip ^ (rows_alternate ? co & 1 : 0));
    };
    // x in 16-byte copies where its rows are 16-byte aligned, else in 4-byte ones
    const bool x_vec = (reinterpret_cast<unsigned long long>(x) & 15) == 0 && L_in % 4 == 0;
    // A window's CI x XCH 16-byte chunks: thread wl copies chunk column cj of channel rows
    // cr, cr + RPP, ...; the column's bounds test and the row addresses are per tile, not
    // per chunk (per-chunk index and 64-bit address arithmetic cost ~30 instructions each)
    constexpr int RPP = 128 / XCH;                    // channel rows per pass
    constexpr int PASSES = (CI + RPP - 1) / RPP;
    const int cj = wl % XCH, cr = wl / XCH;
    const long long x_pass = (long long)RPP * L_in;
    // WS: a 64-channel producer's passes unrolled (rolled, ~10 instructions per 16-byte copy:
    // a third of its stall samples, results/2026-12-05-session45/run_2; unrolled in the
    // 32-channel 2+2 blocks, sd-s2d1k7 0.167 -> 0.188 ms, run_3); the other blocks rolled
    // (plain 64-channel warpgroups unrolled: 4-12% slower, results/2026-12-05-session47/run_6)
    constexpr int X_UNROLL = WS && PASSES >= CT1D_PIPE_WS_UNROLL ? PASSES : 1;
    auto load_tile = [&](Unit un, int stage) {        // a tile's x window into a ring stage
        if (un.item < n_items && cr < RPP) {
            const int u = ((un.t * U + e0 - CMAX) & ~3) + 4 * cj;   // (from a 16-byte unit on)
            const bool in = u >= 0 && u < L_in;       // (wholly, for 16-byte copies)
            const float* src = xg + ((b.n + un.item) * (long long)C_in + cr) * L_in + (in ? u : 0);
            float* dst = x_s + stage * CI * XP + cr * XP + 4 * cj;
            auto rows = [&](auto copy) {              // (one loop per copy width: no dead copies)
#pragma unroll (X_UNROLL)
                for (int p = 0; p < PASSES; ++p, src += x_pass)
                    if (cr + p * RPP < CI && CT1D_PIPE_ABLATE != 2) copy(dst + p * RPP * XP, src, in);
            };
            if (x_vec) {
                rows([](float* d, const float* sp, bool in) { cp_async16(d, sp, in ? 16 : 0); });
            } else {
                rows([&](float* d, const float* sp, bool in) {   // (a row's last chunk: in part)
#pragma unroll
                    for (int v = 0; v < 4; ++v) {
                        const bool ok = in && u + v < L_in;
                        cp_async4(d + v, ok ? sp + v : sp, ok ? 4 : 0);
                    }
                });
            }
        }
        cp_async_commit();                            // (an empty group past the end)
    };
    Unit next_load = first;
    auto load_next = [&](int stage) {
        load_tile(next_load, stage);
        next_load = advance(next_load);
    };
    // ---- weights: raw where the output buffers go when they fit there and take a thread
    // more than one batch of loads (the first tiles' x loads are then in flight during this
    // prologue; behind a single batch they only delay it: up-16-16-s8 0.0649 -> 0.0674 ms,
    // hifigan-u4-b16 0.1112 -> 0.1064, results/2026-12-03-session32/run_2), else in the x
    // ring, the x loads after
    constexpr bool W_IN_OUT = CT1D_PIPE_EARLY_X && KD * N <= WG * O_FLOATS
                              && KD * N > CT1D_PIPE_W_BATCH * NT;
    float* w_raw = W_IN_OUT ? o_all : x_all;          // KD x N floats (host checks the room)
    constexpr int AHEAD = STAGES > 1 ? STAGES - 1 : 1;    // tiles loaded before the first
    // WS: a producer's own tiles loaded ahead of the one it splits (the stages left once
    // the consumers' tiles and the producers' own are counted)
    constexpr int WS1 = WS > 0 ? WS : 1;
    constexpr int AP = (STAGES - WG - WS) / WS1 > 1 ? (STAGES - WG - WS) / WS1 : 1;
    auto first_loads = [&]() {
        if (!WS)
            for (int i = 0; i < AHEAD; ++i) load_next(i);
        else if (producer)
            for (int k = 0; k < AP; ++k) load_next((first_i + k * WS) % STAGES);
    };
    if (W_IN_OUT) first_loads();
    if (tid == 0) *wmax = 0;
    __syncthreads();
    unsigned m = 0;
    batched_loads<CT1D_PIPE_W_BATCH>(KD * N, tid, NT, [&](int e) {
        const int kd = e / N, n = e % N;
        const int oi = kd / CI, ci = kd % CI;
        const int co = CLASS_MAJOR ? n % NCO : n / NCLS, ri = CLASS_MAJOR ? n / NCO : n % NCLS;
        int c = 0, r = 0;
#pragma unroll
        for (int i = 0; i < NOFF; ++i) if (i == oi) c = pipe::live_offset(i, S, D, K);
#pragma unroll
        for (int i = 0; i < NCLS; ++i) if (i == ri) r = live_class(i, S, D, K);
        const int kD = c * S + r;
        return kD % D == 0 && kD / D < K && co < b.co_n
            ? w[((long long)(b.g * b.cig + ci) * b.cog + b.co_base + co) * K + kD / D] : 0.f;
    }, [&](int e, float v) {
        w_raw[e] = v;
        m = max(m, finite_exp(v));
    });
    atomicMax(wmax, m);
    __syncthreads();
    const int sw = f16_scale_exp(*wmax);
    const float scale_w = pow2(sw), unscale_w = pow2(-sw);
    for (int e = tid; e < KD * N / 2; e += NT) {     // pairs (kd, kd + 1) of one column
        const int n = e % N, kd = e / N * 2;
        unsigned hi, lo;
        f16x2_split(w_raw[kd * N + n] * scale_w, w_raw[(kd + 1) * N + n] * scale_w, hi, lo);
        const int unit = (kd / 8) * N + n, half = kd % 8;  // 16-byte unit, its 2-byte slot
        *reinterpret_cast<unsigned*>(w_s + unit * 16 + half * 2) = hi;
        *reinterpret_cast<unsigned*>(w_s + KD * N * 2 + unit * 16 + half * 2) = lo;
    }
    for (int co = tid; co < NCO; co += NT)
        bias_c[co] = has_bias && co < b.co_n ? bias[(long long)b.g * b.cog + b.co_base + co] : 0.f;
    __syncthreads();                                  // w_raw read, bias_c written
    // classes no tap reaches hold the bias, at the same places in every tile: both
    // output buffers of every warpgroup, once
    // (with either shift: the dispatcher shifts tiles only by multiples of 4, and by 4 only
    // where S divides 4, if a class is dead)
    for (int e = tid; NCLS < S && e < WG * OUTBUF * NCO * (TO_MAX + 4); e += NT) {
        const int buf = e / (NCO * (TO_MAX + 4)), co = e / (TO_MAX + 4) % NCO, o = e % (TO_MAX + 4);
        const int r = ((o - e0 * S + pad) % S + S) % S;
        if (class_taps(r, S, D, K) == 0 && o < TO + 4)       // (warpgroup buf / OUTBUF)
            o_all[buf / OUTBUF * O_FLOATS + buf % OUTBUF * NCO * op + co * op + o] =
                has_bias && co < b.co_n ? bias[(long long)b.g * b.cog + b.co_base + co] : 0.f;
    }
    fence_proxy_async();                              // w_s and the bias rows: async proxy
    __syncthreads();

    if (!W_IN_OUT) first_loads();

    // tile i's x has landed (every thread's part), the copies of tile i - OUTBUF have read
    // the buffer tile i's epilogue writes, every thread has built tile i - 1's A: then
    // tile i + STAGES - 1's loads go to the stage tile i - 1 used (STAGES 1: see build)
    auto top = [&](int i) {
        cp_async_wait<AHEAD - 1>();
        bulk_wait_read<OUTBUF - 1>();
        pipe::bar_wg(bar_own);
        if (STAGES > 1) load_next((i + STAGES - 1) % STAGES);
    };
    const int m0 = 16 * warp + g;
    // A: rows m0 = 16 warp + g and m0 + 8; k = 2tq, 2tq + 1, 2tq + 8, 2tq + 9 of each step
    auto build = [&](int i, const Tile& T, unsigned (&ahi)[KSTEPS][4], unsigned (&alo)[KSTEPS][4],
                     float& us0, float& us1) {
        const float* xw = x_s + (i % STAGES) * CI * XP;
        float raw[KSTEPS][8];
        float mx0 = 0.f, mx1 = 0.f;
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) {
            const int c = pipe::live_offset(s / CSTEPS, S, D, K);
            const int ci = (s % CSTEPS) * 16 + 2 * tq;
            const float* p = xw + ci * XP + m0 - c + CMAX + T.off0;
            if (CT1D_PIPE_ABLATE == 4) {
#pragma unroll
                for (int v = 0; v < 8; ++v) raw[s][v] = (float)(v + s + ci);
                continue;
            }
            raw[s][0] = p[0];            raw[s][1] = p[XP];             // row m0, k 2tq, 2tq+1
            raw[s][2] = p[8];            raw[s][3] = p[XP + 8];         // row m0+8
            raw[s][4] = p[8 * XP];       raw[s][5] = p[9 * XP];         // row m0, k 2tq+8, +9
            raw[s][6] = p[8 * XP + 8];   raw[s][7] = p[9 * XP + 8];     // row m0+8
            mx0 = fmaxf(mx0, fmaxf(fmaxf(fabsf(raw[s][0]), fabsf(raw[s][1])),
                                   fmaxf(fabsf(raw[s][4]), fabsf(raw[s][5]))));
            mx1 = fmaxf(mx1, fmaxf(fmaxf(fabsf(raw[s][2]), fabsf(raw[s][3])),
                                   fmaxf(fabsf(raw[s][6]), fabsf(raw[s][7]))));
        }
        if (STAGES == 1) {                            // every thread has read the window
            pipe::bar_wg(bar_own);
            load_next(0);
        }
        // the row's other k live in the lanes of the same g
        mx0 = fmaxf(mx0, __shfl_xor_sync(0xffffffffu, mx0, 1));
        mx0 = fmaxf(mx0, __shfl_xor_sync(0xffffffffu, mx0, 2));
        mx1 = fmaxf(mx1, __shfl_xor_sync(0xffffffffu, mx1, 1));
        mx1 = fmaxf(mx1, __shfl_xor_sync(0xffffffffu, mx1, 2));
        const int s0 = f16_scale_exp(finite_exp(mx0)), s1 = f16_scale_exp(finite_exp(mx1));
        const float sc0 = pow2(s0), sc1 = pow2(s1);
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) {
            f16x2_split(raw[s][0] * sc0, raw[s][1] * sc0, ahi[s][0], alo[s][0]);
            f16x2_split(raw[s][2] * sc1, raw[s][3] * sc1, ahi[s][1], alo[s][1]);
            f16x2_split(raw[s][4] * sc0, raw[s][5] * sc0, ahi[s][2], alo[s][2]);
            f16x2_split(raw[s][6] * sc1, raw[s][7] * sc1, ahi[s][3], alo[s][3]);
        }
        // unscaled by the weights' factor and the row's (the epilogue: one multiply by their
        // product where it is normal, else two: -ftz flushes 2^-(s0 + sw) below 2^-126)
        us0 = pow2(-s0);
        us1 = pow2(-s1);
    };
    // products, small ones first: lo*hi, hi*lo, hi*hi; one commit group
    const unsigned char* wb = w_s;
    auto bdesc = [&](int part, int s) {
        return smem_desc(wb + part * KD * N * 2 + (2 * s) * N * 16, N * 16, 128, 0);
    };
    auto issue = [&](const unsigned (&ahi)[KSTEPS][4], const unsigned (&alo)[KSTEPS][4], float (&d)[N / 2]) {
        wgmma_fence();
        if (CT1D_PIPE_ABLATE == 1) {
#pragma unroll
            for (int v = 0; v < N / 2; ++v) d[v] = __uint_as_float(ahi[v % KSTEPS][v % 4] ^ alo[v % KSTEPS][(v + 1) % 4]);
        } else {
#pragma unroll
            for (int s = 0; s < KSTEPS; ++s) WgmmaRs<N>::mma(d, alo[s], bdesc(0, s), s > 0);
#pragma unroll
            for (int s = 0; s < KSTEPS; ++s) WgmmaRs<N>::mma(d, ahi[s], bdesc(1, s), 1);
#pragma unroll
            for (int s = 0; s < KSTEPS; ++s) WgmmaRs<N>::mma(d, ahi[s], bdesc(0, s), 1);
        }
        wgmma_commit();
    };
    // WS: block tile i's window (stage i % STAGES, from the tile's off0 on) scaled by the
    // power of two that brings its largest finite magnitude into float16's range and split
    // in place into hi and lo units (its unscale factor to us_s). Unit u = (channel group
    // u / XW, position u % XW) at byte 16u of each half: a warp's loads are consecutive
    // words of a row, its stores consecutive 16-byte units (conflict-free)
    auto stage_bytes = [&](int i) {
        return reinterpret_cast<unsigned char*>(x_all + (i % STAGES) * CI * XP);
    };
    unsigned* xmax_w = xmax_all + 4 * wg;
    auto split = [&](int i, const Tile& T) {
        const float* xw = x_all + (i % STAGES) * CI * XP + T.off0;
        unsigned char* xs_hi = stage_bytes(i);
        unsigned char* xs_lo = xs_hi + XUNITS * 16;
        float v[XITER][8];
        float mx = 0.f;                               // (fmaxf passes NaN by)
#pragma unroll
        for (int it = 0; it < XITER; ++it) {
            const int u = wl + 128 * it, g = u / XW, p = u % XW;
            const bool ok = (it + 1) * 128 <= XUNITS || u < XUNITS;
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                v[it][j] = ok ? xw[(8 * g + j) * XP + p] : 0.f;
                mx = fmaxf(mx, fabsf(v[it][j]));
            }
        }
        if (mx > 3.40282347e38f) {                    // an infinity: the largest finite value
            mx = 0.f;
#pragma unroll
            for (int it = 0; it < XITER; ++it)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    if (fabsf(v[it][j]) <= 3.40282347e38f) mx = fmaxf(mx, fabsf(v[it][j]));
        }
        const unsigned m = __reduce_max_sync(0xffffffffu, __float_as_uint(mx));
        if (lane == 0) xmax_w[warp] = m;
        pipe::bar_wg(bar_own);                        // every thread has read the window
        const uint4 mm = *reinterpret_cast<const uint4*>(xmax_w);
        const int sx = f16_scale_exp(max(max(mm.x, mm.y), max(mm.z, mm.w)) & 0x7f800000u);
        const float sc = pow2(sx);
#pragma unroll
        for (int it = 0; it < XITER; ++it) {
            const int u = wl + 128 * it;
            if ((it + 1) * 128 <= XUNITS || u < XUNITS) {
                uint4 hi, lo;
                f16x2_split(v[it][0] * sc, v[it][1] * sc, hi.x, lo.x);
                f16x2_split(v[it][2] * sc, v[it][3] * sc, hi.y, lo.y);
                f16x2_split(v[it][4] * sc, v[it][5] * sc, hi.z, lo.z);
                f16x2_split(v[it][6] * sc, v[it][7] * sc, hi.w, lo.w);
                *reinterpret_cast<uint4*>(xs_hi + 16 * u) = hi;
                *reinterpret_cast<uint4*>(xs_lo + 16 * u) = lo;
            }
        }
        if (wl == 0) us_s[i % STAGES] = pow2(-sx);
        fence_proxy_async();                          // the units: read by the tensor cores
    };
    // WS: A of k16 step s (offset index s / CSTEPS, channels 16 (s % CSTEPS) on): GEMM row m
    // reads position m + CMAX - c of the split window; the step's two 8-channel groups XW
    // units apart. A descriptor's address field counts 16-byte units (shared memory < 256
    // KB: no carry), so each step's is the window's plus a constant
    auto adesc = [&](unsigned long long half, int s) {
        return half + (2 * (s % CSTEPS) * XW + CMAX - pipe::live_offset(s / CSTEPS, S, D, K));
    };
    auto issue_ss = [&](int i, float (&d)[N / 2]) {
        const unsigned long long a_hi = smem_desc(stage_bytes(i), XW * 16, 128, 0), a_lo = a_hi + XUNITS;
        wgmma_fence();
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) WgmmaSs<N>::mma(d, adesc(a_lo, s), bdesc(0, s), s > 0);
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) WgmmaSs<N>::mma(d, adesc(a_hi, s), bdesc(1, s), 1);
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) WgmmaSs<N>::mma(d, adesc(a_hi, s), bdesc(0, s), 1);
        wgmma_commit();
    };
    // epilogue of tile i (its products done): d[4j + 2h + e] is row m0 + 8h, column
    // n = 8j + 2tq + e, i.e. (NCLS | 8) channel co = j*8/NCLS + (2tq + e)/NCLS of class
    // index (2tq + e) % NCLS, or (class-major) channel 8j % NCO + 2tq + e of class index
    // 8j / NCO: each thread's places in out_s are fixed offsets from two bases (e = 0, 1),
    // and which of its rows m0, m0 + 8 a tile keeps never changes (per e, resp. per class)
    auto class_r = [](int ri) {                       // the class of class index ri
        int r = 0;
#pragma unroll
        for (int i = 0; i < NCLS; ++i) if (i == ri) r = live_class(i, S, D, K);
        return r;
    };
    const int loc0 = e0 * S - pad;                    // local output of position 0, class 0
    auto place0 = [&](int ri) { return loc0 + class_r(ri); };
    constexpr int NKEEP = CLASS_MAJOR ? NCLS : 2;
    int base[2];
    bool keep[2][NKEEP];
#pragma unroll
    for (int e = 0; e < 2; ++e) {
        const int cl = 2 * tq + e;
        base[e] = CLASS_MAJOR ? cl * op + m0 * S + loc0 : cl / NCLS * op + m0 * S + place0(cl % NCLS);
    }
#pragma unroll
    for (int k = 0; k < NKEEP; ++k)
#pragma unroll
        for (int h = 0; h < 2; ++h)
            keep[h][k] = (unsigned)((m0 + 8 * h) * S + place0(CLASS_MAJOR ? k : (2 * tq + k) % NCLS)) < (unsigned)TO;
    constexpr int JCO = CLASS_MAJOR ? 1 : 8 / NCLS;   // (NCLS | 8) channels per column block of 8
    auto epilogue = [&](int i, const Tile& T, float (&d)[N / 2], float us0, float us1) {
        wgmma_fence_regs(d);
        float* ob = o_s + (i % OUTBUF) * NCO * op;
        auto store = [&](auto out) {                  // out(product, row h, bias)
#pragma unroll
            for (int j = 0; j < N / 8; ++j)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int cls = 8 * j / NCO;      // (class-major: this block's class index)
                    const int co = CLASS_MAJOR ? 8 * j % NCO + 2 * tq + e : j * JCO + (2 * tq + e) / NCLS;
                    const int at = CLASS_MAJOR ? 8 * j % NCO * op + class_r(cls) : j * JCO * op;
                    const float bn = bias_c[co];
                    const int shift = row_shift(T, co);
#pragma unroll
                    for (int h = 0; h < 2; ++h)
                        if (keep[h][CLASS_MAJOR ? cls : e] && (CT1D_PIPE_ABLATE != 5 || pad == -12345))
                            ob[base[e] + at + 8 * h * S + shift] = out(d[4 * j + 2 * h + e], h, bn);
                }
        };
        // unscaled by one multiply where the joint factor of weights and row is a normal
        // float32 for all the warp's rows (a product of powers of two: exact), else by two
        const float f0 = unscale_w * us0, f1 = unscale_w * us1;
        constexpr float LO = 1.17549435e-38f, HI = 3.40282347e38f;   // normal float32
        if (CT1D_PIPE_JOINT_UNSCALE && __all_sync(0xffffffffu, f0 >= LO && f0 <= HI && f1 >= LO && f1 <= HI))
            store([&](float v, int h, float bn) { return fmaf(v, h ? f1 : f0, bn); });
        else
            store([&](float v, int h, float bn) { return fmaf(v * unscale_w, h ? us1 : us0, bn); });
        fence_proxy_async();
        pipe::bar_wg(bar_own);
        const int co = (wl % 32) * 4 + wl / 32;
        if (co < NCO && co < b.co_n && CT1D_PIPE_ABLATE != 3) {
            float* dst = yg + (T.item * C_out + co) * (long long)L_out + T.o0;
            const float* src = ob + co * op + row_shift(T, co);
            const int n = min(TO, L_out - T.o0);
            if (!ANY_L) {
                bulk_store(dst, src, n * 4);
            } else {
                // the whole 16-byte units by a bulk copy, the up to 3 elements before and
                // after them by this thread (other tiles write the rest of those units)
                const int head = min(n, (int)(-((T.row0 + co) * L_out + T.o0) & 3));
                const int body = (n - head) & ~3;
                if (body > 0) bulk_store(dst + head, src + head, body * 4);
                for (int v = 0; v < head; ++v) __stcs(dst + v, src[v]);
                for (int v = head + body; v < n; ++v) __stcs(dst + v, src[v]);
            }
        }
        bulk_commit();
    };

    // (two tiles in flight per warpgroup, tile i's epilogue behind tile i + 1's products,
    // measured slower: benchmarks/NOTES.md session 31)
    if constexpr (WS > 0) {
        // whether a tile STAGES tiles later (its stage's next use) exists
        const int Rd = STAGES * Q / n_t, Rm = STAGES * Q % n_t;
        auto reused = [&](Unit u) { return u.item + Rd + (u.t + Rm >= n_t) < n_items; };
        if (producer) {
            // own tiles i = wg, wg + WS, ...; the loads of tile i + WS * AP go out first, into
            // the stage that tile i + WS * AP - STAGES's consumer has freed
            Unit un = first;
            for (int i = first_i; un.item < n_items; un = advance(un), i += WS) {
                const int j = i + WS * AP;
                if (j >= STAGES && next_load.item < n_items) pipe::bar_pair_wait(BAR_EMPTY + j % STAGES);
                load_next(j % STAGES);
                cp_async_wait<AP>();
                pipe::bar_wg(bar_own);                // tile i's window has landed
                split(i, tile_of(un));
                pipe::bar_pair_arrive(BAR_FULL + i % STAGES);
            }
        } else {
            float d[N / 2];
            Unit un = first;
            for (int i = first_i, k = 0; un.item < n_items; un = advance(un), i += WG, ++k) {
                const Tile T = tile_of(un);
                bulk_wait_read<OUTBUF - 1>();         // (the full barrier joins the warpgroup)
                pipe::bar_pair_wait(BAR_FULL + i % STAGES);
                const float us = us_s[i % STAGES];
                issue_ss(i, d);
                wgmma_wait<0>();
                if (reused(un)) pipe::bar_pair_arrive(BAR_EMPTY + i % STAGES);
                epilogue(k, T, d, us, us);
            }
        }
    } else {
        unsigned ahi[KSTEPS][4], alo[KSTEPS][4];
        float d[N / 2], us0, us1;
        int i = 0;
        for (Unit un = first; un.item < n_items; un = advance(un), ++i) {
            const Tile T = tile_of(un);
            top(i);
            build(i, T, ahi, alo, us0, us1);
            issue(ahi, alo, d);
            wgmma_wait<0>();
            epilogue(i, T, d, us0, us1);
        }
    }
    cp_async_wait<0>();
    bulk_wait_all();
}

#undef bar_own

#endif  // __CUDA_ARCH_FEAT_SM90_ALL
