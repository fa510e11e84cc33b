"""The benchmark's printed table (no GPU needed)."""
import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

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


def test_floors_classify_by_the_larger_bound():
    from cupyconv.bench import SEED, SWEEP, floors, min_bytes
    seed = floors(SEED, copy_gbs=4000.0, tensor_tflops=800.0)
    # 1.342 GB at 4 TB/s; 2 * 16*32*64*3*131072 flops x 3 products at 800 TFLOP/s
    assert abs(seed["mem_floor_ms"] - min_bytes(SEED) / 4e9) < 1e-12
    assert abs(seed["compute_floor_ms"] - 3 * 2 * 16 * 32 * 64 * 3 * 131072 / 8e11) < 1e-12
    assert seed["bound"] == "memory"
    wide = next(c for c in SWEEP if c.name == "up-512-512-s2")
    assert floors(wide, 4000.0, 800.0)["bound"] == "compute"
    # the same call in bf16 needs a third of the products: the compute floor drops 3x
    from dataclasses import replace
    bf = floors(replace(wide, dtype="bfloat16"), 4000.0, 800.0)
    assert abs(bf["compute_floor_ms"] * 3 - floors(wide, 4000.0, 800.0)["compute_floor_ms"]) < 1e-12


def _sweep_row(name, ms, copy_fraction, **kw):
    r = _row(name=name, family=kw.pop("family", "strided"), ms=ms, copy_fraction=copy_fraction,
             rel_err=1e-7, torch_fp32_err=1.5e-7, bound="memory", extra_fraction=0.0)
    r.update(kw)
    if r["dtype"] != "float32":         # as in the bench: 16-bit rows compare with torch's 16-bit
        for k in ("speedup_fp32", "speedup_tf32", "torch_fp32_ms", "torch_fp32_err"):
            r.pop(k)
    return r


def test_targets_meet_and_miss_at_the_bars():
    from cupyconv.bench import targets
    rows = [_sweep_row("seed", 0.399, 0.82, speedup_fp32=7.0),
            _sweep_row("seed-bf16", 0.201, 0.81, dtype="bfloat16"),
            _sweep_row("dw", 0.1, 0.79, speedup_fp32=3.0),
            _sweep_row("wide", 1.0, 0.05, speedup_fp32=0.9, bound="compute"),
            _sweep_row("tiny", 0.01, 0.01, family="small", speedup_fp32=3.0,
                       wall_ms=0.012, torch_wall_ms=0.010)]
    got = {t["key"]: t for t in targets(rows)}
    assert got["seed_ms"]["met"]                         # 0.399 <= 0.40
    assert not got["seed_copy_goal"]["met"]              # 82% < 90%
    assert not got["seed_bf16_ms"]["met"]                # 0.201 > 0.20
    assert not got["all_faster"]["met"] and "wide" in got["all_faster"]["value"]
    # memory-bound and not small: the seeds and dw (wide is compute-bound, tiny is small)
    mb = got["memory_bound"]
    assert not mb["met"] and mb["value"].startswith("2 of 3") and "dw 79.0%" in mb["value"]
    assert got["small_calls"]["met"]                     # 1.2x <= 1.5x
    gm = got["geomean"]
    assert gm["value"] == f"{(7.0 * 3.0 * 0.9 * 3.0) ** 0.25:.2f}x" and not gm["met"]   # < 4x
    assert got["extra_memory"]["met"]
    rows[0]["rel_err"] = 2e-6                            # too inaccurate: the bar fails
    assert not targets(rows)[0]["met"]


def test_report_of_the_committed_run_has_floors_and_targets(capsys):
    from cupyconv.bench import load_report, main
    rows = load_report(str(RESULTS))
    assert all(r["bound"] in ("memory", "compute") and r["floor_fraction"] > 0 for r in rows)
    assert main(["--report", str(RESULTS)]) == 0
    out = capsys.readouterr().out
    assert "issue 4's targets:" in out and "nan" not in out


def _h100_report(tmp_path):
    data = json.loads(RESULTS.read_text())
    data["meta"]["device"] = "NVIDIA H100 80GB HBM3"
    other = tmp_path / "h100.json"
    other.write_text(json.dumps(data))
    return other


def test_report_names_a_device_other_than_the_h200(tmp_path, capsys):
    """The issue's targets are the H200's: a report of another card's run says so."""
    from cupyconv.bench import main, report_device
    assert "H200" in report_device(str(RESULTS))
    assert main(["--report", str(_h100_report(tmp_path))]) == 0
    assert "issue 4's targets (set for the H200; this run: NVIDIA H100 80GB HBM3):" in capsys.readouterr().out


def test_report_redraws_the_chart_with_the_card_name(tmp_path):
    """``--report JSON --chart PNG`` draws that run's chart without a GPU (matplotlib only
    where installed: it is no dependency)."""
    import pytest
    pytest.importorskip("matplotlib")
    from cupyconv.bench import main
    chart = tmp_path / "chart.png"
    assert main(["--report", str(_h100_report(tmp_path)), "--chart", str(chart)]) == 0
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_select_configs_renames_by_dtype_and_rejects_unknown_names():
    import pytest
    from cupyconv.bench import QUICK, SWEEP, select_configs
    assert select_configs() == SWEEP
    assert [c.name for c in select_configs(quick=True)] == [c.name for c in SWEEP if c.name in QUICK]
    assert [c.name for c in select_configs(only=["seed-bf16", "seed"])] == ["seed", "seed-bf16"]
    with pytest.raises(ValueError, match="--only: not in the sweep: nope"):
        select_configs(only=["seed", "nope"])
    bf = select_configs(only=["hifigan-u1-b16", "seed-bf16"], dtype="bfloat16")
    # (in the sweep's order; a configuration already in that dtype keeps its name)
    assert [(c.name, c.dtype) for c in bf] == [("seed-bf16", "bfloat16"), ("hifigan-u1-b16@bf16", "bfloat16")]
    src = {c.name: c for c in SWEEP}["hifigan-u1-b16"]
    assert bf[1] == replace(src, name="hifigan-u1-b16@bf16", dtype="bfloat16")
    assert [c.dtype for c in select_configs(quick=True, dtype="float16")] == ["float16"] * len(QUICK)


def test_bench_cli_rejects_unknown_names_before_any_gpu_work(capsys):
    import pytest
    from cupyconv.bench import main
    with pytest.raises(SystemExit):
        main(["--only", "seed", "nope"])
    assert "not in the sweep: nope" in capsys.readouterr().err


def test_report_of_a_dtype_run_judges_no_targets(tmp_path, capsys):
    """A --dtype run's JSON says so (meta dtype); its report prints the table but judges
    none of issue 4's targets (they are the float32 sweep's), and its wide names line up."""
    from cupyconv.bench import NAME_W, main
    data = json.loads(RESULTS.read_text())
    data["meta"]["dtype"] = "bfloat16"
    data["results"][0]["name"] = "hifigan-u2-b4-long@bf16"
    path = tmp_path / "bf16.json"
    path.write_text(json.dumps(data))
    assert main(["--report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "issue 4's targets: not judged" in out and "met" not in out.split("not judged")[1]
    lines = out.splitlines()
    row = next(line for line in lines if line.startswith("hifigan-u2-b4-long@bf16 "))
    assert row.index(" float32") == lines[0].index(" dtype") == NAME_W
    assert main(["--report", str(RESULTS)]) == 0       # the committed sweep: judged
    out = capsys.readouterr().out
    assert "issue 4's targets:\n" in out and "not judged" not in out


def test_shape_scan_draws_legal_calls_and_selects_by_default_family(monkeypatch):
    """benchmarks/shape_scan.py: the seeded draw is reproducible and every call legal;
    --select's ct1d_mma-sync keeps ct1d_mma's mma.sync plans, not its warpgroup ones."""
    pytest.importorskip("torch")
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    shape_scan = __import__("shape_scan")
    from cupyconv._dispatch import plan
    a, b = shape_scan.draw_calls(40, 3), shape_scan.draw_calls(40, 3)
    assert [c for c, _ in a] == [c for c, _ in b] and len(a) == 40
    assert all(p.length_out >= 1 for _, p in a)
    plans = [plan(p, c.dtype, None, 90) for c, p in shape_scan.draw_calls(300, 0)]
    sync = [pl for pl in plans if shape_scan.selected(pl, {"ct1d_mma-sync"})]
    assert sync and all(pl.key.family == "ct1d_mma" and not pl.key.wg for pl in sync)
    assert any(pl.key.family == "ct1d_mma" and pl.key.wg for pl in plans)
    assert all(shape_scan.selected(pl, set()) for pl in plans)
    assert not any(shape_scan.selected(pl, {"ct1d_scatter"}) for pl in plans
                   if pl.key.family != "ct1d_scatter")
    sys.modules.pop("shape_scan", None)


def test_plan_diff_lists_the_calls_a_dispatch_change_moves(monkeypatch, tmp_path, capsys):
    """benchmarks/plan_diff.py: with GEMM_CK8 off as the "before", the second draw's
    r104 and r114 (ct1d_narrow -> ct1d_gemm's 8-channel rings) are listed and written for
    --names; a change that moves nothing lists nothing; the rule is restored afterwards."""
    pytest.importorskip("torch")
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    plan_diff = __import__("plan_diff")
    from cupyconv import _dispatch
    names = tmp_path / "names.txt"
    monkeypatch.setattr(sys, "argv", ["plan_diff.py", "--variant", "old=dispatch.GEMM_CK8:False",
                                      "--n", "120", "--seed", "1", "--names", str(names)])
    plan_diff.main()
    out = capsys.readouterr().out
    assert names.read_text().split(",") == ["r104-de-384-512-k16s1d1p1", "r114-de-768-512-k16s2d2p13"]
    assert "ct1d_narrow -> ct1d_gemm" in out and "2 of 120 calls change plan" in out
    assert _dispatch.GEMM_CK8 is True
    monkeypatch.setattr(sys, "argv", ["plan_diff.py", "--variant", "same=dispatch.GEMM_CK8:True",
                                      "--n", "40"])
    plan_diff.main()
    assert "0 of 40 calls change plan" in capsys.readouterr().out
    for mod in ("plan_diff", "shape_scan", "gpu_timing"):
        sys.modules.pop(mod, None)


def test_complex_rows_count_bytes_and_flops_of_complex_numbers():
    """--dtype complex64/complex128: a complex element is two real ones, a complex
    multiply-add four real ones; the kernel recorded is that of the real call cupyconv
    runs (twice the channels, the parts' real dtype)."""
    from cupyconv.bench import SEED, config_params, flops, floors, min_bytes, real_call, select_configs
    c64, c128 = replace(SEED, dtype="complex64"), replace(SEED, dtype="complex128")
    assert min_bytes(c64) == 2 * min_bytes(SEED) and min_bytes(c128) == 4 * min_bytes(SEED)
    assert flops(c64) == flops(c128) == 4 * flops(SEED)
    f32, fc = floors(SEED, 4000.0, 800.0), floors(c64, 4000.0, 800.0)
    assert abs(fc["compute_floor_ms"] - 4 * f32["compute_floor_ms"]) < 1e-12
    assert abs(fc["mem_floor_ms"] - 2 * f32["mem_floor_ms"]) < 1e-12
    p, dtype = real_call(c128)
    q = config_params(SEED)
    assert dtype == "float64" and (p.in_channels, p.out_channels) == (2 * q.in_channels, 2 * q.out_channels)
    assert (p.length_out, p.groups, p.kernel_size) == (q.length_out, q.groups, q.kernel_size)
    assert real_call(SEED) == (q, "float32")
    assert [c.name for c in select_configs(only=["seed", "dw-256-k4-s2"], dtype="complex128")] == [
        "seed@c128", "dw-256-k4-s2@c128"]


def test_table_lines_up_with_complex_rows():
    c = _row(name="seed@c128", dtype="complex128", speedup_same_dtype=2.0, torch_ms=1.0)
    del c["speedup_fp32"], c["speedup_tf32"], c["torch_fp32_ms"]
    lines = _table([_row(), c]).splitlines()
    assert len({len(line.rsplit("  ", 1)[0]) for line in (lines[0], lines[2], lines[3])}) == 1
    assert " complex128 " in lines[3] and "   2.00x        -" in lines[3]


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32"])
def test_bench_inputs_and_reference_on_the_cpu(dtype):
    """The bench's random inputs (complex: independent, non-zero imaginary parts) and its
    widened torch reference, checked on the CPU against cupyconv's CPU backend: the error
    measure the bench reports is small for a correct result and large for a wrong one."""
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    import cupyconv
    from cupyconv.bench import Config, _widened, random_inputs
    c = Config("t", "extra", 2, 6, 4, 3, 50, S=2, P=1, D=2, G=2, OP=1, bias=True, dtype=dtype)
    x, w, b = random_inputs(c, "cpu")
    assert [tuple(t.shape) for t in (x, w, b)] == [(2, 6, 50), (6, 2, 3), (4,)]
    assert all(t.dtype == getattr(torch, dtype) for t in (x, w, b))
    if dtype.startswith("complex"):
        assert all(bool((t.imag != 0).all()) and not torch.equal(t.real, t.imag) for t in (x, w, b))
        assert _widened(x).dtype == torch.complex128 and torch.equal(_widened(x).to(x.dtype), x)
    kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)
    y64 = F.conv_transpose1d(_widened(x), _widened(w), _widened(b), **kw)
    y = cupyconv.conv_transpose1d(x, w, b, backend="cpu", **kw)

    def err(y):
        return float(torch.linalg.vector_norm((_widened(y) - y64).flatten()) / torch.linalg.vector_norm(y64.flatten()))
    assert err(y) < 1e-6
    assert err(y.conj() if dtype.startswith("complex") else -y) > 0.1
