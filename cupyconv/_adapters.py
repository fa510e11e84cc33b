"""Array kinds at the edge: NumPy, CuPy and torch (through DLPack).

Recognising a kind never imports CuPy or torch: a library that is not loaded cannot
have made the array.
"""
from __future__ import annotations

import sys
from typing import Optional

import numpy as np

from ._args import SUPPORTED_DTYPES

NUMPY, CUPY, TORCH = "numpy", "cupy", "torch"


def array_kind(a, name: str) -> str:
    if isinstance(a, np.ndarray):
        return NUMPY
    cupy = sys.modules.get("cupy")
    if cupy is not None and isinstance(a, cupy.ndarray):
        return CUPY
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(a, torch.Tensor):
        return TORCH
    raise TypeError(f"{name} must be a numpy.ndarray, cupy.ndarray or torch.Tensor, "
                    f"got {type(a).__module__}.{type(a).__name__}")


def dtype_name(a, kind: str, name: str) -> str:
    """Normalised dtype name; TypeError outside float16/bfloat16/float32/float64."""
    if kind == TORCH:
        dt = str(a.dtype).replace("torch.", "")
    else:
        dt = a.dtype.name
    if dt not in SUPPORTED_DTYPES:
        raise TypeError(f"{name} has dtype {dt}; supported dtypes are "
                        f"{', '.join(SUPPORTED_DTYPES)}")
    return dt


def device_of(a, kind: str) -> Optional[int]:
    """CUDA device index, or None for host memory."""
    if kind == NUMPY:
        return None
    if kind == CUPY:
        return a.device.id
    if a.device.type == "cpu":
        return None
    if a.device.type != "cuda":
        raise TypeError(f"torch tensors on {a.device.type} devices are not supported")
    return a.device.index


def native(a, kind: str):
    """``a`` with its lazy transforms applied, where the memory alone would be misread.

    NumPy arrays of non-native byte order become native ones (the kernels and the NumPy
    path read native floats). torch tensors with the negative (or conjugate) bit set,
    such as ``z.conj().imag``, hold their values un-negated in memory, and torch's
    DLPack export and ``numpy()`` hand over that memory as it is: resolve them first.
    Both are no-ops (the same object) for ordinary arrays.
    """
    if kind == NUMPY:
        return a if a.dtype.isnative else a.astype(a.dtype.newbyteorder("="))
    if kind == TORCH:
        return a.resolve_conj().resolve_neg()
    return a


# ---- host side -----------------------------------------------------------------------

def to_numpy(a, kind: str) -> np.ndarray:
    if kind == NUMPY:
        return a
    if kind == CUPY:
        return a.get()
    t = a.detach().cpu()
    if str(t.dtype) == "torch.bfloat16":   # NumPy has no native bfloat16
        import ml_dtypes
        return t.view(_torch().int16).numpy().view(ml_dtypes.bfloat16)
    return t.numpy()


def numpy_to_torch(y: np.ndarray, dtype: str):
    torch = _torch()
    if dtype == "bfloat16":
        return torch.from_numpy(y.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(y)


def _torch():
    import torch
    return torch


# ---- device side ---------------------------------------------------------------------

def to_cupy(a, kind: str):
    """Zero-copy CuPy view of a device array (copy for host arrays), on the current stream.

    bfloat16 travels as an int16 view: the kernels read raw 16-bit storage, and this
    works on CuPy versions without bfloat16 support.
    """
    import cupy
    if kind == CUPY:
        return a
    if kind == NUMPY:
        if a.dtype.name == "bfloat16":
            a = a.view(np.int16)
        return cupy.asarray(a)
    torch = _torch()
    t = a.detach()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    if t.device.type == "cpu":
        return cupy.asarray(t.numpy())
    return cupy.from_dlpack(t)


def needs_copy(a, kind: str) -> bool:
    """Whether the kernel's C-contiguous device view of ``a`` is a copy (host memory, or a
    strided device array) rather than ``a``'s own memory."""
    if kind == NUMPY:
        return True
    if kind == CUPY:
        return not a.flags.c_contiguous
    return a.device.type == "cpu" or not a.is_contiguous()


def keep_for_stream(t, stream_ptr: int) -> None:
    """Keep torch's allocator from reusing ``t``'s block before the work queued so far on
    the (non-torch) stream ``stream_ptr`` has run."""
    torch = _torch()
    t.record_stream(torch.cuda.ExternalStream(stream_ptr, device=t.device))


def wait_unless_capturing(stream, producer) -> None:
    """Make CuPy stream ``stream`` wait for the work queued so far on ``producer``. Not
    while ``stream`` is being captured into a CUDA graph (an event from outside the capture
    cannot join it): there the caller orders its streams."""
    if producer.ptr != stream.ptr and not stream.is_capturing():
        stream.wait_event(producer.record())


def torch_stream(device_id: int):
    """CuPy stream object for torch's current stream on ``device_id``."""
    import cupy
    ts = _torch().cuda.current_stream(device_id)
    if hasattr(ts, "__cuda_stream__") and hasattr(cupy.cuda.Stream, "from_external"):
        return cupy.cuda.Stream.from_external(ts)
    return cupy.cuda.ExternalStream(ts.cuda_stream, device_id)


def empty_torch(shape, dtype: str, device_id: int):
    """Output tensor from torch's allocator, with a CuPy view of it to write into."""
    torch = _torch()
    y = torch.empty(shape, dtype=getattr(torch, dtype), device=f"cuda:{device_id}")
    view = y.view(torch.int16) if dtype == "bfloat16" else y
    import cupy
    return y, cupy.from_dlpack(view)
