// Probe (session 79; not a library family): float32 transposed convolution of one group as
// a GEMM whose rows are (output channel, tap) pairs and whose reduction runs over input
// channels only, followed by a fixed-order overlap-add per tile. Meant for wide reductions
// to few output channels, where ct1d_wgmma's (channel, class) rows are mostly padding
// (u08: 5.5x the useful products) and ct1d_narrow runs on CUDA cores (benchmarks/NOTES.md,
// session 79). benchmarks/tap_rows_model.py is the same tiling in NumPy;
// benchmarks/taprows_probe.py runs this against float64 and times it.
//
// Block: 8 warps, 2 (rows) x 4 (columns). Tile t stages the columns u in
// [t*NU - CMAX, t*NU + NU) (NCOL = 128, CMAX = (K-1)*D div S of halo) and owns the outputs
// o = t*S*NU - P + j, j in [0, S*NU):
//   Y[(co, k), u] = sum over ci of w[ci, co, k] * x[ci, u]     (3xTF32 on m16n8k8 MMAs)
//   y[o] = bias[co] + sum over k (increasing) with j = k*D (mod S) of Y[(co, k), (j - k*D)/S]
// Each chunk of 16 input channels (w[ci][0:COUT*K] and x[ci][window], 4-byte cp.async into a
// two-stage ring) is multiplied 8 channels at a time into a product that one float32 add
// per element folds into the running sums (the tensor cores truncate what they accumulate).
#include "../../kernels/ct1d_tensor.cuh"

template <int S, int D, int K, int COUT, int WM>
__global__ void __launch_bounds__(256, WM <= 4 ? 2 : 1) taprows(const float* __restrict__ x, const float* __restrict__ w,
                                               const float* __restrict__ bias, float* __restrict__ y,
                                               int C_in, int L_in, int L_out, int P) {
    constexpr int R = COUT * K;                // GEMM rows: row co*K + k (w's own order)
    constexpr int RB = 32 * WM;                // a block's rows: 2 row warps x WM m16 tiles
    static_assert(R <= RB, "COUT * K rows must fit the block");
    constexpr int NCOL = 128;                  // 4 column warps x 4 n8 tiles
    constexpr int CMAX = (K - 1) * D / S;
    constexpr int NU = NCOL - CMAX;            // the positions a tile owns
    static_assert(NU > 0, "halo wider than the tile");
    constexpr int CK = 16;                     // input channels per chunk: two k8 steps
    constexpr int WP = pitch_8_mod_32(RB);     // pitches 8 mod 32: conflict-free fragments
    constexpr int XP = pitch_8_mod_32(NCOL);
    constexpr int STAGE = CK * (WP + XP);
    constexpr int YP = NCOL + 4;
    extern __shared__ float smem[];            // two stages, then the tile's Y [RB][YP]

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wr = warp >> 2, wc = warp & 3;
    const int g = lane >> 2, t = lane & 3;
    const int tile = blockIdx.x, n = blockIdx.y;
    const int u0 = tile * NU - CMAX;           // the first staged column
    const float* xn = x + (long long)n * C_in * L_in;

    auto load = [&](int chunk, int stage) {
        float* ws = smem + stage * STAGE;
        float* xs = ws + CK * WP;
        const int ci0 = chunk * CK;
        for (int e = tid; e < CK * RB; e += 256) {
            const int c = e / RB, r = e % RB;
            const bool ok = ci0 + c < C_in && r < R;
            cp_async4(ws + c * WP + r, ok ? w + (long long)(ci0 + c) * R + r : w, ok ? 4 : 0);
        }
        for (int e = tid; e < CK * NCOL; e += 256) {
            const int c = e / NCOL, j = e % NCOL, u = u0 + j;
            const bool ok = ci0 + c < C_in && u >= 0 && u < L_in;
            cp_async4(xs + c * XP + j, ok ? xn + (long long)(ci0 + c) * L_in + u : x, ok ? 4 : 0);
        }
        cp_async_commit();
    };

    float acc[WM][4][4];
    zero_tiles(acc);
    const int chunks = (C_in + CK - 1) / CK;
    load(0, 0);
    for (int ch = 0; ch < chunks; ++ch) {
        if (ch + 1 < chunks) {
            load(ch + 1, (ch + 1) & 1);
            cp_async_wait<1>();
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();
#pragma unroll 1                               // (unrolled: NVRTC spills)
        for (int ks = 0; ks < CK / 8; ++ks) {
            const float* ws = smem + (ch & 1) * STAGE + ks * 8 * WP;
            const float* xs = smem + (ch & 1) * STAGE + CK * WP + ks * 8 * XP;
            unsigned bh[4][2], bl[4][2];
#pragma unroll
            for (int nt = 0; nt < 4; ++nt) {       // B (k x n): b0 = (t, g), b1 = (t + 4, g)
                const int col = wc * 32 + nt * 8 + g;
                tf32_split(xs[t * XP + col], bh[nt][0], bl[nt][0]);
                tf32_split(xs[(t + 4) * XP + col], bh[nt][1], bl[nt][1]);
            }
#pragma unroll
            for (int mt = 0; mt < WM; ++mt) {      // A (m x k): (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)
                const int row = (wr * WM + mt) * 16 + g;
                uint4 ah, al;
                tf32_split(ws[t * WP + row], ah.x, al.x);
                tf32_split(ws[t * WP + row + 8], ah.y, al.y);
                tf32_split(ws[(t + 4) * WP + row], ah.z, al.z);
                tf32_split(ws[(t + 4) * WP + row + 8], ah.w, al.w);
#pragma unroll
                for (int nt = 0; nt < 4; ++nt)
                    mma_tf32x3(acc[mt][nt], ah, al, bh[nt][0], bh[nt][1], bl[nt][0], bl[nt][1]);
            }
        }
        __syncthreads();                       // this stage is the next iteration's load target
    }

    float* ys = smem;                          // c0 (g, 2t), c1 (g, 2t + 1), c2/c3 at g + 8
#pragma unroll
    for (int mt = 0; mt < WM; ++mt)
#pragma unroll
        for (int nt = 0; nt < 4; ++nt) {
            const int row = (wr * WM + mt) * 16 + g, col = wc * 32 + nt * 8 + 2 * t;
            ys[row * YP + col] = acc[mt][nt][0];
            ys[row * YP + col + 1] = acc[mt][nt][1];
            ys[(row + 8) * YP + col] = acc[mt][nt][2];
            ys[(row + 8) * YP + col + 1] = acc[mt][nt][3];
        }
    __syncthreads();
    const int o0 = tile * S * NU - P;
    for (int e = tid; e < COUT * S * NU; e += 256) {
        const int co = e / (S * NU), j = e % (S * NU), o = o0 + j;
        if (o < 0 || o >= L_out) continue;
        float v = bias != nullptr ? bias[co] : 0.f;
#pragma unroll
        for (int k = 0; k < K; ++k)
            if ((j - k * D) % S == 0)          // (exact division below; C++ truncation is exact)
                v += ys[(co * K + k) * YP + (j - k * D) / S + CMAX];
        y[((long long)n * COUT + co) * L_out + o] = v;
    }
}

