"""Shared test configuration for cupyconv.

* ``@pytest.mark.gpu``: the test needs a usable CUDA device; it is skipped (with a
  visible reason) when CuPy is missing or ``cupy.is_available()`` is False.
* ``torch`` fixture: the torch module, or a skip when torch is not installed.
  ``@pytest.mark.torch`` skips a whole test/module the same way.
* ``--shard K/N``: run only the K-th of N fixed, disjoint parts of the collected tests
  (by a hash of each node id), so that a suite longer than one device command can run
  in N commands: ``pytest -m gpu --shard 1/2``, then ``--shard 2/2``.
* Randomness: one seed per session, printed in the report header. Set
  ``CUPYCONV_TEST_SEED=<seed>`` to rerun with the same data. The ``rng`` fixture is a
  ``numpy.random.Generator`` seeded from (session seed, test node id), so a test draws
  the same data whether it runs alone or in the full suite. ``test_seed`` gives the
  session seed itself, for tests that derive their own generators.
* ``CUPYCONV_TEST_CARD=<card>``: plan every launch with that card's dispatch rules
  (``cupyconv._dispatch.CARD_RULES``; empty: the H200's, the module constants) instead of
  the device's own, so that one card's instances run their GPU tests on another of the
  same compute capability (an H100 runs the H200's routes with ``CUPYCONV_TEST_CARD=``).
"""
from __future__ import annotations

import os
import secrets
import zlib

import numpy as np
import pytest

SEED_ENV = "CUPYCONV_TEST_SEED"
CARD_ENV = "CUPYCONV_TEST_CARD"
NO_GPU_REASON = "no CUDA device (cupy.is_available() is False)"


def _session_seed() -> int:
    env = os.environ.get(SEED_ENV, "").strip()
    if env:
        return int(env)
    return secrets.randbits(32)


SESSION_SEED = _session_seed()
# pytest-xdist's workers start after this (controller) process has imported conftest and
# inherit its environment: they draw from the same seed, so the one printed reproduces
os.environ[SEED_ENV] = str(SESSION_SEED)


def gpu_available() -> bool:
    try:
        import cupy
        return bool(cupy.is_available())
    except Exception:      # ImportError, or a broken CUDA install
        return False


def torch_module():
    try:
        import torch
    except ImportError:
        return None
    return torch


def pytest_addoption(parser):
    parser.addoption("--shard", default=None, metavar="K/N",
                     help="run only part K of N disjoint parts of the collected tests")


def _shard(value: str):
    """(k, n) from ``--shard K/N``, 1 <= K <= N."""
    try:
        k, n = (int(v) for v in value.split("/"))
    except ValueError:
        raise pytest.UsageError(f"--shard takes K/N with integers, got {value!r}") from None
    if not 1 <= k <= n:
        raise pytest.UsageError(f"--shard K/N needs 1 <= K <= N, got {value!r}")
    return k, n


def shard_of(nodeid: str, n: int) -> int:
    """The part (1..n) a test belongs to: stable across runs, machines and xdist workers."""
    return zlib.crc32(nodeid.encode()) % n + 1


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a usable CUDA device (skipped otherwise)")
    config.addinivalue_line("markers", "torch: needs torch installed (skipped otherwise)")
    card = os.environ.get(CARD_ENV)
    if card is not None:          # (xdist workers inherit the environment: theirs too)
        from cupyconv import _dispatch, _gpu
        if card and card not in _dispatch.CARD_RULES:
            raise pytest.UsageError(f"{CARD_ENV}={card!r}: not a card of "
                                    f"cupyconv._dispatch.CARD_RULES {sorted(_dispatch.CARD_RULES)}")
        _gpu.device_card = lambda device_id: card


def pytest_report_header(config):
    card = os.environ.get(CARD_ENV)
    return (f"cupyconv test seed: {SESSION_SEED} "
            f"(rerun with {SEED_ENV}={SESSION_SEED} to reproduce)"
            + ("" if card is None else f"; dispatch rules of card {card!r} ({CARD_ENV})"))


def pytest_collection_modifyitems(config, items):
    if config.getoption("--shard"):
        k, n = _shard(config.getoption("--shard"))
        mine = [shard_of(it.nodeid, n) == k for it in items]
        config.hook.pytest_deselected(items=[it for it, m in zip(items, mine) if not m])
        items[:] = [it for it, m in zip(items, mine) if m]
    gpu_items = [it for it in items if it.get_closest_marker("gpu") is not None]
    if gpu_items and not gpu_available():
        skip = pytest.mark.skip(reason=NO_GPU_REASON)
        for it in gpu_items:
            it.add_marker(skip)
    torch_items = [it for it in items if it.get_closest_marker("torch") is not None]
    if torch_items and torch_module() is None:
        skip = pytest.mark.skip(reason="torch is not installed")
        for it in torch_items:
            it.add_marker(skip)


@pytest.fixture(scope="session")
def test_seed() -> int:
    return SESSION_SEED


@pytest.fixture
def rng(request) -> np.random.Generator:
    """A Generator seeded from the session seed and this test's node id."""
    node = zlib.crc32(request.node.nodeid.encode())
    return np.random.default_rng([SESSION_SEED, node])


@pytest.fixture(scope="session")
def torch():
    """The torch module; skips the test when torch is not installed."""
    mod = torch_module()
    if mod is None:
        pytest.skip("torch is not installed")
    return mod
