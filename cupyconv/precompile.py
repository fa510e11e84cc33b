"""Compile (or warm the cache for) the kernel instances that given calls will use.

Every GPU call runs one instance of ``kernels/ct1d_mma.cu``, ``kernels/ct1d_gemm.cu``,
``kernels/ct1d_wgmma.cu`` or ``kernels/ct1d_pipe.cu`` (both sm_90 only),
``kernels/ct1d_stream.cu``, ``kernels/ct1d_depthwise.cu``, ``kernels/ct1d_narrow.cu`` or
``kernels/ct1d_scatter.cu``, chosen by
``cupyconv._dispatch.plan`` from the call's shapes, dtype and the GPU's compute
capability, and named by a template expression such as
``ct1d_mma<float, 2, 2, 3, 2, 4, 2, 4, 32, true, true, 4>``. This tool
lists those instances for a set of calls and compiles them (for sm_90 also
``kernels/ct1d_probe.cu``'s empty kernel, which the launcher asks the driver how many
thread-block clusters the GPU holds at once).

Usage::

    python -m cupyconv.precompile [--call SPEC ...] [--dtype DTYPE ...]
                                  [--arch ARCH ...] [--list | --warm [--device N]]

``--call SPEC``
    One call, as comma-separated integers::

        N,C_in,C_out,K,L_in[,stride[,padding[,dilation[,groups]]]]

    with stride, padding, dilation and groups defaulting to 1, 0, 1, 1 and
    ``C_out`` the *total* number of output channels (weight is
    ``(C_in, C_out // groups, K)``). Repeat ``--call`` for several calls. Without
    any, the seed workload ``16,32,64,3,131072,2,1,2,1`` is used.
``--dtype``
    float32, float64, float16 or bfloat16; repeatable. Default: all four.
``--arch``
    NVRTC target for the GPU-less compile: ``sm_XY`` gives a cubin, ``compute_XY``
    PTX; repeatable. Default: ``sm_90``. Each target gets the instances a GPU of that
    compute capability runs (sm_90: ct1d_wgmma for wide layers, ct1d_pipe for
    memory-bound float32 calls of 16-64 input channels per group), on every card whose
    measured rules differ (``cupyconv._dispatch.CARD_RULES``).
``--list``
    Only print the instances; compile nothing (needs neither CuPy nor a GPU).
``--warm``
    Needs a GPU. Load every instance through the runtime path
    (``cupyconv._modules.get_kernel``), which compiles for the device's own
    architecture and stores the result in CuPy's on-disk kernel cache
    (``CUPY_CACHE_DIR``, default ``~/.cupy/kernel_cache``). Later processes that use
    the same cache directory (CuPy >= 14.2) then load the cubin instead of compiling.
    ``--arch`` is ignored; ``--device`` picks the GPU (default 0).

Without ``--warm`` the instances are compiled with NVRTC exactly as the runtime
compiles them (``cupyconv._modules.compile_instance``: same source, same options),
with no GPU and no driver needed: CI uses this to check every instance compiles. Each
line printed gives the instance, the target, the size of the cubin/PTX and the compile
time. The exit status is 0 when everything compiled, 1 when any call could not be
planned or any instance failed to compile (the compiler log is printed), 2 for bad
arguments or, with ``--warm``, when no GPU is usable.

Examples::

    python -m cupyconv.precompile                       # seed workload, 4 dtypes, sm_90
    python -m cupyconv.precompile --arch sm_80 --arch sm_90 --dtype float32 \\
        --call 8,512,256,16,4096,8,4 --call 8,256,128,4,32768,2,1
    CUPY_CACHE_DIR=/data/cupy-cache python -m cupyconv.precompile --warm --call ...
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

from ._args import REAL_DTYPES, ConvParams, check_conv_args
from ._dispatch import CARD_RULES, WGMMA_ARCH, KernelKey, plan
from ._keys import ClusterProbeKey

SEED_CALL = "16,32,64,3,131072,2,1,2,1"
_FIELDS = ("N", "C_in", "C_out", "K", "L_in", "stride", "padding", "dilation", "groups")
_DEFAULTS = (1, 0, 1, 1)            # stride, padding, dilation, groups


def parse_call(spec: str) -> ConvParams:
    """``"N,C_in,C_out,K,L_in[,stride[,padding[,dilation[,groups]]]]"`` -> ConvParams."""
    try:
        vals = [int(v) for v in spec.replace(" ", "").split(",")]
    except ValueError:
        raise ValueError(f"call spec {spec!r}: expected comma-separated integers "
                         f"{','.join(_FIELDS)}") from None
    if not 5 <= len(vals) <= 9:
        raise ValueError(f"call spec {spec!r}: expected 5 to 9 integers "
                         f"({','.join(_FIELDS)}; the last four are optional), got {len(vals)}")
    N, C_in, C_out, K, L = vals[:5]
    S, P, D, G = vals[5:] + list(_DEFAULTS[len(vals) - 5:])
    if G < 1 or C_out % G:
        raise ValueError(f"call spec {spec!r}: groups={G} must divide C_out={C_out}")
    return check_conv_args((N, C_in, L), (C_in, C_out // G, K), None,
                           stride=S, padding=P, groups=G, dilation=D)


def arch_number(arch: str) -> int:
    """``sm_90``, ``compute_90a`` -> 90: the compute capability plan() takes."""
    return int("".join(ch for ch in arch.split("_", 1)[1] if ch.isdigit()))


def instances(calls: Sequence[str], dtypes: Sequence[str], arch: int = 0,
              cards: Optional[Sequence[str]] = None
              ) -> Tuple[Dict[KernelKey, List[str]], List[Tuple[str, str, str]]]:
    """Instances the calls need on a GPU of compute capability ``arch`` (0: none of the
    arch-specific families), each with the calls that use it; and the calls that the GPU
    kernel cannot run, as (spec, dtype, reason). ``cards``: plan()'s cards to cover
    (default: all of that compute capability's, the H200's rules and CARD_RULES')."""
    if cards is None:
        cards = ("",) + (tuple(CARD_RULES) if arch == WGMMA_ARCH else ())
    keys: Dict[KernelKey, List[str]] = {}
    unsupported = []
    for spec in calls:
        p = parse_call(spec)
        for dt in dtypes:
            try:
                planned = [plan(p, dt, None, arch, card).key for card in cards]
            except NotImplementedError as exc:
                unsupported.append((spec, dt, str(exc)))
                continue
            for key in dict.fromkeys(planned):
                keys.setdefault(key, []).append(f"{spec} {dt}")
    return keys, unsupported


def _compile_all(arch_keys) -> int:
    from ._modules import compile_instance
    failures = 0
    for arch, keys in arch_keys.items():
        for key in keys:
            t0 = time.perf_counter()
            try:
                blob = compile_instance(key, arch)
            except Exception as exc:  # compiler errors, a missing NVRTC library
                failures += 1
                print(f"FAILED {key.name_expression()}  {arch}\n{exc}", flush=True)
                continue
            kind = "cubin" if arch.startswith("sm_") else "ptx"
            print(f"ok  {key.name_expression()}  {arch}  {kind} {len(blob)} B  "
                  f"{time.perf_counter() - t0:.2f} s", flush=True)
    return failures


def _warm_all(keys, device: int) -> int:
    import os

    from ._api import gpu_available
    from ._modules import get_kernel
    if not gpu_available():
        print("--warm needs a usable GPU (none, or compute capability below 8.0); compile "
              "without --warm to check the instances on this machine", file=sys.stderr)
        return -1
    import cupy
    cache = os.environ.get("CUPY_CACHE_DIR", os.path.expanduser("~/.cupy/kernel_cache"))
    with cupy.cuda.Device(device) as d:
        cc = d.compute_capability
    print(f"warming CuPy's kernel cache {cache} for GPU {device} (sm_{cc})", flush=True)
    failures = 0
    for key in keys:
        t0 = time.perf_counter()
        try:
            get_kernel(key, device)
        except Exception as exc:
            failures += 1
            print(f"FAILED {key.name_expression()}  GPU {device}\n{exc}", flush=True)
            continue
        print(f"ok  {key.name_expression()}  sm_{cc}  loaded in "
              f"{time.perf_counter() - t0:.2f} s", flush=True)
    return failures


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m cupyconv.precompile",
        description="Compile the cupyconv kernel instances that the given calls use "
                    "(no GPU needed), or with --warm fill CuPy's kernel cache on a GPU.",
        epilog="SPEC: N,C_in,C_out,K,L_in[,stride[,padding[,dilation[,groups]]]] "
               f"(default: the seed workload {SEED_CALL})")
    ap.add_argument("--call", action="append", metavar="SPEC", default=None,
                    help="a call to prepare for; repeatable")
    ap.add_argument("--dtype", action="append", choices=REAL_DTYPES, default=None,
                    help="element type; repeatable (default: all four)")
    ap.add_argument("--arch", action="append", default=None,
                    help="NVRTC target, sm_XY (cubin) or compute_XY (PTX); repeatable "
                         "(default: sm_90)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--list", action="store_true", help="only list the instances")
    mode.add_argument("--warm", action="store_true",
                      help="load each instance on a GPU, filling CuPy's disk cache")
    ap.add_argument("--device", type=int, default=0, help="GPU for --warm (default 0)")
    args = ap.parse_args(argv)

    calls = args.call or [SEED_CALL]
    dtypes = list(dict.fromkeys(args.dtype or ("float32", "float64", "float16", "bfloat16")))
    archs = list(dict.fromkeys(args.arch or ["sm_90"]))
    for arch in archs:
        if not (arch.startswith(("sm_", "compute_")) and arch.split("_", 1)[1][:2].isdigit()):
            ap.error(f"--arch {arch!r}: expected sm_XY or compute_XY, e.g. sm_90")
    try:
        if args.warm:
            from ._api import gpu_available
            arch, card = 0, ""
            if gpu_available():
                import cupy
                n_gpus = cupy.cuda.runtime.getDeviceCount()
                if not 0 <= args.device < n_gpus:
                    raise ValueError(f"--device {args.device}: this machine has GPU(s) 0 to "
                                     f"{n_gpus - 1}")
                from ._gpu import device_arch, device_card
                arch, card = device_arch(args.device), device_card(args.device)
            keys, unsupported = instances(calls, dtypes, arch, (card,))
        else:
            # each target gets the instances a GPU of its compute capability would run
            per_arch = {a: instances(calls, dtypes, arch_number(a)) for a in archs}
            arch_keys = {a: ks for a, (ks, _) in per_arch.items()}
            keys, unsupported = {}, per_arch[archs[0]][1]
            for ks in arch_keys.values():
                for key, users in ks.items():
                    keys.setdefault(key, users)
    except (ValueError, TypeError) as exc:
        ap.error(str(exc))
    # sm_90 launches also load the empty kernel that the driver is asked how many
    # clusters it holds (cupyconv._gpu.device_cluster_slots)
    probe = {ClusterProbeKey(): ["every call (resident clusters)"]}
    if args.warm:
        if arch == WGMMA_ARCH:
            keys.update(probe)
    else:
        arch_keys = {a: {**ks, **probe} if arch_number(a) == WGMMA_ARCH else ks
                     for a, ks in arch_keys.items()}

    for spec, dt, why in unsupported:
        print(f"UNSUPPORTED {spec} {dt}: {why}", flush=True)
    print(f"{len(keys)} instance(s) for {len(calls)} call(s) x {len(dtypes)} dtype(s)",
          flush=True)
    if args.list:
        for key, users in keys.items():
            print(f"{key.name_expression()}  <- {'; '.join(users)}")
        return 1 if unsupported else 0
    if args.warm:
        failures = _warm_all(keys, args.device)
        if failures < 0:
            return 2
    else:
        failures = _compile_all(arch_keys)
    total = len(keys) if args.warm else sum(len(ks) for ks in arch_keys.values())
    print(f"{total - failures} of {total} compiled"
          + (f", {failures} FAILED" if failures else "")
          + (f", {len(unsupported)} call(s) unsupported on the GPU" if unsupported else ""),
          flush=True)
    return 1 if failures or unsupported else 0


if __name__ == "__main__":
    sys.exit(main())
