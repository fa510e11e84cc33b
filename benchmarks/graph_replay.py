"""The sweep's small calls (N = 1, L = 1024) inside a CUDA graph, next to torch's.

    python benchmarks/graph_replay.py      (GPU machine with torch, repo root)

A small call's time is mostly the host's (about 15 us per launch through Python); a
CUDA graph replays captured launches without it. For each small configuration this
captures 20 back-to-back calls of the public API on torch tensors (cupyconv) and of
torch.nn.functional.conv_transpose1d (float32, TF32 off) into one graph each, and reports
the median time per call over replays (CUDA events), next to the eager wall time per
call. The last replay's output is checked against torch in float64.
"""
import numpy as np
import torch

import cupyconv
from cupyconv.bench import SWEEP, _wall_per_call

CALLS = 20


def replay_us(fn, reps=50):
    """Median us per fn() call: CALLS calls captured in one graph, replayed reps times."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()                                   # first call of the signature, outside
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        outs = [fn() for _ in range(CALLS)]
    for _ in range(3):
        g.replay()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) * 1e3 / CALLS)
    return float(np.median(ts)), outs[-1]


def wall_us(fn):
    return _wall_per_call(fn, reps=500) * 1e3       # (ms per call there)


def main():
    torch.backends.cudnn.allow_tf32 = False
    f = torch.nn.functional.conv_transpose1d
    print(f"{'config':18s} {'graph us/call':>14s} {'torch graph':>12s} {'eager us/call':>14s} "
          f"{'torch eager':>12s} {'rel err':>9s}")
    for c in (c for c in SWEEP if c.family == "small"):
        g = torch.Generator(device="cuda").manual_seed(1)
        x = torch.randn(c.N, c.C_in, c.L, device="cuda", generator=g)
        w = torch.randn(c.C_in, c.C_out // c.G, c.K, device="cuda", generator=g)
        b = torch.randn(c.C_out, device="cuda", generator=g) if c.bias else None
        kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)
        ours = lambda: cupyconv.conv_transpose1d(x, w, b, **kw)
        theirs = lambda: f(x, w, b, **kw)
        g_ours, y = replay_us(ours)
        g_torch, _ = replay_us(theirs)
        ref = f(x.double(), w.double(), None if b is None else b.double(), **kw)
        err = ((y.double() - ref).norm() / ref.norm()).item()
        print(f"{c.name:18s} {g_ours:14.1f} {g_torch:12.1f} {wall_us(ours):14.1f} "
              f"{wall_us(theirs):12.1f} {err:9.1e}", flush=True)


if __name__ == "__main__":
    main()
