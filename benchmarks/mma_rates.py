"""Peak mma.sync rates on this GPU: tf32 m16n8k8, f16/bf16 m16n8k16 (f32 accumulate).

Decides the arithmetic of the memory-bound tensor-core path: 3xTF32 needs 3 m16n8k8 per
8 products, a scaled 3xFP16 split 3 m16n8k16 per 16 products. Each warp issues chains of
independent MMAs (ACC accumulators); reports MMAs per SM per clock and TFLOP/s.
Run: python benchmarks/mma_rates.py
"""
import json
import sys

import cupy as cp

SRC = r"""
template <int KIND, int ACC>
__global__ void mma_loop(float* out, int iters) {
    unsigned a0 = threadIdx.x, a1 = a0 * 3u, a2 = a0 * 5u, a3 = a0 * 7u, b0 = a0 + 1u, b1 = a0 + 2u;
    float d[ACC][4];
    for (int i = 0; i < ACC; ++i) for (int q = 0; q < 4; ++q) d[i][q] = 0.f;
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int i = 0; i < ACC; ++i) {
            if (KIND == 0)
                asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                    : "+f"(d[i][0]), "+f"(d[i][1]), "+f"(d[i][2]), "+f"(d[i][3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
            else if (KIND == 1)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                    : "+f"(d[i][0]), "+f"(d[i][1]), "+f"(d[i][2]), "+f"(d[i][3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
            else
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                    : "+f"(d[i][0]), "+f"(d[i][1]), "+f"(d[i][2]), "+f"(d[i][3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        }
    }
    float s = 0.f;
    for (int i = 0; i < ACC; ++i) for (int q = 0; q < 4; ++q) s += d[i][q];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
"""


def main():
    names = [f"mma_loop<{k}, {a}>" for k in (0, 1, 2) for a in (4, 8)]
    mod = cp.RawModule(code=SRC, options=("-std=c++17",), name_expressions=names)
    dev = cp.cuda.Device()
    sms = dev.attributes["MultiProcessorCount"]
    clock_khz = dev.attributes["ClockRate"]
    rows = []
    for name in names:
        kind, acc = [int(v) for v in name[name.index("<") + 1:-1].split(",")]
        k = mod.get_function(name)
        for warps_per_sm in (8, 16, 32):
            blocks, threads, iters = sms * warps_per_sm // 4, 128, 4096
            out = cp.empty(blocks * threads, cp.float32)
            k((blocks,), (threads,), (out, cp.int32(iters)))
            s, e = cp.cuda.Event(), cp.cuda.Event()
            times = []
            for _ in range(5):
                s.record(); k((blocks,), (threads,), (out, cp.int32(iters))); e.record(); e.synchronize()
                times.append(cp.cuda.get_elapsed_time(s, e) * 1e-3)
            t = sorted(times)[len(times) // 2]
            mmas = blocks * 4 * iters * acc
            kdim = 8 if kind == 0 else 16
            flops = mmas * 16 * 8 * kdim * 2
            row = dict(kind=("tf32 m16n8k8", "f16 m16n8k16", "bf16 m16n8k16")[kind], acc=acc,
                       warps_per_sm=warps_per_sm, ms=t * 1e3, tflops=flops / t / 1e12,
                       mma_per_sm_per_us=mmas / sms / t / 1e6)
            rows.append(row)
            print(f"{row['kind']:15s} acc={acc} warps/SM={warps_per_sm:2d}  {row['tflops']:7.1f} TFLOP/s  "
                  f"{row['mma_per_sm_per_us']:7.1f} MMA/SM/us (clock attr {clock_khz/1e3:.0f} MHz)")
    if len(sys.argv) > 1:
        json.dump(rows, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()
