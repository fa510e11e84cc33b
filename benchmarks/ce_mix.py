"""Would the copy engine beat the SMs at the seed's 1:4 read/write mix?

    python benchmarks/ce_mix.py   (GPU machine, repo root or benchmarks/)

The premise of the one big untried idea in NOTES.md ("output tiles staged in an
L2-resident buffer, moved by cudaMemcpyAsync on a second stream"): SM-issued traffic at
the seed's mix (0.27 GB of reads, 1.07 GB of writes) runs at <= 3.65 TB/s however it is
issued, while a copy-engine copy (1:1) runs at ~4.19. That only matters if the engine's
DRAM traffic mixes better with the SMs' than the SMs' own does. Measured here without any
convolution (CUDA events, median of 20 after warm-up), each part alone and both at once on
two streams:

  ce write     y written by cudaMemcpyAsync from a small source that stays in L2
               (chunks of CHUNK bytes), so DRAM sees the writes only
  ce read      x read by cudaMemcpyAsync into a small L2-resident destination
  sm read/write/mix  grid-stride float4 kernels (mix: 1 read, 4 coalesced writes)
  sm read + ce write   both at once: the seed's bytes with the writes on the engine;
               the read kernel runs B blocks so that its rate matches the engine's
  sm write + ce read   the other way round

The makespan of a concurrent pair (start on one stream to the later of the two ends)
over the seed's 1.342 GB gives the rate to compare with "sm mix" and the copy.
"""
import cupy
import numpy as np

SRC = r"""
extern "C" __global__ void rd(const float4* __restrict__ x, long long n4, float* sink) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    float acc = 0.f;
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {          // four loads in flight
        const float4 a = __ldg(x + i), b = __ldg(x + i + stride);
        const float4 c = __ldg(x + i + 2 * stride), d = __ldg(x + i + 3 * stride);
        acc += a.x + b.y + c.z + d.w;
    }
    for (; i < n4; i += stride) acc += __ldg(x + i).x;
    if (acc == -1.2345f) sink[0] = acc;                      // keeps the loads
}
extern "C" __global__ void wr(float4* __restrict__ y, long long n4, float v) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += stride)
        y[i] = make_float4(v, v, v, v);
}
// each float4 of x read once, four float4s of y written: a warp's 32 reads feed 128
// consecutive float4s of y (512 contiguous bytes per store instruction)
extern "C" __global__ void mix(const float4* __restrict__ x, float4* __restrict__ y, long long n4x) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    const int lane = threadIdx.x & 31;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4x; i += stride) {
        const float4 v = __ldg(x + i);
        float4* yw = y + (i - lane) * 4 + lane;
#pragma unroll
        for (int k = 0; k < 4; ++k) yw[32 * k] = v;
    }
}
"""

GB = 1e9


def main():
    mod = cupy.RawModule(code=SRC)
    rd, wr, mix = (mod.get_function(n) for n in ("rd", "wr", "mix"))
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    l2 = cupy.cuda.Device().attributes["L2CacheSize"]
    nx = 16 * 32 * 131072                         # the seed's x in floats (y = 4x)
    x = cupy.random.standard_normal(nx, dtype=cupy.float32)
    y = cupy.empty(4 * nx, cupy.float32)
    sink = cupy.zeros(1, cupy.float32)
    bx, by = x.nbytes, y.nbytes
    n4x = np.int64(nx // 4)
    sa = cupy.cuda.Stream(non_blocking=True)
    sb = cupy.cuda.Stream(non_blocking=True)
    print(f"{sms} SMs, L2 {l2 / 2**20:.0f} MiB; x {bx / GB:.3f} GB, y {by / GB:.3f} GB", flush=True)

    def ce_copy(dst, src, nbytes, stream):
        cupy.cuda.runtime.memcpyAsync(dst, src, nbytes, cupy.cuda.runtime.memcpyDeviceToDevice,
                                      stream.ptr)

    def ce_write(chunk):
        src = cupy.random.standard_normal(chunk // 4, dtype=cupy.float32)

        def go(stream):
            for off in range(0, by, chunk):
                ce_copy(y.data.ptr + off, src.data.ptr, min(chunk, by - off), stream)
        return go

    def ce_read(chunk):
        dst = cupy.empty(chunk // 4, cupy.float32)

        def go(stream):
            for off in range(0, bx, chunk):
                ce_copy(dst.data.ptr, x.data.ptr + off, min(chunk, bx - off), stream)
        return go

    def sm_read(blocks):
        return lambda stream: rd((blocks,), (256,), (x, n4x, sink), stream=stream)

    def sm_write(blocks):
        return lambda stream: wr((blocks,), (256,), (y, np.int64(by // 16), np.float32(1.5)),
                                 stream=stream)

    def sm_mix(blocks):
        return lambda stream: mix((blocks,), (256,), (x, y, n4x), stream=stream)

    def timed(parts, reps=20, warmup=3):
        """Median makespan (ms) and per-part end times of parts (fn(stream)) started
        together on streams sa, sb."""
        streams = (sa, sb)[:len(parts)]
        res = []
        for it in range(warmup + reps):
            start = cupy.cuda.Event()
            start.record(sa)
            for s in streams[1:]:
                s.wait_event(start)
            ends = []
            for fn, s in zip(parts, streams):
                fn(s)
                e = cupy.cuda.Event()
                e.record(s)
                ends.append(e)
            for e in ends:
                e.synchronize()
            if it >= warmup:
                t = [cupy.cuda.get_elapsed_time(start, e) for e in ends]
                res.append([max(t)] + t)
        return np.median(np.array(res), axis=0)

    rows = []

    def row(label, nbytes, parts):
        t = timed(parts)
        ends = " ".join(f"{v:.3f}" for v in t[1:]) if len(parts) > 1 else ""
        rows.append((label, nbytes, t[0], ends))
        print(f"{label:44s} {nbytes / GB:6.3f} GB {t[0]:7.3f} ms {nbytes / t[0] / 1e6:6.0f} GB/s  {ends}",
              flush=True)

    big = cupy.empty(by // 4, cupy.float32)       # 1.07 GB both ways, for the copy rate
    row("ce copy 1:1", 2 * by, [lambda s: ce_copy(big.data.ptr, y.data.ptr, by, s)])
    big = None                                    # (its memory back to the pool)
    for chunk in (4 << 20, 16 << 20):
        row(f"ce write alone, {chunk >> 20} MiB chunks", by, [ce_write(chunk)])
        row(f"ce read alone, {chunk >> 20} MiB chunks", bx, [ce_read(chunk)])
    row("sm write alone", by, [sm_write(4 * sms)])
    row("sm read alone", bx, [sm_read(4 * sms)])
    row("sm mix rd1wr4", bx + by, [sm_mix(8 * sms)])
    for chunk in (4 << 20, 16 << 20):
        w = ce_write(chunk)
        for blocks in (8, 16, 33, 66, 132):
            row(f"sm read {blocks} blocks + ce write {chunk >> 20} MiB", bx + by, [sm_read(blocks), w])
        r = ce_read(chunk)
        for blocks in (132, 528):
            row(f"sm write {blocks} blocks + ce read {chunk >> 20} MiB", bx + by, [sm_write(blocks), r])
    print("\nseed floor at the copy rate: 1.342 GB; SM mixes measured before: <= 3.65 TB/s")


if __name__ == "__main__":
    main()
