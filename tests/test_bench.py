"""The benchmark's printed table (no GPU needed)."""
import json
from pathlib import Path

from cupyconv.bench import _table

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "h200" / "bench.json"


def _row(**kw):
    r = dict(name="c", dtype="float32", ms=0.5, gbs=1000.0, copy_fraction=0.25, tflops=1.0,
             rel_err=1e-7, kernel="ct1d_mma<float, 2>", speedup_fp32=2.0, speedup_tf32=1.5,
             torch_fp32_ms=1.0)
    r.update(kw)
    return r


def test_table_columns_line_up_and_16bit_rows_have_no_tf32_speedup():
    bf16 = _row(name="b", dtype="bfloat16", speedup_same_dtype=3.0, torch_ms=1.5)
    del bf16["speedup_fp32"], bf16["speedup_tf32"], bf16["torch_fp32_ms"]
    lines = _table([_row(), bf16]).splitlines()
    assert "nan" not in "\n".join(lines)
    # every column ends where the header's does (up to the kernel names)
    assert len({len(line.rsplit("  ", 1)[0]) for line in (lines[0], lines[2], lines[3])}) == 1
    assert "   2.00x    1.50x" in lines[2] and "   3.00x        -" in lines[3]
    assert lines[2].endswith("ct1d_mma")


def test_table_of_the_committed_run():
    rows = json.loads(RESULTS.read_text())["results"]
    table = _table(rows)
    assert len(table.splitlines()) == len(rows) + 2 and "nan" not in table
