"""Would float64 gain from the tensor cores? The float64 DMMA (mma.sync m8n8k4 f64) against
FP64 FMAs on CUDA cores, and a check that a TF32 m16n8k8 tile's fragments feed DMMA as-is.

Session 70 sent float64 calls that only ct1d_scatter would take to ct1d_narrow (CUDA cores):
the wide dense layers still trail torch fp64 (0.5-0.9x; torch reaches 9-17 TFLOP/s there).
The tensor-core families hold m16n8k8 TF32 fragments, whose lane positions are exactly
those of four m8n8k4 DMMAs: with g = lane / 4, t = lane % 4,

    A 16x8: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4)   DMMA A 8x4: (g, t)
    B 8x8:  b0 (t, g), b1 (t+4, g)                                DMMA B 4x8: (t, g)
    C 16x8: c0, c1 (g, 2t + i), c2, c3 (g+8, 2t + i)              DMMA C 8x8: (g, 2t + i)

    so  C[0:8]  += DMMA(a0, b0) then DMMA(a2, b1)   (k 0-3, then 4-7)
        C[8:16] += DMMA(a1, b0) then DMMA(a3, b1)

i.e. a float64 instance of such a family keeps its tile loops and loads doubles where it
loads floats (its shared-memory pitches would need new bank arithmetic for 8-byte
elements). This script checks that mapping on random data against NumPy (float64, each
output a k = 8 dot product in FMA order: within a few ulps), then measures the rates:
DMMA chains and DFMA chains (independent accumulators per thread), TFLOP/s per dtype.

    python benchmarks/dmma_probe.py [OUT.json]        (GPU machine; PYTHONPATH=.:benchmarks)
"""
import json
import sys

import cupy as cp
import numpy as np

from gpu_timing import events_ms

SRC = r"""
__device__ __forceinline__ void dmma(double& c0, double& c1, double a, double b) {
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(c0), "+d"(c1) : "d"(a), "d"(b));
}

// One warp: C (16x8, row-major) = A (16x8, row-major) @ B (8x8, row-major) through the
// m16n8k8 fragment positions and four DMMAs
__global__ void tile_m16n8k8_f64(const double* A, const double* B, double* C) {
    const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    const double a0 = A[g * 8 + t], a1 = A[(g + 8) * 8 + t];
    const double a2 = A[g * 8 + t + 4], a3 = A[(g + 8) * 8 + t + 4];
    const double b0 = B[t * 8 + g], b1 = B[(t + 4) * 8 + g];
    double c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    dmma(c0, c1, a0, b0);
    dmma(c0, c1, a2, b1);
    dmma(c2, c3, a1, b0);
    dmma(c2, c3, a3, b1);
    C[g * 8 + 2 * t] = c0;       C[g * 8 + 2 * t + 1] = c1;
    C[(g + 8) * 8 + 2 * t] = c2; C[(g + 8) * 8 + 2 * t + 1] = c3;
}

// ACC independent chains per thread, ITERS steps each
template <int ACC>
__global__ void dmma_loop(double* out, int iters) {
    double a = 1.0 + threadIdx.x * 1e-9, b = 1.0 - threadIdx.x * 1e-9;
    double d[ACC][2];
    for (int i = 0; i < ACC; ++i) d[i][0] = d[i][1] = 0.0;
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int i = 0; i < ACC; ++i) dmma(d[i][0], d[i][1], a, b);
    }
    double s = 0.0;
    for (int i = 0; i < ACC; ++i) s += d[i][0] + d[i][1];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int ACC>
__global__ void dfma_loop(double* out, int iters) {
    double a = 1.0 + threadIdx.x * 1e-9, b = 1.0 - threadIdx.x * 1e-9;
    double d[ACC];
    for (int i = 0; i < ACC; ++i) d[i] = i;
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int i = 0; i < ACC; ++i) d[i] = fma(a, d[i], b);
    }
    double s = 0.0;
    for (int i = 0; i < ACC; ++i) s += d[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
"""

NAMES = ["tile_m16n8k8_f64"] + [f"{k}<{a}>" for k in ("dmma_loop", "dfma_loop") for a in (4, 8)]


def check_mapping(mod, trials: int = 20) -> float:
    """Largest relative error of the four-DMMA tile against NumPy over random tiles."""
    k = mod.get_function("tile_m16n8k8_f64")
    rng = np.random.default_rng()
    worst = 0.0
    for _ in range(trials):
        a, b = rng.standard_normal((16, 8)), rng.standard_normal((8, 8))
        c = cp.full((16, 8), np.nan)
        k((1,), (32,), (cp.asarray(a), cp.asarray(b), c))
        ref = a @ b
        err = float(np.max(np.abs(cp.asnumpy(c) - ref)) / np.max(np.abs(ref)))
        worst = max(worst, err)
    return worst


def rates(mod):
    dev = cp.cuda.Device()
    sms = dev.attributes["MultiProcessorCount"]
    rows = []
    for name in NAMES[1:]:
        kind, acc = name.split("<")[0], int(name[name.index("<") + 1:-1])
        k = mod.get_function(name)
        for warps_per_sm in (8, 16, 32):
            blocks, threads, iters = sms * warps_per_sm // 4, 128, 2048
            out = cp.empty(blocks * threads, cp.float64)
            t = events_ms(lambda: k((blocks,), (threads,), (out, cp.int32(iters))), reps=7) * 1e-3
            # a DMMA is 8x8x4 = 256 FMAs per warp; a DFMA one FMA per thread
            fmas = blocks * threads * iters * acc * (256 / 32 if kind == "dmma_loop" else 1)
            row = dict(kind=kind, acc=acc, warps_per_sm=warps_per_sm, ms=t * 1e3,
                       tflops=2 * fmas / t / 1e12)
            rows.append(row)
            print(f"{kind:9s} acc={acc} warps/SM={warps_per_sm:2d}  {row['tflops']:6.1f} TFLOP/s fp64",
                  flush=True)
    return rows


def main():
    mod = cp.RawModule(code=SRC, options=("-std=c++17",), name_expressions=NAMES)
    err = check_mapping(mod)
    print(f"m16n8k8 tile by four DMMAs vs NumPy: largest relative error {err:.1e}", flush=True)
    rows = rates(mod)
    if len(sys.argv) > 1:
        json.dump(dict(mapping_err=err, rates=rows), open(sys.argv[1], "w"), indent=1)
    sys.exit(0 if err < 1e-14 else 1)


if __name__ == "__main__":
    main()
