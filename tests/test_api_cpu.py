"""The public function on a machine without a usable GPU: array kinds in and out,
backend selection and last_backend()."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import cupyconv
from cupyconv import conv_transpose1d, gpu_available, last_backend

BF16 = np.dtype(ml_dtypes.bfloat16)
KW = dict(stride=2, padding=1, output_padding=1, dilation=2)


def _data(rng, dtype=np.float32, batched=True):
    shape = (2, 4, 13) if batched else (4, 13)
    x = rng.standard_normal(shape).astype(dtype)
    w = rng.standard_normal((4, 3, 3)).astype(dtype)
    b = rng.standard_normal(3).astype(dtype)
    return x, w, b


def _ref(x, w, b, **kw):
    """float64 result of torch (independent of the library) on the same values."""
    import torch
    f = (lambda a: None if a is None else torch.from_numpy(np.asarray(a, np.float64)))
    return torch.nn.functional.conv_transpose1d(f(x), f(w), f(b), **kw).numpy()


@pytest.fixture
def no_gpu():
    if gpu_available():
        pytest.skip("a CUDA device is usable here: these tests are about the CPU fallback")


@pytest.fixture
def no_gpu_for_auto(request):
    """Skips only the backend='auto' cases where a GPU is usable (backend='cpu' runs
    everywhere)."""
    if request.getfixturevalue("backend") == "auto" and gpu_available():
        pytest.skip("a CUDA device is usable here: 'auto' would run on it")


# ---- NumPy -------------------------------------------------------------------------------

@pytest.mark.parametrize("backend", ["cpu", "auto"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16])
def test_numpy_in_numpy_out(rng, no_gpu_for_auto, backend, dtype):
    x, w, b = _data(rng, dtype)
    y = conv_transpose1d(x, w, b, backend=backend, **KW)
    assert type(y) is np.ndarray and y.dtype == dtype
    assert y.shape == (2, 3, cupyconv.output_length(13, 3, **KW))
    assert last_backend() == "cpu"
    tol = {np.dtype(np.float32): 2e-6, np.dtype(np.float64): 1e-12}.get(np.dtype(dtype), 1e-2)
    ref = _ref(x, w, b, **KW)
    np.testing.assert_allclose(y.astype(np.float64), ref, rtol=tol, atol=tol * np.abs(ref).max())


@pytest.mark.parametrize("dtype", [">f8", ">f4", ">f2"])
def test_numpy_non_native_byte_order(rng, torch, dtype):
    """Big-endian arrays are read by value (float64 stays float64), against torch on the
    same values in native order; the result is in native order."""
    x, w, b = (a.astype(dtype) for a in _data(rng, np.float64))
    y = conv_transpose1d(x, w, b, backend="cpu", **KW)
    assert y.dtype == np.dtype(dtype).newbyteorder("=") and y.dtype.isnative
    t = (torch.from_numpy(a.astype(np.float64)) for a in (x, w, b))
    ref = torch.nn.functional.conv_transpose1d(*t, **KW).numpy()
    tol = {">f8": 1e-13, ">f4": 1e-6, ">f2": 2e-3}[dtype]
    assert np.abs(y.astype(np.float64) - ref).max() <= tol * np.abs(ref).max()


def test_numpy_unbatched(rng):
    x, w, b = _data(rng, np.float64, batched=False)
    y = conv_transpose1d(x, w, b, backend="cpu", **KW)
    assert y.shape == (3, cupyconv.output_length(13, 3, **KW))
    np.testing.assert_array_equal(y, conv_transpose1d(x[None], w, b, backend="cpu", **KW)[0])


def test_default_arguments(rng, no_gpu):
    x, w, _ = _data(rng, np.float64)
    y = conv_transpose1d(x, w)
    assert y.shape == (2, 3, 15) and last_backend() == "cpu"
    np.testing.assert_array_equal(y, conv_transpose1d(x, w, None, 1, 0, 0, 1, 1, backend="cpu"))


def test_positional_order_is_torchs(rng):
    """(x, weight, bias, stride, padding, output_padding, groups, dilation)."""
    x = rng.standard_normal((1, 4, 9))
    w = rng.standard_normal((4, 1, 3))
    a = conv_transpose1d(x, w, None, 3, 2, 1, 2, 4, backend="cpu")
    b = conv_transpose1d(x, w, None, stride=3, padding=2, output_padding=1, groups=2,
                         dilation=4, backend="cpu")
    np.testing.assert_array_equal(a, b)


# ---- torch -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_torch_cpu_in_torch_cpu_out(rng, torch, no_gpu, dtype, batched):
    tdt = getattr(torch, dtype)
    x, w, b = (torch.from_numpy(a).to(tdt) for a in _data(rng, np.float64, batched))
    y = conv_transpose1d(x, w, b, **KW)
    assert isinstance(y, torch.Tensor)
    assert y.device.type == "cpu" and y.dtype == tdt and not y.requires_grad
    assert last_backend() == "cpu"
    ref = torch.nn.functional.conv_transpose1d(x.double(), w.double(), b.double(), **KW)
    assert y.shape == ref.shape
    tol = {"float32": 2e-6, "float64": 1e-12, "float16": 2e-3, "bfloat16": 1e-2}[dtype]
    err = (y.double() - ref).abs().max() / ref.abs().max()
    assert float(err) <= tol


def test_torch_requires_grad_inputs(rng, torch):
    x, w, b = (torch.from_numpy(a).requires_grad_(True) for a in _data(rng, np.float32))
    y = conv_transpose1d(x, w, b, backend="cpu", **KW)
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float32
    assert y.requires_grad and y.grad_fn is not None    # autograd: tests/test_autograd.py
    with torch.no_grad():
        ref = torch.nn.functional.conv_transpose1d(x, w, b, **KW)
    torch.testing.assert_close(y, ref, rtol=2e-6, atol=2e-6)
    assert x.grad is None and x.requires_grad      # inputs untouched


def test_torch_negative_bit_tensors(rng, torch):
    """z.conj().imag is a real tensor with the negative bit set: its memory holds the
    values un-negated, and torch's numpy() / DLPack export hand that memory over as it
    is. The library must read the values torch means."""
    def neg_bit(shape):
        z = torch.complex(torch.randn(shape, dtype=torch.float64), torch.randn(shape, dtype=torch.float64))
        t = z.conj().imag
        assert t.is_neg()
        return t
    x, w, b = neg_bit((2, 4, 13)), neg_bit((4, 3, 3)), neg_bit((3,))
    y = conv_transpose1d(x, w, b, backend="cpu", **KW)
    ref = torch.nn.functional.conv_transpose1d(x, w, b, **KW)
    torch.testing.assert_close(y, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("scale", [1e30, 1e-30])
def test_torch_bfloat16_beyond_float16s_range(rng, torch, scale):
    """bfloat16 keeps float32's exponent range: values float16 cannot hold (overflow to
    inf, or flush to 0) must come through, against torch in float64 on the same values."""
    x = (torch.from_numpy(rng.standard_normal((2, 4, 13))) * scale).to(torch.bfloat16)
    w = torch.from_numpy(rng.standard_normal((4, 3, 3))).to(torch.bfloat16)
    y = conv_transpose1d(x, w, backend="cpu", **KW)
    ref = torch.nn.functional.conv_transpose1d(x.double(), w.double(), **KW)
    assert y.dtype == torch.bfloat16 and bool(torch.isfinite(y.double()).all())
    assert float((y.double() - ref).abs().max() / ref.abs().max()) <= 1e-2


def test_torch_bfloat16_bits(rng, torch):
    """bf16 tensors travel as int16 views: the values must come back, not reinterpreted."""
    x = torch.randn(1, 2, 5).to(torch.bfloat16)
    w = torch.zeros(2, 1, 1, dtype=torch.bfloat16)
    w[0, 0, 0] = 1.0                                # y = x[:, 0] exactly
    y = conv_transpose1d(x, w, backend="cpu")
    assert y.dtype == torch.bfloat16
    assert torch.equal(y[:, 0], x[:, 0])


def test_torch_non_contiguous(rng, torch):
    x = torch.randn(2, 13, 4, dtype=torch.float64).transpose(1, 2)     # (2, 4, 13) view
    w = torch.randn(3, 3, 4, dtype=torch.float64).permute(2, 1, 0)     # (4, 3, 3) view
    assert not x.is_contiguous() and not w.is_contiguous()
    y = conv_transpose1d(x, w, backend="cpu", **KW)
    ref = torch.nn.functional.conv_transpose1d(x, w, **KW)
    torch.testing.assert_close(y, ref, rtol=1e-12, atol=1e-12)


def test_torch_output_is_independent_of_inputs(rng, torch):
    x, w, b = (torch.from_numpy(a) for a in _data(rng, np.float64))
    y = conv_transpose1d(x, w, b, backend="cpu", stride=1)
    y0 = y.clone()
    x.add_(1.0)
    w.mul_(2.0)
    assert torch.equal(y, y0)


# ---- mixed kinds -------------------------------------------------------------------------

def test_numpy_x_with_torch_weight_gives_numpy(rng, torch):
    x, w, b = _data(rng, np.float32)
    y = conv_transpose1d(x, torch.from_numpy(w), b, backend="cpu", **KW)
    assert type(y) is np.ndarray and y.dtype == np.float32
    np.testing.assert_allclose(y, _ref(x, w, b, **KW), rtol=2e-6, atol=2e-6)
    assert last_backend() == "cpu"


def test_numpy_x_with_torch_weight_and_bias(rng, torch):
    x, w, b = _data(rng, np.float64)
    y = conv_transpose1d(x, torch.from_numpy(w), torch.from_numpy(b), backend="cpu", **KW)
    assert type(y) is np.ndarray            # bitwise the all-NumPy call (and near torch)
    np.testing.assert_array_equal(y, conv_transpose1d(x, w, b, backend="cpu", **KW))
    np.testing.assert_allclose(y, _ref(x, w, b, **KW), rtol=1e-12, atol=1e-12)


def test_torch_x_with_numpy_weight_gives_torch(rng, torch):
    x, w, b = _data(rng, np.float64)
    y = conv_transpose1d(torch.from_numpy(x), w, b, backend="cpu", **KW)
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float64
    np.testing.assert_array_equal(y.numpy(), conv_transpose1d(x, w, b, backend="cpu", **KW))
    np.testing.assert_allclose(y.numpy(), _ref(x, w, b, **KW), rtol=1e-12, atol=1e-12)


def test_mixed_bfloat16_kinds(rng, torch):
    x, w, b = _data(rng, np.float32)
    xb = x.astype(BF16)
    wt = torch.from_numpy(w).to(torch.bfloat16)
    y = conv_transpose1d(xb, wt, None, backend="cpu", **KW)
    assert type(y) is np.ndarray and y.dtype == BF16
    ref = _ref(xb, wt.float().numpy(), None, **KW)
    assert np.abs(y.astype(np.float64) - ref).max() <= 1e-2 * np.abs(ref).max()


def test_mixed_kinds_must_share_dtype(rng, torch):
    x, w, _ = _data(rng, np.float32)
    with pytest.raises(TypeError, match=r"same dtype.*weight: float64"):
        conv_transpose1d(x, torch.from_numpy(w.astype(np.float64)), backend="cpu")


def test_torch_unsupported_dtype(rng, torch):
    x, w, _ = _data(rng, np.float32)
    with pytest.raises(TypeError, match=r"^x has dtype int64"):
        conv_transpose1d(torch.from_numpy(x).long(), torch.from_numpy(w).long(), backend="cpu")


@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental")
def test_torch_complex32_is_unsupported(rng, torch):
    x, w, _ = (torch.from_numpy(a) for a in _data(rng, np.float32))
    x, w = (torch.complex(a, a).to(torch.complex32) for a in (x, w))
    with pytest.raises(TypeError, match=r"^x has dtype complex32; supported dtypes are"):
        conv_transpose1d(x, w, backend="cpu")


# ---- complex -----------------------------------------------------------------------------

def _complex_data(rng, torch, dtype):
    return tuple(torch.complex(*(torch.from_numpy(rng.standard_normal(a.shape)) for _ in "ri")).to(dtype)
                 for a in _data(rng, np.float64))


@pytest.mark.parametrize("backend", ["cpu", "auto"])
@pytest.mark.parametrize("name", ["complex64", "complex128"])
def test_torch_complex_in_torch_complex_out(rng, torch, no_gpu_for_auto, name, backend):
    """torch computes complex inputs (three real convolutions, Gauss's trick); so does the
    library (one real call on the parts): against torch in complex128 on the same values."""
    dtype = getattr(torch, name)
    x, w, b = _complex_data(rng, torch, dtype)
    y = conv_transpose1d(x, w, b, backend=backend, **KW)
    assert isinstance(y, torch.Tensor) and y.dtype == dtype
    ref = torch.nn.functional.conv_transpose1d(x.to(torch.complex128), w.to(torch.complex128),
                                               b.to(torch.complex128), **KW)
    tol = 2e-6 if name == "complex64" else 1e-13
    assert float((y.to(torch.complex128) - ref).abs().max() / ref.abs().max()) <= tol
    # and torch's own complex64 result, within its Gauss-trick rounding
    torch.testing.assert_close(y, torch.nn.functional.conv_transpose1d(x, w, b, **KW),
                               rtol=1e-5, atol=1e-5 * float(ref.abs().max()))


def test_torch_conjugate_bit_tensors(rng, torch):
    """z.conj() is lazy (the conjugate bit): its memory holds z. The library must compute
    with the conjugates, as torch does."""
    x, w, b = _complex_data(rng, torch, torch.complex128)
    xc, wc = x.conj(), w.conj()
    assert xc.is_conj() and wc.is_conj()
    y = conv_transpose1d(xc, wc, b, backend="cpu", **KW)
    ref = torch.nn.functional.conv_transpose1d(xc.resolve_conj(), wc.resolve_conj(), b, **KW)
    torch.testing.assert_close(y, ref, rtol=1e-12, atol=1e-12)
    assert not torch.allclose(y, torch.nn.functional.conv_transpose1d(x, w, b, **KW))


def test_numpy_complex_x_with_torch_complex_weight(rng, torch):
    x, w, b = _complex_data(rng, torch, torch.complex64)
    y = conv_transpose1d(x.numpy(), w, b.numpy(), backend="cpu", **KW)
    assert type(y) is np.ndarray and y.dtype == np.complex64
    np.testing.assert_array_equal(y, conv_transpose1d(x, w, b, backend="cpu", **KW).numpy())


def _numpy_cupy(capturing=False):
    """A stand-in for the cupy module, backed by NumPy: enough of it for _api._launch."""
    from types import SimpleNamespace
    stream = SimpleNamespace(is_capturing=lambda: capturing)
    return SimpleNamespace(asarray=np.asarray, ascontiguousarray=np.ascontiguousarray,
                           empty=np.empty, stack=np.stack, moveaxis=np.moveaxis,
                           cuda=SimpleNamespace(get_current_stream=lambda: stream))


@pytest.mark.parametrize("groups,bias,batched,dilation", [
    (1, True, True, 2), (3, False, True, 2), (2, True, False, 2),
    (1, True, True, 1), (3, False, True, 1), (2, True, False, 1)])
def test_complex_device_launch_wiring(rng, torch, monkeypatch, groups, bias, batched, dilation):
    """The GPU branch of a complex call (_api._launch), with NumPy standing in for CuPy and
    the NumPy path for the real kernel: the real call's parameters, its operands, its
    output (y's own memory in the interleaved layout, dilation 1) and the unpacking or
    bias pass into the complex output, on any machine."""
    import sys
    from cupyconv import _api, _complex, _gpu
    from cupyconv._args import check_conv_args
    from cupyconv._reference import conv_transpose1d_numpy
    monkeypatch.setitem(sys.modules, "cupy", _numpy_cupy())
    seen = []

    def prepare(p2, dtype, dev):
        seen.append((p2, dtype, dev))
        return p2

    def run(p2, x2, w2, b2, y2):
        assert x2.dtype == w2.dtype == y2.dtype == np.float32 and x2.flags.c_contiguous
        assert np.shares_memory(y2, y) == (dilation == 1)
        y2[...] = conv_transpose1d_numpy(x2, w2, b2, p2)
    monkeypatch.setattr(_gpu, "prepare", prepare)
    monkeypatch.setattr(_gpu, "run", run)
    monkeypatch.setattr(_complex, "INTERLEAVED_MAX_DILATION", 1)   # (whatever ships)
    kw = dict(stride=3, padding=2, output_padding=1, dilation=dilation)
    cplx = (lambda shape: (rng.standard_normal(shape) + 1j * rng.standard_normal(shape))
            .astype(np.complex64))
    x = cplx((2, 4 * groups, 19) if batched else (4 * groups, 19))
    w, b = cplx((4 * groups, 3, 5)), cplx((3 * groups,)) if bias else None
    p = check_conv_args(x.shape, w.shape, None if b is None else b.shape, groups=groups, **kw)
    arrays = {"x": x, "weight": w} | ({"bias": b} if bias else {})
    kinds = {k: "numpy" for k in arrays}
    y = np.full((p.batch, p.out_channels, p.length_out), complex(np.nan, np.nan), np.complex64)
    assert _api._launch(arrays, kinds, p, "complex64", 0, y, dict(arrays)) is None
    assert seen == [(_complex.real_params(p, dilation == 1), "float32", 0)]
    t = (lambda a: None if a is None else torch.from_numpy(a.astype(np.complex128)))
    ref = torch.nn.functional.conv_transpose1d(t(x), t(w), t(b), groups=groups, **kw).numpy()
    np.testing.assert_allclose(y.reshape(ref.shape), ref, rtol=0, atol=2e-6 * np.abs(ref).max())
    # inside a CUDA graph capture, device arrays that need no copy: refused before any work
    monkeypatch.setitem(sys.modules, "cupy", _numpy_cupy(capturing=True))
    with pytest.raises(ValueError, match="complex calls cannot be captured"):
        _api._launch(arrays, {k: "cupy" for k in arrays}, p, "complex64", 0, y, dict(arrays))
    assert len(seen) == 1


# ---- backend selection -------------------------------------------------------------------

def test_gpu_backend_without_gpu_is_runtime_error(rng, no_gpu):
    x, w, b = _data(rng)
    with pytest.raises(RuntimeError, match=r"backend='gpu'.*no CUDA device is usable"):
        conv_transpose1d(x, w, b, backend="gpu")


def test_gpu_backend_without_gpu_torch_input(rng, torch, no_gpu):
    x, w, b = (torch.from_numpy(a) for a in _data(rng))
    with pytest.raises(RuntimeError, match=r"backend='gpu'"):
        conv_transpose1d(x, w, b, backend="gpu")


@pytest.mark.parametrize("backend", ["bogus", "GPU", "", None, "cuda"])
def test_unknown_backend(rng, backend):
    x, w, b = _data(rng)
    with pytest.raises(ValueError, match=r"^backend must be one of"):
        conv_transpose1d(x, w, b, backend=backend)


@pytest.mark.parametrize("cupy_state", ["missing", "no device", "broken driver"])
def test_gpu_available_is_false_without_a_usable_device(monkeypatch, cupy_state):
    """No CuPy, CuPy without a device, a CuPy whose device query raises (faked)."""
    import sys
    from types import SimpleNamespace

    def broken():
        raise RuntimeError("cudaErrorInsufficientDriver")
    fake = {"missing": None,
            "no device": SimpleNamespace(is_available=lambda: False),
            "broken driver": SimpleNamespace(is_available=broken)}[cupy_state]
    monkeypatch.setitem(sys.modules, "cupy", fake)        # None: import raises ImportError
    assert gpu_available() is False


def test_last_backend_after_cpu_run(rng):
    x, w, b = _data(rng)
    conv_transpose1d(x, w, b, backend="cpu")
    assert last_backend() == "cpu"


def test_last_backend_is_per_thread(rng):
    import threading

    x, w, b = _data(rng)
    conv_transpose1d(x, w, b, backend="cpu")
    seen = []
    t = threading.Thread(target=lambda: seen.append(last_backend()))
    t.start()
    t.join()
    assert seen == [None]
    assert last_backend() == "cpu"


def test_failed_call_keeps_last_backend(rng):
    x, w, b = _data(rng)
    conv_transpose1d(x, w, b, backend="cpu")
    with pytest.raises(ValueError):
        conv_transpose1d(x, w, b, stride=0, backend="cpu")
    assert last_backend() == "cpu"


def test_cupy_inputs_need_a_gpu():
    """CuPy arrays cannot be created without a device: nothing to test on this machine."""
    cupy = pytest.importorskip("cupy")
    if not cupy.is_available():
        pytest.skip("no CUDA device (cupy.is_available() is False): cannot make cupy arrays")
    rng = np.random.default_rng()
    x, w = rng.standard_normal((1, 2, 40)), rng.standard_normal((2, 8, 3))
    y = conv_transpose1d(cupy.asarray(x, cupy.float32), cupy.asarray(w, cupy.float32), stride=2)
    assert isinstance(y, cupy.ndarray) and last_backend() == "gpu"
    ref = _ref(x.astype(np.float32), w.astype(np.float32), None, stride=2)
    assert np.abs(y.get() - ref).max() <= 2e-6 * np.abs(ref).max()


def test_public_names():
    assert set(cupyconv.__all__) >= {"conv_transpose1d", "output_length", "gpu_available",
                                     "last_backend"}


def test_arrays_on_different_gpus_are_rejected_before_gpu_work(monkeypatch):
    """x on GPU 0 and weight on GPU 1 (faked: this machine may have no GPU at all)."""
    import cupyconv._adapters as ad
    import cupyconv._api as api

    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 4, 9))
    w = rng.standard_normal((4, 3, 3))
    monkeypatch.setattr(ad, "device_of", lambda a, kind: 0 if a is x else 1)

    def gpu_work(*args, **kwargs):
        raise AssertionError("device work started before the arguments were checked")

    monkeypatch.setattr(api, "_run_device", gpu_work)
    with pytest.raises(ValueError, match="weight is on GPU 1 but x is on GPU 0"):
        api.conv_transpose1d(x, w)


@pytest.mark.parametrize("cc,usable", [("75", False), ("80", True), ("90", True)])
def test_gpu_available_needs_compute_capability_8(monkeypatch, cc, usable):
    """A GPU the kernels cannot run on (compute capability < 8.0) is not 'available', so
    host input with backend='auto' runs on the CPU there (faked CuPy: no GPU here)."""
    import sys
    from types import SimpleNamespace
    fake = SimpleNamespace(is_available=lambda: True,
                           cuda=SimpleNamespace(Device=lambda: SimpleNamespace(compute_capability=cc)))
    monkeypatch.setitem(sys.modules, "cupy", fake)
    assert gpu_available() is usable


def test_host_x_with_operands_on_two_gpus_is_rejected_before_gpu_work(monkeypatch):
    """Host x, weight on GPU 0 and bias on GPU 1 (faked): a ValueError naming both."""
    import cupyconv._adapters as ad
    import cupyconv._api as api

    rng = np.random.default_rng(8)
    x, w, b = rng.standard_normal((2, 4, 9)), rng.standard_normal((4, 3, 3)), rng.standard_normal(3)
    monkeypatch.setattr(ad, "device_of", lambda a, kind: {id(w): 0, id(b): 1}.get(id(a)))

    def gpu_work(*args, **kwargs):
        raise AssertionError("device work started before the arguments were checked")

    monkeypatch.setattr(api, "_run_host_on_gpu", gpu_work)
    with pytest.raises(ValueError, match="weight is on GPU 0, bias is on GPU 1"):
        api.conv_transpose1d(x, w, b)


@pytest.mark.parametrize("S, D", [(10**12, 1), (10**12, 10**9 + 7), (7, 10**12)])
def test_huge_stride_or_dilation_with_a_small_output(rng, S, D):
    """A stride or dilation far beyond L_out costs nothing on the CPU path (its residue
    classes come from the outputs, not from range(S): 10**12 of them would never end), and
    the few outputs match a direct sum over (i, k) with o = i*S + k*D - P."""
    import time
    N, C_in, C_og, K, L = 2, 3, 2, 5, 3
    x = rng.standard_normal((N, C_in, L))
    w = rng.standard_normal((C_in, C_og, K))
    b = rng.standard_normal(C_og)
    P = S + 2 * D - 2                      # 5 outputs around i = 1, k = 2 (the middle)
    t = time.perf_counter()
    y = conv_transpose1d(x, w, b, stride=S, padding=P, dilation=D, backend="cpu")
    assert time.perf_counter() - t < 10
    L_out = (L - 1) * S - 2 * P + D * (K - 1) + 1
    assert y.shape == (N, C_og, L_out) and L_out == 5
    ref = np.broadcast_to(b[None, :, None], y.shape).copy()
    for i in range(L):
        for k in range(K):
            o = i * S + k * D - P
            if 0 <= o < L_out:
                ref[:, :, o] += np.einsum("nc,cd->nd", x[:, :, i], w[:, :, k])
    hit = sum(0 <= i * S + k * D - P < L_out for i in range(L) for k in range(K))
    assert hit >= 1                        # some output takes a product, not only the bias
    np.testing.assert_allclose(y, ref, rtol=1e-13, atol=1e-13)
