"""The repeat-call path: device arrays whose call signature has run before.

A call's validation, plan and compiled kernel depend only on its signature (array types,
shapes, dtypes and the integer arguments), so the first call of a signature goes through
the full path (``_api``) and leaves a ``Prepared`` launch here; later calls only check
what the signature cannot capture (devices, contiguity, the current device), allocate the
output and launch. That keeps a small call's host time near torch's own
(benchmarks: ``wall per call``).

torch tensors: the first call of a signature hands them over through DLPack, as every
call did before; on repeats the kernel receives their device pointers directly (the same
zero-copy view, without building three DLPack capsules per call, which cost ~25 us each),
on torch's current stream. Launches go through the driver with the prebuilt parameters
of the first call (``_gpu.run_pointers``), as every launch does.
"""
from __future__ import annotations

import numbers
import sys
import threading
from typing import Optional

from ._gpu import run, run_pointers

# signature -> (Prepared, output shape); bounded so that shape-varying workloads cannot
# grow it without limit (cleared when full, refilled by the calls that follow)
_cache: dict = {}
_MAX_ENTRIES = 4096


def _typed(v):
    """``v`` with the type of every part: 2.0 == 2 and True == 1, yet 2.0 and True are
    TypeErrors where 2 and 1 are valid, so equal values must not share a key."""
    if isinstance(v, tuple):
        return (type(v),) + tuple(_typed(e) for e in v)
    if v is None or isinstance(v, (numbers.Number, str)):     # (NumPy scalars too)
        return (type(v), v)
    raise TypeError("no repeat-call key")   # lists, arrays, tensors: the full path


_PLAIN = frozenset((int, type(None)))


def _args_key(args: tuple) -> tuple:
    """The arguments with their types; the common case (ints and None) without _typed's
    recursion, which costs ~2 us a call."""
    types = tuple(map(type, args))
    return (args, types) if _PLAIN.issuperset(types) else _typed(args)


def signature(x, weight, bias, args: tuple) -> Optional[tuple]:
    """Hashable key of a call, or None when the full path must take every such call
    (arguments other than None, numbers, strings and tuples of them: lists, arrays)."""
    try:
        key = (type(x), x.shape, x.dtype, type(weight), weight.shape, weight.dtype,
               None if bias is None else (type(bias), bias.shape, bias.dtype), _args_key(args))
        hash(key)
    except (TypeError, AttributeError):
        return None
    return key


def remember(sig, prep, out_shape) -> None:
    if len(_cache) >= _MAX_ENTRIES:
        _cache.clear()
    _cache[sig] = (prep, tuple(out_shape))


def try_run(sig, x, weight, bias):
    """The result of a repeat call, or None when the full path must take it."""
    entry = _cache.get(sig)
    if entry is None:
        return None
    prep, out_shape = entry
    cupy = sys.modules["cupy"]
    if isinstance(x, cupy.ndarray):
        return _run_cupy(cupy, prep, out_shape, x, weight, bias)
    return _run_torch(cupy, prep, out_shape, x, weight, bias)


# per thread: the devices whose CUDA context this thread has made current
_thread = threading.local()


def _ensure_context(cupy, dev: int) -> None:
    """The launches below go straight to the driver, which needs the device's context
    current on this thread: a thread whose first CUDA work is a repeat call may have done
    nothing yet that binds it (its allocations can come from a pool without a CUDA call),
    so bind it once per thread and device by a runtime call, as CuPy's own launches do."""
    bound = getattr(_thread, "devices", None)
    if bound is None:
        bound = _thread.devices = set()
    if dev not in bound:
        cupy.cuda.runtime.memGetInfo()
        bound.add(dev)


def _run_cupy(cupy, prep, out_shape, x, weight, bias):
    dev = x.data.device_id
    if prep.device_id != dev:             # the signature ran on another device before
        return None
    for a in (weight, bias):
        if a is not None and (not isinstance(a, cupy.ndarray) or a.data.device_id != dev
                              or not a.flags.c_contiguous):
            return None
    if not x.flags.c_contiguous or cupy.cuda.runtime.getDevice() != dev:
        return None
    _ensure_context(cupy, dev)
    y = cupy.empty(out_shape, dtype=x.dtype)
    if y.data.ptr % 16:        # (a custom allocator's block: the full path says why not)
        return None
    if y.size:
        run(prep, x, weight, bias, y)
    return y


def _run_torch(cupy, prep, out_shape, x, weight, bias):
    torch = sys.modules["torch"]
    dev = x.get_device()                  # -1: host memory
    if dev < 0 or prep.device_id != dev:
        return None
    for a in (x, weight, bias):
        # (a tensor with the negative bit holds its values un-negated: ad.native resolves it)
        if a is not None and (not isinstance(a, torch.Tensor) or a.get_device() != dev
                              or not a.is_contiguous() or a.is_neg()):
            return None
    if cupy.cuda.runtime.getDevice() != dev:
        return None
    _ensure_context(cupy, dev)
    y = x.new_empty(out_shape)      # x's dtype and device; ~1.5 us less than torch.empty(...)
    yp = y.data_ptr()
    if yp % 16:                     # (a custom allocator's block: the full path says why not)
        return None
    if y.numel():
        run_pointers(prep, x.data_ptr(), weight.data_ptr(),
                     0 if bias is None else bias.data_ptr(), yp, _torch_stream(torch, dev))
    return y


def _torch_stream(torch, dev: int) -> int:
    """Handle of torch's current stream on ``dev``."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw(dev) if raw is not None else torch.cuda.current_stream(dev).cuda_stream
