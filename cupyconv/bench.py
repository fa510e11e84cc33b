"""Benchmark: cupyconv side by side with torch, in one process, on one GPU.

    python -m cupyconv.bench [--quick] [--json out.json] [--chart out.png] [--only NAME]
                             [--dtype bfloat16]
    python -m cupyconv.bench --report out.json     (an earlier run's table, no GPU)

For every configuration: median ms per call over >= 20 CUDA-event-timed samples of 5
back-to-back calls each (small calls: 50), after warm-up, on fresh random data; achieved
GB/s over the minimum bytes (x, weight, bias, y each once) and that as a fraction of a
device-to-device copy measured in the same run;
speedup over torch fp32 with TF32 off and with torch's default (TF32 on); relative
error ||y - y64|| / ||y64|| against a float64 torch result; extra device memory the
call took beyond its output. Small (latency-bound) calls also report wall-clock time
per call, including Python overhead, for cupyconv and torch.

Each configuration is also placed on its roofline (``floors``): the run measures a bf16
GEMM next to the copy, and a configuration is memory- or compute-bound by the larger of
its two floors (``bound``; ``floor%`` is that floor over the measured time). The sweep
ends with issue 4's targets, met or missed (``targets``; also in the JSON).

Example (GPU machine with torch)::

    python -m cupyconv.bench --only seed seed-bf16 --json seeds.json
    python -m cupyconv.bench --only hifigan-u1-b16 encodec-s5 --dtype bfloat16   # vs torch bf16
    python -m cupyconv.bench --only seed up-64-64-s3 --dtype complex64   # vs torch complex64

Complex rows (``--dtype complex64``/``complex128``) draw complex data (independent real
and imaginary parts), count a complex multiply-add as four real ones (``flops``), and
take the real call cupyconv runs for them (``real_call``: on the parts, in the layout
chosen for the call) as their kernel; complex64 rows compare with torch at TF32 off and on, as float32 rows do.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, replace
from typing import Optional

import numpy as np

from cupyconv import _complex, _keys


@dataclass(frozen=True)
class Config:
    name: str
    family: str
    N: int
    C_in: int
    C_out: int
    K: int
    L: int
    S: int = 1
    P: int = 0
    D: int = 1
    G: int = 1
    OP: int = 0
    bias: bool = False
    dtype: str = "float32"


SEED = Config("seed", "seed", 16, 32, 64, 3, 131072, S=2, P=1, D=2)


def _up(name, N, cin, cout, S, L, bias=True):
    # vocoder/codec upsampler: kernel = 2*stride, padding = stride/2 (HiFi-GAN, EnCodec)
    return Config(name, "vocoder", N, cin, cout, 2 * S, L, S=S, P=(S + 1) // 2, bias=bias,
                  OP=S % 2)


SWEEP = [
    SEED,
    Config("seed-bf16", "seed", 16, 32, 64, 3, 131072, S=2, P=1, D=2, dtype="bfloat16"),
    Config("seed-fp16", "seed", 16, 32, 64, 3, 131072, S=2, P=1, D=2, dtype="float16"),
    Config("seed-bias", "seed", 16, 32, 64, 3, 131072, S=2, P=1, D=2, bias=True),
    # HiFi-GAN V1 / MelGAN upsampling stack (rates 8, 8, 2, 2; 512 -> 32 channels)
    _up("hifigan-u1-b16", 16, 512, 256, 8, 256),
    _up("hifigan-u2-b16", 16, 256, 128, 8, 2048),
    _up("hifigan-u3-b16", 16, 128, 64, 2, 16384),
    _up("hifigan-u4-b16", 16, 64, 32, 2, 32768),
    _up("hifigan-u1-b4-long", 4, 512, 256, 8, 2048),
    _up("hifigan-u2-b4-long", 4, 256, 128, 8, 16384),
    _up("hifigan-u3-b4-long", 4, 128, 64, 2, 131072),
    _up("hifigan-u4-b4-long", 4, 64, 32, 2, 262144),
    # EnCodec / SoundStream decoder (strides 8, 5, 4, 2)
    _up("encodec-s8", 8, 512, 256, 8, 1024),
    _up("encodec-s5", 8, 256, 128, 5, 8192),
    _up("encodec-s4", 8, 128, 64, 4, 40960),
    _up("encodec-s2", 8, 64, 32, 2, 163840),
    # narrow late stages, long sequences (memory-bound)
    _up("up-32-16-s2", 16, 32, 16, 2, 131072),
    _up("up-32-32-s4", 8, 32, 32, 4, 65536),
    _up("up-16-16-s8", 8, 16, 16, 8, 32768),
    _up("up-64-64-s3", 8, 64, 64, 3, 65536),
    _up("up-256-256-s2", 8, 256, 256, 2, 8192),
    _up("up-512-512-s2", 4, 512, 512, 2, 4096),
    # strided and dilated long sequences like the seed
    Config("sd-s2d2k3-c16", "strided", 16, 16, 32, 3, 131072, S=2, P=1, D=2),
    Config("sd-s2d2k3-c64", "strided", 16, 64, 64, 3, 65536, S=2, P=1, D=2),
    Config("sd-s3d2k5", "strided", 8, 32, 64, 5, 65536, S=3, P=2, D=2),
    Config("sd-s4d3k5", "strided", 8, 32, 32, 5, 65536, S=4, P=3, D=3, OP=1),
    Config("sd-s2d1k7", "strided", 8, 32, 64, 7, 65536, S=2, P=3, D=1, OP=1),
    Config("sd-s1d4k3", "strided", 8, 32, 32, 3, 131072, S=1, P=4, D=4),
    Config("sd-s2d4k4", "strided", 8, 64, 32, 4, 65536, S=2, P=2, D=4),
    Config("sd-s5d1k11", "strided", 4, 32, 32, 11, 32768, S=5, P=3, D=1, bias=True),
    # grouped and depthwise (pytorch#47341)
    Config("dw-512-k6-s3", "depthwise", 16, 512, 512, 6, 2048, S=3, P=1, G=512),
    Config("dw-256-k4-s2", "depthwise", 8, 256, 256, 4, 16384, S=2, P=1, G=256, bias=True),
    Config("dw-64-k16-s8", "depthwise", 8, 64, 64, 16, 16384, S=8, P=4, G=64),
    Config("dw-128-k3-s2d2", "depthwise", 8, 128, 128, 3, 32768, S=2, P=1, D=2, G=128),
    Config("g4-128-k4-s2", "grouped", 8, 128, 128, 4, 32768, S=2, P=1, G=4),
    Config("g8-256-k8-s4", "grouped", 8, 256, 256, 8, 8192, S=4, P=2, G=8),
    Config("g16-512-k16-s8", "grouped", 4, 512, 256, 16, 2048, S=8, P=4, G=16),
    # small latency-bound calls
    Config("small-64-32-s2", "small", 1, 64, 32, 4, 1024, S=2, P=1, bias=True),
    Config("small-512-256-s8", "small", 1, 512, 256, 16, 1024, S=8, P=4, bias=True),
    Config("small-seed", "small", 1, 32, 64, 3, 1024, S=2, P=1, D=2),
    Config("small-dw-128", "small", 1, 128, 128, 4, 1024, S=2, P=1, G=128),
    Config("small-16-16-k3", "small", 1, 16, 16, 3, 1024, S=1, P=1),
]

QUICK = ["seed", "seed-bf16", "hifigan-u1-b16", "dw-256-k4-s2", "small-64-32-s2"]
# --dtype: the suffix of the rows it renames
DTYPE_TAGS = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64",
              "complex64": "c64", "complex128": "c128"}
# bytes per element: the kernels' real dtypes, and complex ones as two of their parts
ELEMENT_BYTES = {**_keys.ELEMENT_BYTES,
                 **{c: 2 * _keys.ELEMENT_BYTES[r] for c, r in _complex.REAL_OF.items()}}
# dtypes torch computes with TF32 by default (a complex64 call runs float32 convolutions)
TF32_DTYPES = ("float32", "complex64")
DTYPE_W = max(len(d) for d in DTYPE_TAGS)
# width of the name column: the sweep's longest name with a --dtype suffix
NAME_W = max(len(c.name) for c in SWEEP) + 5


def l_out(c: Config) -> int:
    return (c.L - 1) * c.S - 2 * c.P + c.D * (c.K - 1) + c.OP + 1


def config_from_spec(spec: str) -> Config:
    """A configuration outside the sweep from ``NAME=N,C_in,C_out,K,L[,S,P,D,G]`` (the
    benchmark scripts' ``--call``)."""
    name, dims = spec.split("=")
    v = [int(d) for d in dims.split(",")]
    return Config(name, "extra", *v[:5], **dict(zip("SPDG", v[5:])))


def config_params(c: Config):
    """The validated call parameters (``ConvParams``) of a configuration."""
    from cupyconv._args import check_conv_args
    return check_conv_args((c.N, c.C_in, c.L), (c.C_in, c.C_out // c.G, c.K),
                           (c.C_out,) if c.bias else None, stride=c.S, padding=c.P,
                           output_padding=c.OP, groups=c.G, dilation=c.D)


def real_call(c: Config, device: Optional[int] = None):
    """The real call cupyconv runs for configuration ``c``: (ConvParams, dtype); a complex
    call's is on its parts, in their real dtype, in the layout chosen for it
    (cupyconv._complex; on GPU ``device`` as a call there chooses it, else as on the CPU)."""
    p = config_params(c)
    if c.dtype not in _complex.REAL_OF:
        return p, c.dtype
    real, family_of = _complex.REAL_OF[c.dtype], None
    if device is not None:
        from cupyconv._gpu import family_on
        family_of = family_on(real, device)
    return _complex.real_params(p, _complex.interleaved(p, family_of)), real


def min_bytes(c: Config) -> int:
    return ELEMENT_BYTES[c.dtype] * (c.N * c.C_in * c.L + c.C_in * (c.C_out // c.G) * c.K
                + (c.C_out if c.bias else 0) + c.N * c.C_out * l_out(c))


def flops(c: Config) -> int:
    """Real floating-point operations: 2 per multiply-add, 4 multiply-adds per complex one."""
    per_mac = 8 if c.dtype.startswith("complex") else 2
    return per_mac * c.N * c.C_in * (c.C_out // c.G) * c.K * c.L


# Tensor-core products per multiply at the call's accuracy: float32 needs at least three
# 16-bit products (the hi*hi + hi*lo + lo*hi split, 3xFP16/3xBF16); 16-bit inputs one;
# float64 runs at the FP64 rate, about 1/15 of the 16-bit one on an H100/H200.
PRODUCTS_PER_MULTIPLY = {"float32": 3, "float16": 1, "bfloat16": 1, "float64": 15,
                         "complex64": 3, "complex128": 15}
# Without a measured rate (--report on an older JSON): the bf16 GEMM rate measured on an
# H200 of the GPU machine on random data (about 790 TFLOP/s, /work/.library device notes)
DEFAULT_TENSOR_TFLOPS = 790.0


def floors(c: Config, copy_gbs: float, tensor_tflops: float) -> dict:
    """The two lower bounds of a call's time (ms), from rates measured in the same run:
    its minimum bytes at the copy bandwidth, and its multiply-adds as tensor-core products
    at the 16-bit GEMM rate. ``bound`` names the larger: a call is memory-bound when no
    tensor-core method could make it wait on arithmetic."""
    mem = min_bytes(c) / copy_gbs / 1e6
    compute = flops(c) * PRODUCTS_PER_MULTIPLY[c.dtype] / tensor_tflops / 1e9
    return dict(mem_floor_ms=mem, compute_floor_ms=compute,
                bound="memory" if mem >= compute else "compute")


def _add_floors(r: dict, c: Config, copy_gbs: float, tensor_tflops: float) -> None:
    """A result row's floors() and floor_fraction (the larger floor over its time)."""
    r.update(floors(c, copy_gbs, tensor_tflops))
    r["floor_fraction"] = max(r["mem_floor_ms"], r["compute_floor_ms"]) / r["ms"]


# The targets of issue 4 (the seed workload, the sweep, no workspace); targets() checks them
SEED_MS_BAR, SEED_BF16_MS_BAR, SEED_COPY_GOAL = 0.40, 0.20, 0.90
ERR_BAR_FP32 = 1e-6
GEOMEAN_BAR, MEMORY_BOUND_COPY_BAR, SMALL_WALL_BAR, EXTRA_BAR = 4.0, 0.80, 1.5, 0.01


def targets(rows) -> list:
    """Each target of the issue as dict(key, target, value, met) for one sweep's rows (bench
    JSON ``results``); targets whose configurations are missing from ``rows`` are left out.
    Memory-bound means ``floors()``'s bound for every non-small configuration; small calls
    (N = 1, L = 1024) are judged by their wall-clock time per call instead."""
    by = {r["name"]: r for r in rows}
    out = []

    def add(key, name, value, met):
        out.append(dict(key=key, target=name, value=value, met=bool(met)))
    if "seed" in by:
        s = by["seed"]
        add("seed_ms", f"seed fp32 <= {SEED_MS_BAR:.2f} ms at rel. err <= {ERR_BAR_FP32:g}",
            f"{s['ms']:.3f} ms, {s['rel_err']:.1e}",
            s["ms"] <= SEED_MS_BAR and s["rel_err"] <= ERR_BAR_FP32)
        add("seed_copy_goal", f"seed fp32 >= {SEED_COPY_GOAL:.0%} of the copy bandwidth (goal)",
            f"{s['copy_fraction']:.1%}", s["copy_fraction"] >= SEED_COPY_GOAL)
    if "seed-bf16" in by:
        add("seed_bf16_ms", f"seed bf16 <= {SEED_BF16_MS_BAR:.2f} ms", f"{by['seed-bf16']['ms']:.3f} ms",
            by["seed-bf16"]["ms"] <= SEED_BF16_MS_BAR)
    fp32 = [r for r in rows if "speedup_fp32" in r]
    if fp32:
        slow = [r["name"] for r in fp32
                if r["speedup_fp32"] < 1 or r["rel_err"] > max(r["torch_fp32_err"], ERR_BAR_FP32)]
        add("all_faster", "every fp32 configuration faster than torch fp32 (TF32 off) at equal accuracy",
            f"{len(fp32) - len(slow)} of {len(fp32)}" + (f" (not: {', '.join(slow)})" if slow else ""),
            not slow)
        gm = math.exp(sum(math.log(r["speedup_fp32"]) for r in fp32) / len(fp32))
        add("geomean", f"geometric-mean speedup over torch fp32 >= {GEOMEAN_BAR:g}x", f"{gm:.2f}x",
            gm >= GEOMEAN_BAR)
    mem = [r for r in rows if r.get("bound") == "memory" and r["family"] != "small"]
    if mem:
        low = [f"{r['name']} {r['copy_fraction']:.1%}" for r in mem
               if r["copy_fraction"] < MEMORY_BOUND_COPY_BAR]
        add("memory_bound", f"memory-bound configurations >= {MEMORY_BOUND_COPY_BAR:.0%} of copy",
            f"{len(mem) - len(low)} of {len(mem)}" + (f" (below: {', '.join(low)})" if low else ""),
            not low)
    small = [r for r in rows if "wall_ms" in r]
    if small:
        worst = max(small, key=lambda r: r["wall_ms"] / r["torch_wall_ms"])
        ratio = worst["wall_ms"] / worst["torch_wall_ms"]
        add("small_calls", f"small calls: wall time per call <= {SMALL_WALL_BAR:g}x torch's",
            f"at most {ratio:.2f}x ({worst['name']})", ratio <= SMALL_WALL_BAR)
    if rows and all("extra_fraction" in r for r in rows):
        worst = max(r["extra_fraction"] for r in rows)
        add("extra_memory", f"extra device memory <= {EXTRA_BAR:.0%} of the output", f"at most {worst:.2%}",
            worst <= EXTRA_BAR)
    return out


def _targets_table(rows) -> str:
    ts = targets(rows)
    width = max((len(t["target"]) for t in ts), default=10)
    return "\n".join(f"{'met ' if t['met'] else 'MISS'}  {t['target']:{width}}  {t['value']}"
                     for t in ts)


# Calls per timed sample. Back to back, the host work of one call (argument checks, the
# DLPack hand-over) overlaps the GPU work of the one before, as in a real pipeline; a single
# call between two events would count that host time as GPU time. Small, host-bound calls
# take 50 per sample: with 5, the first call's launch latency after the synchronisation
# moved their per-call time between 13 and 19 us across runs (wall clock: 10-12 us); they
# are also reported as wall-clock time per call.
INNER = 5
INNER_SMALL = 50
# Each sample's calls are queued behind a GPU-side wait (torch.cuda._sleep) that outlasts
# their host work, so the stream reaches the first event with every call already queued:
# the events then hold GPU time only (the launch-queue method of NVIDIA's nvbench). Without
# it a sample also counted the first call's host latency: the seed 0.395 -> 0.385 ms, the
# bf16 seed 0.206 -> 0.202, small calls' 11 us of host time -> their 3-9 us of GPU time
# (results/2026-12-03-session30/run_1). Host time per queued call allowed for (torch's
# grouped calls took more than 60 us), and the wait's fixed part:
HOLD_US_PER_CALL, HOLD_US = 200, 500


def _hold_cycles(inner: int) -> int:
    """GPU clock cycles that outlast queueing ``inner`` calls from the host."""
    import cupy
    khz = cupy.cuda.Device().attributes["ClockRate"]       # the SM clock's peak, kHz
    return int(khz / 1e3 * (HOLD_US + HOLD_US_PER_CALL * inner))


def _time_events(fn, reps: int, warmup: int = 3, inner: int = INNER, hold: bool = True,
                 stats: dict = None):
    """Median ms per fn() call with torch CUDA events around ``inner`` back-to-back calls,
    after warm-up (runs on torch's stream). ``hold``: the calls are queued behind a GPU
    wait first (above), so the events time the GPU alone; ``stats["hold_misses"]`` counts
    the samples whose host work outlasted that wait (their time includes host latency)."""
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    cycles = _hold_cycles(inner) if hold else 0
    times, misses = [], 0
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        if hold:
            torch.cuda._sleep(cycles)
        t0 = time.perf_counter()
        a.record()
        for _ in range(inner):
            fn()
        b.record()
        host_us = (time.perf_counter() - t0) * 1e6
        misses += hold and host_us > HOLD_US + HOLD_US_PER_CALL * inner
        b.synchronize()
        times.append(a.elapsed_time(b) / inner)
    if stats is not None:
        stats["hold_misses"] = stats.get("hold_misses", 0) + misses
    return float(np.median(times))


def _wall_per_call(fn, reps: int = 200):
    import torch
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / reps * 1e3


def copy_bandwidth(nbytes: int = 1 << 30, reps: int = 20) -> float:
    """Device-to-device copy, bytes read + written per second (GB/s)."""
    import torch
    a = torch.empty(nbytes // 4, dtype=torch.float32, device="cuda").uniform_()
    b = torch.empty_like(a)
    ms = _time_events(lambda: b.copy_(a), reps)
    return 2 * nbytes / ms / 1e6


def tensor_rate(n: int = 8192, reps: int = 10) -> float:
    """16-bit tensor-core GEMM rate (TFLOP/s): an n x n x n bf16 product on random data."""
    import torch
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    return 2 * n**3 / _time_events(lambda: a @ b, reps, inner=1) / 1e9


def random_inputs(c: Config, device: str):
    """Fresh random x, weight and bias (or None) of configuration ``c`` on ``device``, in
    its dtype (complex: independent real and imaginary parts), drawn by a generator seeded
    from the hash of its name (which Python varies between processes: fresh data each run)."""
    import torch
    dt = getattr(torch, c.dtype)
    g = torch.Generator(device=device).manual_seed(hash(c.name) % 2**31)
    # (real dtypes: float32 draws rounded, so each configuration's data match across them)
    draw_dt = dt if dt.is_complex else torch.float32

    def draw(*shape):
        return torch.randn(*shape, device=device, generator=g, dtype=draw_dt)
    x = draw(c.N, c.C_in, c.L).to(dt)
    w = (draw(c.C_in, c.C_out // c.G, c.K) / math.sqrt(c.C_in // c.G * c.K)).to(dt)
    b = draw(c.C_out).to(dt) if c.bias else None
    return x, w, b


def _widened(t):
    """``t`` in float64, or complex128 for a complex tensor (the reference's precision)."""
    import torch
    return t.to(torch.complex128 if t.is_complex() else torch.float64)


def _rel_err(y, y64) -> float:
    """||y - y64|| / ||y64||, with ``y`` widened as the reference (``.double()`` would drop
    a complex result's imaginary part)."""
    import torch
    return float(torch.linalg.vector_norm((_widened(y) - y64).flatten())
                 / torch.linalg.vector_norm(y64.flatten()))


def run_config(c: Config, reps: int, copy_gbs: float,
               tensor_tflops: float = DEFAULT_TENSOR_TFLOPS) -> dict:
    import cupy
    import torch
    import torch.nn.functional as F

    import cupyconv

    x, w, b = random_inputs(c, "cuda")
    kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)

    # float64 reference (cuDNN/ATen in double; TF32 never applies to float64)
    y64 = F.conv_transpose1d(*(None if t is None else _widened(t) for t in (x, w, b)), **kw)

    def ours():
        return cupyconv.conv_transpose1d(x, w, b, **kw)

    def torch_call():
        return F.conv_transpose1d(x, w, b, **kw)

    # accuracy, and extra device memory: torch's allocator serves our output too
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    pool = cupy.get_default_memory_pool()
    pool.free_all_blocks()
    cupy_before = pool.total_bytes()
    y = ours()
    torch.cuda.synchronize()
    out_bytes = y.numel() * y.element_size()
    extra = (torch.cuda.max_memory_allocated() - base - out_bytes) + (pool.total_bytes() - cupy_before)
    err = _rel_err(y, y64)
    y2 = ours()
    deterministic = bool(torch.equal(y, y2))
    del y, y2

    from cupyconv._gpu import device_plan
    res = dict(asdict(c), L_out=l_out(c), bytes=min_bytes(c), flops=flops(c))
    dev = cupy.cuda.Device().id
    res["kernel"] = device_plan(*real_call(c, dev), dev).key.name_expression()
    inner = INNER_SMALL if c.family == "small" else INNER
    st, st_torch = {}, {}
    res["ms"] = _time_events(ours, reps, inner=inner, stats=st)
    # the same calls timed as before the held queue (first call's host latency included)
    res["ms_unheld"] = _time_events(ours, reps, inner=inner, hold=False)
    res["gbs"] = min_bytes(c) / res["ms"] / 1e6
    res["copy_fraction"] = res["gbs"] / copy_gbs
    res["tflops"] = flops(c) / res["ms"] / 1e9
    _add_floors(res, c, copy_gbs, tensor_tflops)
    res["rel_err"] = err
    res["deterministic"] = deterministic
    res["extra_bytes"] = int(extra)
    res["extra_fraction"] = extra / out_bytes
    if c.dtype in TF32_DTYPES:
        for tf32, label in ((False, "torch_fp32"), (True, "torch_tf32")):
            torch.backends.cudnn.allow_tf32 = tf32
            torch.backends.cuda.matmul.allow_tf32 = tf32
            yt = torch_call()
            res[label + "_err"] = _rel_err(yt, y64)
            res[label + "_ms"] = _time_events(torch_call, reps, inner=inner, stats=st_torch)
            res["speedup_" + label.split("_")[1]] = res[label + "_ms"] / res["ms"]
        torch.backends.cudnn.allow_tf32 = True
    else:
        yt = torch_call()
        res["torch_err"] = _rel_err(yt, y64)
        res["torch_ms"] = _time_events(torch_call, reps, inner=inner, stats=st_torch)
        res["speedup_same_dtype"] = res["torch_ms"] / res["ms"]
    # samples whose host work outlasted the GPU wait (they include some host latency)
    res["hold_misses"], res["torch_hold_misses"] = st["hold_misses"], st_torch["hold_misses"]
    if c.family == "small":
        torch.backends.cudnn.allow_tf32 = False
        res["wall_ms"] = _wall_per_call(ours)
        res["torch_wall_ms"] = _wall_per_call(torch_call)
        xc, wc = cupy.from_dlpack(x), cupy.from_dlpack(w)
        bc = None if b is None else cupy.from_dlpack(b)
        res["wall_ms_cupy_in"] = _wall_per_call(lambda: cupyconv.conv_transpose1d(xc, wc, bc, **kw))
        torch.backends.cudnn.allow_tf32 = True
    return res


def _table(rows) -> str:
    head = (f"{'config':{NAME_W}} {'dtype':{DTYPE_W}} {'ms':>8} {'GB/s':>7} {'copy%':>6} {'TF/s':>6} "
            f"{'bound':>7} {'floor%':>6} "
            f"{'vs fp32':>8} {'vs tf32':>8} {'rel err':>9} {'torch ms':>9}  kernel")
    out = [head, "-" * len(head)]

    def speedup(v) -> str:          # 16-bit calls have no TF32 counterpart
        return f"{v:7.2f}x" if v is not None and math.isfinite(v) else f"{'-':>8}"
    for r in rows:
        tms = r.get("torch_fp32_ms", r.get("torch_ms", float("nan")))
        floor = (f"{100 * r['floor_fraction']:5.0f}%" if "floor_fraction" in r else f"{'-':>6}")
        out.append(f"{r['name']:{NAME_W}} {r['dtype']:{DTYPE_W}} {r['ms']:8.3f} {r['gbs']:7.0f} "
                   f"{100 * r['copy_fraction']:5.1f}% {r['tflops']:6.1f} "
                   f"{r.get('bound', '-'):>7} {floor} "
                   f"{speedup(r.get('speedup_fp32', r.get('speedup_same_dtype')))} "
                   f"{speedup(r.get('speedup_tf32'))} {r['rel_err']:9.2e} {tms:9.3f}  "
                   f"{r['kernel'].split('<')[0]}")
    return "\n".join(out)


def _chart(rows, path: str, device: str = "") -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [r["name"] for r in rows]
    sp = [r.get("speedup_fp32", r.get("speedup_same_dtype")) for r in rows]
    tf = [r.get("speedup_tf32", float("nan")) for r in rows]
    fig, ax = plt.subplots(figsize=(12, 0.28 * len(rows) + 1.5))
    ypos = np.arange(len(rows))
    ax.barh(ypos - 0.2, sp, 0.4, label="vs torch fp32 (TF32 off; same dtype for fp16/bf16)")
    ax.barh(ypos + 0.2, tf, 0.4, label="vs torch default (TF32 on)")
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_yticks(ypos, names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("speedup of cupyconv (higher is better)")
    ax.legend(fontsize=8)
    ax.set_title("cupyconv conv_transpose1d vs torch/cuDNN" + (f", {device}" if device else ""))
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def select_configs(quick: bool = False, only=None, dtype=None) -> list:
    """The sweep's configurations to run: all, the --quick few, or those named by --only
    (ValueError for a name the sweep lacks); with ``dtype``, each in that dtype, renamed
    NAME@TAG where that changes it."""
    configs = [c for c in SWEEP if c.name in QUICK] if quick else SWEEP
    if only:
        unknown = sorted(set(only) - {c.name for c in SWEEP})
        if unknown:
            raise ValueError(f"--only: not in the sweep: {', '.join(unknown)}")
        configs = [c for c in SWEEP if c.name in only]
    if dtype is not None:
        configs = [c if c.dtype == dtype else replace(c, name=f"{c.name}@{DTYPE_TAGS[dtype]}", dtype=dtype)
                   for c in configs]
    return configs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a few configurations, fewer runs")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--only", nargs="*", help="configuration names to run")
    ap.add_argument("--json", help="write results here")
    ap.add_argument("--chart", help="write a speedup chart (PNG, needs matplotlib; with --report: "
                                    "of that run)")
    ap.add_argument("--no-pdl", action="store_true",
                    help="plain launches, without programmatic dependent launch (A/B)")
    ap.add_argument("--report", metavar="JSON",
                    help="print the table and targets of an earlier run's JSON (no GPU)")
    ap.add_argument("--dtype", choices=sorted(DTYPE_TAGS),
                    help="run the configurations in this dtype (torch too); rows are named "
                         "NAME@TAG, and issue 4's targets (set for the sweep as it is) are "
                         "not judged")
    args = ap.parse_args(argv)
    if args.report:
        rows, meta = load_report(args.report), report_meta(args.report)
        device = meta.get("device", "")
        _print_summary(rows, device, judge=meta.get("dtype") is None)   # (--dtype runs: not judged)
        if args.chart:
            _chart(rows, args.chart, device)
        return 0
    try:
        configs = select_configs(args.quick, args.only, args.dtype)
    except ValueError as exc:
        ap.error(str(exc))
    try:
        import torch
        if not torch.cuda.is_available():
            raise ImportError
    except ImportError:
        print("the benchmark needs torch with CUDA (it times torch side by side)", file=sys.stderr)
        return 2
    if args.no_pdl:
        from cupyconv import _gpu
        _gpu.PDL_LAUNCH = False
    reps = 20 if args.quick else max(20, args.reps)
    copy_gbs, tensor_tflops = copy_bandwidth(), tensor_rate()
    device = torch.cuda.get_device_name()
    print(f"device: {device}  copy bandwidth: {copy_gbs:.0f} GB/s  "
          f"bf16 GEMM: {tensor_tflops:.0f} TFLOP/s", file=sys.stderr)
    rows = []
    t0 = time.time()
    for i, c in enumerate(configs):
        rows.append(run_config(c, reps, copy_gbs, tensor_tflops))
        r = rows[-1]
        bar = "#" * int(30 * (i + 1) / len(configs))
        print(f"\r[{bar:30}] {i + 1}/{len(configs)} {c.name:{NAME_W}} {r['ms']:.3f} ms "
              f"({time.time() - t0:.0f}s)", file=sys.stderr, end="", flush=True)
    print(file=sys.stderr)
    _print_summary(rows, device, judge=args.dtype is None)
    if args.json:
        meta = dict(device=device, copy_gbs=copy_gbs,
                    tensor_tflops=tensor_tflops, torch=torch.__version__,
                    cudnn=torch.backends.cudnn.version(),
                    date=time.strftime("%Y-%m-%d %H:%M:%S"), reps=reps,
                    pdl=not args.no_pdl, timing="held launch queue", dtype=args.dtype)
        import cupy
        meta["cupy"] = cupy.__version__
        with open(args.json, "w") as f:
            json.dump(dict(meta=meta, results=rows,
                           targets=targets(rows) if args.dtype is None else []), f, indent=1)
    if args.chart:
        _chart(rows, args.chart, device)
    return 0


def load_report(path: str) -> list:
    """The rows of a bench JSON, with floors() filled in where an older run lacks them
    (from the run's copy bandwidth and its tensor rate, or DEFAULT_TENSOR_TFLOPS)."""
    with open(path) as f:
        data = json.load(f)
    meta, rows = data["meta"], data["results"]
    fields = set(Config.__dataclass_fields__)
    for r in rows:
        if "bound" not in r:
            _add_floors(r, Config(**{k: v for k, v in r.items() if k in fields}),
                        meta["copy_gbs"], meta.get("tensor_tflops", DEFAULT_TENSOR_TFLOPS))
    return rows


def report_meta(path: str) -> dict:
    """An earlier run's JSON ``meta``: its GPU (``device``), the ``dtype`` of a --dtype run."""
    with open(path) as f:
        return json.load(f)["meta"]


def report_device(path: str) -> str:
    """The GPU an earlier run's JSON was measured on ("" where it does not say)."""
    return report_meta(path).get("device", "")


def _print_summary(rows, device: str = "", judge: bool = True) -> None:
    print(_table(rows))
    fp32 = [r["speedup_fp32"] for r in rows if "speedup_fp32" in r]
    if fp32:
        gm = math.exp(sum(math.log(s) for s in fp32) / len(fp32))
        what = "/".join(sorted({r["dtype"] for r in rows if "speedup_fp32" in r}))
        print(f"geometric-mean speedup over torch with TF32 off, {len(fp32)} {what} configs: "
              f"{gm:.2f}x; slowest {min(fp32):.2f}x")
    for r in rows:
        if "wall_ms" in r:
            print(f"{r['name']:{NAME_W}} wall per call: cupyconv(torch in) {r['wall_ms']*1e3:.0f} us, "
                  f"cupyconv(cupy in) {r['wall_ms_cupy_in']*1e3:.0f} us, torch "
                  f"{r['torch_wall_ms']*1e3:.0f} us")
    if not judge:
        print("issue 4's targets: not judged (the configurations ran in another dtype)")
        return
    print("issue 4's targets" + (f" (set for the H200; this run: {device})"
                                 if device and "H200" not in device else "") + ":")
    print(_targets_table(rows))


if __name__ == "__main__":
    sys.exit(main())
