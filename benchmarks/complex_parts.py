"""Where a complex call's time goes: packing, the real call, unpacking (GPU).

    python benchmarks/complex_parts.py [--dtype complex64] [--reps 20] SPEC...

For each sweep configuration named (``cupyconv.bench``'s names) in a complex dtype: the whole
call (torch in, torch out), then its three stages timed alone on the same operands with
CUDA events, medians of ``--reps``: ``pack`` (cupyconv._complex.pack), ``real`` (the
real call on the packed operands), ``unpack``; and torch's complex call. ``--profile``
adds a host profile of the whole call (small calls are bound by host work). Bytes each stage
must move are printed beside it (GB/s), so the stage far from copy speed shows.
"""
import argparse
import cProfile
import pstats
import sys

import cupy
import torch

from cupyconv import _complex as cx
from cupyconv import bench, conv_transpose1d


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--dtype", default="complex64")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--profile", type=int, default=0, metavar="CALLS",
                    help="also profile CALLS whole calls of each configuration on the host "
                         "(cProfile, top 25 by cumulative time)")
    a = ap.parse_args(argv)
    stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
    for c in bench.select_configs(only=a.specs, dtype=a.dtype):
        x, w, b = bench.random_inputs(c, "cuda")
        kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)
        with stream:
            p = bench.config_params(c)
            xc, wc = cupy.from_dlpack(x), cupy.from_dlpack(w)
            bc = None if b is None else cupy.from_dlpack(b)
            x2, w2, b2 = cx.pack(xc, wc, bc, p, cupy)
            y2 = conv_transpose1d(x2, w2, b2, **kw)
            y = cupy.empty((c.N, c.C_out, bench.l_out(c)), dtype=a.dtype)

            def pack():
                cx.pack(xc, wc, bc, p, cupy)

            def real():
                conv_transpose1d(x2, w2, b2, **kw)

            def unpack():
                cx.unpack(y2, y, p, cupy)

            stages = dict(
                whole=(lambda: conv_transpose1d(x, w, b, **kw), 0),
                pack=(pack, 2 * x2.nbytes + 2 * w2.nbytes),
                real=(real, x2.nbytes + w2.nbytes + y2.nbytes),
                unpack=(unpack, 2 * y2.nbytes),
                torch=(lambda: torch.nn.functional.conv_transpose1d(x, w, b, **kw), 0))
            row = [c.name]
            for name, (fn, nbytes) in stages.items():
                ms = bench._time_events(fn, a.reps)
                gbs = f" {nbytes / ms / 1e6:.0f} GB/s" if nbytes else ""
                row.append(f"{name} {ms:.4f} ms{gbs}")
            print(" | ".join(row), flush=True)
            if a.profile:
                prof = cProfile.Profile()
                prof.enable()
                for _ in range(a.profile):
                    stages["whole"][0]()
                prof.disable()
                torch.cuda.synchronize()
                pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
