"""How often a test's assertions about its random draws fail: one test function called
with many seeds, on the CPU, with gpu_dry_run.py's simulated sm_90 device (plans only).

A GPU test that asserts how its random calls are routed (">= 3 of 16 draws take
ct1d_narrow") fails on the seeds whose draws fall short, whatever the code does; CI runs
such tests in the dry run with a fresh seed each time. Stop 80's CI failed that way (11
of 1000 seeds for test_small_wide_reductions_random). Measure the odds before relying on
a count:

    python benchmarks/draw_odds.py test_small_wide_reductions_random --seeds 1000
    python benchmarks/draw_odds.py test_small_calls_random --args '["bfloat16"]' --card h100

The test's ``rng`` is ``numpy.random.default_rng([seed, 7])`` for seed 0, 1, ...; a
``monkeypatch`` argument gets a fresh one per seed; ``--args`` (JSON list) fills the other
parameters in order. Prints the failures (seed and message) and their count; exit status 0.
Skips, and failures other than AssertionError (the test needs the GPU), are counted apart.
"""
from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def _load(path: Path):
    sys.path[:0] = [str(path.parent), str(ROOT / "benchmarks"), str(ROOT)]
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def odds(fn, mod, seeds: int, args=(), card: str = "") -> dict:
    """Call test function ``fn`` of module ``mod`` once per seed; the seeds whose
    assertions failed (``failed``: (seed, message)), those that skipped (``skipped``) and
    those that raised anything else (``errors``)."""
    import pytest
    from _pytest.monkeypatch import MonkeyPatch

    from gpu_dry_run import simulate_sm90
    params = list(inspect.signature(fn).parameters)
    failed, errors, skipped = [], [], []
    device = MonkeyPatch()
    simulate_sm90(device, mod, card=card, reference=False)
    try:
        for seed in range(seeds):
            mp = MonkeyPatch()
            given = iter(args)
            values = [np.random.default_rng([seed, 7]) if p == "rng" else
                      mp if p == "monkeypatch" else next(given) for p in params]
            try:
                fn(*values)
            except AssertionError as exc:
                failed.append((seed, str(exc).splitlines()[0][:160] if str(exc) else ""))
            except pytest.skip.Exception as exc:        # (a test skipping its own draw)
                skipped.append((seed, str(exc)[:120]))
            except Exception as exc:
                errors.append((seed, f"{type(exc).__name__}: {str(exc)[:120]}"))
            finally:
                mp.undo()
    finally:
        device.undo()
    return dict(seeds=seeds, failed=failed, errors=errors, skipped=skipped)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("test", help="a test function's name")
    ap.add_argument("--module", default=str(ROOT / "tests" / "test_gpu.py"))
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--args", default="[]", help="the test's other parameters, a JSON list")
    ap.add_argument("--card", default="", help="the sm_90 card whose rules apply (\"\": H200)")
    a = ap.parse_args(argv)
    mod = _load(Path(a.module))
    r = odds(getattr(mod, a.test), mod, a.seeds, json.loads(a.args), a.card)
    for seed, msg in r["failed"][:20]:
        print(f"seed {seed}: AssertionError {msg}")
    for seed, msg in r["errors"][:5]:
        print(f"seed {seed}: {msg}")
    print(f"{a.test}{json.loads(a.args) or ''} card={a.card or 'h200'}: {len(r['failed'])} of "
          f"{a.seeds} seeds failed an assertion ({len(r['failed']) / a.seeds:.2%})"
          + (f", {len(r['skipped'])} skipped" if r["skipped"] else "")
          + (f", {len(r['errors'])} raised something else" if r["errors"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
