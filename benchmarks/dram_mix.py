"""Does DRAM pay for mixing reads into writes, and do grid-wide phases avoid it?

    python benchmarks/dram_mix.py   (GPU machine, repo root)

The seed moves 0.27 GB in and 1.07 GB out. Writes alone run at ~4.2 TB/s and so does a
copy, but the seed's 1:4 mix ran at ~3.6 TB/s even in plain sequential kernels
(write_floor.py rd1wr4 / rd4wr16, NOTES session 12). This measures (CUDA events, median
of 30 after warm-up, ~1.34 GB per row):
  copies      the runtime's memcpy, a one-float-per-thread copy kernel, rd1wr1
  rd1wrM      each thread reads float4s of x (4 in flight) and writes M float4s of y per
              float4 read (M = 0: reads only): the mix ratio's cost; with streaming
              (evict-first) loads or stores, or one load in flight
  bulk rd1wrM the same through the bulk-copy engine (one thread per block: chunks of x
              into shared memory, M copies out), the way a DMA copy moves data
  phased ...  x and y of the seed's sizes in phases: every block reads its slice of a
              chunk of x into shared memory (8 loads in flight per thread), then writes its
              4x slice of y from there. "grid sync" adds a grid-wide barrier after each
              read burst (and "+w" after each write burst), so the DRAM sees whole-GPU
              read and write bursts; without it each block alternates on its own.
              "L2" reads x in the write phase from L2, where a bulk L2 prefetch put it a
              phase ahead (what a tile kernel could do).
"""
import cupy
import numpy as np

from gpu_timing import events_ms
from write_floor import copy_ms

SRC = r"""
// flags: 1 loads ld.global.cs (streaming: evict first), 2 stores st.global.cs, 8 one load
// in flight per thread
__device__ __forceinline__ float4 ld4(const float4* p, int flags) {
    if (flags & 1) return __ldcs(p);
    return __ldg(p);
}
__device__ __forceinline__ void st4(float4* p, float4 v, int flags) {
    if (flags & 2) __stcs(p, v);
    else *p = v;
}
extern "C" __global__ void rdwr(const float4* __restrict__ x, float4* __restrict__ y, long long n4x, int m,
                                int flags) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    const int depth = (flags & 8) ? 1 : 4;
    float acc = 0.f;
    for (long long i0 = blockIdx.x * (long long)blockDim.x + threadIdx.x; i0 < n4x; i0 += depth * stride) {
        float4 v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k)
            v[k] = k < depth && i0 + k * stride < n4x ? ld4(x + i0 + k * stride, flags) : make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const long long i = i0 + k * stride, blk = i / blockDim.x, t = i % blockDim.x;
            acc += v[k].x;
            if (k < depth && i < n4x)
                for (int j = 0; j < m; ++j) st4(y + (blk * m + j) * blockDim.x + t, v[k], flags);
        }
    }
    if (m == 0 && acc == -1.f) y[0] = make_float4(acc, acc, acc, acc);   // keeps the loads
}
// a copy like an elementwise kernel: one 4-byte element per thread and pass
extern "C" __global__ void copy32(const float* __restrict__ x, float* __restrict__ y, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        y[i] = x[i];
}

// The mix through the bulk-copy engine (TMA), like a DMA copy: one thread per block
// moves chunk-byte pieces of x into shared memory (two stages, mbarrier) and out to m
// consecutive chunks of y (m = 1: a copy)
extern "C" __global__ void bulk_mix(const char* __restrict__ x, char* __restrict__ y, long long nx,
                                    int m, int chunk) {
    extern __shared__ __align__(128) unsigned char stage_s[];
    __shared__ __align__(8) unsigned long long mbar[2];
    if (threadIdx.x != 0) return;
    const unsigned mb0 = (unsigned)__cvta_generic_to_shared(&mbar[0]);
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(mb0) : "memory");
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(mb0 + 8) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    const long long n = nx / chunk;
    auto load = [&](long long c, int s) {
        const unsigned dst = (unsigned)__cvta_generic_to_shared(stage_s + s * chunk);
        asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" :: "r"(mb0 + 8 * s), "r"(chunk) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(dst), "l"(x + c * chunk), "r"(chunk), "r"(mb0 + 8 * s) : "memory");
    };
    if ((long long)blockIdx.x < n) load(blockIdx.x, 0);
    int it = 0;
    for (long long c = blockIdx.x; c < n; c += gridDim.x, ++it) {
        const int s = it & 1;
        if (c + gridDim.x < n) {
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");   // stage s^1 read out
            load(c + gridDim.x, s ^ 1);
        }
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(mb0 + 8 * s), "r"((it >> 1) & 1) : "memory");
        const unsigned src = (unsigned)__cvta_generic_to_shared(stage_s + s * chunk);
        for (int j = 0; j < m; ++j)
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                         :: "l"(y + (c * m + j) * chunk), "r"(src), "r"(chunk) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// all blocks of the grid are resident (the host sizes the grid so); gives up after ~2^24
// polls rather than hang the device if that ever fails
__device__ __forceinline__ void grid_sync(unsigned* bar, unsigned target) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(bar, 1u);
        unsigned v;
        for (int spin = 0; spin < (1 << 24); ++spin) {
            asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(bar) : "memory");
            if ((int)(v - target) >= 0) break;
        }
    }
    __syncthreads();
}

// mode bits: 1 grid sync after the read burst, 2 after the write burst, 4 no reads,
// 8 no writes, 16 x from L2 in the write phase (bulk-prefetched a phase ahead)
extern "C" __global__ void phased(const float4* __restrict__ x, float4* __restrict__ y, long long n4x,
                                  int chunk4, int mode, unsigned* bar, unsigned base) {
    extern __shared__ float4 xs[];
    const long long per = (long long)gridDim.x * chunk4;
    unsigned k = 0;
    float acc = 0.f;
    auto prefetch = [&](long long s) {                // this block's slice, 4 KB pieces
        for (int i = threadIdx.x * 256; i < chunk4; i += blockDim.x * 256) {
            const long long n = min((long long)256, min((long long)chunk4 - i, n4x - s - i));
            if (n > 0)
                asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;"
                             :: "l"(x + s + i), "r"((int)n * 16) : "memory");
        }
    };
    if (mode & 16) prefetch((long long)blockIdx.x * chunk4);
    for (long long c0 = 0; c0 < n4x; c0 += per) {
        const long long s = c0 + (long long)blockIdx.x * chunk4;
        if (mode & 16) {
            if (c0 + per < n4x) prefetch(s + per);
        } else if (!(mode & 4)) {
            for (int i0 = threadIdx.x; i0 < chunk4; i0 += 8 * blockDim.x) {
                float4 v[8];
#pragma unroll
                for (int u = 0; u < 8; ++u) {
                    const int i = i0 + u * blockDim.x;
                    v[u] = (i < chunk4 && s + i < n4x) ? x[s + i] : make_float4(0.f, 0.f, 0.f, 0.f);
                }
#pragma unroll
                for (int u = 0; u < 8; ++u) {
                    const int i = i0 + u * blockDim.x;
                    if (i < chunk4) xs[i] = v[u];
                }
            }
        }
        if (mode & 1) grid_sync(bar, base + (++k) * gridDim.x); else __syncthreads();
        if (mode & 8) {
            for (int i = threadIdx.x; i < chunk4; i += blockDim.x) acc += xs[i].x;
        } else if (mode & 16) {
            for (int i0 = threadIdx.x; i0 < 4 * chunk4; i0 += 4 * blockDim.x) {
                float4 v[4];
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    const long long xi = s + (i0 + u * blockDim.x) / 4;
                    v[u] = (i0 + u * blockDim.x < 4 * chunk4 && xi < n4x) ? x[xi] : make_float4(0.f, 0.f, 0.f, 0.f);
                }
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    const int i = i0 + u * blockDim.x;
                    if (i < 4 * chunk4 && 4 * s + i < 4 * n4x) y[4 * s + i] = v[u];
                }
            }
        } else {
            for (int i = threadIdx.x; i < 4 * chunk4; i += blockDim.x) {
                const long long yi = 4 * s + i;
                if (yi < 4 * n4x) y[yi] = (mode & 4) ? make_float4((float)i, 0.f, 0.f, 0.f) : xs[i >> 2];
            }
        }
        if (mode & 2) grid_sync(bar, base + (++k) * gridDim.x); else __syncthreads();
    }
    if ((mode & 8) && acc == -1.f) y[0] = make_float4(acc, acc, acc, acc);
}
"""


def main():
    mod = cupy.RawModule(code=SRC, options=("-std=c++17",))
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    total4 = 16 * 32 * 131072 * 5 // 4               # the seed's float4s moved (x + y)
    y = cupy.empty(4 * total4, np.float32)
    x = cupy.random.rand(total4 * 4, dtype=np.float32)
    rows = []
    print(f"{'kernel':44s} {'GB':>6s} {'ms':>7s} {'GB/s':>6s}")

    def show(row):
        name, nbytes, t = row
        print(f"{name:44s} {nbytes / 1e9:6.3f} {t:7.3f} {nbytes / t / 1e6:6.0f}", flush=True)

    seed_y = y[:16 * 64 * 262144]
    rows.append(("copy (1:1)", 2 * seed_y.nbytes, copy_ms(seed_y)))
    show(rows[-1])

    # the same copy three ways: the runtime's memcpy, one float per thread, rd1wr1
    n = 16 * 64 * 262144
    rows.append(("cudaMemcpyAsync (1:1)", 8 * n, events_ms(lambda: cupy.cuda.runtime.memcpyAsync(
        y.data.ptr, x.data.ptr, 4 * n, cupy.cuda.runtime.memcpyDeviceToDevice,
        cupy.cuda.get_current_stream().ptr))))
    show(rows[-1])
    for grid in (sms * 8, sms * 64, n // 256):
        rows.append((f"copy32 grid {grid}", 8 * n, events_ms(lambda: mod.get_function("copy32")(
            (grid,), (256,), (x, y, np.int64(n))))))
        show(rows[-1])
    rdwr = mod.get_function("rdwr")
    flag_names = {0: "", 1: " ld.cs", 2: " st.cs", 3: " ld.cs st.cs", 8: " 1 in flight"}
    for m, flags in ((0, 0), (1, 0), (1, 1), (1, 2), (1, 8), (2, 0), (3, 0), (4, 0), (4, 1), (4, 2),
                     (4, 3), (4, 8), (8, 0)):
        n4x = total4 // (1 + m)
        rows.append((f"rd1wr{m}{flag_names[flags]}", 16 * n4x * (1 + m), events_ms(lambda: rdwr(
            (sms * 8,), (256,), (x, y, np.int64(n4x), np.int32(m), np.int32(flags))))))
        show(rows[-1])

    bulk = mod.get_function("bulk_mix")
    for m, chunk, bps in ((1, 16384, 6), (1, 4096, 16), (1, 65536, 1), (4, 16384, 6), (4, 4096, 16),
                          (4, 65536, 1), (4, 1024, 16)):
        nx = (4 * n if m == 1 else 4 * n // 4) // chunk * chunk
        bulk.max_dynamic_shared_size_bytes = 2 * chunk
        rows.append((f"bulk rd1wr{m} {chunk // 1024}KB x {bps}/SM", nx * (1 + m), events_ms(lambda: bulk(
            (sms * bps,), (32,), (x, y, np.int64(nx), np.int32(m), np.int32(chunk)), shared_mem=2 * chunk))))
        show(rows[-1])
    phased = mod.get_function("phased")
    bar = cupy.zeros(1, np.uint32)
    n4x = 16 * 32 * 131072 // 4
    names = {0: "per block", 1: "grid sync", 3: "grid sync +w", 4: "writes only",
             5: "writes only, grid sync", 8: "reads only", 16: "L2", 17: "L2, grid sync"}
    for mode, chunk4, bps in ((0, 4096, 2), (1, 4096, 2), (3, 4096, 2), (4, 4096, 2), (5, 4096, 2),
                              (8, 4096, 2), (0, 2048, 3), (1, 2048, 3), (3, 2048, 3), (1, 1024, 4),
                              (16, 4096, 2), (17, 4096, 2), (17, 2048, 2)):
        grid = sms * bps
        smem = chunk4 * 16
        phased.max_dynamic_shared_size_bytes = smem
        # the grid barrier needs every block resident at once
        resident = cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(phased.kernel.ptr, 256, smem)
        if resident < bps:
            print(f"skipped: {bps} blocks per SM of {smem} bytes, only {resident} fit")
            continue
        phases = -(-n4x // (grid * chunk4))
        per_launch = phases * bin(mode & 3).count("1") * grid
        state = {"base": 0}
        bar.fill(0)

        def launch():
            phased((grid,), (256,), (x, y, np.int64(n4x), np.int32(chunk4), np.int32(mode), bar,
                                     np.uint32(state["base"] % 2 ** 32)), shared_mem=smem)
            state["base"] += per_launch
        nbytes = 16 * n4x * ((0 if mode & 4 else 1) + (0 if mode & 8 else 4))
        label = f"phased {names[mode]} {chunk4 * 16 // 1024}KB x {grid} ({phases} phases)"
        rows.append((label, nbytes, events_ms(launch)))
        got = int(bar.get()[0])
        assert got == state["base"] % 2 ** 32, f"{label}: barrier count {got} != {state['base']}"
        show(rows[-1])


if __name__ == "__main__":
    main()
