"""ct1d_pipe (kernels/ct1d_pipe.cu) against the shipped plan on the sweep calls it takes:
every output NaN-poisoned and checked against torch in float64, times side by side in one
process (CUDA-event medians of 5 back-to-back launches), fraction of the copy bandwidth.

    python benchmarks/pipe_probe.py [config ...] [--wg 2] [--stages 3] [--rounds 3]
    (GPU machine with torch, repo root)
"""
import argparse
import math
import sys
from pathlib import Path

import cupy
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_timing import launch_ms, torch_case  # noqa: E402

from cupyconv import _gpu  # noqa: E402
from cupyconv._modules import kernel_source  # noqa: E402
from cupyconv.bench import SWEEP, config_from_spec, config_params, l_out, min_bytes  # noqa: E402


def live(S, D, K):
    cls = sorted({k * D % S for k in range(K)})
    offs = sorted({k * D // S for k in range(K)})
    return cls, offs


def geometry(c):
    """(U, e0, TO) for a call, or None where the kernel cannot take it."""
    S, P = c.S, c.P
    e0 = (P - S + 1) // S
    loc_min = e0 * S - P
    for U in range(64, 0, -4):
        TO = S * U
        if TO % 8 == 0 and (TO - 1 - loc_min) // S < 64:
            return U, e0, TO
    return None


def instance(c, wg, stages):
    cls, offs = live(c.S, c.D, c.K)
    cig, cog = c.C_in // c.G, c.C_out // c.G
    Lo = l_out(c)
    if c.dtype != "float32" or cig % 16 or cig > 64 or c.L % 4 or Lo % 8:
        return None
    nco = 16 if cog <= 16 else 32
    N = nco * len(cls)
    if N % 16 or N > 192:
        return None
    geo = geometry(c)
    if geo is None:
        return None
    cmax = (c.K - 1) * c.D // c.S
    KD = len(offs) * cig
    W4 = (70 + cmax) // 4 * 4
    XP = (W4 + 11) // 16 * 16 + 4
    OP = (64 * c.S + 23) // 32 * 32 + 8
    smem = 2 * KD * N * 2 + wg * stages * cig * XP * 4 + wg * 2 * nco * OP * 4 + N * 12 + 16
    if smem > 227 * 1024 or KD * N * 4 > wg * stages * cig * XP * 4:
        return None
    return dict(expr=f"ct1d_pipe<{c.S}, {c.D}, {c.K}, {cig}, {nco}, {wg}, {stages}>",
                nco=nco, smem=smem, geo=geo, Lo=Lo)


_mods = {}


def kernel(expr):
    if expr not in _mods:
        mod = cupy.RawModule(code=kernel_source("ct1d_pipe"), options=("-std=c++17", "-arch=sm_90a"),
                             name_expressions=(expr,))
        k = mod.get_function(expr)
        _mods[expr] = k
    return _mods[expr]


def run_pipe(inst, c, x, w, b, y, wg):
    k = kernel(inst["expr"])
    U, e0, TO = inst["geo"]
    Lo = inst["Lo"]
    n_t = -(-Lo // TO)
    cog = c.C_out // c.G
    rows = c.G * -(-cog // inst["nco"])
    units = c.N * n_t
    per_row = max(1, 132 // rows)
    gx = min(per_row, -(-units // wg))
    k.max_dynamic_shared_size_bytes = inst["smem"]
    i32 = np.int32
    args = (x, w, b if b is not None else x, y, i32(c.N), i32(c.C_in), i32(c.C_out), i32(c.G),
            i32(c.L), i32(Lo), i32(c.P), i32(U), i32(e0), i32(n_t), i32(b is not None), i32(0))
    return lambda: k((gx, rows, 1), (wg * 128,), args, shared_mem=inst["smem"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--wg", type=int, default=2)
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--call", action="append", default=[])
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    src = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = launch_ms(lambda: dst.copy_(src))
    copy_bw = 2 * src.numel() / copy_ms / 1e9
    print(f"copy {copy_bw:.0f} GB/s")
    configs = [c for c in SWEEP if (not args.configs or c.name in args.configs)]
    configs += [config_from_spec(s) for s in args.call]
    worst = 0.0
    for c in configs:
        inst = instance(c, args.wg, args.stages)
        if inst is None:
            continue
        case = torch_case(c)
        p = config_params(c)
        try:
            run = run_pipe(inst, c, case.x, case.w, case.b, case.y, args.wg)
            case.y.fill(cupy.nan)
            run()
            cupy.cuda.runtime.deviceSynchronize()
        except Exception as exc:              # a compile or launch failure is a result here
            print(f"{c.name}: {inst['expr']} FAILED: {str(exc)[:2000]}")
            continue
        err = float((case.yt.double() - case.ref).abs().max() / case.ref.abs().max())
        worst = max(worst, err if not math.isnan(err) else float("inf"))
        ship = lambda: _gpu.launch(case.x, case.w, case.b, case.y, p, c.dtype, 0, None)
        case.y.fill(cupy.nan)
        ship()
        err_ship = float((case.yt.double() - case.ref).abs().max() / case.ref.abs().max())
        t_pipe, t_ship = [], []
        for _ in range(args.rounds):
            t_pipe.append(launch_ms(run))
            t_ship.append(launch_ms(ship))
        tp, ts = float(np.median(t_pipe)), float(np.median(t_ship))
        mb = min_bytes(c)
        print(f"{c.name:20s} {inst['expr']:34s} pipe {tp:.4f} ms ({mb / tp / 1e9 / copy_bw:5.1%} of copy, "
              f"err {err:.1e})  shipped {ts:.4f} ms ({mb / ts / 1e9 / copy_bw:5.1%}, err {err_ship:.1e})  "
              f"{ts / tp:.2f}x", flush=True)
    print(f"worst pipe error {worst:.2e}")
    sys.exit(0 if worst <= 1e-6 else 1)


if __name__ == "__main__":
    main()
