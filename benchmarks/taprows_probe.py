"""The tap-row probe (benchmarks/variants/ct1d_taprows_probe.cu) on the GPU: float32 wide
reductions to few output channels as a GEMM of (output channel, tap) rows on 3xTF32
tensor cores plus a fixed-order overlap-add (benchmarks/NOTES.md, session 79). Per call:
its error against torch's float64 result (NaN-poisoned output), and its time next to
cupyconv's shipped dispatch and torch fp32 (TF32 off), CUDA events, medians, in one process.

    python benchmarks/taprows_probe.py --call NAME=N,C_in,C_out,K,L[,S,P,D] ... [--bias]
    python benchmarks/taprows_probe.py --file CALLS.txt          (one NAME=... per line)
    python benchmarks/taprows_probe.py --compile-only ...        (no GPU: NVRTC_LIB, NVDISASM
                                                                  as for nvrtc_sass.py)
    python benchmarks/taprows_probe.py --emulate ...             (no GPU: the index math)
Groups 1 only; C_out x K <= 256 (the probe's rows per block).
"""
import argparse
from pathlib import Path

import numpy as np

from cupyconv._modules import CUPY_ADDED_OPTIONS, OPTIONS, _inline
from cupyconv.bench import config_from_spec

SOURCE = Path(__file__).resolve().parent / "variants" / "ct1d_taprows_probe.cu"


def pitch(n):                                 # pitch_8_mod_32 of ct1d_tensor.cuh
    return (n + 23) // 32 * 32 + 8


def instance(c):
    """(name expression, dynamic shared memory bytes, NU) of the probe for call ``c``."""
    if c.G != 1 or c.C_out * c.K > 256:
        raise ValueError(f"{c.name}: the probe takes groups 1 and C_out x K <= 256")
    cmax = (c.K - 1) * c.D // c.S
    if cmax >= 128:
        raise ValueError(f"{c.name}: halo {cmax} >= the tile's 128 columns")
    wm = 4 if c.C_out * c.K <= 128 else 8
    rb = 32 * wm
    smem = 4 * max(2 * 16 * (pitch(rb) + pitch(128)), rb * (128 + 4))   # (CK = 16)
    return f"taprows<{c.S}, {c.D}, {c.K}, {c.C_out}, {wm}>", smem, 128 - cmax


def compile_only(calls):
    from nvrtc_sass import sass_summary, source_sass
    code = _inline(SOURCE, set())
    for c in calls:
        expr, smem, _ = instance(c)
        sass = source_sass(code, expr, OPTIONS + CUPY_ADDED_OPTIONS + ("-arch=sm_90",))
        print(f"{c.name} {expr}: {sass_summary(sass, 'HMMA')}, {smem} B shared")


def emulate(c, seed=0):
    """CPU emulation of the probe's index expressions for one call (no GPU): every block's
    staging, the m16n8k8 fragment layouts (PTX ISA: A (g, t) (g+8, t) (g, t+4) (g+8, t+4),
    B (t, g) (t+4, g), C (g, 2t) (g, 2t+1) (g+8, 2t) (g+8, 2t+1); g = lane / 4,
    t = lane % 4), the Y tile and the overlap-add, in float64, against the direct scatter
    of tap_rows_model.py. Returns the largest relative error."""
    from tap_rows_model import direct
    rng = np.random.default_rng(seed)
    expr, _, NU = instance(c)
    S, D, K, COUT, P = c.S, c.D, c.K, c.C_out, c.P
    WM = int(expr.rstrip(">").split(",")[-1])
    RB, NCOL, CK, R = 32 * WM, 128, 16, COUT * K
    CMAX = (K - 1) * D // S
    x = rng.standard_normal((c.N, c.C_in, c.L))
    w = rng.standard_normal((c.C_in, COUT, K))
    b = rng.standard_normal(COUT)
    l_out = (c.L - 1) * S - 2 * P + D * (K - 1) + 1
    y = np.full((c.N, COUT, l_out), np.nan)
    wf = w.reshape(c.C_in, R)
    lane = np.arange(32)
    g, t = lane // 4, lane % 4
    for n in range(c.N):
        for tile in range(-(-(l_out + P) // (S * NU))):
            u0 = tile * NU - CMAX
            acc = np.zeros((RB, NCOL))               # ys, as the fragments write it
            for ch in range(-(-c.C_in // CK)):
                for ks in range(CK // 8):
                    ws = np.zeros((8, RB))           # ws[k][row]
                    xs = np.zeros((8, NCOL))         # xs[k][col]
                    for k8 in range(8):
                        ci = ch * CK + ks * 8 + k8
                        if ci < c.C_in:
                            ws[k8, :R] = wf[ci]
                            u = u0 + np.arange(NCOL)
                            ok = (u >= 0) & (u < c.L)
                            xs[k8, ok] = x[n, ci, u[ok]]
                    for warp in range(8):
                        wr, wc = warp >> 2, warp & 3
                        for mt in range(WM):
                            row = (wr * WM + mt) * 16 + g
                            A = np.zeros((16, 8))
                            A[g, t], A[g + 8, t] = ws[t, row], ws[t, row + 8]
                            A[g, t + 4], A[g + 8, t + 4] = ws[t + 4, row], ws[t + 4, row + 8]
                            for nt in range(4):
                                col = wc * 32 + nt * 8 + g
                                B = np.zeros((8, 8))
                                B[t, g], B[t + 4, g] = xs[t, col], xs[t + 4, col]
                                C = A @ B
                                r0, c0 = (wr * WM + mt) * 16 + g, wc * 32 + nt * 8 + 2 * t
                                acc[r0, c0] += C[g, 2 * t]
                                acc[r0, c0 + 1] += C[g, 2 * t + 1]
                                acc[r0 + 8, c0] += C[g + 8, 2 * t]
                                acc[r0 + 8, c0 + 1] += C[g + 8, 2 * t + 1]
            o0 = tile * S * NU - P
            for e in range(COUT * S * NU):
                co, j = e // (S * NU), e % (S * NU)
                o = o0 + j
                if not 0 <= o < l_out:
                    continue
                v = b[co]
                for k in range(K):
                    if (j - k * D) % S == 0:
                        v += acc[co * K + k, (j - k * D) // S + CMAX]
                y[n, co, o] = v
    want = direct(x, w, b, S, P, 0, 1, D)
    assert not np.isnan(y).any(), "unwritten outputs"
    return float(np.abs(y - want).max() / np.abs(want).max())


def run(calls, bias, reps):
    import cupy
    import torch

    import cupyconv
    from gpu_timing import events_ms, launch_ms
    torch.backends.cudnn.allow_tf32 = False
    code = _inline(SOURCE, set())
    exprs = list(dict.fromkeys(instance(c)[0] for c in calls))
    mod = cupy.RawModule(code=code, options=OPTIONS, name_expressions=exprs)
    print(f"{'call':8s} {'shape':34s} {'probe ms':>9s} {'cupyconv':>9s} {'torch':>9s} "
          f"{'vs cupyconv':>11s} {'vs torch':>9s} {'GB/s':>6s} {'rel err':>8s}", flush=True)
    for c in calls:
        expr, smem, nu = instance(c)
        kern = mod.get_function(expr)
        kern.max_dynamic_shared_size_bytes = smem
        g = torch.Generator(device="cuda").manual_seed(1)
        xt = torch.randn(c.N, c.C_in, c.L, device="cuda", generator=g)
        wt = torch.randn(c.C_in, c.C_out, c.K, device="cuda", generator=g) / (c.C_in * c.K) ** 0.5
        bt = torch.randn(c.C_out, device="cuda", generator=g) if bias else None
        kw = dict(stride=c.S, padding=c.P, output_padding=0, groups=1, dilation=c.D)
        f = torch.nn.functional.conv_transpose1d
        ref = f(xt.double(), wt.double(), None if bt is None else bt.double(), **kw)
        l_out = ref.shape[-1]
        x, w = cupy.from_dlpack(xt), cupy.from_dlpack(wt)
        b = None if bt is None else cupy.from_dlpack(bt)
        y = cupy.full((c.N, c.C_out, l_out), cupy.nan, dtype=cupy.float32)
        grid = (-(-(l_out + c.P) // (c.S * nu)), c.N)
        args = (x, w, b if b is not None else np.uintp(0), y, np.int32(c.C_in), np.int32(c.L),
                np.int32(l_out), np.int32(c.P))

        def probe():
            kern(grid, (256,), args, shared_mem=smem)
        probe()
        cupy.cuda.Device().synchronize()
        got = torch.from_dlpack(y).double()
        err = float(((got - ref).abs().max() / ref.abs().max()).item())
        if torch.isnan(got).any():
            err = float("nan")
        t_probe = launch_ms(probe, reps=reps)
        t_lib = launch_ms(lambda: cupyconv.conv_transpose1d(x, w, b, **kw), reps=reps)
        t_torch = events_ms(lambda: f(xt, wt, bt, **kw), reps=reps)
        nbytes = 4 * (xt.numel() + wt.numel() + c.C_out * (bias) + y.size)
        print(f"{c.name:8s} {f'{c.N}x{c.C_in}->{c.C_out} K{c.K} S{c.S} D{c.D} L{c.L}':34s} "
              f"{t_probe:9.4f} {t_lib:9.4f} {t_torch:9.4f} {t_lib / t_probe:10.2f}x "
              f"{t_torch / t_probe:8.2f}x {nbytes / t_probe / 1e6:6.0f} {err:8.1e}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--call", action="append", default=[])
    ap.add_argument("--file", action="append", default=[])
    ap.add_argument("--bias", action="store_true")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--emulate", action="store_true",
                    help="CPU emulation of the kernel's index expressions (small calls)")
    args = ap.parse_args()
    specs = args.call + [line.strip() for f in args.file for line in open(f) if line.strip()]
    calls = []
    for s in specs:
        c = config_from_spec(s)
        try:
            instance(c)
            calls.append(c)
        except ValueError as e:
            print(f"skipped: {e}")
    if args.emulate:
        for c in calls:
            print(f"{c.name}: emulated kernel against the direct scatter, relative error {emulate(c):.1e}")
    elif args.compile_only:
        compile_only(calls)
    else:
        run(calls, args.bias, args.reps)


if __name__ == "__main__":
    main()
