"""What can the GPU write? Store-side ceilings for the seed's output (1.07 GB of float32).

    python benchmarks/write_floor.py   (GPU machine, repo root)

The seed moves 0.27 GB in and 1.07 GB out. The floor in the issue (0.327 ms) divides all
1.342 GB by the device-to-device copy rate, which is half reads and half writes. This
measures, with CUDA events (median of 30 after warm-up):
  copy        cupy d2d copy of y (read + write)
  st128       grid-stride 16-byte stores, value from the index (write only)
  st32        grid-stride 4-byte stores (write only)
  rd1wr4      each thread reads one float4 of x and writes four float4 of y (the seed mix)
  tilesNB     64 rows x N-byte segments per block at a 1 MB row pitch, like ct1d_mma's
              tiles (write only, 16-byte stores, rows aligned)
  bulk R x B / buffers / blocks per SM
              ct1d_mma's copy-out skeleton: each tile is written to shared memory, then
              R row copies of B bytes go out through the bulk-copy engine (cp.async.bulk,
              one issuing thread per row, or one per block with "1 issuer"); with 2
              buffers a tile waits only for the copies of the tile before the previous one
  smem R x B  the same tile copied out by ld.shared/st.global 16-byte pairs (all threads)
  rows ...    ct1d_mma's pattern: grid (blocks, 1, 16 batch items), rows of pitch floats
              (262145: the seed's odd L_out), tiles `step` apart, each row trimmed to 32-byte
              boundaries
"""
import sys

import cupy
import numpy as np

from gpu_timing import events_ms

SRC = r"""
extern "C" __global__ void st128(float4* y, long long n4) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4;
         i += (long long)gridDim.x * blockDim.x)
        y[i] = make_float4((float)i, 1.f, 2.f, 3.f);
}
extern "C" __global__ void st32(float* y, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        y[i] = (float)i;
}
extern "C" __global__ void rd1wr4(const float4* x, float4* y, long long n4x) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4x;
         i += (long long)gridDim.x * blockDim.x) {
        const float4 v = x[i];
        const long long blk = i / blockDim.x, t = i % blockDim.x;   // 4 consecutive float4 blocks
#pragma unroll
        for (int k = 0; k < 4; ++k) y[(blk * 4 + k) * blockDim.x + t] = v;
    }
}
// rd1wr4 with four independent loads in flight per thread before its sixteen stores
// (rd1wr4's loop waits a memory latency per float4: is its mix rate the floor, or its MLP?)
extern "C" __global__ void rd4wr16(const float4* __restrict__ x, float4* __restrict__ y, long long n4x) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i0 = blockIdx.x * (long long)blockDim.x + threadIdx.x; i0 < n4x; i0 += 4 * stride) {
        float4 v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k)
            v[k] = i0 + k * stride < n4x ? x[i0 + k * stride] : make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const long long i = i0 + k * stride, blk = i / blockDim.x, t = i % blockDim.x;
            if (i < n4x) {
#pragma unroll
                for (int j = 0; j < 4; ++j) y[(blk * 4 + j) * blockDim.x + t] = v[k];
            }
        }
    }
}
// rows x pitch float4; block b (grid-stride) writes 64 rows x seg4 float4 of column tile b
extern "C" __global__ void tiles(float4* y, long long rows, long long pitch4, long long ntile,
                                 int seg4) {
    for (long long tl = blockIdx.x; tl < ntile; tl += gridDim.x) {
        const long long tiles_per_row = pitch4 / seg4, rb = tl / tiles_per_row * 64;
        const long long col = (tl % tiles_per_row) * seg4;
        for (int e = threadIdx.x; e < 64 * seg4; e += blockDim.x) {
            const long long r = rb + e / seg4, c = col + e % seg4;
            if (r < rows) y[r * pitch4 + c] = make_float4(1.f, 2.f, 3.f, (float)e);
        }
    }
}

// ct1d_mma's copy-out skeleton on its own: fill an R x B-byte tile in shared memory, then
// store it to rows of y (pitch4 float4) by bulk copies (mode 0: thread r issues row r;
// mode 1: thread 0 issues all) or by 16-byte ld.shared/st.global (mode 2).
extern "C" __global__ void bulk_tiles(float4* y, long long rows, long long pitch4, long long ntile,
                                      int R, int seg4, int nbuf, int mode) {
    extern __shared__ __align__(128) float4 tile_s[];
    int it = 0;
    for (long long tl = blockIdx.x; tl < ntile; tl += gridDim.x, ++it) {
        const long long tiles_per_row = pitch4 / seg4, rb = tl / tiles_per_row * R;
        const long long col = (tl % tiles_per_row) * seg4;
        float4* buf = tile_s + (it % nbuf) * R * seg4;
        if (mode < 2) {
            // the copies issued nbuf-1 tiles ago have read this buffer
            if (nbuf == 1) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
            else asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
        }
        __syncthreads();
        for (int e = threadIdx.x; e < R * seg4; e += blockDim.x)
            buf[e] = make_float4(1.f, 2.f, 3.f, (float)e);
        if (mode < 2) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (mode == 2) {
            for (int e = threadIdx.x; e < R * seg4; e += blockDim.x) {
                const long long r = rb + e / seg4, c = col + e % seg4;
                if (r < rows) y[r * pitch4 + c] = buf[e];
            }
            continue;
        }
        for (int r = mode == 0 ? threadIdx.x : (threadIdx.x == 0 ? 0 : R); r < R;
             r += mode == 0 ? blockDim.x : 1) {
            if (rb + r >= rows) break;
            const unsigned s = (unsigned)__cvta_generic_to_shared(buf + r * seg4);
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                         :: "l"(y + (rb + r) * pitch4 + col), "r"(s), "r"(seg4 * 16) : "memory");
        }
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
// A tile's turn in the bulk-row skeletons: once the previous tile's copies have read the
// shared-memory rows, write n floats there and make them visible to the bulk-copy engine
__device__ __forceinline__ void refill_rows(float* rows_s, int n) {
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    __syncthreads();
    for (int e = threadIdx.x; e < n; e += blockDim.x) rows_s[e] = (float)e;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
}
// ct1d_mma's store pattern without the rest of the kernel: blocks (x, z) take tiles
// blockIdx.x + k*gridDim.x of row group blockIdx.z (64 rows of pitch floats); a tile's rows
// start step floats apart and each row stores the part of its seg floats between 32-byte
// boundaries of y (`align` floats: 8 = a sector), from a shared-memory row placed at the
// same offset mod 16 bytes, by one bulk copy per row (rows round-robin over the warps)
extern "C" __global__ void bulk_rows(float* y, long long pitch, int n_tiles, int step, int seg,
                                     int align, int contiguous) {
    extern __shared__ __align__(128) float rows_s[];
    const int sp = seg + 72;                          // smem row pitch (a multiple of 4)
    const long long rb = (long long)blockIdx.z * 64;
    // contiguous: block x takes the consecutive tiles [x*n/gx, (x+1)*n/gx) and stores each
    // row from the last `align` boundary at or before the tile's start (the part before
    // it carried from its previous tile) to the last one before its end
    const int t0 = contiguous ? (int)((long long)blockIdx.x * n_tiles / gridDim.x) : blockIdx.x;
    const int t1 = contiguous ? (int)((long long)(blockIdx.x + 1) * n_tiles / gridDim.x) : n_tiles;
    for (int tile = t0; tile < t1; tile += contiguous ? 1 : gridDim.x) {
        const long long o0 = (long long)tile * step;
        refill_rows(rows_s, 64 * sp);
        const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
        for (int r = warp + warps * lane; r < 64; r += blockDim.x) {
            const long long start = (rb + r) * pitch + o0;
            const long long a = (contiguous ? start : start + align - 1) / align * align,
                            b = (start + seg) / align * align;
            const int sh = (int)(start % 4);
            const unsigned s = (unsigned)__cvta_generic_to_shared(rows_s + r * sp + 68 + sh + (a - start));
            if (b > a)
                asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                             :: "l"(y + a), "r"(s), "r"((int)(b - a) * 4) : "memory");
        }
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
// The same copies with the shared-memory source placed so that it matches its global
// destination modulo M bytes, displaced by DISP bytes (a multiple of 16): does the
// bulk-copy engine care how source and destination are aligned to each other?
extern "C" __global__ void bulk_rows_src(float* y, long long pitch, int n_tiles, int step, int seg,
                                         int align, int M, int disp) {
    extern __shared__ __align__(256) float rows_s[];
    const int sp = seg + 128;                         // 1536 bytes: a multiple of 256
    const long long rb = (long long)blockIdx.z * 64;
    for (int tile = blockIdx.x; tile < n_tiles; tile += gridDim.x) {
        const long long o0 = (long long)tile * step;
        refill_rows(rows_s, 64 * sp);
        const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
        for (int r = warp + warps * lane; r < 64; r += blockDim.x) {
            const long long start = (rb + r) * pitch + o0;
            const long long a = (start + align - 1) / align * align, b = (start + seg) / align * align;
            const int o = (int)(((a * 4 + disp) % M) / 4);
            const unsigned s = (unsigned)__cvta_generic_to_shared(rows_s + r * sp + o);
            if (b > a)
                asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                             :: "l"(y + a), "r"(s), "r"((int)(b - a) * 4) : "memory");
        }
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
// The seed kernel's whole memory pattern without its arithmetic: bulk_rows_src's copy-out
// (each row's source at its destination's offset modulo 32 bytes) with tiles `step` floats
// apart, plus x loads like ct1d_mma's prefetch: 32 rows x xw columns starting xstep apart,
// each warp 4 rows x up to 9 columns per lane in registers, issued a tile ahead (load = 0:
// none); the shared-memory rows are seg + 128 floats apart.
// mode bits: 1 x loads with the L2::256B prefetch size; 2 an L2 prefetch of each x row two
// tiles ahead (cp.async.bulk.prefetch); 4 bulk copies with an evict-first L2 policy (as the
// kernel); 8 x by bulk copies into shared memory (mbarrier) instead of registers; 16 x
// loads with an evict-first L2 policy; 32 each row's copy in whole 256-byte units: from the
// first 256-byte boundary at or after the tile's start to the first at or after start + step
// (seg must cover step + 63 floats), the source 256-byte aligned too
#define XSP 136
__device__ __forceinline__ float ld_x(const float* p, int mode, unsigned long long pol) {
    float v;
    if (mode & 1) asm("ld.global.nc.L2::256B.f32 %0, [%1];" : "=f"(v) : "l"(p));
    else if (mode & 16) asm("ld.global.nc.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(p), "l"(pol));
    else v = *p;
    return v;
}
extern "C" __global__ void mix_rows(const float* __restrict__ x, float* y, long long pitch,
                                    int n_tiles, int step, int seg, long long lx, int xstep,
                                    int xw, int load, int mode) {
    extern __shared__ __align__(256) float rows_s[];
    __shared__ __align__(8) unsigned long long mbar;
    const int sp = seg + ((mode & 32) ? 64 : 128);
    float* xs = rows_s + 64 * sp;                     // mode 8: 32 rows x XSP floats
    const long long rb = (long long)blockIdx.z * 64;
    const float* xb = x + (long long)blockIdx.z * 32 * lx;
    const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    unsigned long long pol;
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
    const unsigned mb = (unsigned)__cvta_generic_to_shared(&mbar);
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(mb) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    // the 16-byte-aligned window of a tile's x row, clamped to the row
    auto window = [&](int tile, long long& a, int& bytes) {
        const long long c0 = (long long)tile * xstep - 2;
        a = max(0LL, c0 / 4 * 4);
        const long long b = min(lx, (c0 + xw + 3) / 4 * 4);
        bytes = (int)(b - a) * 4;
    };
    float xr[4][9];
    auto fetch = [&](int tile) {
        if (mode & 2) {
            const int t2 = tile + 2 * gridDim.x;
            if (t2 < n_tiles && lane < 4) {
                long long a; int bytes;
                window(t2, a, bytes);
                asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;"
                             :: "l"(xb + (4 * warp + lane) * lx + a), "r"(bytes) : "memory");
            }
        }
        if (mode & 8) {
            long long a; int bytes;
            window(tile, a, bytes);
            if (threadIdx.x == 0)
                asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;"
                             :: "r"(mb), "r"(32 * bytes) : "memory");
            if (threadIdx.x < 32) {
                const unsigned d = (unsigned)__cvta_generic_to_shared(xs + threadIdx.x * XSP);
                asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                             :: "r"(d), "l"(xb + threadIdx.x * lx + a), "r"(bytes), "r"(mb) : "memory");
            }
            return;
        }
        const long long c0 = (long long)tile * xstep - 2;
#pragma unroll
        for (int a = 0; a < 4; ++a)
#pragma unroll
            for (int b = 0; b < 9; ++b) {
                const int j = lane + 32 * b;
                const long long c = c0 + j;
                xr[a][b] = (load && j < xw && c >= 0 && c < lx) ? ld_x(xb + (4 * warp + a) * lx + c, mode, pol) : 0.f;
            }
    };
    if ((int)blockIdx.x < n_tiles && load) fetch(blockIdx.x);
    int it = 0;
    for (int tile = blockIdx.x; tile < n_tiles; tile += gridDim.x, ++it) {
        float s = 0.f;
        if (load && (mode & 8)) {
            unsigned done = 0;
            while (!done)
                asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                             : "=r"(done) : "r"(mb), "r"(it & 1) : "memory");
#pragma unroll
            for (int a = 0; a < 4; ++a)
#pragma unroll
                for (int b = 0; b < 4; ++b) s += xs[(4 * warp + a) * XSP + lane + 32 * b];
        } else {
#pragma unroll
            for (int a = 0; a < 4; ++a)
#pragma unroll
                for (int b = 0; b < 9; ++b) s += xr[a][b];
        }
        if (!(mode & 8) && load && tile + (int)gridDim.x < n_tiles) fetch(tile + gridDim.x);
        const long long o0 = (long long)tile * step;
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        __syncthreads();
        if ((mode & 8) && load && tile + (int)gridDim.x < n_tiles) fetch(tile + gridDim.x);
        for (int e = threadIdx.x; e < 64 * sp; e += blockDim.x) rows_s[e] = s + (float)e;
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        for (int r = warp + warps * lane; r < 64; r += blockDim.x) {
            const long long start = (rb + r) * pitch + o0;
            const long long a = (mode & 32) ? (start + 63) / 64 * 64 : (start + 7) / 8 * 8,
                            b = (mode & 32) ? (start + step + 63) / 64 * 64 : (start + seg) / 8 * 8;
            const unsigned s_at = (unsigned)__cvta_generic_to_shared(rows_s + r * sp);
            if (b > a) {
                if (mode & 4)
                    asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;"
                                 :: "l"(y + a), "r"(s_at), "r"((int)(b - a) * 4), "l"(pol) : "memory");
                else
                    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                                 :: "l"(y + a), "r"(s_at), "r"((int)(b - a) * 4) : "memory");
            }
        }
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
"""


def copy_ms(y):
    """Device-to-device copy into y (the source is freed on return)."""
    src = cupy.ones(y.size, y.dtype)
    return events_ms(lambda: y.__setitem__(Ellipsis, src))


def main():
    """python benchmarks/write_floor.py [PREFIX ...]: only the rows whose labels start so."""
    only = tuple(sys.argv[1:])

    def timed(label, fn):
        return events_ms(fn) if not only or label.startswith(only) else None

    mod = cupy.RawModule(code=SRC)
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    n = 16 * 64 * 262144                         # seed output, rounded to whole tiles
    y = cupy.empty(n, np.float32)
    x = cupy.ones(n // 4, np.float32)
    grid = (sms * 8,)
    rows = [("copy", 8 * n, copy_ms(y) if not only or "copy".startswith(only) else None)]
    rows.append(("st128", 4 * n, timed("st128", lambda: mod.get_function("st128")(grid, (256,), (y, np.int64(n // 4))))))
    rows.append(("st32", 4 * n, timed("st32", lambda: mod.get_function("st32")(grid, (256,), (y, np.int64(n))))))
    rows.append(("rd1wr4", 5 * n, timed("rd1wr4", lambda: mod.get_function("rd1wr4")(
        grid, (256,), (x, y, np.int64(n // 16))))))
    pitch4 = 262144 // 4
    for seg4 in (32, 64, 128, 256):
        ntile = (16 * 64 // 64) * (pitch4 // seg4)
        rows.append((f"tiles{seg4 * 16}B", 4 * n, timed(f"tiles{seg4 * 16}B", lambda: mod.get_function("tiles")(
            (sms * 2,), (256,), (y, np.int64(16 * 64), np.int64(pitch4), np.int64(ntile),
                                 np.int32(seg4))))))
    bulk = mod.get_function("bulk_tiles")
    nrows = 16 * 64
    for R, seg_bytes, nbuf, bps, mode in (
            (64, 1024, 1, 2, 0), (64, 1024, 1, 2, 1), (64, 1024, 1, 2, 2), (64, 1024, 2, 1, 0),
            (32, 1024, 2, 2, 0), (32, 2048, 1, 2, 0), (16, 4096, 1, 2, 0), (32, 4096, 1, 1, 0),
            (128, 512, 1, 2, 0), (64, 512, 1, 2, 0), (64, 512, 2, 2, 0), (64, 1024, 1, 3, 0),
            (32, 1024, 1, 4, 0), (16, 1024, 1, 8, 0), (32, 2048, 1, 3, 0), (8, 8192, 1, 2, 0)):
        seg4 = seg_bytes // 16
        ntile = (nrows // R) * (pitch4 // seg4)
        smem = nbuf * R * seg_bytes
        bulk.max_dynamic_shared_size_bytes = smem
        label = (f"{'smem' if mode == 2 else 'bulk'} {R}x{seg_bytes}B/{nbuf}buf/{bps}bps"
                 + (" 1 issuer" if mode == 1 else ""))
        rows.append((label, 4 * n, timed(label, lambda: bulk(
            (sms * bps,), (256,), (y, np.int64(nrows), np.int64(pitch4), np.int64(ntile),
                                   np.int32(R), np.int32(seg4), np.int32(nbuf), np.int32(mode)),
            shared_mem=smem))))
    # ct1d_mma's pattern: 16 row groups (batch items) of 64 rows, 2 blocks per SM in 2 waves
    # (33 blocks per group), rows 1 MB (+4 B: L_out odd) apart, tiles 1 KB (or 992 B apart,
    # each row's store trimmed to 32-byte boundaries)
    rowk = mod.get_function("bulk_rows")
    y2 = cupy.empty(16 * 64 * 262145 + 1024, np.float32)
    for pitch, step, gx, align, cont in (
            (262144, 256, 33, 8, 0), (262145, 256, 33, 8, 0), (262145, 248, 33, 8, 0),
            (262144, 256, 132, 8, 0), (262145, 248, 132, 8, 0), (262145, 248, 17, 8, 0),
            (262145, 256, 33, 32, 0), (262145, 256, 33, 64, 0), (262145, 256, 132, 64, 0),
            (262144, 256, 33, 8, 1), (262145, 256, 33, 64, 1), (262145, 256, 17, 64, 1),
            (262145, 256, 66, 64, 1), (262145, 256, 132, 64, 1)):
        ntile = pitch // step
        smem = 64 * (256 + 72) * 4
        rowk.max_dynamic_shared_size_bytes = smem
        label = f"rows {pitch} step {step * 4}B {gx}x16 {4 * align}B" + (" contiguous" if cont else "")
        rows.append((label, 4 * n,
                     timed(label, lambda: rowk((gx, 1, 16), (256,), (y2, np.int64(pitch), np.int32(ntile),
                                                                  np.int32(step), np.int32(256), np.int32(align),
                                                                  np.int32(cont)),
                                            shared_mem=smem))))
    srck = mod.get_function("bulk_rows_src")
    smem = 64 * (256 + 128) * 4
    srck.max_dynamic_shared_size_bytes = smem
    for pitch, align, M, disp in ((262144, 8, 256, 0), (262144, 8, 256, 16), (262144, 8, 256, 32),
                                  (262144, 8, 256, 64), (262144, 8, 256, 128),
                                  (262145, 8, 256, 0), (262145, 8, 256, 16), (262145, 8, 256, 32),
                                  (262145, 8, 256, 64), (262145, 8, 256, 128), (262145, 8, 32, 0),
                                  (262145, 64, 256, 0), (262145, 64, 256, 32)):
        label = f"src {pitch} {4 * align}B src=dst mod {M} +{disp}"
        rows.append((label, 4 * n,
                     timed(label, lambda: srck((33, 1, 16), (256,), (y2, np.int64(pitch), np.int32(pitch // 256),
                                                                  np.int32(256), np.int32(256), np.int32(align),
                                                                  np.int32(M), np.int32(disp)),
                                            shared_mem=smem))))
    # better-fed mixes, and the seed kernel's whole memory pattern (mix_rows): its tiles of
    # 1058 per row at 248 outputs apart, x tiles 124 columns apart, 33 blocks x 16 items
    rows.append(("rd4wr16", 5 * n, timed("rd4wr16", lambda: mod.get_function("rd4wr16")(
        grid, (256,), (x, y, np.int64(n // 16))))))
    mixk = mod.get_function("mix_rows")
    mixk.max_dynamic_shared_size_bytes = 64 * (256 + 128) * 4 + 32 * 136 * 4
    x2 = cupy.ones(16 * 32 * 131072, np.float32)
    modes = {0: "", 1: " L2::256B", 2: " L2 prefetch", 4: " evict-first y", 8: " x by TMA",
             16: " evict-first x", 6: " L2 prefetch, evict-first y", 12: " x by TMA, evict-first y",
             10: " x by TMA, L2 prefetch"}
    for gx, load, mode in ((33, 1, 0), (33, 0, 0), (66, 1, 0), (17, 1, 0), (33, 0, 4),
                           *((33, 1, m) for m in modes if m)):
        label = f"mix {gx}x16 x loads {'on' if load else 'off'}{modes[mode]}"
        smem = 64 * (256 + 128) * 4 + (32 * 136 * 4 if mode & 8 else 0)   # 2 blocks per SM without x_s
        rows.append((label, 4 * (16 * 64 * 262145 + load * x2.size), timed(label, lambda: mixk(
            (gx, 1, 16), (256,), (x2, y2, np.int64(262145), np.int32(1058), np.int32(248),
                                  np.int32(256), np.int64(131072), np.int32(124), np.int32(130),
                                  np.int32(load), np.int32(mode)), shared_mem=smem))))
    # whole 256-byte copies: tiles of 256 outputs (1 KB) and 320 computed (x windows of 162
    # columns 128 apart), and more blocks per row group (fewer rows written at once)
    for gx, mode in ((132, 0), (33, 32), (66, 32), (132, 32)):
        step, seg, xstep, xw, nt = (256, 320, 128, 162, 1025) if mode & 32 else (248, 256, 124, 130, 1058)
        label = f"mix {gx}x16 x loads on{' 256B copies' if mode & 32 else ''}"
        rows.append((label, 4 * (16 * 64 * 262145 + x2.size), timed(label, lambda: mixk(
            (gx, 1, 16), (256,), (x2, y2, np.int64(262145), np.int32(nt), np.int32(step),
                                  np.int32(seg), np.int64(131072), np.int32(xstep), np.int32(xw),
                                  np.int32(1), np.int32(mode)), shared_mem=64 * 384 * 4))))
    # the bf16 seed's pattern in float units: 512-byte row tiles 480 bytes apart, x tiles
    # of 260 bytes 240 apart, 1093 tiles per row, rows 131073 floats apart (bf16: 524290 B);
    # 64 KB of shared memory: 3 blocks per SM (gx 50: two waves of them)
    for gx, load in ((33, 1), (50, 1), (66, 1), (50, 0)):
        label = f"mix16 {gx}x16 x loads {'on' if load else 'off'}"
        rows.append((label, 4 * 16 * (64 * 131073 + load * 32 * 65536), timed(label, lambda: mixk(
            (gx, 1, 16), (256,), (x2, y2, np.int64(131073), np.int32(1093), np.int32(120),
                                  np.int32(128), np.int64(65536), np.int32(60), np.int32(65),
                                  np.int32(load), np.int32(0)), shared_mem=64 * 256 * 4))))
    # wider tiles: the bf16 seed in 1 KB rows (512 positions, 496 apart; 2 blocks per SM),
    # and the float32 seed in 2 KB rows (1 block per SM of 164 KB, 8 or 16 per item)
    mixk.max_dynamic_shared_size_bytes = 64 * (512 + 128) * 4
    for label, gx, nbytes, args, smem in (
            ("mix16 1KB rows 33x16 x loads on", 33, 4 * 16 * (64 * 131073 + 32 * 65536),
             (131073, 529, 248, 256, 65536, 124, 130), 64 * 384 * 4),
            ("mix16 1KB rows 33x16 x loads off", 33, 4 * 16 * 64 * 131073,
             (131073, 529, 248, 256, 65536, 124, 130), 64 * 384 * 4),
            ("mix 2KB rows 8x16 x loads on", 8, 4 * 16 * (64 * 262145 + 32 * 131072),
             (262145, 529, 496, 512, 131072, 248, 258), 64 * 640 * 4),
            ("mix 2KB rows 16x16 x loads on", 16, 4 * 16 * (64 * 262145 + 32 * 131072),
             (262145, 529, 496, 512, 131072, 248, 258), 64 * 640 * 4)):
        pitch, nt, step, seg, lx, xstep, xw = args
        load = 0 if label.endswith("off") else 1
        rows.append((label, nbytes, timed(label, lambda: mixk(
            (gx, 1, 16), (256,), (x2, y2, np.int64(pitch), np.int32(nt), np.int32(step),
                                  np.int32(seg), np.int64(lx), np.int32(xstep), np.int32(xw),
                                  np.int32(load), np.int32(0)), shared_mem=smem))))
    print(f"{'kernel':34s} {'GB':>6s} {'ms':>7s} {'GB/s':>6s}")
    for name, nbytes, t in rows:
        if t is not None:
            print(f"{name:34s} {nbytes / 1e9:6.3f} {t:7.3f} {nbytes / t / 1e6:6.0f}")


if __name__ == "__main__":
    main()
