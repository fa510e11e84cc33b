"""Kernel sources, compilation and the module cache: the only place that builds modules.

* Sources are read from the ``kernels`` directory (installed as ``cupyconv/kernels``, or
  the top-level ``kernels/`` of a source checkout) and local ``#include "..."`` lines are
  inlined, so the text CuPy hashes for its disk cache (CUPY_CACHE_DIR) covers every
  header: an edited header can never run a stale cubin.
* One small RawModule per instance, registered through ``name_expressions`` and
  compiled on first use; kernels are cached in memory per (device, instance). A key's
  ``options`` (ct1d_wgmma, ct1d_pipe and ct1d_mma's warpgroup keys: ``-arch=sm_90a``)
  are added to ours.
  CuPy >= 14.2 keeps such modules in its disk cache, so a second process loads the
  cubin instead of compiling (older CuPy recompiles once per process).
* ``compile_instance`` runs NVRTC directly with the same source and options and needs
  no GPU: CI and ``python -m cupyconv.precompile`` use it.
"""
from __future__ import annotations

import functools
import re
import threading
from pathlib import Path
from typing import Dict, Tuple

# Our compiler options, one flag per string (CuPy requires a tuple). CuPy appends
# -ftz=true, --device-as-default-execution-space and -arch itself.
OPTIONS: Tuple[str, ...] = ("-std=c++17",)
# What CuPy adds to OPTIONS (cupy/cuda/compiler.py), mirrored by the GPU-less compile.
CUPY_ADDED_OPTIONS: Tuple[str, ...] = ("-ftz=true", "--device-as-default-execution-space")

def compile_options(key) -> Tuple[str, ...]:
    """Our options for one instance: OPTIONS plus the key's own (sm_90a keys: -arch=sm_90a)."""
    return OPTIONS + getattr(key, "options", ())


_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$', re.M)


def kernel_dir() -> Path:
    here = Path(__file__).resolve().parent
    for cand in (here / "kernels", here.parent / "kernels"):
        if cand.is_dir():
            return cand
    raise FileNotFoundError(f"cupyconv kernel sources not found next to {here}")


def _inline(path: Path, seen: set) -> str:
    if path in seen:            # #pragma once semantics
        return ""
    seen.add(path)
    text = path.read_text()

    def repl(m):
        return _inline(path.parent / m.group(1), seen) + f'#line {text.count(chr(10), 0, m.start()) + 2} "{path.name}"\n'

    return f'#line 1 "{path.name}"\n' + _INCLUDE.sub(repl, text)


@functools.lru_cache(maxsize=None)
def kernel_source(family: str) -> str:
    """Full source of ``kernels/<family>.cu`` with its local headers inlined."""
    return _inline(kernel_dir() / f"{family}.cu", set())


_lock = threading.Lock()
_kernels: Dict[tuple, object] = {}


def get_kernel(key, device_id: int):
    """The compiled kernel for ``key`` on ``device_id`` (compiled on first use)."""
    import cupy

    expr = key.name_expression()
    cache_key = (device_id, key)
    kern = _kernels.get(cache_key)
    if kern is None:
        with _lock:
            kern = _kernels.get(cache_key)
            if kern is None:
                with cupy.cuda.Device(device_id):
                    mod = cupy.RawModule(code=kernel_source(key.family),
                                         options=compile_options(key),
                                         name_expressions=(expr,))
                    kern = mod.get_function(expr)
                    kern.compile()
                _kernels[cache_key] = kern
    return kern


def compile_instance(key, arch: str = "sm_90") -> bytes:
    """Compile one instance with NVRTC, without a GPU; return its cubin.

    Raises ``RuntimeError`` with the compiler log on failure.
    """
    from cupy_backends.cuda.libs import nvrtc

    expr = key.name_expression()
    prog = nvrtc.createProgram(kernel_source(key.family), f"{key.family}.cu", [], [])
    try:
        nvrtc.addNameExpression(prog, expr)
        opts = list(compile_options(key) + CUPY_ADDED_OPTIONS) + [f"-arch={arch}"]
        try:
            nvrtc.compileProgram(prog, opts)
        except Exception as exc:
            raise RuntimeError(f"NVRTC failed on {expr} ({arch}):\n"
                               f"{nvrtc.getProgramLog(prog)}") from exc
        nvrtc.getLoweredName(prog, expr)    # raises if the instance was not emitted
        return nvrtc.getCUBIN(prog) if arch.startswith("sm_") else nvrtc.getPTX(prog)
    finally:
        nvrtc.destroyProgram(prog)
