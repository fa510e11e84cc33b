"""The suite's own machinery. Its options (tests/conftest.py): ``--shard K/N`` splits the
collected tests into N disjoint parts that together are the whole suite, so that the GPU
suite can run in several device commands of limited length. The GPU tests' error
measures (tests/test_gpu.py ``_rel_err``, ``_err64``), checked here without a GPU, and
their planning on a simulated sm_90 device (benchmarks/gpu_dry_run.py)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _collected(*args):
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p",
                          "no:cacheprovider", "tests/test_args.py", "tests/test_dispatch.py", *args],
                         cwd=ROOT, capture_output=True, text=True)
    return out.returncode, {line for line in out.stdout.splitlines() if "::" in line}, out.stdout + out.stderr


@pytest.mark.slow
def test_shards_partition_the_suite():
    rc, everything, log = _collected()
    assert rc == 0 and len(everything) > 100, log
    parts = []
    for k in (1, 2, 3):
        rc, part, log = _collected("--shard", f"{k}/3")
        assert rc == 0 and part, log
        parts.append(part)
    assert set().union(*parts) == everything
    assert sum(map(len, parts)) == len(everything)                   # disjoint
    assert min(map(len, parts)) > len(everything) // 5               # and not lopsided


@pytest.mark.parametrize("bad", ["0/2", "3/2", "a/2", "2"])
def test_shard_rejects_bad_values(bad):
    rc, _, log = _collected("--shard", bad)
    assert rc != 0 and "--shard" in log, log


def _gpu_tests_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("_gpu_tests", ROOT / "tests" / "test_gpu.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_gpu_error_measure_catches_one_wrong_element():
    """The GPU tests' `_rel_err`: one element off by its own value in a million bfloat16-sized
    outputs passes the normwise bar (1e-2) but not the element check; correctly rounded
    bfloat16 outputs pass both; poisoned (NaN) elements fail."""
    import numpy as np
    ml_dtypes = pytest.importorskip("ml_dtypes")
    mod = _gpu_tests_module()
    rng = np.random.default_rng()
    ref = rng.standard_normal((4, 8, 32768))
    rounded = ref.astype(ml_dtypes.bfloat16).astype(np.float64)
    assert mod._rel_err(rounded, ref) <= mod.TOL["bfloat16"]
    wrong = rounded.copy()
    i = tuple(int(rng.integers(n)) for n in ref.shape)
    wrong[i] = 2 * ref[i] + np.sign(ref[i])             # off by at least the value and by 1
    assert np.linalg.norm(wrong - ref) / np.linalg.norm(ref) <= mod.TOL["bfloat16"]
    with pytest.raises(AssertionError, match="element"):
        mod._rel_err(wrong, ref)
    poisoned = rounded.copy()
    poisoned[i] = np.nan
    with pytest.raises(AssertionError, match="unwritten"):
        mod._rel_err(poisoned, ref)
    # with a scale (the terms' magnitudes), the element bound is relative to it
    assert mod._rel_err(wrong, ref, scale=np.full_like(ref, 1e3)) < 1e-2


def test_gpu_error_measure_few_outputs_against_terms():
    """The GPU tests' `_err64`: in a one-output call whose bias cancels its 44 products
    1e4-fold, a result off by half a float32 ulp of its terms (what any order of summation
    may make) passes, where the error against the result alone fails it; the largest
    term left out fails. From FEW_OUTPUTS outputs on, errors are relative to the result:
    64 outputs all 2e-6 off fail."""
    import numpy as np
    mod = _gpu_tests_module()
    rng = np.random.default_rng()
    x, w = rng.standard_normal((1, 44, 1)), rng.standard_normal((44, 1, 1))
    prods = x[0, :, 0] * w[:, 0, 0]
    terms = np.abs(prods).sum()
    b = np.array([-prods.sum() + 1e-4 * terms])
    ref = mod._ref64(x, w, b)
    y = ref + 0.5 * 2.0 ** -24 * terms
    assert mod._err64(y, x, w, b) <= mod.TOL["float32"] < mod._rel_err(y, ref)
    with pytest.raises(AssertionError, match="element"):
        mod._err64(ref - prods[np.argmax(np.abs(prods))], x, w, b)
    x, w = rng.standard_normal((1, 32, mod.FEW_OUTPUTS)), rng.standard_normal((32, 1, 1))
    y = mod._ref64(x, w, None) * (1 + 2e-6)
    assert mod._err64(y, x, w, None) > mod.TOL["float32"]


@pytest.mark.parametrize("card", ["h100", ""], ids=["h100", "h200"])
def test_gpu_tests_plan_on_a_simulated_sm90(card):
    """benchmarks/gpu_dry_run.py: the GPU tests that draw random calls, and the routed
    calls, run on the CPU against an sm_90 device with this card's dispatch rules (the
    kernels' outputs and the error measures replaced: plans only): none of their
    assertions on families, keys and routes fails. (A dispatch rule of session 73 broke
    one such assertion before the device run would have shown it.)"""
    pytest.importorskip("ml_dtypes")
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu_dry_run.py"), "--card", card,
                          "-k", "random or routed"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    passed = re.search(r"(\d+) passed", out.stdout)
    assert passed and int(passed.group(1)) >= 30, out.stdout[-2000:]


def test_draw_odds_counts_the_seeds_whose_draws_fall_short(tmp_path):
    """benchmarks/draw_odds.py: a test asserting a coin came up heads fails on about half
    the seeds, and the count says so; the redrawn test_small_wide_reductions_random, whose
    16 fixed draws fell short on 2% of seeds (stop 80's CI), fails on none of 25."""
    mod = tmp_path / "test_coin.py"
    mod.write_text("def test_coin(rng, side):\n    assert rng.random() < side, 'tails'\n")
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "draw_odds.py"), "test_coin",
                          "--module", str(mod), "--seeds", "400", "--args", "[0.5]"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    n = int(re.search(r"test_coin\[0\.5\] card=h200: (\d+) of 400 seeds failed", out.stdout).group(1))
    assert 140 <= n <= 260 and "AssertionError tails" in out.stdout
    pytest.importorskip("ml_dtypes")
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "draw_odds.py"),
                          "test_small_wide_reductions_random", "--seeds", "25", "--card", "h100"],
                         cwd=ROOT, capture_output=True, text=True)
    assert ": 0 of 25 seeds failed an assertion" in out.stdout, out.stdout[-2000:] + out.stderr[-2000:]
