"""Random float32 shapes beyond the sweep, cupyconv's default plan side by side with torch
(fp32, TF32 off): where is cupyconv slower than cuDNN, and would another family win there?

    python benchmarks/shape_scan.py [--n 160] [--seed 0] [--json OUT.json]
                                    [--variant NAME=dispatch.CONST:VALUE[,...]]
    (GPU machine with torch, repo root; PYTHONPATH=.:benchmarks)

Shapes are drawn from one seeded generator over what users run: dense calls with 1-1024
channels on either side, strides 1-10, kernels S, 2S, 2S+1 and odd sizes up to 16,
dilation up to 3, any legal padding and output padding, grouped and depthwise calls, and
small latency-bound calls (N = 1, L = 1024). Lengths are chosen so that x and y together
take 24-192 MB (odd lengths included). Every call's output is NaN-poisoned and compared
with torch in float64 (a relative error over 1e-5, for 16-bit dtypes 1e-2, is printed as
an error, exit status 1). ``--dtype`` runs the same shapes in another dtype (torch in that
dtype too).
Calls where cupyconv is slower than torch are then timed on every family that covers them.
The default plan is timed through cupyconv.conv_transpose1d on CuPy arrays (bfloat16: torch tensors; repeat calls
take the fast path), forced families through the launcher. (Session 54's run 2 timed the
default through the launcher too, whose host time, ~45 us per launch on an H100 host,
made its small calls look slow.)
``--variant`` (as in ab_variant.py) runs the whole scan with other dispatch rules;
``--no-compare`` skips the other families.
``--prepared`` times the forced families through prepared launches (``_gpu.run_pointers``).
``--names N1,N2`` (or ``@FILE`` of them) keeps only those calls, ``--select F1,F2`` only the calls whose default plan is one of those families
(``ct1d_mma-sync``: ct1d_mma's mma.sync tiles, not its warpgroup ones), ``--compare-all``
times the other families on every kept call (not only where torch wins), ``--families``
names the families compared. E.g. where ct1d_mma keeps mma.sync tiles, 1000 draws:
``--n 1000 --select ct1d_mma-sync,ct1d_scatter --compare-all --families ct1d_mma,ct1d_stream``.
"""
import argparse
import dataclasses
import json
import sys

import numpy as np
import torch

import cupyconv
from cupyconv import _gpu
from cupyconv._dispatch import FAMILIES
from cupyconv.bench import Config, config_params, min_bytes
from gpu_timing import (key_job, launch_ms, parse_variants, pointer_launch, torch_case, use_variant,
                        warm_parallel)

# relative error against float64 above which a call is reported as an error
ERROR_BAR = {"float32": 1e-5, "float64": 1e-12, "float16": 1e-2, "bfloat16": 1e-2}
CHANNELS = (1, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)


def draw(rng: np.random.Generator, i: int) -> Config:
    """One random call (float32, legal by torch's rules)."""
    kind = str(rng.choice(["dense", "dense", "dense", "grouped", "depthwise", "small"]))
    S = int(rng.choice([1, 2, 2, 3, 4, 5, 8, 10]))
    K = int(min(32, rng.choice([S, 2 * S, 2 * S, 2 * S + 1, 3, 5, 7, 16])))
    D = int(rng.choice([1, 1, 1, 1, 2, 3]))
    P = int(rng.integers(0, (K - 1) * D // 2 + 1))
    OP = int(rng.integers(0, max(S, D)))
    cin, cout = int(rng.choice(CHANNELS)), int(rng.choice(CHANNELS))
    G = 1
    if kind == "grouped":
        G = int(rng.choice([2, 4, 8, 16]))
        cin, cout = max(cin, 8 * G) // G * G, max(cout, G) // G * G
    elif kind == "depthwise":
        cin = int(rng.choice([16, 32, 64, 128, 256, 512]))
        G, cout = cin, cin * int(rng.choice([1, 1, 2]))
    if kind == "small":
        N, L = 1, 1024
    else:
        N = int(rng.choice([1, 4, 8, 16]))
        target = float(rng.choice([24e6, 64e6, 192e6]))          # bytes of x and y
        L = int(target / (4 * N * (cin + cout * S)))
        L = max(256, min(L, 1 << 20)) + int(rng.integers(0, 4))
    name = f"r{i:03d}-{kind[:2] if kind != 'depthwise' else 'dw'}-{cin}-{cout}-k{K}s{S}d{D}p{P}" + (f"g{G}" if G > 1 else "")
    return Config(name, kind, N, cin, cout, K, L, S=S, P=P, D=D, G=G, OP=OP,
                  bias=bool(rng.integers(0, 2)))


def draw_calls(n: int, seed: int):
    rng = np.random.default_rng(seed)
    calls, i = [], 0
    while len(calls) < n:
        c = draw(rng, i)
        i += 1
        try:
            p = config_params(c)
        except ValueError:                     # e.g. L_out < 1 with a large padding
            continue
        calls.append((c, p))
    return calls


def selected(pl, select) -> bool:
    """The default plan pl is one of the --select families."""
    if not select:
        return True
    fam = pl.key.family
    return fam in select or (fam == "ct1d_mma" and not pl.key.wg and "ct1d_mma-sync" in select)


def measure(c, p, families, prepared=False):
    """torch ms, and per family (ms, rel. error) on the same data. The default plan (family
    None) is timed through the public API on CuPy arrays, as users call it (repeat calls
    take the fast path); forced families through the launcher, or with ``prepared``
    prepared once and launched by ``_gpu.run_pointers`` (gpu_timing.pointer_launch: the
    launcher's host time, 10-30 us, exceeds small calls' GPU time)."""
    case = torch_case(c)
    t_torch = launch_ms(case.call)
    # (case.call returns torch's output; yt is the buffer cupyconv's launches write)
    err_torch = ((case.call().double() - case.ref).norm() / case.ref.norm()).item()
    kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)
    out = {}
    for fam in families:
        run = lambda: _gpu.launch(case.x, case.w, case.b, case.y, p, c.dtype, 0, fam)  # noqa: E731
        if fam is not None and prepared:
            run = pointer_launch(case, _gpu.prepare(p, c.dtype, 0, fam))
        case.yt.fill_(float("nan"))
        run()
        err = ((case.yt.double() - case.ref).norm() / case.ref.norm()).item()
        if fam is None:
            # bfloat16 through torch tensors (CuPy has none); other dtypes on CuPy arrays
            x, w, b = ((case.xt, case.wt, case.bt) if c.dtype == "bfloat16"
                       else (case.x, case.w, case.b))
            run = lambda: cupyconv.conv_transpose1d(x, w, b, **kw)  # noqa: E731
        out[fam or "default"] = (launch_ms(run), err)
    return t_torch, err_torch, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=160)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None)
    ap.add_argument("--variant", default=None)
    ap.add_argument("--no-compare", action="store_true",
                    help="skip the other families on the calls torch wins")
    ap.add_argument("--select", default="",
                    help="only calls whose default family is one of these (comma-separated; "
                         "ct1d_mma-sync: ct1d_mma's mma.sync tiles)")
    ap.add_argument("--dtype", default=None, choices=list(ERROR_BAR))
    ap.add_argument("--names", default="",
                    help="only these calls (comma-separated names, or @FILE of them)")
    ap.add_argument("--compare-all", action="store_true",
                    help="time the other families on every call, not only where torch wins")
    ap.add_argument("--families", default=",".join(FAMILIES),
                    help="the families compared (comma-separated)")
    ap.add_argument("--prepared", action="store_true",
                    help="time the forced families prepared once (run_pointers), not through "
                         "the launcher")
    args = ap.parse_args()
    select = set(filter(None, args.select.split(",")))
    names = open(args.names[1:]).read() if args.names.startswith("@") else args.names
    names = set(filter(None, names.strip().split(",")))
    families = [f for f in args.families.split(",") if f in FAMILIES]
    if args.variant:
        use_variant(None, parse_variants([args.variant])[1][1])
    torch.backends.cudnn.allow_tf32 = False
    drawn = draw_calls(args.n, args.seed)
    if args.dtype:
        drawn = [(dataclasses.replace(c, dtype=args.dtype), p) for c, p in drawn]
    bar = ERROR_BAR[args.dtype or "float32"]
    calls, defaults = [], []
    for c, p in drawn:
        pl = None if names and c.name not in names else _gpu.device_plan(p, c.dtype, 0)
        if pl is not None and selected(pl, select):
            calls.append((c, p))
            defaults.append(pl)
    warm_parallel([key_job(pl.key) for pl in defaults])
    rows, bad = [], 0
    print(f"{'config':34s} {'N':>2s} {'L':>7s} {'MB':>6s} {'torch':>7s} {'ours':>7s} "
          f"{'ratio':>6s} {'err':>7s}  family", flush=True)
    for (c, p), pl in zip(calls, defaults):
        t_torch, err_torch, r = measure(c, p, [None])
        ms, err = r["default"]
        row = dict(config=dataclasses.asdict(c), family=pl.key.family, key=repr(pl.key),
                   torch_ms=t_torch, torch_err=err_torch, ms=ms, err=err,
                   speedup=t_torch / ms, mb=min_bytes(c) / 1e6)
        rows.append(row)
        flag = "  ERROR" if not err <= bar else ""
        bad += bool(flag)
        print(f"{c.name:34s} {c.N:2d} {c.L:7d} {row['mb']:6.0f} {t_torch:7.3f} {ms:7.3f} "
              f"{row['speedup']:6.2f} {err:7.1e}  {pl.key.family}{flag}", flush=True)
    slow = [(c, p, row) for (c, p), row in zip(calls, rows) if row["speedup"] < 1.0 or args.compare_all]
    sp = np.array([r["speedup"] for r in rows])
    print(f"\n{len(rows)} calls: geomean {np.exp(np.log(sp).mean()):.2f}x, min {sp.min():.2f}x, "
          f"{sum(sp < 1.0)} slower than torch, {bad} over {bar:g} error", flush=True)
    # every family on the calls torch wins
    fams = {}
    for c, p, _ in ([] if args.no_compare else slow):
        for fam in families:
            try:
                fams[(c.name, fam)] = _gpu.device_plan(p, c.dtype, 0, fam)
            except NotImplementedError:
                pass
    warm_parallel([key_job(pl.key) for pl in fams.values()])
    for c, p, row in ([] if args.no_compare else slow):
        covering = [f for f in families if (c.name, f) in fams]
        t_torch, _, r = measure(c, p, covering, args.prepared)
        row["families"] = {f: {"ms": ms, "err": e} for f, (ms, e) in r.items()}
        print(f"{c.name:34s} torch {t_torch:7.3f}  " + "  ".join(
            f"{f} {ms:.3f} ({t_torch / ms:.2f}x)" for f, (ms, e) in r.items()), flush=True)
    if args.json:
        meta = dict(device=torch.cuda.get_device_name(), n=args.n, seed=args.seed,
                    variant=args.variant, select=args.select, names=sorted(names), dtype=args.dtype,
                    compare_all=args.compare_all)
        json.dump(dict(meta=meta, rows=rows), open(args.json, "w"), indent=1)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
