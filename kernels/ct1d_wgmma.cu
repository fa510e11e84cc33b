// Wide-channel transposed convolution on Hopper's warpgroup MMA (wgmma, sm_90a only).
//
// ct1d_gemm.cu runs each residue class as its own implicit GEMM on mma.sync. Here all
// classes of an output-channel block form ONE dense GEMM, issued asynchronously from
// shared memory by whole warpgroups:
//
//   y[co, u*S + r - P] = bias[co] + sum over ci, c of A[(co, r), (ci, c)] * x[ci, u - c]
//
// with c in [0, CMAX] (CMAX = (K-1)*D div S) and A[(co, r), (ci, c)] = w[ci, co, k] for
// the tap k with k*D = c*S + r, zero where no tap has that (r, c) (BRIEF section 3: tap k
// reaches class r = k*D mod S from column u - k*D div S). GEMM rows are (co, r) pairs, row
// m = co*S + r, so a block's 64*WM rows are 64*WM div S output channels with all their
// classes, and a tile of NU positions u is S*NU consecutive outputs of each channel: one
// contiguous, coalesced copy-out per row. For the vocoder layers (K = 2S) A has no zeros
// at all; in general it is K / (S*(CMAX+1)) dense (the dispatcher checks).
//
// Arithmetic: 3xTF32, a*b ~ a_hi*b_hi + a_hi*b_lo + a_lo*b_hi with hi = a rounded to TF32
// and lo = a - hi (exact), on wgmma m64nNk8 TF32 with float32 accumulation. No scaling:
// TF32 keeps float32's exponent range. Products accumulate from zero in the tensor cores
// for whole chunks, at most CT1D_WGMMA_CHAIN of them, and then join the float32 sums
// through one add per element (the tensor cores truncate when they accumulate).
// Instances of many column offsets (CMAX + 1 >= 4) take the scaled 3xFP16 split instead
// (template parameter F16X3, below): half the tensor time, where the products dominate.
//
// Data path per chunk of CK = 16 input channels (each thread does every step):
//   1. raw chunks (w[ci][co block][0:K], contiguous per channel; x[ci][window], the window
//      widened to 16-byte boundaries) land in a two-stage ring by 16-byte cp.async
//      (4-byte copies where rows are not 16-byte aligned; 16-bit inputs: up to
//      CT1D_WGMMA_H_STAGES stages RS, chunk ch+RS requested at chunk ch);
//   2. A (weights) goes from the raw stage into registers, each warp its 16 GEMM rows in
//      the TF32 fragment layout, split there into hi and lo: wgmma reads A from
//      registers, so A takes no shared-memory operand traffic. Two register sets: a
//      chunk's A is loaded while the previous chunk's wgmmas still read the other;
//   3. B (x) is transposed into one of two operand buffers (K-major, 4 channels per
//      16-byte unit), split into hi and lo parts;
//   4. both warpgroups issue the chunk's 3*(CK/8)*NC wgmmas behind the previous chunk's;
//      while they run, every thread requests chunk ch+2 and, once chunk ch-1's wgmmas
//      are done (wait_group 1), splits chunk ch+1's x and loads its A.
// Shared-memory bandwidth is the budget: B alone costs the tensor cores 64 bytes per clock
// at full TF32 rate (4 bytes per 64 multiply-adds), half of what an SM moves.
// Measured on the way (results/2026-12-01-session10/, benchmarks/NOTES.md session 10):
// A from shared memory too (transposed and split by all threads) was 1.3x slower; 4-byte
// staging 1.3x slower than 16-byte; a warp-specialised block (one producer warpgroup, two
// consumers, named barriers, setmaxnreg) overlapped staging and MMAs but each got slower
// (0.58 vs 0.47 ms on hifigan-u1-b16 with 4-byte staging); two product sets folding chunk
// ch-1 while chunk ch runs made ptxas serialise the wgmmas (warning C7514).
// B layout, K-major: x column j (u = u0 - CMAX + j), 16-byte unit q (channels 4q..4q+3).
// Rows are whole 16-byte units, so the window shifted by c is the same staged copy read
// from row CMAX - c on. CT1D_WGMMA_SWIZZLE: rows of 64 bytes (all 16 channels) with
// 64-byte swizzle (unit q of row j at q ^ (j>>1)&3; the hardware applies the XOR to the
// addresses it forms, so descriptors may start at any row), else "core matrices" of 8
// rows x 16 bytes per unit (the same speed, results/2026-12-01-session10/ab_wgmma_v3.txt).
#include "ct1d_types.cuh"
#include "ct1d_tensor.cuh"
#include "ct1d_warpgroup.cuh"

// d (+)= A*B for one m64nNk8 tile: A from registers (a warp's 16 rows, the m16n8k8 TF32
// fragment of mma.sync), B from a shared-memory descriptor (K-major), TF32 operands,
// float32 accumulators; accumulate = 0 starts from zero. Asynchronous: neither d nor a may
// be touched before wgmma_wait (the asm ties the registers, wgmma_fence_regs pins them).
template <int N> struct Wgmma;
template <> struct Wgmma<64> {
    static __device__ __forceinline__ void mma(float (&d)[32], const unsigned (&a)[4],
                                               unsigned long long db, int accumulate) {
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
            "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
            "{%32, %33, %34, %35}, %36, p, 1, 1;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
              "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
              "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
              "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate));
    }
};
template <> struct Wgmma<128> {
    static __device__ __forceinline__ void mma(float (&d)[64], const unsigned (&a)[4],
                                               unsigned long long db, int accumulate) {
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
            "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
            "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
            "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
            "{%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
              "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
              "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
              "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
              "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
              "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
              "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
              "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate));
    }
};


// 16-bit inputs (T = f16_t or bf16_t): d (+)= A*B for one m64nNk16 tile, A from registers
// (the mma.sync m16n8k16 A fragment: four registers of two 16-bit values), B from a
// K-major shared-memory descriptor, float32 accumulators. N = 64 or 128.
template <int N, bool BF16> struct Wgmma16;
template <bool BF16> struct Wgmma16<64, BF16> {
    static __device__ __forceinline__ void mma(float (&d)[32], const unsigned (&a)[4],
                                               unsigned long long db, int accumulate) {
#define CT1D_WGMMA16_64(TYPE)                                                                      \
        asm volatile(                                                                              \
            "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"                                          \
            "wgmma.mma_async.sync.aligned.m64n64k16.f32." TYPE "." TYPE " "                        \
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "              \
            "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "    \
            "{%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}\n"                                          \
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),  \
              "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),          \
              "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),       \
              "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),       \
              "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),       \
              "+f"(d[31])                                                                          \
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate))
        if constexpr (BF16) CT1D_WGMMA16_64("bf16");
        else CT1D_WGMMA16_64("f16");
#undef CT1D_WGMMA16_64
    }
};
template <bool BF16> struct Wgmma16<128, BF16> {
    static __device__ __forceinline__ void mma(float (&d)[64], const unsigned (&a)[4],
                                               unsigned long long db, int accumulate) {
#define CT1D_WGMMA16_128(TYPE)                                                                     \
        asm volatile(                                                                              \
            "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"                                          \
            "wgmma.mma_async.sync.aligned.m64n128k16.f32." TYPE "." TYPE " "                       \
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "              \
            "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "     \
            "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "     \
            "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "    \
            "{%64, %65, %66, %67}, %68, p, 1, 1, 0;\n}\n"                                          \
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),  \
              "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),          \
              "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),       \
              "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),       \
              "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),       \
              "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),       \
              "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),       \
              "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),       \
              "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]),       \
              "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]),       \
              "+f"(d[61]), "+f"(d[62]), "+f"(d[63])                                                \
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate))
        if constexpr (BF16) CT1D_WGMMA16_128("bf16");
        else CT1D_WGMMA16_128("f16");
#undef CT1D_WGMMA16_128
    }
};

// v, opaque to the compiler: index math derived from it is redone where it is used rather
// than hoisted out of the chunk loop into registers the accumulators need
__device__ __forceinline__ int opaque(int v) {
    asm volatile("" : "+r"(v));
    return v;
}
// Timing ablations (benchmarks only; wrong results): 1 no wgmma, 2 no chunk loads or
// splits after the first chunks, 3 no copy-out, 4 only the hi*hi products
#ifndef CT1D_WGMMA_ABLATE
#define CT1D_WGMMA_ABLATE 0
#endif

// Longest chain of wgmma products accumulated in the tensor cores before they join the
// float32 sums (whole chunks; a chunk's own chain, 3 * CK/8 * (CMAX+1), may exceed it).
// 12 and 24 ran at the same speed; 12 halves the error (1.6e-7 -> 9.2e-8 on
// hifigan-u1-b16, results/2026-12-01-session10/ab_wgmma_v7_shapes_chain.txt)
#ifndef CT1D_WGMMA_CHAIN
#define CT1D_WGMMA_CHAIN 12
#endif
// 16-bit inputs: 1 = the whole reduction accumulates in the tensor cores' registers (acc),
// no product sets, no wait for all wgmmas every few chunks, no second accumulator set
// (their truncating accumulation, one add per k16 step, costs at most ~1e-5 relative for
// 512 channels: far below 16-bit output rounding, 2^-9). With 5 stages and two blocks
// per SM (the host's MINB) 1.42-1.65x faster on the sweep's nine wide 16-bit layers
// (H100, bf16 on nine, fp16 on six, errors equal: benchmarks/results/2026-12-06-session53/
// run_1, run_4); alone, or with 5 stages, within -2..+6%: its worth is the registers it
// frees for the second block
#ifndef CT1D_WGMMA_H_DIRECT
#define CT1D_WGMMA_H_DIRECT 1
#endif
// 16-bit inputs: raw stages in the ring (chunks requested that many ahead, less one). A
// 16-bit chunk's products take a sixth of a float32 chunk's tensor time, so two stages
// leave little of a global load's latency covered; the epilogue's output tile, which
// reuses the ring, is larger than 4-5 16-bit stages anyway
#ifndef CT1D_WGMMA_H_STAGES
#define CT1D_WGMMA_H_STAGES 5
#endif
// Fewer instructions per tile (session 62, H100: 1.03x geomean on the sweep's float32 wide
// layers, bfloat16 equal): 16-byte copy-out stores where float32 rows of y allow; cp.async
// without per-copy clamps for whole channel blocks and x windows inside the row. Not in the
// 3xFP16 instances, whose registers it spills (0.98x over 16 random calls). 0: the clamped
// copies and element-wise copy-out everywhere (A/B runs)
#ifndef CT1D_WGMMA_LEAN
#define CT1D_WGMMA_LEAN 1
#endif
// 3xFP16 instances of at least this many column offsets build chunk ch+1's A fragments
// after chunk ch's products are done (one fragment set live instead of two), not while
// they run: two sets spill there (session 64, H100: 1.025x at 7 offsets, 1.09x at 8,
// 1.3-1.6x at 9-10; equal at 4-6, where two sets fit). 99: two sets everywhere (A/B runs)
#ifndef CT1D_WGMMA_F3_ONE_A
#define CT1D_WGMMA_F3_ONE_A 7
#endif
// Operand layout of B: 1 = 64-byte swizzled rows of 16 channels, 0 = no swizzle (core
// matrices of 8 rows x 4 channels) (A/B runs)
#ifndef CT1D_WGMMA_SWIZZLE
#define CT1D_WGMMA_SWIZZLE 1
#endif

// Template parameters:
//   S, D, K    stride, dilation, kernel size
//   WM, WN     warpgroups along GEMM rows (64 rows each) x along positions
//   NW         positions u per warpgroup (the wgmma N: 64 or 128)
//   CK         input channels per chunk (16: one 64-byte row of float32)
//   MINB       blocks per SM the registers are capped for (launch bounds): 2 only for
//              16-bit inputs with CT1D_WGMMA_H_DIRECT, where 128 registers per thread hold
//              the accumulators (the host asks for it where two blocks' shared memory fits
//              and the column offsets' A rows leave the registers to spare), so that one
//              block's barriers and loads overlap the other's products
//   F16X3      float32 by the scaled 3xFP16 split instead of 3xTF32 (the dispatcher's
//              WGMMA_F16X3_MIN_NC): x and weights scaled per chunk by a power of two each
//              (the chunk's largest finite magnitude into [2^14, 2^15), as in ct1d_gemm;
//              each thread measures the elements it copied before the chunk's barrier, so
//              the maximum costs no barrier of its own) and split into float16 hi and lo
//              in the 16-bit instances' B layout; three m64nNk16 products per column
//              offset (every offset's lo*hi and hi*lo before the hi*hi ones), which join
//              the float32 sums chunk by chunk through one FFMA by the two unscaling
//              powers of two. Half the tensor time and operand bytes of 3xTF32's six
//              m64nNk8 products, for more split and measuring work per element: it pays
//              where the column offsets are many (benchmarks/NOTES.md, session 60)
//   T          element type: float (3xTF32 as above), or f16_t / bf16_t: the same data path
//              with 16-bit raw stages and operands, one k16 product per column offset and
//              chunk (the inputs are exact in their own type: no split), B without swizzle
//              (core matrices of 8 columns x 8 channels), float32 accumulation and output
//              tile, rounded to T on the way out
template <int S, int D, int K, int WM, int WN, int NW, int CK, int MINB = 1, typename T = float,
          bool F16X3 = false>
__global__ void __launch_bounds__(WM * WN * 128, MINB)
ct1d_wgmma(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ bias,
           T* __restrict__ y, int C_in, int C_out, int groups, int L_in, int L_out, int pad,
           int u_first, int n_tiles, int n_offset)
{
    pdl_prologue();
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int THREADS = WM * WN * 128;
    constexpr int MB = 64 * WM;                       // GEMM rows per block
    constexpr int CO_B = MB / S;                      // output channels per block
    constexpr bool LEAN = CT1D_WGMMA_LEAN && !F16X3;  // (see CT1D_WGMMA_LEAN)
    constexpr int NU = NW * WN;                       // positions u per tile
    constexpr int CMAX = (K - 1) * D / S;
    constexpr int NC = CMAX + 1;                      // column offsets c
    constexpr int XW = NU + CMAX;                     // staged x columns
    constexpr bool H = sizeof(T) == 2;                // 16-bit inputs
    constexpr bool F3 = !H && F16X3;                  // float32 by the scaled 3xFP16 split
    constexpr bool K16 = H || F3;                     // 16-bit operands: one k16 step a chunk
    constexpr int V = 16 / sizeof(T);                 // elements per 16-byte copy
    constexpr int WCO = CO_B * K;                     // raw weights per input channel
    // their pitch: a fragment's 4 channels in different banks (16-bit: its rows 2tq, 2tq + 1
    // at words 4 mod 32 apart)
    constexpr int WP = H ? 2 * (((WCO + 1) / 2 + 27) / 32 * 32 + 4) : pitch_8_mod_32(WCO);
    constexpr int XP = (XW + 2 * V - 2) / V * V;      // raw x pitch: a 16-byte aligned window
    constexpr int RAW = CK * (WP + XP);               // elements per raw stage
    constexpr int RAW_F = RAW * (int)sizeof(T) / 4;   // ... in floats
    constexpr int Q = CK / 4;                         // 16-byte units per B row
    // floats of one B operand (512-byte aligned); a buffer holds two (hi, lo), 16-bit one
    constexpr int B_F = (XW * CK * (int)sizeof(T) / 4 + 127) / 128 * 128;
    constexpr int OW = S * NU;                        // outputs per tile row
    constexpr int OP = OW + 1;                        // out_s pitch
    // raw stages: 16-bit ones as many as fit in the output tile's words (so the layout that
    // _keys.WgmmaKey.smem_bytes mirrors does not change), at least 2
    constexpr int RS_FIT = CO_B * OP / RAW_F < CT1D_WGMMA_H_STAGES ? CO_B * OP / RAW_F : CT1D_WGMMA_H_STAGES;
    constexpr int RS = H && RS_FIT > 2 ? RS_FIT : 2;
    constexpr int RING = RS * RAW_F > CO_B * OP ? RS * RAW_F : CO_B * OP;
    constexpr int RING_P = (RING + 127) / 128 * 128;
    constexpr int WARPS = THREADS / 32;
    constexpr int BG = (Q * XW + THREADS - 1) / THREADS;     // B units split per thread
    constexpr int BG16 = (CK / 8 * XW + THREADS - 1) / THREADS;   // (16-bit: units of 8 channels)
    constexpr int R = NW / 2;                         // accumulator registers per thread
    constexpr bool SW = CT1D_WGMMA_SWIZZLE;
    // chunks per product set: chains of at most CT1D_WGMMA_CHAIN products per sum
    constexpr int PER_CHUNK = H ? NC : F3 ? 3 * NC : 3 * (CK / 8) * NC;   // products per chunk
    // (F3: every chunk its own scales, so its products join the sums on their own)
    constexpr int FLUSH = !F3 && CT1D_WGMMA_CHAIN / PER_CHUNK > 1 ? CT1D_WGMMA_CHAIN / PER_CHUNK : 1;
    constexpr bool DIRECT = H && CT1D_WGMMA_H_DIRECT;  // products straight into acc
    constexpr bool ONE_A = F3 && NC >= CT1D_WGMMA_F3_ONE_A;   // (see CT1D_WGMMA_F3_ONE_A)
    static_assert(MINB == 1 || DIRECT, "two blocks per SM: 16-bit inputs with CT1D_WGMMA_H_DIRECT only");
    static_assert(CK == 16 && CO_B >= 1 && (NW == 64 || NW == 128) && (CK % WARPS == 0 || WARPS % CK == 0),
                  "tile geometry");

    const BlockPlace bp = block_place(C_in, C_out, groups, CO_B, n_offset);
    const int cig = bp.cig, cog = bp.cog, co_base = bp.co_base, co_n = bp.co_n;
    const int n_chunks = (cig + CK - 1) / CK;

    extern __shared__ __align__(1024) unsigned char smem_raw[];
    float* ring = reinterpret_cast<float*>(smem_raw);
    T* raw = reinterpret_cast<T*>(smem_raw);          // the ring's RS raw stages
    float* out_s = ring;                              // the epilogue reuses the ring
    float* ops = ring + RING_P;                       // [2][B hi, B lo] (16-bit: [2][B])
    // F3: the chunks' largest exponent fields {x, w}, in two slots (chunk ch: ch & 1)
    __shared__ unsigned emax[2][2];

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int wgi = warp >> 2, wm = wgi / WN, wn = wgi % WN;

    const T* xn = x + (bp.n * C_in + (long long)bp.g * cig) * L_in;
    const T* wg = w + (long long)bp.g * cig * cog * K + (long long)co_base * K;
    const long long row0 = bp.n * C_out + (long long)bp.g * cog + co_base;
    T* yb = y + row0 * L_out;
    const T* bg = bias == nullptr ? nullptr : bias + bp.g * cog + co_base;
    const long long w_step = (long long)cog * K;

    // 16-byte copies: weight rows of the block (WCO elements per channel from co_base*K) and
    // x rows start on 16-byte boundaries (block-uniform)
    const bool w_vec = WCO % V == 0 && (cog * K) % V == 0 && ((long long)bp.g * cig * cog * K + co_base * K) % V == 0
                       && ((unsigned long long)w & 15) == 0;
    const bool x_vec = L_in % V == 0 && ((unsigned long long)x & 15) == 0;
    // float32 rows of y in whole 16-byte units (the copy-out's 16-byte stores)
    const bool y_vec = LEAN && sizeof(T) == 4 && L_out % 4 == 0 && ((unsigned long long)y & 15) == 0;
    // the block's channels all there (its weight copies need no size clamp)
    const bool w_full = co_n == CO_B;

    // float offset of B unit (j, q) within an operand
    auto b_unit = [&](int j, int q) -> int {
        return SW ? j * CK + ((q ^ ((j >> 1) & 3)) << 2) : (q * XW + j) * 4;
    };

    // This thread's A fragment rows m = 64wm + 16w4 + gq + 8h: per row and column offset c,
    // the raw stage offset of its weight (channel co, the tap k with k*D = c*S + r), or -1
    // for a zero (no such tap, a channel past the block, a padding row): a table of 2*NC
    // offsets, held across the tile loop. 3xFP16 at D = 1 (k = r + c*S): a_rows() rederives
    // two numbers per row where the fragments are built, an immediate per offset (the table
    // spilled in the many-offset 3xFP16 instances: 133 -> 75 spilled loads at 8 offsets,
    // 38 -> 2 at 7, 1.07x faster; the other instances keep the table, since rederiving
    // made the 16-bit two-block ones spill, 0 -> 5)
    constexpr bool A_TABLE = D > 1 || !F3;
    struct ARows {
        int base[2], lim[2];                          // (tap r + c*S exists: c*S < lim)
        __device__ int operator()(int h, int c) const { return c * S < lim[h] ? base[h] + c * S : -1; }
    };
    // row h of warp w4 (of its warpgroup), lane group gq: GEMM row m = (channel co, class r)
    auto a_row = [&](int w4, int gq, int h, int& co, int& r) {
        const int m = wm * 64 + w4 * 16 + gq + 8 * h;
        co = m / S;
        r = m - co * S;
    };
    auto a_rows = [&]() {
        ARows a;
        const int t = opaque(tid);
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            int co, r;
            a_row((t >> 5) & 3, (t & 31) >> 2, h, co, r);
            a.base[h] = co * K + r;
            a.lim[h] = co < co_n ? K - r : 0;
        }
        return a;
    };
    int a_tab[2][A_TABLE ? NC : 1];
    if constexpr (A_TABLE) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            int co, r;
            a_row(warp & 3, lane >> 2, h, co, r);
#pragma unroll
            for (int c = 0; c < NC; ++c) {
                const int t = c * S + r, k = t / D;
                a_tab[h][c] = t % D == 0 && k < K && co < co_n ? co * K + k : -1;
            }
        }
    }

    if (F3) {                                         // (then zeroed after each tile's chunks)
        if (tid < 4) emax[tid >> 1][tid & 1] = 0;
        __syncthreads();
    }
    for (int tile = blockIdx.x; tile < n_tiles; tile += gridDim.x) {
        const int u0 = u_first + tile * NU;

        // raw x column jj is column x0 + jj of the sequence: x0 = u0 - CMAX - x_sh, rounded
        // down to a 16-byte boundary where rows are aligned (window column j at jj = j + x_sh)
        const int x_sh = x_vec ? ((u0 - CMAX) % V + V) % V : 0, x0 = u0 - CMAX - x_sh;
        const bool x_inside = x0 >= 0 && x0 + XP <= L_in;      // (tile-uniform)
        // chunk ch -> raw stage st
        auto load = [&](int ch, int st) {
            const int ci0 = ch * CK, ci_n = min(CK, cig - ci0);
            const int lane = opaque(tid) & 31;
            // warp-per-channel rows, lanes along the row: each address is a row pointer
            // plus an immediate; 16-byte copies where the rows allow (size 0 / a short
            // size fills zeros: channels past the group or block, columns outside the row),
            // else 4-byte ones (16-bit: plain loads and stores, which the barrier before the
            // chunk's use makes visible as it does the copies' wait)
#pragma unroll
            for (int c0 = 0; c0 < CK; c0 += WARPS) {
                const int c = c0 + warp;
                const bool row_in = c < ci_n;
                T* ws = raw + st * RAW + c * WP;
                const T* wr = wg + (ci0 + c) * w_step;
                T* xs = raw + st * RAW + CK * WP + c * XP;
                const T* xr = xn + (long long)(ci0 + c) * L_in + x0;
                if (w_vec && w_full && LEAN) {   // no clamp (whole rows)
#pragma unroll
                    for (int o = V * lane; o < WCO; o += 32 * V)
                        cp_async16(ws + o, row_in ? wr + o : wg, row_in ? 16 : 0);
                } else if (w_vec) {
#pragma unroll
                    for (int o = V * lane; o < WCO; o += 32 * V) {
                        const int n = row_in ? min(max(co_n * K - o, 0), V) : 0;
                        cp_async16(ws + o, n ? wr + o : wg, (int)sizeof(T) * n);
                    }
                } else {
#pragma unroll
                    for (int o = lane; o < WCO; o += 32) {
                        const bool in = row_in && o < co_n * K;
                        if constexpr (H) ws[o] = in ? wr[o] : T{};
                        else cp_async4(ws + o, in ? wr + o : wg, in ? 4 : 0);
                    }
                }
                if (x_vec && x_inside && LEAN) {   // the window inside the row
#pragma unroll
                    for (int j = V * lane; j < XP; j += 32 * V)
                        cp_async16(xs + j, row_in ? xr + j : xn, row_in ? 16 : 0);
                } else if (x_vec) {                   // whole vectors lie inside or outside
#pragma unroll
                    for (int j = V * lane; j < XP; j += 32 * V) {
                        const bool in = row_in && x0 + j >= 0 && x0 + j < L_in;
                        cp_async16(xs + j, in ? xr + j : xn, in ? 16 : 0);
                    }
                } else {
#pragma unroll
                    for (int j = lane; j < XW; j += 32) {
                        const bool in = row_in && x0 + j >= 0 && x0 + j < L_in;
                        if constexpr (H) xs[j] = in ? xr[j] : T{};
                        else cp_async4(xs + j, in ? xr + j : xn, in ? 4 : 0);
                    }
                }
            }
        };
        // raw stage st -> B operand buffer b: 4 channels of one column per unit, split into
        // TF32 hi (rounded) and lo = v - hi
        auto split_b = [&](int st, int b, float xscale) {
            const int tid = opaque(threadIdx.x);
            if constexpr (F3) {                       // 16-bit layout, scaled float16 hi and lo
                const float* xs = ring + st * RAW + CK * WP + x_sh;
                uint4* bh = reinterpret_cast<uint4*>(ops + b * 2 * B_F);
                uint4* bl = reinterpret_cast<uint4*>(ops + b * 2 * B_F + B_F);
#pragma unroll
                for (int i = 0; i < BG16; ++i) {
                    const int g = tid + i * THREADS, j = g % XW, q = g / XW;
                    if (g < CK / 8 * XW) {
                        const float* src = xs + (8 * q) * XP + j;
                        uint4 h, l;
                        f16x2_split(src[0] * xscale, src[XP] * xscale, h.x, l.x);
                        f16x2_split(src[2 * XP] * xscale, src[3 * XP] * xscale, h.y, l.y);
                        f16x2_split(src[4 * XP] * xscale, src[5 * XP] * xscale, h.z, l.z);
                        f16x2_split(src[6 * XP] * xscale, src[7 * XP] * xscale, h.w, l.w);
                        bh[q * XW + j] = h;
                        bl[q * XW + j] = l;
                    }
                }
                fence_proxy_async();
                return;
            }
            if constexpr (H) {                        // 16-bit: 8 channels per unit, as they are
                const unsigned short* xs16 =
                    reinterpret_cast<const unsigned short*>(raw + st * RAW + CK * WP + x_sh);
                uint4* bu = reinterpret_cast<uint4*>(ops + b * B_F);
#pragma unroll
                for (int i = 0; i < BG16; ++i) {
                    const int g = tid + i * THREADS, j = g % XW, q = g / XW;
                    if (g < CK / 8 * XW) {
                        const unsigned short* src = xs16 + (8 * q) * XP + j;
                        uint4 u;
                        u.x = src[0] | ((unsigned)src[XP] << 16);
                        u.y = src[2 * XP] | ((unsigned)src[3 * XP] << 16);
                        u.z = src[4 * XP] | ((unsigned)src[5 * XP] << 16);
                        u.w = src[6 * XP] | ((unsigned)src[7 * XP] << 16);
                        bu[q * XW + j] = u;
                    }
                }
                fence_proxy_async();
                return;
            }
            const float* xs = ring + st * RAW + CK * WP + x_sh;
            float* bhi = ops + b * 2 * B_F;
            float* blo = bhi + B_F;
#pragma unroll
            for (int i = 0; i < BG; ++i) {
                const int g = tid + i * THREADS, j = g % XW, q = g / XW;
                if (g < Q * XW) {
                    const float* src = xs + (4 * q) * XP + j;
                    const float v0 = src[0], v1 = src[XP], v2 = src[2 * XP], v3 = src[3 * XP];
                    const float4 h = make_float4(__uint_as_float(tf32_round(v0)), __uint_as_float(tf32_round(v1)),
                                                 __uint_as_float(tf32_round(v2)), __uint_as_float(tf32_round(v3)));
                    *reinterpret_cast<float4*>(bhi + b_unit(j, q)) = h;
                    *reinterpret_cast<float4*>(blo + b_unit(j, q)) =
                        make_float4(v0 - h.x, v1 - h.y, v2 - h.z, v3 - h.w);
                }
            }
            fence_proxy_async();
        };
        // raw stage st -> A fragments (hi, lo): k8 step s8, offset c, element (h, kk) = row
        // gq + 8h, channel 8*s8 + tq + 4kk, as TF32 hi and lo
        using Frags = unsigned[K16 ? 1 : CK / 8][NC][4];
        auto load_a = [&](int st, Frags& fh, Frags& fl, float wscale) {
            const int tq = opaque(lane) & 3;
            ARows ar{};
            if constexpr (!A_TABLE) ar = a_rows();
            auto a_off = [&](int h, int c) -> int {
                if constexpr (A_TABLE) return a_tab[h][c];
                else return ar(h, c);
            };
            if constexpr (F3) {                       // the m16n8k16 fragment, scaled and split
                const float* ws = ring + st * RAW;
#pragma unroll
                for (int c = 0; c < NC; ++c)
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const int h = e & 1, ch = 2 * tq + 8 * (e >> 1);
                        const int o = a_off(h, c);
                        const float v0 = o >= 0 ? ws[ch * WP + o] : 0.f, v1 = o >= 0 ? ws[(ch + 1) * WP + o] : 0.f;
                        f16x2_split(v0 * wscale, v1 * wscale, fh[0][c][e], fl[0][c][e]);
                    }
                return;
            }
            if constexpr (H) {                        // 16-bit: the m16n8k16 fragment, in fh[0]
                const unsigned short* ws16 = reinterpret_cast<const unsigned short*>(raw + st * RAW);
#pragma unroll
                for (int c = 0; c < NC; ++c)
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const int h = e & 1, ch = 2 * tq + 8 * (e >> 1);
                        const int o = a_off(h, c);
                        fh[0][c][e] = o >= 0 ? ws16[ch * WP + o] | ((unsigned)ws16[(ch + 1) * WP + o] << 16) : 0u;
                    }
                return;
            }
            const float* ws = ring + st * RAW;
#pragma unroll
            for (int s8 = 0; s8 < CK / 8; ++s8)
#pragma unroll
                for (int c = 0; c < NC; ++c)
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const int h = e & 1, kk = e >> 1;
                        const int o = a_off(h, c);
                        const float v = o >= 0 ? ws[(8 * s8 + tq + 4 * kk) * WP + o] : 0.f;
                        fh[s8][c][e] = tf32_round(v);
                        fl[s8][c][e] = __float_as_uint(v - __uint_as_float(fh[s8][c][e]));
                    }
        };
        // F3: each thread measures the elements it copied into raw stage st (visible to it
        // once its copies have landed: no barrier of its own) into slot sl, before the
        // barrier that makes the chunk visible; after it, scales() reads the chunk's {2^sx,
        // 2^sw} and their inverses into u. (The loops mirror load's; staged values the
        // products do not use, zeros and neighbouring columns, cannot raise the maximum
        // beyond what the tile's x holds.)
        auto measure = [&](int st, int sl) {
            const int lane = opaque(tid) & 31;
            // largest finite exponent of this lane's share of row r: 16-byte reads of
            // [0, n_vec) where vec, else element-wise over [0, n)
            auto row_max = [&](unsigned m, const float* r, bool vec, int n_vec, int n) -> unsigned {
                if (vec) {
#pragma unroll
                    for (int o = 4 * lane; o < n_vec; o += 128) {
                        const float4 v = *reinterpret_cast<const float4*>(r + o);
                        m = max(m, max(max(finite_exp(v.x), finite_exp(v.y)), max(finite_exp(v.z), finite_exp(v.w))));
                    }
                } else {
#pragma unroll
                    for (int o = lane; o < n; o += 32) m = max(m, finite_exp(r[o]));
                }
                return m;
            };
            unsigned mx = 0, mw = 0;
#pragma unroll
            for (int c0 = 0; c0 < CK; c0 += WARPS) {
                mw = row_max(mw, ring + st * RAW + (c0 + warp) * WP, w_vec, WCO, WCO);
                mx = row_max(mx, ring + st * RAW + CK * WP + (c0 + warp) * XP, x_vec, XP, XW);
            }
            mx = __reduce_max_sync(0xffffffffu, mx);
            mw = __reduce_max_sync(0xffffffffu, mw);
            if (lane == 0) {
                atomicMax(&emax[sl][0], mx);
                atomicMax(&emax[sl][1], mw);
            }
        };
        auto scales = [&](int sl, float (&u)[2]) -> float2 {
            const int sx = f16_scale_exp(emax[sl][0]), sw = f16_scale_exp(emax[sl][1]);
            u[0] = pow2(-sx);
            u[1] = pow2(-sw);
            return make_float2(pow2(sx), pow2(sw));
        };
        // chunk ch's products into t, asynchronously, small terms first
        constexpr unsigned SWZ = SW ? 2 : 0;
        constexpr unsigned B_LBO = SW ? 16 : XW * 16, B_SBO = SW ? 8 * CK * 4 : 128;
        auto issue = [&](int b, float (&tt)[R], const Frags& fh, const Frags& fl, bool fresh) {
            if constexpr (F3) {                       // 16-bit layout as below, hi and lo
                const unsigned long long bh = smem_desc(ops + b * 2 * B_F + 4 * wn * NW, XW * 16, 128, 0);
                const unsigned long long bl = smem_desc(ops + b * 2 * B_F + B_F + 4 * wn * NW, XW * 16, 128, 0);
                wgmma_fence();
                if (CT1D_WGMMA_ABLATE != 1 && CT1D_WGMMA_ABLATE != 4) {
#pragma unroll
                    for (int c = 0; c < NC; ++c) {
                        Wgmma16<NW, false>::mma(tt, fl[0][c], bh + (CMAX - c), !fresh || c > 0);
                        Wgmma16<NW, false>::mma(tt, fh[0][c], bl + (CMAX - c), 1);
                    }
                }
#pragma unroll
                for (int c = 0; c < NC; ++c)
                    if (CT1D_WGMMA_ABLATE != 1)
                        Wgmma16<NW, false>::mma(tt, fh[0][c], bh + (CMAX - c),
                                                CT1D_WGMMA_ABLATE != 4 || !fresh || c > 0);
                wgmma_commit();
                return;
            }
            if constexpr (H) {                        // one product per column offset
                // unit (j, q) at 16 (q XW + j) bytes: core matrices 8 columns x 16 bytes,
                // XW * 16 bytes apart along k, 128 along n; offset c starts CMAX - c units on
                const unsigned long long bd = smem_desc(ops + b * B_F + 4 * wn * NW, XW * 16, 128, 0);
                wgmma_fence();
#pragma unroll
                for (int c = 0; c < NC; ++c)
                    if (CT1D_WGMMA_ABLATE != 1)
                        Wgmma16<NW, is_bf16<T>::value>::mma(tt, fh[0][c], bd + (CMAX - c), !fresh || c > 0);
                wgmma_commit();
                return;
            }
            const float* base = ops + b * 2 * B_F;
            const unsigned long long bh = smem_desc(base + b_unit(wn * NW, 0), B_LBO, B_SBO, SWZ);
            const unsigned long long bl = smem_desc(base + B_F + b_unit(wn * NW, 0), B_LBO, B_SBO, SWZ);
            wgmma_fence();
#pragma unroll
            for (int s8 = 0; s8 < CK / 8; ++s8)
#pragma unroll
                for (int c = 0; c < NC; ++c) {
                    // 16-byte steps: k8 step s8 is units 2s8, 2s8+1 (swizzled: 32 bytes
                    // into the row; the hardware applies the XOR); offset c its rows
                    const unsigned b_step = SW ? ((CMAX - c) * CK * 4 + s8 * 32) / 16
                                               : 2 * s8 * XW + CMAX - c;
                    const int accumulate = !fresh || s8 + c > 0;
                    if (CT1D_WGMMA_ABLATE == 1) continue;
                    if (CT1D_WGMMA_ABLATE != 4) {
                        Wgmma<NW>::mma(tt, fl[s8][c], bh + b_step, accumulate);
                        Wgmma<NW>::mma(tt, fh[s8][c], bl + b_step, 1);
                    }
                    Wgmma<NW>::mma(tt, fh[s8][c], bh + b_step, CT1D_WGMMA_ABLATE != 4 || accumulate);
                }
            wgmma_commit();
        };

        // prologue: chunks 0 .. RS-1 requested; chunk 0's x split into buffer 0, its A loaded
        Frags fh0, fl0, fh1, fl1;
        load(0, 0);
        cp_async_commit();
#pragma unroll
        for (int st = 1; st < RS; ++st) {
            if (st < n_chunks) load(st, st);
            cp_async_commit();
        }
        cp_async_wait<RS - 1>();
        if (F3) measure(0, 0);
        __syncthreads();
        float u0s[2] = {1.f, 1.f}, u1s[2] = {1.f, 1.f};   // F3: chunks' unscaling factors
        {
            const float2 sc = F3 ? scales(0, u0s) : make_float2(1.f, 1.f);
            split_b(0, 0, sc.x);
            load_a(0, fh0, fl0, sc.y);
        }
        __syncthreads();

        float acc[R], t[R];
#pragma unroll
        for (int i = 0; i < R; ++i) acc[i] = t[i] = 0.f;
        // One chunk: its products are queued behind the previous chunk's (same product set
        // t, FLUSH chunks per set); meanwhile chunk ch+RS is requested into the raw stage of
        // chunk ch (its A is in registers, its x split), and once chunk ch-1's wgmmas are
        // done, chunk ch+1's x is split into their operand buffer and its A loaded into
        // their fragment registers. Every FLUSH-th chunk the set is waited for and added.
        auto step = [&](int ch, const Frags& fh, const Frags& fl, Frags& nh, Frags& nl,
                        const float (&u)[2], float (&nu)[2]) {
            if constexpr (DIRECT) issue(ch & 1, acc, fh, fl, ch == 0);
            else issue(ch & 1, t, fh, fl, ch % FLUSH == 0);
            const bool more = CT1D_WGMMA_ABLATE != 2 || ch < 1;
            float wscale = 1.f;                       // (ONE_A: chunk ch+1's, for load_a)
            if (ch + 1 < n_chunks && more) {
                cp_async_wait<RS - 2>();              // chunk ch+1 landed (this thread's copies)
                if (F3) measure((unsigned)(ch + 1) % RS, (ch + 1) & 1);
                __syncthreads();                      // ... everyone's; chunk ch's A loaded
                // chunk ch's slot, read in the previous step, free for chunk ch+2
                if (F3 && tid < 2) emax[ch & 1][tid] = 0;
                if (ch + RS < n_chunks) load(ch + RS, (unsigned)ch % RS);
                cp_async_commit();
                wgmma_wait<1>();                      // chunk ch-1's wgmmas are done
                const int st = (unsigned)(ch + 1) % RS;
                const float2 sc = F3 ? scales((ch + 1) & 1, nu) : make_float2(1.f, 1.f);
                split_b(st, (ch + 1) & 1, sc.x);
                if constexpr (ONE_A) wscale = sc.y;
                else load_a(st, nh, nl, sc.y);
            }
            if constexpr (DIRECT) {
                if (ch + 1 == n_chunks) {
                    wgmma_wait<0>();
                    wgmma_fence_regs(acc);
                }
            } else if (ch % FLUSH == FLUSH - 1 || ch + 1 == n_chunks) {
                wgmma_wait<0>();
                wgmma_fence_regs(t);
#pragma unroll
                for (int i = 0; i < R; ++i) acc[i] = F3 ? fmaf(t[i] * u[0], u[1], acc[i]) : acc[i] + t[i];
            }
            if constexpr (ONE_A)                      // (F3 waited for chunk ch's products above)
                if (ch + 1 < n_chunks && more) load_a((unsigned)(ch + 1) % RS, nh, nl, wscale);
            __syncthreads();                          // chunk ch+1's x split and visible
        };
        // (ONE_A: one fragment set, refilled once its products are done)
        Frags& fh1_ = ONE_A ? fh0 : fh1;
        Frags& fl1_ = ONE_A ? fl0 : fl1;
        for (int ch = 0; ch < n_chunks; ch += 2) {
            step(ch, fh0, fl0, fh1_, fl1_, u0s, u1s);
            if (ch + 1 < n_chunks) step(ch + 1, fh1_, fl1_, fh0, fl0, u1s, u0s);
        }
        cp_async_wait<0>();
        __syncthreads();                              // the ring is free for the output tile
        if (F3 && tid < 4) emax[tid >> 1][tid & 1] = 0;   // (the next tile's prologue measures)

        // accumulator d[4i + q] of warp (wm, w4): row m = 64wm + 16w4 + gq + 8(q>>1), position
        // n = wn*NW + 8i + 2tq + (q&1); row m is channel m div S, class m mod S
        const int gq = opaque(lane) >> 2, tq = opaque(lane) & 3;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int m = wm * 64 + (warp & 3) * 16 + gq + 8 * h;
            const int co = m / S, r = m - co * S;
            if (co < CO_B) {
                const float b = (bg != nullptr && co < co_n) ? to_acc(bg[co]) : 0.f;
#pragma unroll
                for (int i = 0; i < R / 4; ++i) {
                    const int n = wn * NW + 8 * i + 2 * tq;
                    out_s[co * OP + n * S + r] = acc[4 * i + 2 * h] + b;
                    out_s[co * OP + (n + 1) * S + r] = acc[4 * i + 2 * h + 1] + b;
                }
            }
        }
        __syncthreads();
        // copy-out, coalesced along each row: tile column p is output o0 + p
        const int o0 = u0 * S - pad;
        if (y_vec && CT1D_WGMMA_ABLATE != 3) {        // a warp per row, 16-byte stores
            // the aligned quads 4q .. 4q+3 from q0 = floor(o0 / 4) cover the tile's outputs;
            // quads a neighbouring tile or the row's ends share are stored element-wise
            static_assert(OW % 4 == 0, "NQ quads cover a tile only when OW is whole quads");
            constexpr int NQ = OW / 4 + 1;
            const int q0 = o0 >> 2;
            const int lo = max(o0, 0), hi = min(o0 + OW, L_out);
            for (int row = warp; row < co_n; row += WARPS) {
                const float* src = out_s + row * OP;                  // output o at o - o0
                T* dst = yb + (long long)row * L_out;
                for (int qi = lane; qi < NQ; qi += 32) {
                    const int o = 4 * (q0 + qi), p = o - o0;
                    if (o >= lo && o + 4 <= hi) {
                        *reinterpret_cast<float4*>(dst + o) = make_float4(src[p], src[p + 1], src[p + 2], src[p + 3]);
                    } else {
#pragma unroll
                        for (int k = 0; k < 4; ++k)
                            if (o + k >= lo && o + k < hi) dst[o + k] = from_acc<T>(src[p + k]);
                    }
                }
            }
        }
        for (int e = tid; e < (CT1D_WGMMA_ABLATE == 3 || y_vec ? 0 : co_n * OW); e += THREADS) {
            const int row = e / OW, p = e - row * OW, o = o0 + p;
            if (o >= 0 && o < L_out) yb[(long long)row * L_out + o] = from_acc<T>(out_s[row * OP + p]);
        }
        __syncthreads();                              // out_s read before the next ring fill
    }
#else
    __trap();                                         // sm_90a only: the dispatcher knows
#endif
}
