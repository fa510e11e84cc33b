"""CUDA-event timing shared by the benchmark scripts in this folder (run as scripts, so
``from gpu_timing import events_ms`` resolves here)."""
from types import SimpleNamespace

import cupy
import numpy as np


def events_ms(fn, reps: int = 30, warmup: int = 3) -> float:
    """Median ms of fn() between two CUDA events on CuPy's current stream, after warm-up."""
    for _ in range(warmup):
        fn()
    ts = []
    for _ in range(reps):
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(cupy.cuda.get_elapsed_time(a, b))
    return float(np.median(ts))


def launch_ms(run, reps: int = 30, inner: int = 5) -> float:
    """Median ms per ``run()`` over ``inner`` back-to-back launches between the events: a
    single short launch would count CuPy's host time (~15 us) as GPU time."""
    return events_ms(lambda: [run() for _ in range(inner)], reps=reps) / inner


def _compile_one(job):
    code, options, expr = job
    cupy.RawModule(code=code, options=options, name_expressions=(expr,)).get_function(expr).compile()
    return expr


def warm_parallel(jobs, workers: int = 16) -> None:
    """Compile (source, options, name_expression) jobs in parallel processes: each writes
    CuPy's on-disk kernel cache (CUPY_CACHE_DIR), so this process then loads them at once.
    Compiles dominate the scripts' device time otherwise."""
    import concurrent.futures
    import multiprocessing
    import time
    jobs = list(dict.fromkeys(jobs))
    t0 = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(min(workers, len(jobs) or 1), mp_context=ctx) as ex:
        list(ex.map(_compile_one, jobs))
    print(f"compiled {len(jobs)} instances in {time.perf_counter() - t0:.0f} s", flush=True)


def key_job(key):
    """warm_parallel job for a cupyconv kernel key, as cupyconv._modules.get_kernel builds it."""
    from cupyconv._modules import compile_options, kernel_source
    return (kernel_source(key.family), compile_options(key), key.name_expression())


def parse_variants(specs):
    """``--variant NAME=MACRO:VALUE[,MACRO:VALUE]`` arguments as [(name, [(macro, value)])],
    after ("shipped", None) for the source as it is. ``dispatch.NAME:VALUE`` sets a
    constant of cupyconv._dispatch instead of a macro (e.g. dispatch.MMA_SECTOR_TILES:False),
    ``waves.FAMILY:VALUE`` the family's grid size in waves of resident blocks;
    ``source:PATH`` compiles the family from another file (e.g. an earlier version kept
    under benchmarks/variants/; its includes resolve in kernels/)."""
    import re
    # definitions are separated by commas that start the next NAME: (values may hold commas)
    return [("shipped", None)] + [
        (v.split("=")[0], [tuple(d.split(":", 1)) for d in re.split(r",(?=[A-Za-z_][\w.]*:)",
                                                                     v.split("=", 1)[1])])
        for v in specs]


def use_variant(family, defines):
    """Compile ``family`` with extra ``#define``s (pairs (MACRO, VALUE)) from now on; None:
    the shipped source. Drops the compiled kernels so the next launch uses the variant."""
    import ast
    from cupyconv import _dispatch, _gpu, _modules
    global _SOURCE
    if _SOURCE is None:
        _SOURCE = _modules.kernel_source
    for name, value in _DISPATCH_SAVED.items():
        setattr(_dispatch, name, value)
    _DISPATCH_SAVED.clear()
    _gpu._WAVES.update(_WAVES_SAVED)
    _WAVES_SAVED.clear()
    macros, source = [], _SOURCE
    for m, v in defines or []:
        if m == "source":
            source = _alt_source(v)
        elif m.startswith("waves."):              # waves.FAMILY: cupyconv._gpu._WAVES[FAMILY]
            fam = m.split(".", 1)[1]
            _WAVES_SAVED.setdefault(fam, _gpu._WAVES[fam])
            _gpu._WAVES[fam] = ast.literal_eval(v)
        elif m.startswith("dispatch."):
            name = m.split(".", 1)[1]
            _DISPATCH_SAVED[name] = getattr(_dispatch, name)
            setattr(_dispatch, name, ast.literal_eval(v))
        else:
            macros.append((m, v))
    _dispatch.plan.cache_clear()
    head = "".join(f"#define {m} {v}\n" for m, v in macros)
    # (family None: the dispatcher picks the family, so the macros go to every family)
    _modules.kernel_source = lambda fam: ((head + source(fam)) if family in (None, fam) else _SOURCE(fam))
    _modules._kernels.clear()
    _gpu._smem_set.clear()


_SOURCE = None
_DISPATCH_SAVED: dict = {}
_WAVES_SAVED: dict = {}


def _alt_source(path):
    """kernel_source-like function for a whole kernel file kept elsewhere. A file named
    after a family (ct1d_mma_v19.cu) replaces that family only, so that FAMILY auto, which
    compiles every family through this, keeps the others' shipped source."""
    from pathlib import Path
    from cupyconv._dispatch import FAMILIES
    from cupyconv._modules import _INCLUDE, _inline, kernel_dir
    seen = set()                      # each header once, as the loader does
    text = _INCLUDE.sub(lambda m: _inline(kernel_dir() / m.group(1), seen), Path(path).read_text())
    owner = next((f for f in FAMILIES if Path(path).name.startswith(f)), None)
    return lambda fam: text if owner in (None, fam) else _SOURCE(fam)


def torch_case(c):
    """A sweep configuration's call on fresh seeded torch data in its dtype: ``call()``
    runs torch (float32 as given), ``ref`` is its float64 result, ``x, w, b`` are CuPy
    views of the inputs and ``y`` a CuPy view of the torch output buffer ``yt``
    (bfloat16 as int16 views, as cupyconv hands them to the kernels); ``xt, wt, bt`` are
    the torch inputs (CuPy has no bfloat16: the public API takes those as torch)."""
    import torch
    dt = getattr(torch, c.dtype)
    g = torch.Generator(device="cuda").manual_seed(1)
    xt = torch.randn(c.N, c.C_in, c.L, device="cuda", generator=g).to(dt)
    wt = (torch.randn(c.C_in, c.C_out // c.G, c.K, device="cuda", generator=g)
          / (c.C_in // c.G * c.K) ** 0.5).to(dt)
    bt = torch.randn(c.C_out, device="cuda", generator=g).to(dt) if c.bias else None
    kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)
    f = torch.nn.functional.conv_transpose1d
    ref = f(xt.double(), wt.double(), None if bt is None else bt.double(), **kw)
    yt = torch.empty(ref.shape, device="cuda", dtype=dt)

    def view(t):
        return cupy.from_dlpack(t.view(torch.int16) if t.dtype == torch.bfloat16 else t)
    return SimpleNamespace(call=lambda: f(xt, wt, bt, **kw), ref=ref, yt=yt, xt=xt, wt=wt, bt=bt,
                           x=view(xt), w=view(wt), b=None if bt is None else view(bt),
                           y=view(yt))


def pointer_launch(case, prep):
    """A launch of the prepared call ``prep`` (``_gpu.prepare``) on ``case``'s buffers
    (torch_case) through ``_gpu.run_pointers`` on CuPy's current stream: no planning or
    argument handling per launch, whose host time exceeds small calls' GPU time."""
    from cupyconv import _gpu
    ptrs = (case.x.data.ptr, case.w.data.ptr, 0 if case.b is None else case.b.data.ptr,
            case.y.data.ptr)
    stream = cupy.cuda.get_current_stream().ptr
    return lambda: _gpu.run_pointers(prep, *ptrs, stream)
