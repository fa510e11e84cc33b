"""ct1d_pipe (kernels/ct1d_pipe.cu) against the shipped plan on the sweep calls it takes:
every output NaN-poisoned and checked against torch in float64, times side by side in one
process (CUDA-event medians of 5 back-to-back launches), fraction of the copy bandwidth.

    python benchmarks/pipe_probe.py [config ...] [--variant NAME=wg:2,stages:3,MACRO:VALUE ...]
                                    [--rounds 3] [--call NAME=N,C_in,C_out,K,L[,S,P,D,G]]
    (GPU machine with torch, repo root)

Without --variant: wg 2, stages 3. Variants with CT1D_PIPE_ABLATE set are ablations
(wrong results on purpose: their error is not checked).
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


def geometry(c, quantum=4):
    """(U, e0, TO) for a call: the most positions U per 64-position tile whose S*U outputs
    are a multiple of ``quantum`` floats, all reached from u_base = t*U + e0 on."""
    S, P = c.S, c.P
    e0 = (P - S + 1) // S
    loc_min = e0 * S - P
    for U in range(64, 0, -1):
        TO = S * U
        if TO % quantum == 0 and (TO - 1 - loc_min) // S < 64:
            return U, e0, TO
    return None


def instance(c, wg, stages):
    cls, offs = live(c.S, c.D, c.K)
    cig, cog = c.C_in // c.G, c.C_out // c.G
    Lo = l_out(c)
    if c.dtype != "float32" or cig % 16 or cig > 64 or c.L % 4 or Lo % 4:
        return None
    # dead classes hold the bias at fixed places: tiles shift by 16 bytes only where S | 4
    shifts_ok = len(cls) == c.S or 4 % c.S == 0
    if not shifts_ok and Lo % 8:
        return None
    nco = 16 if cog <= 16 else 32
    N = nco * len(cls)
    if N % 16 or N > 192:
        return None
    geo = geometry(c, 4 if shifts_ok else 8)
    if geo is None:
        return None
    cmax = (c.K - 1) * c.D // c.S
    KD = len(offs) * cig
    W4 = (70 + cmax) // 4 * 4
    XP = (W4 + 11) // 16 * 16 + 4
    OP = (64 * c.S + 4 + 23) // 32 * 32 + 8
    smem = 2 * KD * N * 2 + wg * stages * cig * XP * 4 + wg * 2 * nco * OP * 4 + N * 16 + 16
    if smem > 227 * 1024 or KD * N * 4 > wg * stages * cig * XP * 4:
        return None
    return dict(expr=f"ct1d_pipe<{c.S}, {c.D}, {c.K}, {cig}, {nco}, {wg}, {stages}>",
                nco=nco, smem=smem, geo=geo, Lo=Lo)


_mods = {}


def kernel(expr, defines=()):
    if (expr, defines) not in _mods:
        head = "".join(f"#define {m} {v}\n" for m, v in defines)
        mod = cupy.RawModule(code=head + kernel_source("ct1d_pipe"), options=("-std=c++17", "-arch=sm_90a"),
                             name_expressions=(expr,))
        _mods[expr, defines] = mod.get_function(expr)
    return _mods[expr, defines]


def run_pipe(inst, c, x, w, b, y, wg, defines=()):
    k = kernel(inst["expr"], defines)
    U, e0, TO = inst["geo"]
    Lo = inst["Lo"]
    n_t = -(-Lo // TO)
    cog = c.C_out // c.G
    rows = c.G * -(-cog // inst["nco"])
    units = c.N * n_t
    k.max_dynamic_shared_size_bytes = inst["smem"]
    per_sm = cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(k.ptr, wg * 128, inst["smem"])
    per_row = max(1, 132 * per_sm // rows)
    gx = min(per_row, -(-units // wg))
    k.max_dynamic_shared_size_bytes = inst["smem"]
    i32 = np.int32
    args = (x, w, b if b is not None else x, y, i32(c.N), i32(c.C_in), i32(c.C_out), i32(c.G),
            i32(c.L), i32(Lo), i32(c.P), i32(U), i32(e0), i32(n_t), i32(b is not None), i32(0))
    return lambda: k((gx, rows, 1), (wg * 128,), args, shared_mem=inst["smem"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--call", action="append", default=[])
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    src = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = launch_ms(lambda: dst.copy_(src))
    copy_bw = 2 * src.numel() / copy_ms / 1e9
    print(f"copy {copy_bw:.2f} TB/s")
    variants = []
    for v in args.variant or ["pipe=wg:2,stages:3"]:
        name, spec = v.split("=", 1)
        kv = dict(item.split(":", 1) for item in spec.split(","))
        wg, stages = int(kv.pop("wg", 2)), int(kv.pop("stages", 3))
        variants.append((name, wg, stages, tuple(sorted(kv.items()))))
    configs = [c for c in SWEEP if (not args.configs or c.name in args.configs)]
    configs += [config_from_spec(s) for s in args.call]
    worst = 0.0
    for c in configs:
        case = torch_case(c)
        p = config_params(c)
        ship = lambda: _gpu.launch(case.x, case.w, case.b, case.y, p, c.dtype, 0, None)
        case.y.fill(cupy.nan)
        ship()
        err_ship = float((case.yt.double() - case.ref).abs().max() / case.ref.abs().max())
        runs = []
        for name, wg, stages, defines in variants:
            inst = instance(c, wg, stages)
            if inst is None:
                continue
            try:
                run = run_pipe(inst, c, case.x, case.w, case.b, case.y, wg, defines)
                case.y.fill(cupy.nan)
                run()
                cupy.cuda.runtime.deviceSynchronize()
            except Exception as exc:          # a compile or launch failure is a result here
                print(f"{c.name}: {name} {inst['expr']} FAILED: {str(exc)[:2000]}")
                continue
            err = float((case.yt.double() - case.ref).abs().max() / case.ref.abs().max())
            if not any(m == "CT1D_PIPE_ABLATE" for m, _ in defines):
                worst = max(worst, err if not math.isnan(err) else float("inf"))
            runs.append((name, inst["expr"], run, err))
        if not runs:
            continue
        times = {name: [] for name, *_ in runs}
        t_ship = []
        for _ in range(args.rounds):
            t_ship.append(launch_ms(ship))
            for name, _, run, _ in runs:
                times[name].append(launch_ms(run))
        mb = min_bytes(c)
        ts = float(np.median(t_ship))
        print(f"{c.name:20s} shipped {ts:.4f} ms ({mb / ts / 1e9 / copy_bw:5.1%} of copy, err {err_ship:.1e})")
        for name, expr, _, err in runs:
            tp = float(np.median(times[name]))
            print(f"    {name:12s} {expr:36s} {tp:.4f} ms ({mb / tp / 1e9 / copy_bw:5.1%}, err {err:.1e}) "
                  f"{ts / tp:.2f}x", flush=True)
    print(f"worst pipe error {worst:.2e}")
    sys.exit(0 if worst <= 1e-6 else 1)


if __name__ == "__main__":
    main()
