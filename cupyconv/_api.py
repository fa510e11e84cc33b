"""The public function: validate, pick where to run, adapt array kinds, run."""
from __future__ import annotations

import threading
from typing import Optional, Sequence, Union

import numpy as np

from . import _adapters as ad
from . import _autograd
from . import _complex as cx
from . import _fast
from ._args import COMPLEX_DTYPES, ConvParams, IntArg, check_conv_args
from ._dispatch import MIN_COMPUTE_CAPABILITY
from ._reference import conv_transpose1d_numpy

_last = threading.local()
BACKENDS = ("auto", "gpu", "cpu")


def gpu_available() -> bool:
    """True when CuPy is installed and the current CUDA device is one the kernels run on
    (compute capability >= 8.0)."""
    try:
        import cupy
        return (bool(cupy.is_available())
                and int(cupy.cuda.Device().compute_capability) >= MIN_COMPUTE_CAPABILITY)
    except Exception:  # ImportError, or a broken driver install
        return False


def last_backend() -> Optional[str]:
    """``'gpu'`` or ``'cpu'``: where this thread's last conv_transpose1d call ran."""
    return getattr(_last, "backend", None)


def conv_transpose1d(x, weight, bias=None, stride: IntArg = 1, padding: IntArg = 0,
                     output_padding: IntArg = 0, groups: int = 1, dilation: IntArg = 1, *,
                     output_size: Optional[Union[int, Sequence[int]]] = None,
                     backend: str = "auto"):
    """1-D transposed convolution, exactly as ``torch.nn.functional.conv_transpose1d``.

    Parameters
    ----------
    x : array, shape (N, C_in, L_in) or (C_in, L_in)
        numpy.ndarray, cupy.ndarray or torch.Tensor; decides where the call runs and
        the kind of the result.
    weight : array, shape (C_in, C_out // groups, K)
    bias : array, shape (C_out,), optional
    stride, padding, output_padding, dilation : int or 1-element tuple/list
    groups : int
    output_size : int or sequence, optional
        Requested output length (``L_out``, or the whole output shape), as
        ``torch.nn.ConvTranspose1d.forward`` takes it; it replaces ``output_padding``.
    backend : {'auto', 'gpu', 'cpu'}
        For host input (NumPy arrays, torch CPU tensors): ``'auto'`` runs on the GPU
        when one is usable and on the NumPy reference otherwise; ``'gpu'``/``'cpu'``
        force one. Device input always runs on its device. ``last_backend()`` says
        which ran.

    Returns
    -------
    array, shape (N, C_out, L_out) or (C_out, L_out), the same kind and dtype as ``x``;
    on the same device and stream for CuPy (current stream) and torch (torch's current
    stream) inputs.

    Notes
    -----
    Mixed kinds: ``x`` decides. ``weight`` and ``bias`` may be any of the three kinds
    and are brought to ``x`` (zero-copy for arrays on the same GPU, a copy otherwise;
    GPU arrays on a different device than ``x`` are a ValueError). All arrays must
    share one dtype (float16, bfloat16, float32, float64, complex64 or complex128), as in
    torch; float16 and bfloat16 accumulate in float32. Complex calls run as one real call
    on the parts (twice the input channels), with a workspace of about x's and y's size
    (x's alone in the interleaved layout, ``cupyconv._complex``).

    Autograd: for torch ``x`` with grad mode on and any input requiring grad, the result
    records a backward, torch's own convolution backward (the gradients of
    ``torch.nn.functional.conv_transpose1d``); the forward is unchanged.

    Examples
    --------
    >>> import numpy as np, cupyconv
    >>> x = np.random.rand(2, 4, 10).astype(np.float32)
    >>> w = np.random.rand(4, 3, 3).astype(np.float32)
    >>> cupyconv.conv_transpose1d(x, w, stride=2, padding=1, dilation=2).shape
    (2, 3, 21)

    See Also
    --------
    torch.nn.functional.conv_transpose1d
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if _autograd.wanted(x, weight, bias):
        # the plain call (which validates everything) as the forward of a recorded one
        return _autograd.apply(
            lambda x, w, b: conv_transpose1d(x, w, b, stride, padding, output_padding, groups,
                                             dilation, output_size=output_size, backend=backend),
            x, weight, bias, (stride, padding, output_padding, groups, dilation, output_size))
    sig = None
    if backend != "cpu":
        # a device call whose signature ran before: checks, allocation and launch only
        sig = _fast.signature(x, weight, bias, (stride, padding, output_padding, groups,
                                                dilation, output_size))
        y = None if sig is None else _fast.try_run(sig, x, weight, bias)
        if y is not None:
            _last.backend = "gpu"
            return y
    kinds = {"x": ad.array_kind(x, "x"), "weight": ad.array_kind(weight, "weight")}
    arrays = {"x": x, "weight": weight}
    if bias is not None:
        kinds["bias"] = ad.array_kind(bias, "bias")
        arrays["bias"] = bias
    originals = arrays
    arrays = {k: ad.native(a, kinds[k]) for k, a in arrays.items()}
    dtypes = {k: ad.dtype_name(a, kinds[k], k) for k, a in arrays.items()}
    if len(set(dtypes.values())) > 1:
        raise TypeError("x, weight and bias must have the same dtype, got "
                        + ", ".join(f"{k}: {v}" for k, v in dtypes.items()))
    dtype = dtypes["x"]
    devices = {k: ad.device_of(a, kinds[k]) for k, a in arrays.items()}
    dev = devices["x"]
    for k, d in devices.items():
        if d is not None and dev is not None and d != dev:
            raise ValueError(f"{k} is on GPU {d} but x is on GPU {dev}: all arrays must "
                             "be on x's device")
    # host x with weight or bias on a GPU: the call runs there (they must share it)
    on_gpus = {k: d for k, d in devices.items() if d is not None}
    if dev is None and len(set(on_gpus.values())) > 1:
        raise ValueError("the arrays on GPUs must share one: "
                         + ", ".join(f"{k} is on GPU {d}" for k, d in on_gpus.items()))
    p = check_conv_args(tuple(x.shape), tuple(weight.shape),
                        None if bias is None else tuple(bias.shape),
                        stride, padding, output_padding, groups, dilation, output_size)

    if dev is not None:
        if backend == "cpu":
            raise ValueError("backend='cpu' needs host input; x is on a GPU")
        _last.backend = "gpu"
        return _run_device(arrays, kinds, p, dtype, dev, sig, originals)
    use_gpu = backend == "gpu" or (backend == "auto" and gpu_available())
    if backend == "gpu" and not gpu_available():
        raise RuntimeError("backend='gpu' was requested but no CUDA device is usable "
                           "(none, or compute capability below "
                           f"{MIN_COMPUTE_CAPABILITY / 10:.1f})")
    if use_gpu:
        y = _run_host_on_gpu(arrays, kinds, p, dtype, next(iter(on_gpus.values()), None),
                             originals)
    else:
        y = _run_cpu(arrays, kinds, p, dtype)
    _last.backend = "gpu" if use_gpu else "cpu"
    return ad.numpy_to_torch(y, dtype) if kinds["x"] == ad.TORCH else y


def _as3d(a, p: ConvParams):
    return a if p.batched else a.reshape((1,) + tuple(a.shape))


def _run_cpu(arrays, kinds, p: ConvParams, dtype: str) -> np.ndarray:
    h = {k: ad.to_numpy(a, kinds[k]) for k, a in arrays.items()}
    x = _as3d(h["x"], p)
    if dtype in COMPLEX_DTYPES:
        y = np.empty((p.batch, p.out_channels, p.length_out), dtype=x.dtype)
        inter = cx.interleaved(p)
        p2 = cx.real_params(p, inter)

        def real_conv(x2, w2, b2, y2):
            y2[...] = conv_transpose1d_numpy(x2, w2, b2, p2)
        cx.compute(x, h["weight"], h.get("bias"), y, p, np, inter, real_conv)
    else:
        y = conv_transpose1d_numpy(x, h["weight"], h.get("bias"), p)
    return y.reshape(p.out_shape)


def _refuse_complex_capture(dtype: str) -> None:
    """Complex calls inside a CUDA graph capture are a ValueError (before the output is
    allocated, where the caller can): their staged parts live only as long as the call."""
    if dtype not in COMPLEX_DTYPES:
        return
    import cupy
    if cupy.cuda.get_current_stream().is_capturing():
        raise ValueError("complex calls cannot be captured in a CUDA graph: they stage their "
                         "real and imaginary parts in memory that does not outlive the call")


def _launch(arrays, kinds, p: ConvParams, dtype: str, dev: int, y, originals):
    """Launch on the current stream; returns the ``_gpu.Prepared`` launch (None if empty).
    ``originals``: the caller's arrays (``arrays`` may hold resolved copies of them)."""
    import cupy
    from ._gpu import family_on, launch, prepare, run
    temporaries = [k for k, a in arrays.items()
                   if a is not originals[k] or ad.needs_copy(a, kinds[k])]
    if temporaries and cupy.cuda.get_current_stream().is_capturing():
        # a captured launch keeps the temporaries' addresses, which the pools hand out
        # again once this call returns
        raise ValueError(f"inside a CUDA graph capture x, weight and bias must be C-contiguous "
                         f"arrays on x's device; {', '.join(temporaries)} would be copied into "
                         "memory that does not outlive the call")
    complex_call = dtype in COMPLEX_DTYPES
    _refuse_complex_capture(dtype)
    c = {k: cupy.ascontiguousarray(ad.to_cupy(a, kinds[k])) for k, a in arrays.items()}
    if complex_call:
        # one real call on the parts (cupyconv._complex), on this stream, so the staged
        # operands go back to this stream's pool only behind the kernel that reads them
        prep = None                     # no repeat-call record: the launch is not y's
        if y.size:
            real = cx.REAL_OF[dtype]
            inter = cx.interleaved(p, family_on(real, dev))
            prep2 = prepare(cx.real_params(p, inter), real, dev)   # (plan errors first)
            cx.compute(_as3d(c["x"], p), c["weight"], c.get("bias"), y, p, cupy, inter,
                       lambda x2, w2, b2, y2: run(prep2, x2, w2, b2, y2))
    else:
        prep = launch(_as3d(c["x"], p), c["weight"], c.get("bias"), y, p, dtype, dev)
    if kinds["x"] != ad.TORCH:
        # torch tensors made here (resolved negations) are freed into torch's allocator on
        # its stream when this returns: hold the blocks until this stream's kernel has run
        for k in temporaries:
            if kinds[k] == ad.TORCH and arrays[k] is not originals[k] and arrays[k].is_cuda:
                ad.keep_for_stream(arrays[k], cupy.cuda.get_current_stream().ptr)
    return prep


def _run_host_on_gpu(arrays, kinds, p: ConvParams, dtype: str, dev: Optional[int],
                     originals) -> np.ndarray:
    """Host x on a GPU: ``dev``, where weight or bias already is, else the current one."""
    import cupy
    out_dtype = np.int16 if dtype == "bfloat16" else np.dtype(dtype)
    with cupy.cuda.Device(dev):
        y = cupy.empty((p.batch, p.out_channels, p.length_out), dtype=out_dtype)
        _launch(arrays, kinds, p, dtype, cupy.cuda.Device().id, y, originals)
        h = y.get()
    if dtype == "bfloat16":
        import ml_dtypes
        h = h.view(ml_dtypes.bfloat16)
    return h.reshape(p.out_shape)


def _run_device(arrays, kinds, p: ConvParams, dtype: str, dev: int, sig, originals):
    import cupy
    with cupy.cuda.Device(dev):
        if kinds["x"] == ad.TORCH:
            outer = cupy.cuda.get_current_stream()
            with ad.torch_stream(dev) as stream:
                _refuse_complex_capture(dtype)
                if ad.CUPY in kinds.values():
                    # CuPy operands were written in CuPy's stream order, not torch's
                    ad.wait_unless_capturing(stream, outer)
                y, yc = ad.empty_torch(p.out_shape, dtype, dev)
                prep = _launch(arrays, kinds, p, dtype, dev, _as3d(yc, p), originals)
        else:
            _refuse_complex_capture(dtype)
            y = cupy.empty(p.out_shape, dtype=arrays["x"].dtype)
            prep = _launch(arrays, kinds, p, dtype, dev, _as3d(y, p), originals)
        if sig is not None and prep is not None:
            _fast.remember(sig, prep, p.out_shape)
        return y
