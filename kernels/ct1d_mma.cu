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
//     keeps float32 accuracy (error ~2^-22 per product; each k-step's products are added
//     to the running sum in float32 with rounding, see the k loop);
//   * float16 and bfloat16 values are exactly representable in TF32, so one MMA per
//     product is exact (float32 accumulation) and their bits go to the MMA unconverted.
//
// Operands are staged in shared memory in MMA-operand order (one 16-byte load per weight
// fragment, one 8-byte load per x fragment) and split into TF32 halves in registers with
// integer rounding (2 instructions per half instead of cvt.rna's 4): the tensor and ALU
// pipes have room to spare, shared memory does not (benchmarks/NOTES.md).
//
// A block owns CO_T output channels x NU positions u of every class, i.e. S*NU consecutive
// output positions per channel, assembled in shared memory in the output type and stored
// once: by the bulk-copy engine on sm_90 (overlapping the next tile's MMAs), by 16-byte
// stores elsewhere. Consecutive tiles share OV positions so that each row's stores begin
// and end on 32-byte sectors (below). Each row of that tile sits in shared memory at the
// same offset modulo 32 bytes (SALIGN; 16 where tiles do not start whole 32-byte units
// apart) as in global memory, so the copy-out is aligned on both sides whatever L_out
// is. The positions of classes that no tap reaches hold the bias; they are the same in
// every tile and are written once per block.
//
// On sm_90a (WG_ON, the dispatcher's mma_warpgroup) the 64-channel x 128-position
// instances run the products on warpgroup MMA from shared memory instead of mma.sync
// from fragments: the same tile, staging and copy-out, with the warps freed from operand
// loads, splits and MMA issue (seed 0.53 -> 0.44 ms, benchmarks/NOTES.md session 11);
// 16-bit ones take 256 positions (two 64-position halves per warpgroup, 1 KB rows).
// Their blocks may take several batch items in turn (n_items; the launcher's grid z), so
// that one resident wave of blocks stages its weights once (session 13). Instances of 16
// or 32 channels (WM = 1, WN = 8) run transposed warpgroup tiles: the positions are the
// MMA's M (64 per wgmma), the channels its N (m64n16k16, m64n32k16), so no MMA row holds
// padding; same staging (the x units serve as A, the weight units as B) and copy-out
// (session 15: up-32-16-s2 0.277 -> 0.23 ms, sd-s4d3k5 0.160 -> 0.127). Where the taps
// group by column offset (K = 2S, D = 1: tap_group_size), those tiles run one wgmma per
// offset with the classes side by side along N instead of a chain per class (session 18:
// up-32-16-s2 0.233 -> 0.211 ms).
#include "ct1d_types.cuh"
#include "ct1d_tensor.cuh"
#include "ct1d_warpgroup.cuh"

// The tile's copy-out. On sm_90 the bulk-copy engine (TMA) moves each row's aligned middle
// from shared to global memory asynchronously, so the stores drain while the next tile
// computes; older GPUs use 16-byte stores. CT1D_BULK_STORE=0 forces the latter.
#ifndef CT1D_BULK_STORE
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CT1D_BULK_STORE 1
#else
#define CT1D_BULK_STORE 0
#endif
#endif

// (The bulk copies mark the output lines evict-first in L2: CT1D_BULK_EVICT_FIRST,
// ct1d_tensor.cuh)
// 1: out_s rows match their global addresses modulo 32 bytes where tiles allow (0: 16)
#ifndef CT1D_MMA_ROW_ALIGN32
#define CT1D_MMA_ROW_ALIGN32 1
#endif
// 1: the copy-out's rows go round-robin over the warps (0: thread tid takes row tid, for A/B)
#ifndef CT1D_MMA_SPREAD_ROWS
#define CT1D_MMA_SPREAD_ROWS 1
#endif
// Warpgroup path, float32: where a tile measures the next tile's maximum (its x loads were
// issued at the top of the tile, and the maximum waits for them): 1 = after the epilogue,
// 0 = right after the wgmma issue (seed 0.418 -> 0.414 ms; at the top of the next tile,
// behind a barrier of its own: 0.424)
#ifndef CT1D_MMA_XMAX
#define CT1D_MMA_XMAX 1
#endif
// Warpgroup item loop: 1 = a block's tiles run on across its items (tiles b, b + G, ...
// of the items' concatenated tile sequence, G = gridDim.x), so no block takes more than
// one tile above the average; 0 = each item's tiles b, b + G, ... restart at b, where the
// blocks b < n_tiles % G take an extra tile in every item
#ifndef CT1D_MMA_FLAT_ITEMS
#define CT1D_MMA_FLAT_ITEMS 1
#endif
// Warpgroup path: 1 = grid row z walks its tiles from n_tiles*z/gridDim.z on (wrapping),
// so the rows' concurrent windows sit at different offsets of their output rows; 2 = the
// same over all tiles but the last, which stays last in every row's walk: a row's last
// tile is its partial one, and the walk's last tiles are the ones the few blocks with a
// tile more than the others take (the bf16 seed: 2 of 33 blocks per grid row, whose extra
// tile was a full one wherever the rotation moved the partial one away). Measured equal
// (12 calls, 7 rounds each: bf16 seed 0.213 / 0.213 ms, up-32-16-s2 0.199 / 0.203;
// results/2026-12-03-session30/run_2/ab_rotate.txt), so 1 stays
#ifndef CT1D_MMA_ROTATE
#define CT1D_MMA_ROTATE 1
#endif
// Transposed warpgroup tiles: 1 = where the taps form groups by column offset
// (tap_group_size, K = 2S with D = 1), one wgmma per group with its classes side by side
// along N (half the wgmmas and x operand reads); 0 = a chain per class
#ifndef CT1D_MMA_WGT_GROUPS
#define CT1D_MMA_WGT_GROUPS 1
#endif
// ... also as m64n128k16 for groups of 8 classes x 16 channels (stride 8; 1 = on): g16-512-
// k16-s8 0.088 -> 0.076 ms. Groups of 4 x 32 channels stay ungrouped: bf16 up-32-32-s4
// 0.080 -> 0.098 (88 bytes spilled; results/2026-12-01-session19/ab_s8.txt, ab_bf16.txt)
#ifndef CT1D_MMA_WGT_N128
#define CT1D_MMA_WGT_N128 1
#endif
// Warpgroup path: each tile also asks L2 for the x window of the tile after the next (one
// bulk prefetch per channel row), so the next tile's loads of it hit L2. 1 = where that
// measured faster (X_PREFETCH in the kernel: 16-bit 64-channel tiles of 256 positions,
// bf16 seed 0.214 -> 0.212 ms, fp16 0.212 -> 0.208; float32 transposed tap-group tiles at
// stride 2, 3-9%: up-32-16-s2 0.211 -> 0.193; results/2026-12-02-session22/run_1), 0 =
// nowhere, 2 = every warpgroup tile (the float32 seed 3.6% and ungrouped transposed tiles
// 2-10% slower; benchmarks/NOTES.md, session 21). Staging x by the bulk-copy engine
// instead of the register loads lost (benchmarks/variants/ct1d_mma_x_bulk.patch)
#ifndef CT1D_MMA_X_PREFETCH
#define CT1D_MMA_X_PREFETCH 1
#endif
// ... for the tile this many tiles of the block's walk ahead: 2, the one after the next
// (3 and 4 measured slower: bf16 seed 0.224 -> 0.227 / 0.240 ms, up-32-16-s2 0.199 ->
// 0.214 / 0.228; an evict-last policy on the prefetch changed nothing; session 22)
#ifndef CT1D_MMA_X_PREFETCH_AHEAD
#define CT1D_MMA_X_PREFETCH_AHEAD 2
#endif
// ... and, for A/B runs, that distance plus (channel row mod (SKEW + 1)) per row, so that the
// rows of one window reach DRAM at different tiles (0 = every row AHEAD tiles ahead)
#ifndef CT1D_MMA_X_PREFETCH_SKEW
#define CT1D_MMA_X_PREFETCH_SKEW 0
#endif
// Diagnostics only (benchmarks/pitch_probe.py): x rows and y rows this many elements
// further apart than L_in and L_out (the caller's arrays padded so), to tell the cost of
// power-of-two row pitches from that of the length itself. 0 in the library
#ifndef CT1D_MMA_X_PITCH_PAD
#define CT1D_MMA_X_PITCH_PAD 0
#endif
#ifndef CT1D_MMA_Y_PITCH_PAD
#define CT1D_MMA_Y_PITCH_PAD 0
#endif
// Warpgroup path, float32 (3xFP16): the most k16 steps that one wgmma chain accumulates;
// longer chains run in equal segments added on the CUDA cores. The tensor cores truncate
// as they accumulate, about 2e-8 of error per step (24 steps in one chain: 5.0e-7,
// session 23); 16: 26-36-step chains 2.7-3.5e-7, and shorter segments spilled more on
// some instances (session 24). The dispatcher's MMA_WG_CHAIN_STEPS (tests/test_dispatch.py
// checks that they agree)
#ifndef CT1D_MMA_WG_CHAIN_STEPS
#define CT1D_MMA_WG_CHAIN_STEPS 16
#endif
// ... and chains of more than CT1D_MMA_WG_SPLIT_ABOVE steps in at least two: 13-16-step
// chains in two segments are more accurate (3.5e-7 -> 2.0e-7) and, with 64 staged channels,
// spill less and run 2-3% faster (sd-s2d4k4 0.155 -> 0.151 ms); 32 -> 32, K = 7, S = 1 lost
// 4% (0.113 -> 0.118), 8 taps equal (results/2026-12-02-session29/run_2). The dispatcher's
// MMA_WG_SPLIT_ABOVE; CT1D_MMA_WG_CHAIN_STEPS adds no split
#ifndef CT1D_MMA_WG_SPLIT_ABOVE
#define CT1D_MMA_WG_SPLIT_ABOVE 12
#endif
// Warpgroup path: 1 = a block reads its weights once, all of a thread's loads in flight
// at once (at most CT1D_MMA_W_ONCE_MAX), into shared memory that the tiles use later, and
// splits them from there; 0 = a pass for the maximum and one for the split, each in
// batches of 8 loads, the second reading channel pairs (one sector per element)
#ifndef CT1D_MMA_W_ONCE
#define CT1D_MMA_W_ONCE 1
#endif
#ifndef CT1D_MMA_W_ONCE_MAX
#define CT1D_MMA_W_ONCE_MAX 48
#endif
// ... in equal rounds of at most this many loads per thread: 24 keeps the seed's 24 in one
// round, and sd-s2d4k4's 32 in two rounds of 16 spill as little as the two passes (NVRTC
// 13.0 SASS: 18 LDL / 17 STL against 16 / 15; one round of 32: 29 / 25, 0.150 -> 0.158 ms;
// benchmarks/NOTES.md, session 28)
#ifndef CT1D_MMA_W_ONCE_BATCH
#define CT1D_MMA_W_ONCE_BATCH 24
#endif
// mma.sync path, 3xFP16 weights (stage_w16): loads per thread in flight at once (1: one
// at a time, each waited for by its shared-memory store)
#ifndef CT1D_MMA_W16_BATCH
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CT1D_MMA_W16_BATCH 8
#else
#define CT1D_MMA_W16_BATCH 1      // (sm_80 SASS spills move both ways with more; untimed there)
#endif
#endif
// 1: every instance compiled for one block per SM (A/B of registers against occupancy;
// the launcher sizes grids by the occupancy API, so instances over 128 registers then
// run one block per SM)
#ifndef CT1D_MMA_MINB1
#define CT1D_MMA_MINB1 0
#endif
template <typename T> struct pair_of { T a, b; };

// float32 arithmetic of instances with F16X3 = true (they keep all weights staged, W_ALL,
// and stage whole k16 steps, CI_CHUNK a multiple of 16): 1 = the scaled 3xFP16 split of
// ct1d_stream.cu (weights scaled once per block, x once per tile by a block-wide maximum;
// 3 m16n8k16 MMAs per 16 products), 0 = 3xTF32 everywhere.
#ifndef CT1D_MMA_F16X3
#define CT1D_MMA_F16X3 1
#endif

// Template parameters:
//   T          element type in memory: float, f16_t, bf16_t
//   S, D, K    stride, dilation, kernel size (compile-time: the class structure is static)
//   MT, NT     m16 x n8 tiles per warp
//   WM, WN     warps along output channels x along positions:
//              the block covers CO_T = 16*MT*WM channels and NU = 8*NT*WN positions u
//              (warpgroup path: WM = 4, WN = 2, or the transposed tiles' WM = 1, WN = 8)
//   WG_ON      the warpgroup path (sm_90a only)
//   CI_CHUNK   input channels staged per step (a multiple of 8)
//   W_ALL      all K taps of a single channel chunk stay in shared memory for every tile
//   F16X3      float32 through the scaled 3xFP16 split (needs W_ALL, CI_CHUNK % 16 == 0);
//              else 3xTF32. Small calls keep 3xTF32: one tile per block cannot amortise
//              the split weight staging (small-seed 12 -> 15 us)
//   OV         0, or positions u (OV*S outputs: whole 16-byte vectors, at least a 32-byte
//              sector less one element) that each tile shares with the previous one:
//              tiles then start NU - OV apart, and each row stores the part of its tile
//              between 32-byte boundaries of the output (counted from y, which fresh
//              allocations align to 256 bytes), so no element-wise stores inside a row;
//              the shared positions are computed twice
//   WG_ON      sm_90a: the products on warpgroup MMA (below)
//   ONE_BLOCK  the tile takes more shared memory than two blocks per SM leave (the
//              dispatcher's one-block warpgroup tiles): compiled for one block per SM, so
//              ptxas may use more than 128 registers (64 -> 64 channels, K = 6, S = 3,
//              D = 2: 0.498 -> 0.419 ms; K = 8, S = 2: 0.417 -> 0.389, which spilled 96
//              bytes at 128; results/2026-12-02-session25/run_3)
//
// Shared memory (float bits, MMA-operand order): w_s uint4 [taps][CI_CHUNK/8][CO_T/16][32],
// x_s uint2 [CI_CHUNK/2][XP]; out_s T [CO_T][OP] (the tile in its final type); sh_s int
// [CO_T]. x_s pairs channels c and c+4 of each group of 8 (the b0, b1 operands).
template <typename T, int S, int D, int K, int MT, int NT, int WM, int WN, int CI_CHUNK, bool W_ALL,
          bool F16X3_ON, int OV, bool WG_ON = false, bool ONE_BLOCK = false>
__global__ void __launch_bounds__(WM * WN * 32, (WM * WN <= 8 && !ONE_BLOCK && !CT1D_MMA_MINB1) ? 2 : 1)
ct1d_mma(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
         T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
         int u_first, int n_tiles, int n_offset, int n_items)
{
    pdl_prologue();
    constexpr int WARPS = WM * WN;
    constexpr int THREADS = WARPS * 32;
    constexpr int CO_T = 16 * MT * WM;
    constexpr int MI = CO_T / 16;                     // m16 tiles per block
    constexpr int NU = 8 * NT * WN;
    constexpr int KC8 = CI_CHUNK / 8;
    constexpr int CMAX = (K - 1) * D / S;             // largest column offset c_k
    constexpr int XW = NU + CMAX;                     // staged columns per channel
    constexpr bool SPLIT = is_f32<T>::value;
    constexpr int XP = ((XW - 4 + 15) / 16) * 16 + 4; // pitch 4 mod 16: conflict-free B loads
    constexpr int VEC = 16 / sizeof(T);               // elements per 16 bytes
    constexpr int WTAPS = W_ALL ? K : max_class_taps(S, D, K);
    constexpr int W_FRAGS = WTAPS * KC8 * MI * 32;    // uint4 of weights
    constexpr int RPW = (CI_CHUNK + WARPS - 1) / WARPS;   // staged rows per warp
    constexpr int CPL = (XW + 31) / 32;               // staged columns per lane
    constexpr bool UNROLL_K = !SPLIT || RPW * CPL <= 20;   // float32: registers permitting
    constexpr bool F16X3 = F16X3_ON && SPLIT && W_ALL && CI_CHUNK % 16 == 0 && CT1D_MMA_F16X3;
    // 3xFP16: x_s holds raw floats of channels {c, c+1, c+8, c+9} (c = 16*k16 + 2*tq) per
    // column as one uint4, slot row 4*k16 + tq, pitch XP4 (2 mod 8: conflict-free loads)
    constexpr int XP4 = (XW + 5) / 8 * 8 + 2;
    constexpr int NUO = NU - OV;                      // positions u a tile owns
    constexpr int SEC = 32 / sizeof(T);               // elements per 32-byte sector
    // out_s rows sit at their global offset modulo SALIGN elements: 32 bytes for the bulk
    // copies, whose source and destination 16 bytes apart modulo 32 made them 1.6x slower
    // (benchmarks/write_floor.py "src"), where every tile keeps that offset (tiles start a
    // whole number of 32-byte units apart) and rows of at most 2 KB per tile (measured:
    // 1-2 KB rows 1.02-1.05x faster, the 4 KB rows of up-16-16-s8 1.11x slower); else 16
    // bytes (the vectors)
    constexpr int SALIGN = (CT1D_MMA_ROW_ALIGN32 && CT1D_BULK_STORE && (S * NUO * (int)sizeof(T)) % 32 == 0
                            && S * NU * (int)sizeof(T) <= 2048) ? SEC : VEC;
    // row pitch: room for the row's alignment shift (16 bytes more than needed made
    // sd-s3d2k5 0.267 -> 0.286 ms; with 32-byte placement, 16 more changed nothing)
    constexpr int OP = S * NU + SALIGN;
    // Warpgroup path (sm_90a): the products on wgmma m64n64k16 with both operands in
    // shared memory. Each warpgroup (4 warps) owns all 64 channels x 8*NT positions, in
    // halves of 64 (one half's accumulators live at a time). float32:
    // the scaled 3xFP16 split, x scaled by the tile's maximum (measured a tile ahead) and
    // split once, from the prefetch registers, into K-major float16 hi and lo operands, the
    // weights once per block; 16-bit inputs go to the MMAs as they are.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr bool WG = WG_ON;
#else
    constexpr bool WG = false;
    if (WG_ON) __trap();                              // sm_90a only: the dispatcher knows
#endif
    constexpr int KK = CI_CHUNK / 8;                  // 8-channel core-matrix columns
    constexpr int NPART = F16X3 ? 2 : 1;              // operand parts: hi, lo / the values
    static_assert(!WG_ON || ((F16X3 || !SPLIT) && W_ALL && RPW % 2 == 0 && 8 % RPW == 0 && RPW * WARPS == CI_CHUNK
                             && ((MT == 1 && NT % 8 == 0 && WM == 4 && WN == 2)
                                 || (WM == 1 && WN == 8 && MT <= 2 && NU % 128 == 0))),
                  "warpgroup path: 3xFP16 or 16-bit, 64 channels x 64-position halves, or "
                  "(transposed) 64 positions x 16-32 channels, 8 warps");
    // Transposed warpgroup tiles (WM = 1): the MMA's M is 64 positions, its N the block's
    // 16 or 32 channels, so narrow channel tiles waste no MMA rows; each warpgroup owns
    // NU/2 positions, in chunks of 64
    constexpr bool WGT_ON = WG_ON && WM == 1;
    [[maybe_unused]] constexpr bool WGT = WG && WM == 1;   // (unused off sm_90a)
    // ... whose taps, where they form groups by column offset, run a group per wgmma: N =
    // NS classes x CO_T channels, the weights of a group's taps side by side along N
    constexpr int TG = tap_group_size(S, D, K);
    constexpr int NS = (WGT_ON && CT1D_MMA_WGT_GROUPS && TG > 1 && (TG * CO_T == 32 || TG * CO_T == 64
                                                       || (TG == 8 && CO_T == 16 && CT1D_MMA_WGT_N128)))
        ? TG : 1;                                     // (wgmma N of 32, 64 or 128)
    constexpr bool GROUPS = NS > 1;
    constexpr bool X_PREFETCH = WG_ON && (CT1D_MMA_X_PREFETCH == 2 || (CT1D_MMA_X_PREFETCH == 1 && (
        (!SPLIT && WM == 4 && NT == 16) || (SPLIT && GROUPS && S == 2))));
    constexpr int NB = NS * CO_T;                     // weight units per (group, part, kk)
    static_assert(CI_CHUNK % 8 == 0 && (S * NU) % 8 == 0 && (S * OV) % VEC == 0 && NUO > 0,
                  "tile geometry");
    static_assert(OV == 0 || (OV * S >= SEC - 1 && S * NUO >= SEC), "overlap covers a sector");

    const BlockPlace bp = block_place(C_in, C_out, groups, CO_T, n_offset);
    const int cig = bp.cig, cog = bp.cog, g = bp.g, co_base = bp.co_base, co_n = bp.co_n;
    long long n = bp.n;               // warpgroup path: then n + gridDim.z, ... < n_offset + n_items
    const int n_chunks = (cig + CI_CHUNK - 1) / CI_CHUNK;

    // the warpgroup path stages K-major 16-byte units (below) and needs less room
    constexpr int W_BYTES = WG_ON ? K * NPART * KK * CO_T * 16 : W_FRAGS * 16;
    constexpr int X_BYTES = WG_ON ? NPART * KK * XW * 16 : CI_CHUNK * (F16X3 && XP4 > XP ? XP4 : XP) * 4;
    // Warpgroup path: the block's raw weights (W_N) are read in one pass, W_PT loads per
    // thread in flight at once, into the x and output tiles' room (CT1D_MMA_W_ONCE)
    constexpr int W_N = K * CI_CHUNK * CO_T;
    constexpr int W_PT = (W_N + THREADS - 1) / THREADS;
    constexpr bool W_ONCE = WG_ON && CT1D_MMA_W_ONCE && W_PT <= CT1D_MMA_W_ONCE_MAX
                            && W_N * (int)sizeof(T) <= X_BYTES + CO_T * OP * (int)sizeof(T);
    extern __shared__ __align__(16) unsigned char smem_raw[];
    uint4* w_s = reinterpret_cast<uint4*>(smem_raw);
    unsigned* x_s = reinterpret_cast<unsigned*>(smem_raw + W_BYTES);
    T* out_s = reinterpret_cast<T*>(smem_raw + W_BYTES + X_BYTES);
    int* sh_s = reinterpret_cast<int*>(out_s + CO_T * OP);

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int gq = lane >> 2, tq = lane & 3;          // MMA fragment coordinates
    const int wm = WG ? (warp & 3) : warp / WN, wn = WG ? (warp >> 2) : warp % WN;
    const int uw = WGT_ON ? wn * (NU / 2) : wn * NT * 8;   // this warp's first position u

    const int x_pitch = L_in + CT1D_MMA_X_PITCH_PAD, y_pitch = L_out + CT1D_MMA_Y_PITCH_PAD;
    const T* xn = x + (n * C_in + (long long)g * cig) * x_pitch;
    const T* xf = xn;         // where fetch_cols reads: the next item's x for its first tile
    const T* wg = w + (long long)g * cig * cog * K;
    long long row0 = n * C_out + (long long)g * cog + co_base;   // global row of out_s row 0
    T* yb = y + row0 * y_pitch;
    const T* bg = bias == nullptr ? nullptr : bias + g * cog + co_base;

    // Alignment shift of out_s row `row`: its element p sits at row*OP + shift(row) + p,
    // whose shared-memory address is congruent to its global one modulo SALIGN elements.
    // Tiles start NUO*S (a multiple of SALIGN) apart.
    auto shift = [&](int row) -> int {
        const long long gi = (row0 + row) * y_pitch + (long long)(u_first - OV) * S - pad;
        const int base = (int)(__cvta_generic_to_shared(out_s + row * OP) / sizeof(T)) % SALIGN;
        return (int)((((gi - base) % SALIGN) + SALIGN) % SALIGN);
    };

    // This thread's fragment rows: bias and shifted row offsets in out_s
    float bv[MT][2];
    int ro[MT][2];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int co = (wm * MT + mt) * 16 + gq + 8 * h;
            bv[mt][h] = (bg != nullptr && co < co_n) ? to_acc(bg[co]) : 0.f;
            ro[mt][h] = co * OP + shift(co);
        }
    // transposed warpgroup tiles: this thread's channels 8i + 2tq + b (b = 0, 1)
    int rt[WGT_ON ? CO_T / 4 : 1];
    float bt[WGT_ON ? CO_T / 4 : 1];
    auto rows_t = [&]() {
#pragma unroll
        for (int e = 0; e < (WGT_ON ? CO_T / 4 : 0); ++e) {
            const int co = 8 * (e >> 1) + 2 * tq + (e & 1);
            bt[e] = (bg != nullptr && co < co_n) ? to_acc(bg[co]) : 0.f;
            rt[e] = co * OP + shift(co);
        }
    };
    rows_t();

    // Weights of the listed taps in fragment order: element q of lane (gq, tq) of m16 tile
    // mi, k8 step kc8 is w[ci = kc8*8 + tq + 4*(q>>1)][co = mi*16 + gq + 8*(q&1)].
    auto stage_w = [&](int r, int ci0, int ci_n) {
        unsigned* ws = reinterpret_cast<unsigned*>(w_s);
        constexpr int BATCH = 8;                      // independent loads in flight
        for (int e0 = tid; e0 < W_FRAGS * 4; e0 += BATCH * THREADS) {
            T v[BATCH];
#pragma unroll
            for (int t = 0; t < BATCH; ++t) {
                const int e = e0 + t * THREADS;
                const int q = e & 3, ln = (e >> 2) & 31, f = e >> 7;
                const int mi = f % MI, kc8 = (f / MI) % KC8, tk = f / (MI * KC8);
                const int co = mi * 16 + (ln >> 2) + 8 * (q & 1);
                const int c = kc8 * 8 + (ln & 3) + 4 * (q >> 1);
                int k = tk;
                if (!W_ALL) {
                    k = -1;
#pragma unroll
                    for (int rr = 0; rr < S; ++rr)
#pragma unroll
                        for (int jj = 0; jj < class_taps(rr, S, D, K); ++jj)
                            if (rr == r && jj == tk) k = class_tap(rr, jj, S, D, K);
                }
                v[t] = (e < W_FRAGS * 4 && k >= 0 && c < ci_n && co < co_n)
                    ? wg[((long long)(ci0 + c) * cog + co_base + co) * K + k] : T{};
            }
#pragma unroll
            for (int t = 0; t < BATCH; ++t)
                if (e0 + t * THREADS < W_FRAGS * 4) ws[e0 + t * THREADS] = __float_as_uint(to_acc(v[t]));
        }
    };

    // x staging goes through registers: with one channel chunk, the next tile's loads are
    // in flight while this tile computes. Row c = warp + WARPS*a, column j = lane + 32*b
    // holds x[ci0 + c, u0 - CMAX + j] (zero outside the chunk and the sequence).
    // Raw elements: converting right after each load would make the compiler reuse one
    // register and serialise the loads (one memory latency each).
    T xr[RPW][CPL];
    auto fetch_cols = [&](int u0, int ci0, int ci_n) {
#pragma unroll
        for (int a = 0; a < RPW; ++a) {
            const int c = WG ? RPW * warp + a : warp + WARPS * a;
            const T* xc = xf + (long long)(ci0 + c) * x_pitch + (u0 - CMAX);
            const int i_end = c < ci_n ? L_in - (u0 - CMAX) : 0;     // valid j: [-(u0-CMAX), i_end)
#pragma unroll
            for (int b = 0; b < CPL; ++b) {
                const int j = lane + 32 * b;
                xr[a][b] = (j < XW && j >= CMAX - u0 && j < i_end) ? xc[j] : T{};
            }
        }
    };
    // 3xFP16: the tile's largest finite exponent goes to x_emax[par] (a block maximum,
    // read after the barrier that follows the commit)
    __shared__ unsigned x_emax[2], w_emax;
    auto commit_cols = [&](int par) {
        unsigned m = 0;
#pragma unroll
        for (int a = 0; a < RPW; ++a)
#pragma unroll
            for (int b = 0; b < CPL; ++b) {
                const int c = warp + WARPS * a, j = lane + 32 * b;
                if (c < CI_CHUNK && j < XW) {
                    const float v = to_acc(xr[a][b]);
                    if (F16X3) {
                        m = max(m, finite_exp(v));
                        const int sr = (c >> 4) * 4 + ((c & 7) >> 1);
                        x_s[(sr * XP4 + j) * 4 + (c & 1) + 2 * ((c >> 3) & 1)] = __float_as_uint(v);
                    } else {
                        x_s[2 * (((c >> 3) * 4 + (c & 3)) * XP + j) + ((c >> 2) & 1)] = __float_as_uint(v);
                    }
                }
            }
        if (F16X3) {
            m = __reduce_max_sync(0xffffffffu, m);
            if (lane == 0) atomicMax(&x_emax[par], m);
        }
    };
    // 3xFP16 weights: every tap in k16 fragment order (element q of uint4 s of lane (gq,
    // tq), m16 tile mi, step k16, tap k: w[ci = 16*k16 + 8s + 2tq + (q>>1)][co = 16mi + gq +
    // 8(q&1)]), scaled by 2^sw into float16's range and rewritten in place as the hi and lo
    // operands; returns 2^-sw. Block-wide (barriers inside).
    auto stage_w16 = [&]() -> float {
        unsigned* ws = reinterpret_cast<unsigned*>(w_s);
        auto load = [&](int e) -> float {
            const int q = e & 3, ln = (e >> 2) & 31, sl = (e >> 7) & 1, f = e >> 8;
            // (MI1, KH: never 0, for the instances that compile this lambda without calling it)
            constexpr int MI1 = MI > 0 ? MI : 1, KH = KC8 > 1 ? KC8 / 2 : 1;
            const int mi = f % MI1, k16 = (f / MI1) % KH, k = f / (MI1 * KH);
            const int ci = 16 * k16 + 8 * sl + 2 * (ln & 3) + (q >> 1);
            const int co = 16 * mi + (ln >> 2) + 8 * (q & 1);
            return (ci < cig && co < co_n) ? to_acc(wg[((long long)ci * cog + co_base + co) * K + k]) : 0.f;
        };
        // several loads in flight per thread (one: each load's store waits for it)
        batched_loads<CT1D_MMA_W16_BATCH>(W_FRAGS * 4, tid, THREADS, load,
                                          [&](int e, float v) { ws[e] = __float_as_uint(v); });
        __syncthreads();
        return split_a_operands_block(w_s, W_FRAGS, &w_emax, tid, THREADS);
    };

    // Warpgroup path: 16-bit operands in K-major core matrices (rows of 8 channels, 16
    // bytes). x in x_s: unit (kk, j) of part h (3xFP16: 0 hi, 1 lo) holds channels
    // 8kk..8kk+7 of window column j at byte ((h*KK + kk)*XW + j)*16; weights in w_s: unit
    // (kk, co) of tap k, part h at byte (((k*NPART + h)*KK + kk)*CO_T + co)*16. The 32-bit
    // word q of a unit holds channels 2q (low half) and 2q+1. Thread rows c = RPW*warp + a.
    auto wg_max_x = [&](unsigned* emax) {             // the prefetched tile's maximum
        unsigned m = 0;
#pragma unroll
        for (int a = 0; a < RPW; ++a)
#pragma unroll
            for (int b = 0; b < CPL; ++b)
                if (lane + 32 * b < XW) m = max(m, finite_exp(to_acc(xr[a][b])));
        m = __reduce_max_sync(0xffffffffu, m);
        if (lane == 0) atomicMax(emax, m);
    };
    // channels c, c+1 as one word of operand parts (hi, lo)
    auto wg_pair = [&](T v0, T v1, float scale, unsigned& hi, unsigned& lo) {
        if constexpr (F16X3) {
            f16x2_split(to_acc(v0) * scale, to_acc(v1) * scale, hi, lo);
        } else if constexpr (!SPLIT) {
            hi = (unsigned)v0.bits | ((unsigned)v1.bits << 16);
            lo = 0;
        } else {
            hi = lo = 0;                              // (3xTF32 instances: no warpgroup path)
        }
    };
    auto wg_commit = [&](float scale) {               // prefetch registers -> operands
#pragma unroll
        for (int b = 0; b < CPL; ++b) {
            const int j = lane + 32 * b;
            if (j < XW) {
#pragma unroll
                for (int pr = 0; pr < RPW / 2; ++pr) {
                    const int c = RPW * warp + 2 * pr;
                    const int word = ((c >> 3) * XW + j) * 4 + ((c & 7) >> 1);
                    unsigned hi, lo;
                    wg_pair(xr[2 * pr][b], xr[2 * pr + 1][b], scale, hi, lo);
                    x_s[word] = hi;
                    if (F16X3) x_s[KK * XW * 4 + word] = lo;
                }
            }
        }
    };
    float unscale_w = 1.f, scale_x = 1.f, unscale_x = 1.f;
    if (WG) {
        // weights: the block's maximum (3xFP16), then each pair of channels split into w_s
        if (tid == 0) x_emax[0] = x_emax[1] = w_emax = 0;
        __syncthreads();
        auto w_at = [&](int ci, int co, int k) -> T {
            return (ci < cig && co < co_n) ? wg[((long long)ci * cog + co_base + co) * K + k] : T{};
        };
        float scale = 1.f;
        // 3xFP16: the block's largest weight exponent (this thread's m) -> scale, unscale_w
        // (a barrier inside)
        auto w_scale_from = [&](unsigned m) {
            m = __reduce_max_sync(0xffffffffu, m);
            if (lane == 0) atomicMax(&w_emax, m);
            __syncthreads();
            const int sw = f16_scale_exp(w_emax);
            scale = pow2(sw);
            unscale_w = pow2(-sw);
        };
        // unit row n of weight group gw (the tap, or its column offset's group) of the
        // pair (ci, ci + 1) = (8kk + 2q, +1), tap k, channel co: hi (and lo) into w_s
        unsigned* ws = reinterpret_cast<unsigned*>(w_s);
        auto put_pair = [&](int e, T a, T b) {
            const int q = e & 3, co = (e >> 2) % CO_T, kk = (e >> 2) / CO_T % KK, k = (e >> 2) / (CO_T * KK);
            unsigned hi, lo;
            wg_pair(a, b, scale, hi, lo);
            const int gw = GROUPS ? k * D / S : k, n = GROUPS ? tap_slot(k, S, D) * CO_T + co : co;
            ws[(((gw * NPART) * KK + kk) * NB + n) * 4 + q] = hi;
            if (F16X3) ws[(((gw * NPART + 1) * KK + kk) * NB + n) * 4 + q] = lo;
        };
        if constexpr (W_ONCE) {
            // one coalesced pass: the block's weights w[ci][co_base + co][k] (a contiguous
            // run of CO_T*K per input channel) all in flight at once, kept raw in the x and
            // output tiles' shared memory (unused until the first tile), the maximum taken
            // on the way; then the pairs split from there. (batched_loads would do the same
            // rounds but compiles to other SASS: sd-s2d4k4's measured allocation is this one)
            T* w_raw = reinterpret_cast<T*>(x_s);
            constexpr int W_ROUNDS = (W_PT + CT1D_MMA_W_ONCE_BATCH - 1) / CT1D_MMA_W_ONCE_BATCH;
            constexpr int WB = (W_PT + W_ROUNDS - 1) / W_ROUNDS;     // loads per round
            unsigned m = 0;
#pragma unroll
            for (int t0 = 0; t0 < W_PT; t0 += WB) {
                T v[WB];
#pragma unroll
                for (int t = 0; t < WB; ++t) {
                    const int e = tid + (t0 + t) * THREADS, ci = e / (K * CO_T), rk = e % (K * CO_T);
                    v[t] = (e < W_N && ci < cig && rk / K < co_n) ? wg[((long long)ci * cog + co_base) * K + rk] : T{};
                }
#pragma unroll
                for (int t = 0; t < WB; ++t)
                    if (tid + (t0 + t) * THREADS < W_N) {
                        w_raw[tid + (t0 + t) * THREADS] = v[t];
                        if (F16X3) m = max(m, finite_exp(to_acc(v[t])));
                    }
            }
            if (F16X3) w_scale_from(m); else __syncthreads();    // (publishes w_raw too)
            for (int e = tid; e < K * KK * CO_T * 4; e += THREADS) {
                const int q = e & 3, co = (e >> 2) % CO_T, kk = (e >> 2) / CO_T % KK, k = (e >> 2) / (CO_T * KK);
                const int ci = 8 * kk + 2 * q;
                put_pair(e, w_raw[(ci * CO_T + co) * K + k], w_raw[((ci + 1) * CO_T + co) * K + k]);
            }
            __syncthreads();                          // w_raw read before the tiles reuse it
        } else {                                      // (two passes over global memory)
            if (F16X3) {
                unsigned m = 0;
                batched_loads<8>(K * CI_CHUNK * CO_T, tid, THREADS,             // reads contiguous
                                 [&](int e) { return w_at(e / (K * CO_T), (e / K) % CO_T, e % K); },
                                 [&](int, T v) { m = max(m, finite_exp(to_acc(v))); });
                w_scale_from(m);
            }
            batched_loads<8>(K * KK * CO_T * 4, tid, THREADS, [&](int e) {
                const int q = e & 3, co = (e >> 2) % CO_T, kk = (e >> 2) / CO_T % KK, k = (e >> 2) / (CO_T * KK);
                const int ci = 8 * kk + 2 * q;
                return pair_of<T>{w_at(ci, co, k), w_at(ci + 1, co, k)};
            }, [&](int e, pair_of<T> v) { put_pair(e, v.a, v.b); });
        }
        fence_proxy_async();                          // w_s visible to wgmma (barrier below)
    }

    // Row shifts, and the positions of classes that no tap reaches: the bias, written
    // once for every tile. Warpgroup path: lane i of a warp loads the bias of its i-th
    // row (one load latency, not one per row; elsewhere that changed the tile loop's
    // register allocation: sd-s2d2k3-c16 spilled more)
    static_assert(!WG_ON || CO_T <= 32 * WARPS, "a bias per lane");
    const int b_row = warp + WARPS * lane;
    const float b_lane = (WG && bg != nullptr && b_row < co_n) ? to_acc(bg[b_row]) : 0.f;
    auto place_bias = [&]() {                        // (again for each item: the shifts move)
        for (int i = 0, row = warp; row < CO_T; ++i, row += WARPS) {
            const int sh = shift(row);
            if (lane == 0) sh_s[row] = sh;
            const T b = from_acc<T>(WG ? __shfl_sync(0xffffffffu, b_lane, i)
                                       : (bg != nullptr && row < co_n) ? to_acc(bg[row]) : 0.f);
            for (int p = lane; p < S * NU; p += 32)
                if (class_taps(p % S, S, D, K) == 0) out_s[row * OP + sh + p] = b;
        }
    };
    place_bias();

    const bool one_chunk = n_chunks == 1;
    bool w_loaded = false;
    // tile t of a block's walk is tile tile_at(t) of the row (CT1D_MMA_ROTATE): rotated
    // by rot within the first n_rot tiles
    const int n_rot = CT1D_MMA_ROTATE == 2 ? n_tiles - 1 : n_tiles;
    const int rot = (WG && CT1D_MMA_ROTATE) ? (int)((long long)n_rot * blockIdx.z / gridDim.z) : 0;
    auto tile_at = [&](int t) -> int {
        if (CT1D_MMA_ROTATE == 2 && t >= n_rot) return t;
        return t + rot < n_rot ? t + rot : t + rot - n_rot;
    };
    if (one_chunk && (int)blockIdx.x < n_tiles) fetch_cols(u_first - OV + tile_at(blockIdx.x) * NUO, 0, cig);
    if (F16X3 && !WG) {
        if (tid == 0) x_emax[0] = x_emax[1] = w_emax = 0;
        __syncthreads();
    }
    if (WG) {
        if (F16X3 && (int)blockIdx.x < n_tiles) wg_max_x(&x_emax[0]);
        __syncthreads();
    }

    // before the first class of a tile goes into out_s: the previous tile's bulk copies
    // have read it
    auto before_epilogue = [&](int r) {
#if CT1D_BULK_STORE
        if (r == first_live_class(S, D, K)) {
            bulk_wait_read();
            __syncthreads();
        }
#endif
    };
    int par = 0;
    // Warpgroup path: a block takes batch items n, n + gridDim.z, ... in turn (the
    // launcher sizes gridDim.z so that the grid is resident at once): its weights stay
    // staged, and each item's first tile is prefetched by the previous item's last one.
    // Elsewhere one item per block. (The item loop's body, the tile loop, keeps its indent.)
    // The next item's first tile: its tile sequence goes on where this item's stopped
    // (CT1D_MMA_FLAT_ITEMS), or restarts at blockIdx.x; gridDim.x <= n_tiles (launcher)
    auto next_first = [&](int first) -> int {
        const int G = (int)gridDim.x;
        return CT1D_MMA_FLAT_ITEMS ? ((first - n_tiles) % G + G) % G : first;
    };
    int tile0 = blockIdx.x;                           // this item's first tile
    for (;;) {                                        // items
    for (int tile = tile0; tile < n_tiles; tile += gridDim.x, par ^= 1) {
        const int tt = tile_at(tile);
        const int u0 = u_first - OV + tt * NUO;       // first position computed
        const int o0 = u0 * S - pad;                  // output position of tile column 0
        const bool next_tile = tile + (int)gridDim.x < n_tiles;
        const bool next_item = WG && !next_tile && n + gridDim.z < (long long)n_offset + n_items;

        // x_s is free: every warp passed the barrier before the previous copy-out after
        // its last read of it
        if (WG) {
            // the tile's scale was measured a tile ago (published by a barrier since)
            if (F16X3) {
                const int sx = f16_scale_exp(x_emax[par]);
                scale_x = pow2(sx);
                unscale_x = pow2(-sx);
            }
            wg_commit(scale_x);
            fence_proxy_async();
            __syncthreads();
            if (tid == 0) x_emax[par] = 0;           // read by everyone before the barrier
            if (next_tile) {
                fetch_cols(u_first - OV + tile_at(tile + gridDim.x) * NUO, 0, cig);
#if CT1D_BULK_STORE
                // the window's 16-byte units inside the row, one row per thread (the
                // prefetch takes uniform operands: 4 per warp for 32 channels)
                if constexpr (X_PREFETCH) {
                    const int c = warp + WARPS * lane;
                    const int AHEAD = CT1D_MMA_X_PREFETCH_AHEAD + c % (CT1D_MMA_X_PREFETCH_SKEW + 1);
                    if (tile + AHEAD * (int)gridDim.x < n_tiles && c < cig)
                        l2_prefetch_window(xn + (long long)c * x_pitch,
                                           u_first - OV + tile_at(tile + AHEAD * gridDim.x) * NUO - CMAX, XW, L_in);
                }
#endif
            } else if (next_item) {
                xf = xn + (long long)gridDim.z * C_in * x_pitch;
                fetch_cols(u_first - OV + tile_at(next_first(tile0)) * NUO, 0, cig);
            }
        } else if (one_chunk) {
            commit_cols(par);
            if (W_ALL && !w_loaded) {
                if (F16X3) unscale_w = stage_w16(); else stage_w(0, 0, cig);
                w_loaded = true;
            }
            __syncthreads();
            if (F16X3) {
                const int sx = f16_scale_exp(x_emax[par]);
                scale_x = pow2(sx);
                unscale_x = pow2(-sx);
                if (tid == 0) x_emax[par ^ 1] = 0;   // read by everyone a tile ago
            }
            if (tile + (int)gridDim.x < n_tiles) fetch_cols(u0 + gridDim.x * NUO, 0, cig);
        }

#pragma unroll
        for (int r = 0; r < S; ++r) {
            const int ntaps = class_taps(r, S, D, K);
            if (ntaps == 0) continue;                 // bias only, already in out_s
            if (GROUPS && r != first_live_class(S, D, K)) continue;    // (done with the first)
            float acc[MT][NT][4];
            zero_tiles(acc);
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
            if constexpr (WG) {
                // per 64-position half of the warpgroup's positions: the class's taps x k16
                // steps x 3 products as one asynchronous chain, then that half into the tile
                // (one half's accumulators live at a time). Transposed tiles: A = x (64
                // positions), B = the weights (CO_T channels)
                const unsigned char* w8 = reinterpret_cast<const unsigned char*>(w_s);
                const unsigned char* x8 = reinterpret_cast<const unsigned char*>(x_s);
                // operand part h of weight group gw (tap k, or the tap group of column
                // offset ck), k16 step s16, half hh
                auto wdesc = [&](int gw, int h, int s16) {
                    return smem_desc(w8 + ((gw * NPART + h) * KK + 2 * s16) * NB * 16, NB * 16, 128, 0);
                };
                auto xdesc = [&](int ck, int h, int s16, int hh) {
                    return smem_desc(x8 + ((h * KK + 2 * s16) * XW + uw + 64 * hh + CMAX - ck) * 16,
                                     XW * 16, 128, 0);
                };
                constexpr int ACC = WGT ? NB / 2 : 32;      // accumulators per half
                // float32 chains: at most WG_CHAIN k16 steps per segment, WG_SEGS segments
                // at most (the largest class's chain)
                constexpr int WG_CHAIN = CT1D_MMA_WG_CHAIN_STEPS;
                constexpr int WG_STEPS = (GROUPS ? CMAX + 1 : max_class_taps(S, D, K)) * (KK / 2);
                auto segments = [](int steps) {
                    const int n = (steps + WG_CHAIN - 1) / WG_CHAIN;
                    return n < 2 && steps > CT1D_MMA_WG_SPLIT_ABOVE ? 2 : n;
                };
                constexpr int WG_SEGS = F16X3 ? segments(WG_STEPS) : 1;
#pragma unroll
                for (int hh = 0; hh < (WGT ? NU / 128 : NT / 8); ++hh) {
                    float half[1][ACC / 4][4];
                    float (&d)[ACC] = reinterpret_cast<float (&)[ACC]>(half);
                    // one product into d: weights part hw, x part hx (bf16: both operands
                    // bfloat16, else float16; a constant wherever it is called)
                    auto mma = [&](int k, int hw, int ck, int hx, int s16, int acc_on, bool bf16) {
                        const auto dw = wdesc(k, hw, s16), dx = xdesc(ck, hx, s16, hh);
                        if constexpr (WGT) {
                            if (bf16) wgmma_m64nk16<NB, true>(d, dx, dw, acc_on);
                            else wgmma_m64nk16<NB, false>(d, dx, dw, acc_on);
                        } else {
                            if (bf16) wgmma_m64n64k16<true>(d, dw, dx, acc_on);
                            else wgmma_m64n64k16<false>(d, dw, dx, acc_on);
                        }
                    };
                    // 3xFP16: every small product (lo*hi, hi*lo) first, then the hi*hi ones,
                    // so the tensor cores' truncating accumulation acts on small sums for
                    // most of the chain
                    // (tap groups: the chain runs over column offsets, every class at once).
                    // A chain of more than WG_CHAIN k16 steps runs as nseg equal segments,
                    // each from zero, added on the CUDA cores (the truncation error grows
                    // with the chain: benchmarks/NOTES.md, session 23)
                    const int nsteps = (GROUPS ? CMAX + 1 : ntaps) * (KK / 2);
                    const int nseg = F16X3 ? segments(nsteps) : 1;
                    const int seglen = (nsteps + nseg - 1) / nseg;
                    float seg_sum[WG_SEGS > 1 ? ACC : 1];
#pragma unroll
                    for (int seg = 0; seg < WG_SEGS; ++seg) {
                        if (seg >= nseg) break;
                        wgmma_fence();
#pragma unroll
                        for (int pass = 0; pass < NPART; ++pass)
#pragma unroll
                            for (int tk = 0; tk < (GROUPS ? CMAX + 1 : max_class_taps(S, D, K)); ++tk) {
                                if (!GROUPS && tk >= ntaps) break;
                                int k = 0;
#pragma unroll
                                for (int jj = 0; jj < max_class_taps(S, D, K); ++jj)
                                    if (jj == tk) k = class_tap(r, jj, S, D, K);
                                const int ck = GROUPS ? tk : k * D / S, gw = GROUPS ? tk : k;
#pragma unroll
                                for (int s16 = 0; s16 < KK / 2; ++s16) {
                                    const int step = tk * (KK / 2) + s16;
                                    if (step / seglen != seg) continue;
                                    const int acc_on = pass + step - seg * seglen > 0;
                                    if (F16X3 && pass == 0) {
                                        mma(gw, 1, ck, 0, s16, acc_on, false);
                                        mma(gw, 0, ck, 1, s16, 1, false);
                                    } else {
                                        mma(gw, 0, ck, 0, s16, acc_on, is_bf16<T>::value);
                                    }
                                }
                            }
                        if constexpr (WG_SEGS > 1) {
                            if (seg + 1 < nseg) {             // this segment into the sum
                                wgmma_commit();
                                wgmma_wait<0>();
                                wgmma_fence_regs(d);
#pragma unroll
                                for (int i = 0; i < ACC; ++i) seg_sum[i] = seg == 0 ? d[i] : seg_sum[i] + d[i];
                            }
                        }
                    }
                    wgmma_commit();
                    if (F16X3 && CT1D_MMA_XMAX == 0 && hh == 0 && r == first_live_class(S, D, K)
                        && (next_tile || next_item))
                        wg_max_x(&x_emax[par ^ 1]);
                    wgmma_wait<0>();
                    wgmma_fence_regs(d);
                    if constexpr (WG_SEGS > 1) {
                        if (nseg > 1) {
#pragma unroll
                            for (int i = 0; i < ACC; ++i) d[i] = seg_sum[i] + d[i];
                        }
                    }
                    if (hh == 0) before_epilogue(r);
                    if constexpr (WGT)
                        tiles_to_out_t<F16X3, S, CO_T, NS>(
                            out_s, d, rt, bt, uw + 64 * hh + 16 * wm + gq,
                            [&](int slot) { return GROUPS ? slot_class(slot, S, D, K) : r; },
                            unscale_x, unscale_w);
                    else
                        tiles_to_out<F16X3, S>(out_s, half, ro, bv, uw + 64 * hh, tq, r, unscale_x, unscale_w);
                }
                continue;
            }
#endif
#pragma nv_diag_suppress 128          // (unreachable in warpgroup instances: "continue" above)
            for (int ch = 0; ch < (WG ? 0 : n_chunks); ++ch) {
                const int ci0 = ch * CI_CHUNK, ci_n = min(CI_CHUNK, cig - ci0);
                if (!one_chunk || !W_ALL) {
                    __syncthreads();                  // done reading the previous stage
                    if (!one_chunk) {
                        fetch_cols(u0, ci0, ci_n);
                        commit_cols(0);
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
                    if constexpr (F16X3) {
                        // B operands scaled and split per use; A operands split at staging
#pragma unroll
                        for (int k16 = 0; k16 < KC8 / 2; ++k16) {
                            const uint4* xk4 = reinterpret_cast<const uint4*>(x_s)
                                               + (4 * k16 + tq) * XP4 + uw + gq + CMAX - ck;
                            uint4 b[NT];
#pragma unroll
                            for (int nt = 0; nt < NT; ++nt) {
                                const uint4 v = xk4[nt * 8];
                                b[nt] = f16_b_operands(__uint_as_float(v.x), __uint_as_float(v.y),
                                                       __uint_as_float(v.z), __uint_as_float(v.w), scale_x);
                            }
#pragma unroll
                            for (int mt = 0; mt < MT; ++mt) {
                                const uint4* wk4 = w_s + ((k * (KC8 / 2) + k16) * MI + wm * MT + mt) * 64 + lane;
                                const uint4 ahi = wk4[0], alo = wk4[32];
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt) {
                                    float t[4];
                                    mma_f16x3(t, ahi, alo, b[nt]);
#pragma unroll
                                    for (int q = 0; q < 4; ++q) acc[mt][nt][q] += t[q];
                                }
                            }
                        }
                        continue;
                    }
                    const uint4* wk = w_s + (W_ALL ? k : tk) * KC8 * MI * 32 + wm * MT * 32 + lane;
                    const uint2* xk = reinterpret_cast<const uint2*>(x_s) + tq * XP + uw + gq + CMAX - ck;
                    // float32 is not unrolled: that keeps the per-k-step temporaries
                    // within 128 registers (two blocks per SM)
                    // float32 unrolled where the x prefetch registers leave room (the seed:
                    // 12% faster, a few bytes spilled); with wider staging, unrolling
                    // spilled ~500 bytes and was 1.7x slower (benchmarks/NOTES.md, session 4)
#pragma unroll (UNROLL_K ? KC8 : 1)
                    for (int kc8 = 0; kc8 < KC8; ++kc8) {
                        // float32: split into TF32 halves; 16-bit inputs: exact in TF32
                        uint2 bhi[NT], blo[NT];
#pragma unroll
                        for (int nt = 0; nt < NT; ++nt) {
                            bhi[nt] = xk[kc8 * 4 * XP + nt * 8];
                            if (SPLIT) {
                                tf32_split(__uint_as_float(bhi[nt].x), bhi[nt].x, blo[nt].x);
                                tf32_split(__uint_as_float(bhi[nt].y), bhi[nt].y, blo[nt].y);
                            }
                        }
                        if (SPLIT) {
                            // The tensor cores truncate when they accumulate, so error would
                            // grow with the number of MMAs feeding one accumulator: each
                            // k-step's three products start from zero (small terms first)
                            // and join the running sum through a rounded float add.
#pragma unroll
                            for (int mt = 0; mt < MT; ++mt) {
                                uint4 ahi = wk[(kc8 * MI + mt) * 32], alo;
                                tf32_split(__uint_as_float(ahi.x), ahi.x, alo.x);
                                tf32_split(__uint_as_float(ahi.y), ahi.y, alo.y);
                                tf32_split(__uint_as_float(ahi.z), ahi.z, alo.z);
                                tf32_split(__uint_as_float(ahi.w), ahi.w, alo.w);
                                float t[NT][4];
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt) {
#pragma unroll
                                    for (int q = 0; q < 4; ++q) t[nt][q] = 0.f;
                                    mma_tf32(t[nt], alo, bhi[nt].x, bhi[nt].y);
                                }
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt) mma_tf32(t[nt], ahi, blo[nt].x, blo[nt].y);
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt) {
                                    mma_tf32(t[nt], ahi, bhi[nt].x, bhi[nt].y);
#pragma unroll
                                    for (int q = 0; q < 4; ++q) acc[mt][nt][q] += t[nt][q];
                                }
                            }
                        } else {
                            // 16-bit inputs: one exact MMA per product, MT*NT independent
                            // accumulators between dependent MMAs
                            uint4 a[MT];
#pragma unroll
                            for (int mt = 0; mt < MT; ++mt) a[mt] = wk[(kc8 * MI + mt) * 32];
#pragma unroll
                            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                                for (int nt = 0; nt < NT; ++nt)
                                    mma_tf32(acc[mt][nt], a[mt], bhi[nt].x, bhi[nt].y);
                        }
                    }
                }
            }
#pragma nv_diag_default 128
            before_epilogue(r);
            // class r into the tile: position (u - u0)*S + r, each written once
            tiles_to_out<F16X3, S>(out_s, acc, ro, bv, uw, tq, r, unscale_x, unscale_w);
        }

        if (WG && F16X3 && CT1D_MMA_XMAX == 1 && (next_tile || next_item))
            wg_max_x(&x_emax[par ^ 1]);               // published by the barrier below
#if CT1D_BULK_STORE
        fence_proxy_async();          // out_s writes visible to the bulk-copy engine
#endif
        __syncthreads();
        // Copy-out: each output element goes to global memory exactly once. Tile column p
        // of a row is out_s column sh + p, congruent to its global index mod VEC, so
        // columns [qa, qb) of every row are 16-byte aligned on both sides.
        const int p_lo = max(0, -o0), p_hi = min(S * NU, L_out - o0);
        // OV > 0: a row stores tile columns [sector boundary at or before column OV*S,
        // the one at or before S*NU): the next tile starts exactly there. The first and
        // last tiles of a row reach its ends (the first tile's column OV*S is at o <= 0).
        auto own_lo = [&](int row) -> int {
            if (OV == 0 || tt == 0) return p_lo;
            const long long gi = (row0 + row) * y_pitch + o0 + OV * S;
            return max(OV * S - (int)(gi % SEC), p_lo);
        };
        auto own_hi = [&](int row) -> int {
            if (OV == 0 || tt == n_tiles - 1) return p_hi;
            const long long gi = (row0 + row) * y_pitch + o0 + S * NU;
            return min(S * NU - (int)(gi % SEC), p_hi);
        };
#if CT1D_BULK_STORE
        // one thread per row: the aligned middle by the bulk-copy engine, at most 2*(VEC-1)
        // elements at the ends by ordinary stores. Rows go round-robin over the warps: a
        // warp issues its lanes' bulk copies one at a time (the copy takes uniform
        // operands), and with rows on consecutive lanes warps 0-1 issued all 64 of a tile
        // while the other six waited at the next barrier (a quarter of all stall samples)
        for (int row = CT1D_MMA_SPREAD_ROWS ? warp + WARPS * lane : tid; row < co_n; row += THREADS) {
            const int sh = sh_s[row], q_lo = sh + own_lo(row), q_hi = sh + own_hi(row);
            const int qa = min((q_lo + VEC - 1) / VEC * VEC, q_hi), qb = max(q_hi / VEC * VEC, qa);
            const T* src = out_s + row * OP;
            T* dst = yb + (long long)row * y_pitch + (o0 - sh);      // dst[q] <-> src[q]
            if (qb > qa) bulk_store(dst + qa, src + qa, (qb - qa) * (int)sizeof(T));
            for (int q = q_lo; q < qa; ++q) dst[q] = src[q];
            for (int q = qb; q < q_hi; ++q) dst[q] = src[q];
        }
        bulk_commit();
#else
        // slot c of a row covers out_s columns [c*VEC, c*VEC + VEC): a 16-byte store where
        // all of them belong to the tile, element by element at the two ends
        constexpr int SLOTS = S * NU / VEC + 1;
        for (int v = tid; v < co_n * SLOTS; v += THREADS) {
            const int row = v / SLOTS, q = (v % SLOTS) * VEC;
            const int sh = sh_s[row];
            const T* src = out_s + row * OP + q;
            T* dst = yb + (long long)row * y_pitch + (o0 - sh + q);
            const int lo = max(q, sh + own_lo(row)) - q, hi = min(q + VEC, sh + own_hi(row)) - q;
            if (lo == 0 && hi == VEC) {
                *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
            } else {
                for (int e = lo; e < hi; ++e) dst[e] = src[e];
            }
        }
#endif
    }
    if (!WG || (int)blockIdx.x >= n_tiles || n + gridDim.z >= (long long)n_offset + n_items) break;
    // the next item: its rows, shifts and bias positions (after the last copies have
    // read out_s and sh_s); its first tile's x is in the prefetch registers
    n += gridDim.z;
    xn = xf;
    tile0 = next_first(tile0);
    row0 = n * C_out + (long long)g * cog + co_base;
    yb = y + row0 * y_pitch;
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)                   // (the same as at the top)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int co = (wm * MT + mt) * 16 + gq + 8 * h;
            ro[mt][h] = co * OP + shift(co);
        }
    rows_t();
#if CT1D_BULK_STORE
    bulk_wait_read();
#endif
    __syncthreads();
    place_bias();
    }                                                 // items
#if CT1D_BULK_STORE
    bulk_wait_all();          // this thread's bulk copies are complete before it exits
#endif
}
