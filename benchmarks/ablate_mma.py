"""Where does the ct1d_mma seed time go? Time variants that leave one stage out.

    python benchmarks/ablate_mma.py [--ncu] [--variants a,b,...] [--sector-tiles 0|1]
    (GPU machine, repo root)

Each variant is the shipped kernel source with one textual patch (asserted to apply), run
through the normal launcher on the seed workload (fp32 and bf16). The variants compute
wrong results on purpose; only their times matter. Differences from "base" place the time.
"""
import re
import sys

import cupy
import numpy as np

from cupyconv import _gpu
from cupyconv._args import check_conv_args
from cupyconv._modules import compile_options, kernel_source
from gpu_timing import _alt_source, events_ms, warm_parallel

# (pattern, replacement) pairs applied with re.subn; each must match at least once
VARIANTS = {
    "base": [],
    # the v7 numerics: the three MMAs of a k-step accumulate straight into the running sum
    # (no rounded add; long reductions then reach ~1e-5) -- isolates the accuracy fix's cost
    "no_kstep_add": [(r"for \(int q = 0; q < 4; \+\+q\) t\[nt\]\[q\] = 0\.f;",
                      "for (int q = 0; q < 4; ++q) t[nt][q] = acc[mt][nt][q];"),
                     (r"for \(int q = 0; q < 4; \+\+q\) acc\[mt\]\[nt\]\[q\] \+= t\[nt\]\[q\];",
                      "for (int q = 0; q < 4; ++q) acc[mt][nt][q] = t[nt][q];")],
    # the float32 k loop never unrolled (v8; fewer registers, 0.12 ms slower in session 4)
    "rolled_fp32": [(r"#pragma unroll \(UNROLL_K \? KC8 : 1\)", "#pragma unroll (SPLIT ? 1 : KC8)")],
    # ordinary 16-byte stores instead of the bulk-copy engine
    "no_bulk": [(r"#ifndef CT1D_BULK_STORE", "#define CT1D_BULK_STORE 0\n#ifndef CT1D_BULK_STORE")],
    # no global stores of the output tile (the smem tile is still assembled)
    "no_store": [(r"if \(qb > qa\) bulk_store\(", "if (qb > qa && pad == -12345) bulk_store("),
                 (r"\*reinterpret_cast<uint4\*>\(dst\) =",
                  "if (pad == -12345) *reinterpret_cast<uint4*>(dst) =")],
    # no global loads of x (the staging arithmetic and smem stores stay)
    "no_xload": [(r"\? xc\[j\] : T\{\}", "? T{} : T{}")],
    # tensor-core instructions replaced by one FADD chain (loads and splits stay)
    "no_mma_instr": [(r'asm\(\s*"mma\.sync[^;]*;\\n"[^;]*;',
                      "d[0] += __uint_as_float(a.x ^ a.y ^ a.z ^ a.w ^ b0 ^ b1);")],
    # one TF32 MMA per product instead of 3xTF32 (no split conversions)
    "no_split": [(r"constexpr bool SPLIT = is_f32<T>::value;", "constexpr bool SPLIT = false;")],
    # no MMA loop at all: staging, fill, epilogue and stores only
    "no_loop": [(r"for \(int tk = 0; tk < max_class_taps\(S, D, K\); \+\+tk\) \{",
                 "for (int tk = 0; tk < 0; ++tk) {")],
    "only_store": [(r"for \(int tk = 0; tk < max_class_taps\(S, D, K\); \+\+tk\) \{",
                    "for (int tk = 0; tk < 0; ++tk) {"),
                   (r"\? xc\[j\] : T\{\}", "? T{} : T{}")],
    # the accumulators are not written into the shared-memory tile
    "no_epi": [(r"out_s\[ro\[mt\]\[(\d)\] \+ p( \+ S)?\] = ", r"if (col0 == -12345) out_s[ro[mt][\1] + p\2] = ")],
    # the partial 16-byte vectors at the ends of each row are not stored
    "no_edge": [(r"for \(int q = q_lo; q < qa; \+\+q\) dst\[q\] = src\[q\];", ""),
                (r"for \(int q = qb; q < q_hi; \+\+q\) dst\[q\] = src\[q\];", "")],
    # staged x is not written to shared memory
    "no_commit": [(r"x_s\[wi\] = ", "if (pad == -12345) x_s[wi] = ")],
    # warpgroup path: no wgmma issued (x split, waits and epilogue stay; transposed too)
    "no_wgmma": [(r"(wgmma_m64n(?:64|k)16<[^>]*>\(d, [^;]*;)", r"{ if (pad == -12345) \1 }")],
    # warpgroup path, float32: the next tile's maximum is not measured (its x loads are then
    # first waited for at the next tile's commit)
    "no_xmax": [(r"wg_max_x\(&x_emax\[par \^ 1\]\);", "(void)0;")],
    # no wait for the previous tile's bulk copies before overwriting the tile
    "no_wait": [(r"bulk_wait_read\(\);", "")],
    # warpgroup path: the prefetched x is not written into the operand tile (16-bit; float32
    # keeps its lo part)
    "no_wgcommit": [(r"x_s\[word\] = hi;", "if (pad == -12345) x_s[word] = hi;")],
    # warpgroup path: no L2 prefetch of x (CT1D_MMA_X_PREFETCH 0)
    "no_pf": [(r"#ifndef CT1D_MMA_X_PREFETCH\n", "#define CT1D_MMA_X_PREFETCH 0\n#ifndef CT1D_MMA_X_PREFETCH\n")],
    # every tile loads the same x window (columns from L_in/2 on, L2-resident after the
    # first tiles): x's loads and staging stay, its DRAM traffic goes
    "x_l2": [(r"\(long long\)\(ci0 \+ c\) \* L_in \+ \(u0 - CMAX\);",
              "(long long)(ci0 + c) * L_in + (L_in / 2 - CMAX);")],
}
# the store skeleton with one more stage left out
for _v in ("no_epi", "no_edge", "no_commit", "no_wait"):
    VARIANTS["os_" + _v] = VARIANTS["only_store"] + VARIANTS[_v]


def alt_sources():
    """--alt NAME=FILE ...: whole kernel files (e.g. an earlier version kept under
    benchmarks/variants/) timed as variants; ct1d_types.cuh is inlined as the loader does."""
    alts = {}
    if "--alt" in sys.argv:
        for item in sys.argv[sys.argv.index("--alt") + 1].split(","):
            name, path = item.split("=")
            alts[name] = path
    return alts


def variant_source(name, family):
    alts = alt_sources()
    if name in alts:
        return _alt_source(alts[name])(family)
    return patched(kernel_source(family), VARIANTS[name])


def patched(src, patches):
    for pat, rep in patches:
        src, n = re.subn(pat, rep, src)
        assert n > 0, f"patch did not apply: {pat}"
    return src


SEED = check_conv_args((16, 32, 131072), (32, 64, 3), None, stride=2, padding=1, dilation=2)


def seed_plan(dtype, family):
    """The seed's plan on this GPU (sm_90: ct1d_mma's warpgroup path)."""
    return _gpu.device_plan(SEED, dtype, 0, family)


def variant_job(name, dtype, family):
    key = seed_plan(dtype, family).key
    return variant_source(name, key.family), compile_options(key), key.name_expression()


def time_variant(name, dtype, family, reps=30):
    cp_dtype = np.float32 if dtype == "float32" else np.uint16
    p = SEED
    N, cin, cout, K, L = p.batch, p.in_channels, p.out_channels, p.kernel_size, p.length_in
    pl = seed_plan(dtype, family)
    src = variant_source(name, pl.key.family)
    mod = cupy.RawModule(code=src, options=compile_options(pl.key),
                         name_expressions=(pl.key.name_expression(),))
    kern = mod.get_function(pl.key.name_expression())
    _gpu.get_kernel = lambda key, dev: kern
    _gpu._smem_set.clear()
    rs = cupy.random.RandomState(1)
    x = rs.standard_normal((N, cin, L), dtype=np.float32)
    w = rs.standard_normal((cin, cout, K), dtype=np.float32)
    if dtype == "bfloat16":            # bf16 bit patterns (upper half of the fp32 word)
        x = (x.view(np.uint32) >> 16).astype(np.uint16)
        w = (w.view(np.uint32) >> 16).astype(np.uint16)
    y = cupy.empty((N, cout, p.length_out), cp_dtype)
    return events_ms(lambda: _gpu.launch(x, w, None, y, p, dtype, 0, family), reps), kern


def print_floors():
    """Copy and fill of the seed's output, in this run (the arrays are freed on return)."""
    y = cupy.empty(16 * 64 * 262145, np.float32)
    src = cupy.ones(y.size, np.float32)
    for label, fn, nbytes in (("copy", lambda: y.__setitem__(Ellipsis, src), 8 * y.size),
                              ("fill", lambda: y.fill(1.5), 4 * y.size)):
        t = events_ms(fn, 20)
        print(f"{label} of y: {t:.3f} ms, {nbytes / t / 1e6:.0f} GB/s")


def main():
    family = sys.argv[sys.argv.index("--family") + 1] if "--family" in sys.argv else None
    if "--sector-tiles" in sys.argv:      # ct1d_mma tiles overlapping to whole sectors
        from cupyconv import _dispatch
        _dispatch.MMA_SECTOR_TILES = sys.argv[sys.argv.index("--sector-tiles") + 1] == "1"
        _dispatch.plan.cache_clear()
    names = (sys.argv[sys.argv.index("--variants") + 1].split(",") if "--variants" in sys.argv
             else list(VARIANTS)) + list(alt_sources())
    if "--ncu" in sys.argv:
        time_variant("base", "float32", family, reps=1)
        return
    gb = (16 * 32 * 131072 + 16 * 64 * 262145) * 4 / 1e9
    print_floors()
    warm_parallel([variant_job(n, dt, family) for n in names for dt in ("float32", "bfloat16")])
    print(f"{'variant':14s} {'fp32 ms':>8s} {'GB/s':>6s} {'bf16 ms':>8s} regs")
    for name in names:
        t32, k = time_variant(name, "float32", family)
        t16, _ = time_variant(name, "bfloat16", family)
        print(f"{name:14s} {t32:8.3f} {gb / t32 * 1e3:6.0f} {t16:8.3f} {k.num_regs}", flush=True)


if __name__ == "__main__":
    main()
