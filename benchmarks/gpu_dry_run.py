"""The GPU tests' planning, without a GPU: a pytest plugin that runs tests/test_gpu.py on
the CPU with an sm_90 device simulated for the dispatcher, so that a dispatch-rule change
that breaks a GPU test's assertions about families, keys or routes shows before device
time is spent on it (session 73: a 16-bit route that a partial-weight test rejected).

    python benchmarks/gpu_dry_run.py [--card h100] [--reference] [PYTEST ARGS ...]
                                     # e.g. -k "random or routed": ~16 s

What it replaces: the device's compute capability (90), card (``--card``; default the
H200's rules), shared memory per block (227 KB), cluster slots (an H100's) and SM count
(132) in ``cupyconv._gpu``; the tests' ``_launch_poisoned`` and ``_ref64`` return zeros
of the output's shape and dtype and their error measures 0 (this checks plans, not
numbers, and costs no reference computation; the tests that check numbers of their own,
such as NaN locality or a dynamic range, fail that way), or with ``--reference`` the
launch returns the float64 reference rounded to the call's dtype (every test's checks
pass where its plans do; ~2.5 min for the whole file); ``_skip_without_wgmma`` and
``_record`` do nothing.

How to read the result: *passed* means the test's planning held on every call it drew;
*failed* an assertion failed (or the reference path raised), which the device run would
hit too; *skipped* "needs the GPU" a test that touches CuPy or a kernel (most API and
stream tests), which this cannot run.
"""
import os
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
CARD = os.environ.get("CUPYCONV_DRY_RUN_CARD", "")
REFERENCE = os.environ.get("CUPYCONV_DRY_RUN_REFERENCE") == "1"
SM90_SMEM = 227 * 1024


def _zeros(x, w, b, dtype, **kw):
    """Zeros of the output's shape in ``dtype`` (a NumPy dtype)."""
    from cupyconv._args import check_conv_args
    p = check_conv_args(np.shape(x), np.shape(w), None if b is None else np.shape(b), **kw)
    return np.zeros(p.out_shape, dtype)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Undo conftest's "no CUDA device" skips."""
    from conftest import NO_GPU_REASON
    for it in items:
        it.own_markers = [m for m in it.own_markers
                          if not (m.name == "skip" and m.kwargs.get("reason") == NO_GPU_REASON)]


@pytest.fixture(autouse=True)
def _simulated_sm90(request, monkeypatch):
    simulate_sm90(monkeypatch, request.module)
    yield


def simulate_sm90(monkeypatch, mod, card: str = CARD, reference: bool = REFERENCE) -> None:
    """The sm_90 device of ``card``'s rules for the dispatcher, and (``mod`` is
    tests/test_gpu.py) its launch and error helpers replaced as the docstring above says."""
    from cupyconv import _gpu
    monkeypatch.setattr(_gpu, "device_arch", lambda device_id: 90)
    monkeypatch.setattr(_gpu, "device_card", lambda device_id: card)
    monkeypatch.setattr(_gpu, "device_smem_limit", lambda device_id: SM90_SMEM)
    monkeypatch.setattr(_gpu, "device_cluster_slots", lambda device_id: ())
    monkeypatch.setattr(_gpu, "_sm_count", lambda device_id: 132)
    if hasattr(mod, "_launch_poisoned"):       # (tests/test_gpu.py's helpers)
        monkeypatch.setattr(mod, "_skip_without_wgmma", lambda: None)
        monkeypatch.setattr(mod, "_record", lambda *a, **k: None)
        if reference:
            def launch(x, w, b, dtype, family=None, x_offset=0, **kw):
                return mod._ref64(x, w, b, **kw).astype(mod._np_dtype(dtype))
        else:
            def launch(x, w, b, dtype, family=None, x_offset=0, **kw):
                return _zeros(x, w, b, mod._np_dtype(dtype), **kw)
            monkeypatch.setattr(mod, "_ref64", lambda x, w, b, **kw: _zeros(x, w, b, np.float64, **kw))
            monkeypatch.setattr(mod, "_rel_err", lambda *args, **kw: 0.0)
            monkeypatch.setattr(mod, "_err64", lambda *args, **kw: 0.0)
        monkeypatch.setattr(mod, "_launch_poisoned", launch)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that reaches CuPy or a kernel (anything but an AssertionError or a
    pytest outcome) is reported as skipped: it needs the GPU."""
    outcome = yield
    rep = outcome.get_result()
    if call.excinfo is not None and rep.failed and not call.excinfo.errisinstance(AssertionError):
        rep.outcome = "skipped"
        rep.longrepr = (str(item.path), item.location[1] or 0,
                        f"needs the GPU: {call.excinfo.typename}: {str(call.excinfo.value)[:120]}")


def main(argv) -> int:
    # (the plugin module pytest imports reads these from the environment)
    while argv[:1] in (["--card"], ["--reference"]):
        if argv[0] == "--card":
            os.environ["CUPYCONV_DRY_RUN_CARD"], argv = argv[1], argv[2:]
        else:
            os.environ["CUPYCONV_DRY_RUN_REFERENCE"], argv = "1", argv[1:]
    sys.path[:0] = [str(ROOT / "tests"), str(Path(__file__).resolve().parent)]
    return pytest.main(["-q", "-p", "gpu_dry_run", "-p", "no:cacheprovider", "-m", "gpu",
                        "-rfs", str(ROOT / "tests" / "test_gpu.py"), *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
