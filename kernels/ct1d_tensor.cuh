// Tensor-core helpers shared by ct1d_mma.cu, ct1d_gemm.cu and ct1d_stream.cu: TF32
// rounding and the 3xTF32 split, the m16n8k8 TF32 MMA, the scaled float16 split and the
// m16n8k16 float16 MMA, accumulator tiles into the shared-memory output tile, and the
// compile-time residue-class structure (BRIEF section 3: output o = u*S + r - P takes tap
// k iff k*D mod S == r).
#pragma once
#include "ct1d_types.cuh"

// 4 bytes global -> shared, asynchronously; src_size 0: zero-filled, src not read
__device__ __forceinline__ void cp_async4(void* dst, const void* src, int src_size) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;"
                 :: "r"(s), "l"(src), "r"(src_size) : "memory");
}
// 8 bytes global -> shared (both 8-byte aligned), asynchronously; src_size 0: zero-filled
__device__ __forceinline__ void cp_async8(void* dst, const void* src, int src_size) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;"
                 :: "r"(s), "l"(src), "r"(src_size) : "memory");
}
// 16 bytes global -> shared (both 16-byte aligned), asynchronously, bypassing L1; bytes
// from src_size on are zero-filled (src_size 0: src not read)
__device__ __forceinline__ void cp_async16(void* dst, const void* src, int src_size) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                 :: "r"(s), "l"(src), "r"(src_size) : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;" ::: "memory");
}
template <int N>                     // wait until at most N groups are pending
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory");
}

// This thread's shared-memory writes (ordinary, and cp.async ones after its wait) become
// visible to the async proxy: the bulk-copy engine's and wgmma's reads
__device__ __forceinline__ void fence_proxy_async() {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// The bulk-copy engine (cp.async.bulk, sm_90+): a shared -> global copy of whole 16-byte
// units (both addresses 16-byte aligned), in this thread's bulk groups. The copies mark
// their lines evict-first in L2: the output is written once and not read back (ct1d_mma's
// seed 0.570 -> 0.547 ms; CT1D_BULK_EVICT_FIRST=0 for A/B runs, CT1D_MMA_EVICT_FIRST
// before session 31)
#ifndef CT1D_BULK_EVICT_FIRST
#define CT1D_BULK_EVICT_FIRST 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void bulk_store(void* dst, const void* src, int bytes) {
    const unsigned s = (unsigned)__cvta_generic_to_shared(src);
#if CT1D_BULK_EVICT_FIRST
    unsigned long long policy;
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;"
                 :: "l"(dst), "r"(s), "r"(bytes), "l"(policy) : "memory");
#else
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 :: "l"(dst), "r"(s), "r"(bytes) : "memory");
#endif
}
__device__ __forceinline__ void bulk_commit() {
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
// at most N of this thread's bulk groups still read shared memory
template <int N = 0>
__device__ __forceinline__ void bulk_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(N) : "memory");
}
// ... and all of them are complete
__device__ __forceinline__ void bulk_wait_all() {
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
// Asks L2 for the 16-byte units of row xc's window [w0, w0 + xw) that lie inside the row
// [0, len), by one bulk prefetch (its operands are uniform registers: a warp's lanes issue
// theirs one after another)
template <typename T>
__device__ __forceinline__ void l2_prefetch_window(const T* xc, int w0, int xw, int len) {
    const unsigned long long a = ((unsigned long long)(xc + max(w0, 0)) + 15) & ~15ull;
    const unsigned long long b = (unsigned long long)(xc + min(w0 + xw, len)) & ~15ull;
    if (b > a)
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" :: "l"(a), "r"((unsigned)(b - a)) : "memory");
}
#endif

// Smallest row pitch >= n that is 8 mod 32 floats: rows 0..3 of a fragment's 4 channels
// fall in different banks
__device__ constexpr int pitch_8_mod_32(int n) { return (n + 23) / 32 * 32 + 8; }

// Round to TF32 (10 mantissa bits), to nearest with ties away from zero, as cvt.rna does
// for finite values; the low 13 bits come back zero.
__device__ __forceinline__ unsigned tf32_round(float f) {
    return (__float_as_uint(f) + 0x1000u) & 0xffffe000u;
}

// f = hi + lo with hi, lo in TF32 (f - hi is exact in float32)
__device__ __forceinline__ void tf32_split(float f, unsigned& hi, unsigned& lo) {
    hi = tf32_round(f);
    lo = tf32_round(f - __uint_as_float(hi));
}

// d += a * b for one m16n8k8 tile (A row-major 16x8, B column-major 8x8, f32 accumulate)
__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint4& a, unsigned b0, unsigned b1) {
    // not volatile: the compiler may interleave independent MMAs to hide their latency
    asm(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

// acc += a * b at float32 accuracy from the 3xTF32 split (a = ahi + alo, b = bhi + blo):
// the three products start from zero, small terms first, and join acc through one rounded
// add per element (the tensor cores truncate when they accumulate)
__device__ __forceinline__ void mma_tf32x3(float (&acc)[4], const uint4& ahi, const uint4& alo,
                                           unsigned bhi0, unsigned bhi1, unsigned blo0, unsigned blo1) {
    float t[4] = {0.f, 0.f, 0.f, 0.f};
    mma_tf32(t, alo, bhi0, bhi1);
    mma_tf32(t, ahi, blo0, blo1);
    mma_tf32(t, ahi, bhi0, bhi1);
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[q] += t[q];
}

// d += a * b for one m16n8k16 tile, float16 operands, float32 accumulation
__device__ __forceinline__ void mma_f16(float (&d)[4], const uint4& a, unsigned b0, unsigned b1) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

// d += a * b for one m16n8k16 tile, bfloat16 operands, float32 accumulation
__device__ __forceinline__ void mma_bf16(float (&d)[4], const uint4& a, unsigned b0, unsigned b1) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

// (a, b) = hi + lo as float16 pairs (a in the low halves); a, b within float16's range
__device__ __forceinline__ void f16x2_split(float a, float b, unsigned& hi, unsigned& lo) {
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(hi) : "f"(b), "f"(a));
    float ha, hb;
    asm("{.reg .f16 l, h; mov.b32 {l, h}, %2; cvt.f32.f16 %0, l; cvt.f32.f16 %1, h;}"
        : "=f"(ha), "=f"(hb) : "r"(hi));
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(lo) : "f"(b - hb), "f"(a - ha));
}

// Exponent field of the largest finite |v| (infinities and NaN excluded: they propagate
// through the split as in float32) ...
__device__ __forceinline__ unsigned finite_exp(float v) {
    const unsigned e = __float_as_uint(v) & 0x7f800000u;
    return e == 0x7f800000u ? 0u : e;
}
// ... and the power of two 2^s bringing that largest value into [2^14, 2^15): below
// float16's largest finite value after rounding, with 2^-24 absolute resolution left
// (s <= 127: tinier values lose their low bits, 2^-113 below the largest float)
__device__ __forceinline__ int f16_scale_exp(unsigned e_field) {
    return min(141 - (int)(e_field >> 23), 127);
}
__device__ __forceinline__ float pow2(int s) {       // 2^s, s in [-149, 127]
    return s >= -126 ? __uint_as_float((unsigned)(s + 127) << 23) : __uint_as_float(1u << (s + 149));
}

// A block's prologue loop over n weights: BATCH loads in flight per thread before any is
// used. use(e, load(e)) in a plain loop waits an L2 latency per element (the float32
// seed's prologue waited ~45 of them in turn, under the other blocks' stores).
template <int BATCH, typename Load, typename Use>
__device__ __forceinline__ void batched_loads(int n, int tid, int threads, Load load, Use use) {
    using V = decltype(load(0));
    for (int e0 = tid; e0 < n; e0 += BATCH * threads) {
        V v[BATCH];
#pragma unroll
        for (int t = 0; t < BATCH; ++t) v[t] = e0 + t * threads < n ? load(e0 + t * threads) : V{};
#pragma unroll
        for (int t = 0; t < BATCH; ++t)
            if (e0 + t * threads < n) use(e0 + t * threads, v[t]);
    }
}

// A lane's raw float A operands of one m16n8k16 step, s0 = {w[c][m], w[c][m+8], w[c+1][m],
// w[c+1][m+8]} (c = 2tq, m = gq) and s1 the same for channels c+8, c+9, scaled and split
// into the float16 hi and lo operands {a0, a1, a2, a3}
__device__ __forceinline__ void f16_a_operands(const uint4& s0, const uint4& s1, float scale,
                                               uint4& hi, uint4& lo) {
    f16x2_split(__uint_as_float(s0.x) * scale, __uint_as_float(s0.z) * scale, hi.x, lo.x);
    f16x2_split(__uint_as_float(s0.y) * scale, __uint_as_float(s0.w) * scale, hi.y, lo.y);
    f16x2_split(__uint_as_float(s1.x) * scale, __uint_as_float(s1.z) * scale, hi.z, lo.z);
    f16x2_split(__uint_as_float(s1.y) * scale, __uint_as_float(s1.w) * scale, hi.w, lo.w);
}
// ... and B operands from x of channels {c, c+1, c+8, c+9} at one column: {hi b0, hi b1,
// lo b0, lo b1}
__device__ __forceinline__ uint4 f16_b_operands(float x0, float x1, float x8, float x9, float scale) {
    uint4 v;
    f16x2_split(x0 * scale, x1 * scale, v.x, v.z);
    f16x2_split(x8 * scale, x9 * scale, v.y, v.w);
    return v;
}
// Block-wide (barriers inside; every thread calls it once the raw A operands are staged
// and visible): w_s holds n_frags uint4 as [n_frags/64][2][32], each lane's pair of raw
// float A operands of one k16 step (f16_a_operands). Scales them by 2^s into float16's
// range (the block's largest finite magnitude, via *emax, which must be 0 on entry) and
// rewrites each pair in place as its hi and lo operands. Returns 2^-s.
__device__ __forceinline__ float split_a_operands_block(uint4* w_s, int n_frags, unsigned* emax,
                                                        int tid, int threads) {
    unsigned m = 0;
    for (int e = tid; e < n_frags; e += threads) {
        const uint4 v = w_s[e];
        m = max(m, max(max(finite_exp(__uint_as_float(v.x)), finite_exp(__uint_as_float(v.y))),
                       max(finite_exp(__uint_as_float(v.z)), finite_exp(__uint_as_float(v.w)))));
    }
    m = __reduce_max_sync(0xffffffffu, m);
    if ((tid & 31) == 0) atomicMax(emax, m);
    __syncthreads();
    const int s = f16_scale_exp(*emax);
    const float scale = pow2(s);
    for (int e = tid; e < n_frags / 2; e += threads) {
        uint4* f = w_s + (e / 32) * 64 + (e & 31);
        uint4 hi, lo;
        f16_a_operands(f[0], f[32], scale, hi, lo);
        f[0] = hi;
        f[32] = lo;
    }
    return pow2(-s);
}

// The 3xFP16 products of one k16 step from zero, small terms first; the caller adds them
// to its running sum (the tensor cores truncate when they accumulate)
__device__ __forceinline__ void mma_f16x3(float (&t)[4], const uint4& ahi, const uint4& alo,
                                          const uint4& b) {
    t[0] = t[1] = t[2] = t[3] = 0.f;
    mma_f16(t, alo, b.x, b.y);
    mma_f16(t, ahi, b.z, b.w);
    mma_f16(t, ahi, b.x, b.y);
}

// Zero a warp's MT x NT m16n8 accumulator tiles (four floats, or doubles, per lane each)
template <int MT, int NT, typename A>
__device__ __forceinline__ void zero_tiles(A (&a)[MT][NT][4]) {
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int q = 0; q < 4; ++q) a[mt][nt][q] = A(0);
}

// acc += t * f, and t *= f, over a warp's accumulator tiles
template <int MT, int NT>
__device__ __forceinline__ void fma_tiles(float (&acc)[MT][NT][4], const float (&t)[MT][NT][4],
                                          float f) {
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int q = 0; q < 4; ++q) acc[mt][nt][q] = fmaf(t[mt][nt][q], f, acc[mt][nt][q]);
}
template <int MT, int NT>
__device__ __forceinline__ void scale_tiles(float (&t)[MT][NT][4], float f) {
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int q = 0; q < 4; ++q) t[mt][nt][q] *= f;
}

// A warp's accumulator tiles of residue class r into the output tile in shared memory (in
// its element type T): fragment (mt, nt) holds positions u = col0 + 8nt + 2tq and u + 1
// (tile columns u*S + r) of rows ro[mt][0] and ro[mt][1], plus their bias bv[mt][h].
// F16X3 sums are unscaled first (by ux, then uw: each factor is a normal power of two).
template <bool F16X3, int S, int MT, int NT, typename T>
__device__ __forceinline__ void tiles_to_out(T* out_s, float (&acc)[MT][NT][4], const int (&ro)[MT][2],
                                             const float (&bv)[MT][2], int col0, int tq, int r,
                                             float ux, float uw) {
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int nt = 0; nt < NT; ++nt) {
            const int p = (col0 + nt * 8 + 2 * tq) * S + r;
            if (F16X3) {
#pragma unroll
                for (int q = 0; q < 4; ++q) acc[mt][nt][q] = acc[mt][nt][q] * ux * uw;
            }
            out_s[ro[mt][0] + p] = from_acc<T>(acc[mt][nt][0] + bv[mt][0]);
            out_s[ro[mt][0] + p + S] = from_acc<T>(acc[mt][nt][1] + bv[mt][0]);
            out_s[ro[mt][1] + p] = from_acc<T>(acc[mt][nt][2] + bv[mt][1]);
            out_s[ro[mt][1] + p + S] = from_acc<T>(acc[mt][nt][3] + bv[mt][1]);
        }
}

// The same for a transposed warpgroup tile (positions as the MMA's M, CO_T channels as
// its N): accumulator 4i + q of this thread is position u + 8*(q>>1) (u counted from the
// tile's first position) of channel 8i + 2tq + (q&1), whose out_s row starts at
// rt[2i + (q&1)] (shifted) with bias bt[2i + (q&1)].
// With NS > 1 classes side by side along N (tap groups, below), column n of the MMA is
// channel n % CO_T of class class_of(n / CO_T).
template <bool F16X3, int S, int CO_T, int NS, typename T, typename ClassOf>
__device__ __forceinline__ void tiles_to_out_t(T* out_s, float (&d)[NS * CO_T / 2], const int (&rt)[CO_T / 4],
                                               const float (&bt)[CO_T / 4], int u, ClassOf class_of,
                                               float ux, float uw) {
#pragma unroll
    for (int i = 0; i < NS * CO_T / 8; ++i) {
        const int ic = i % (CO_T / 8), r = class_of(i / (CO_T / 8));
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const float v = F16X3 ? d[4 * i + q] * ux * uw : d[4 * i + q];
            out_s[rt[2 * ic + (q & 1)] + (u + 8 * (q >> 1)) * S + r] = from_acc<T>(v + bt[2 * ic + (q & 1)]);
        }
    }
}

// The compile-time tap structure of a residue class.
__device__ constexpr int class_taps(int r, int S, int D, int K) {
    int n = 0;
    for (int k = 0; k < K; ++k) n += (k * D) % S == r;
    return n;
}
__device__ constexpr int class_tap(int r, int j, int S, int D, int K) {   // j-th tap of class r
    for (int k = 0; k < K; ++k)
        if ((k * D) % S == r && j-- == 0) return k;
    return -1;
}
__device__ constexpr int max_class_taps(int S, int D, int K) {
    int m = 0;
    for (int r = 0; r < S; ++r) m = class_taps(r, S, D, K) > m ? class_taps(r, S, D, K) : m;
    return m;
}

// Tap groups: the taps that share a column offset c_k = k*D div S read the same x, and
// they reach distinct classes (k*D = c_k*S + r). Where every offset 0..CMAX has the same
// number of taps, reaching the same classes in the same order (K = 2S with D = 1, as in
// vocoder upsampling), that number (else 0): a transposed tile can then run each group as
// one wgmma with the classes' weights side by side along N.
__device__ constexpr int tap_group_size(int S, int D, int K) {
    const int cmax = (K - 1) * D / S;
    int n0 = 0;
    for (int k = 0; k < K; ++k) n0 += k * D / S == 0;
    for (int c = 0; c <= cmax; ++c) {
        int n = 0;
        for (int k = 0; k < K; ++k)
            if (k * D / S == c) {
                int k0 = -1;                          // the same slot's tap at offset 0
                for (int j = 0, m = 0; j < K; ++j)
                    if (j * D / S == 0 && m++ == n) k0 = j;
                if (k0 < 0 || (k0 * D) % S != (k * D) % S) return 0;
                ++n;
            }
        if (n != n0) return 0;
    }
    return n0;
}
// slot of tap k in its group (taps in increasing k), and the class of slot s
__device__ constexpr int tap_slot(int k, int S, int D) {
    int n = 0;
    for (int j = 0; j < k; ++j) n += j * D / S == k * D / S;
    return n;
}
__device__ constexpr int slot_class(int s, int S, int D, int K) {
    for (int k = 0; k < K; ++k)
        if (k * D / S == 0 && s-- == 0) return (k * D) % S;
    return -1;
}

__device__ constexpr int first_live_class(int S, int D, int K) {
    for (int r = 0; r < S; ++r)
        if (class_taps(r, S, D, K) > 0) return r;
    return -1;
}
__device__ constexpr int live_classes(int S, int D, int K) {   // classes reached by a tap
    int n = 0;
    for (int r = 0; r < S; ++r) n += class_taps(r, S, D, K) > 0;
    return n;
}
__device__ constexpr int live_class(int i, int S, int D, int K) {  // the i-th of them
    for (int r = 0; r < S; ++r)
        if (class_taps(r, S, D, K) > 0 && i-- == 0) return r;
    return -1;
}

template <typename T> struct is_f32        { static constexpr bool value = false; };
template <>           struct is_f32<float> { static constexpr bool value = true; };
template <typename T> struct is_bf16         { static constexpr bool value = false; };
template <>           struct is_bf16<bf16_t> { static constexpr bool value = true; };

// d += a * b for one m16n8k16 tile of T operands (f16_t or bf16_t), float32 accumulation
template <typename T>
__device__ __forceinline__ void mma_k16(float (&d)[4], const uint4& a, unsigned b0, unsigned b1) {
    if constexpr (is_bf16<T>::value) mma_bf16(d, a, b0, b1);
    else mma_f16(d, a, b0, b1);
}
