"""Complex calls on the GPU: the two layouts of cupyconv._complex side by side.

    python benchmarks/complex_parts.py [--dtype complex64] [--reps 20] [--profile CALLS] NAME...
    python benchmarks/complex_parts.py --random 24 --seed 82 [--dtype complex64]

For each sweep configuration named (``cupyconv.bench``'s names), or each of ``--random``
calls drawn as ``shape_scan.py`` draws them (seeded), in a complex dtype, in one process,
CUDA events after warm-up, medians of ``--reps`` (torch's stream): the whole call (torch
in, torch out) with every call stacked (``INTERLEAVED_MAX_DILATION`` 0) and every call
interleaved (zero taps where D > 1); for each layout also its real call alone (``real``,
on operands packed once) with the kernel it runs; torch's complex call (torch's default
settings: TF32 on); and each result's error against torch's complex128 one (above
ERROR_BAR: printed as ERROR, exit status 1). Each call also says which layout
``INTERLEAVED_BY_FAMILY`` (session 82's hypothesis) would pick, and the end sums up
interleaved over stacked for the calls it picks and those it leaves.
``--profile`` adds a host profile of the whole call as shipped.
"""
import argparse
import cProfile
import dataclasses
import math
import pstats
import sys

import cupy
import torch

from cupyconv import _complex as cx
from cupyconv import _gpu, bench, conv_transpose1d
from cupyconv._adapters import torch_stream

LAYOUTS = {"stacked": 0, "interleaved": 10**9}       # INTERLEAVED_MAX_DILATION
ERROR_BAR = {"complex64": 1e-5, "complex128": 1e-12}  # above: printed as ERROR, exit status 1
SHIPPED = cx.INTERLEAVED_MAX_DILATION, cx.INTERLEAVED_BY_FAMILY


def _geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--dtype", default="complex64")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--random", type=int, default=0, metavar="N")
    ap.add_argument("--seed", type=int, default=82)
    ap.add_argument("--profile", type=int, default=0, metavar="CALLS")
    a = ap.parse_args(argv)
    if a.random:
        from shape_scan import draw_calls
        configs = [dataclasses.replace(c, dtype=a.dtype) for c, _ in draw_calls(a.random, a.seed)]
    else:
        configs = bench.select_configs(only=a.names, dtype=a.dtype)
    dev = cupy.cuda.Device().id
    stream = torch_stream(dev)
    real = cx.REAL_OF[a.dtype]
    family_of = _gpu.family_on(real, dev)
    # interleaved over stacked, by the hypothesis' pick; results above ERROR_BAR
    gains = {True: [], False: [], "errors": 0}
    for c in configs:
        try:
            _compare(c, a, stream, dev, real, family_of, gains)
        except Exception as e:          # (a call no layout runs: say so, go on)
            cx.INTERLEAVED_MAX_DILATION, cx.INTERLEAVED_BY_FAMILY = SHIPPED
            print(f"{c.name}: ERROR {type(e).__name__}: {e}", flush=True)
            gains["errors"] += 1
    for pick in (True, False):
        v = gains[pick]
        print(f"family rule picks {'interleaved' if pick else 'stacked'}: {len(v)} calls, "
              f"interleaved/stacked geomean {_geomean(v):.3f}x, "
              f"range {min(v, default=float('nan')):.3f}-{max(v, default=float('nan')):.3f}x")
    print(f"errors: {gains['errors']}")
    return 1 if gains["errors"] else 0


def _compare(c, a, stream, dev, real, family_of, gains) -> None:
    """Time and check one configuration in both layouts (see the module's docstring)."""
    x, w, b = bench.random_inputs(c, "cuda")
    kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)
    y64 = torch.nn.functional.conv_transpose1d(*(None if t is None else bench._widened(t)
                                                 for t in (x, w, b)), **kw)
    p = bench.config_params(c)
    cx.INTERLEAVED_MAX_DILATION, cx.INTERLEAVED_BY_FAMILY = 0, True
    pick = cx.interleaved(p, family_of)
    cx.INTERLEAVED_BY_FAMILY = False
    row, whole = [f"{c.name} ({bench.min_bytes(c) / 1e6:.0f} MB) family rule: "
                  f"{'interleaved' if pick else 'stacked'}"], {}
    for layout, limit in LAYOUTS.items():
        cx.INTERLEAVED_MAX_DILATION = limit
        inter = limit > 0
        whole[inter] = bench._time_events(lambda: conv_transpose1d(x, w, b, **kw), a.reps)
        err = bench._rel_err(conv_transpose1d(x, w, b, **kw), y64)
        with stream:
            p2 = cx.real_params(p, inter)
            prep = _gpu.prepare(p2, real, dev)
            xc, wc = cupy.from_dlpack(x), cupy.from_dlpack(w)
            bc = None if b is None else cupy.from_dlpack(b)
            x2, w2, b2 = cx.pack(xc, wc, bc, p, cupy, inter)
            y2 = cupy.empty((p2.batch, p2.out_channels, p2.length_out), dtype=real)
            alone = bench._time_events(lambda: _gpu.run(prep, x2, w2, b2, y2), a.reps)
        name = _gpu.device_plan(p2, real, dev).key.name_expression()
        bad = not err <= ERROR_BAR[a.dtype]
        gains["errors"] += bad
        row.append(f"{layout} {whole[inter]:.4f} ms (real {alone:.4f}, {name}) err {err:.1e}"
                   + (" ERROR" if bad else ""))
    cx.INTERLEAVED_MAX_DILATION, cx.INTERLEAVED_BY_FAMILY = SHIPPED
    gains[pick].append(whole[False] / whole[True])
    t = bench._time_events(lambda: torch.nn.functional.conv_transpose1d(x, w, b, **kw), a.reps)
    row.append(f"torch {t:.4f} ms err "
               f"{bench._rel_err(torch.nn.functional.conv_transpose1d(x, w, b, **kw), y64):.1e}"
               f" | interleaved/stacked {whole[False] / whole[True]:.3f}x")
    print("\n  ".join(row), flush=True)
    if a.profile:
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(a.profile):
            conv_transpose1d(x, w, b, **kw)
        prof.disable()
        torch.cuda.synchronize()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    sys.exit(main())
