"""The suite's own options (tests/conftest.py): ``--shard K/N`` splits the collected tests
into N disjoint parts that together are the whole suite, so that the GPU suite can run in
several device commands of limited length."""
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
