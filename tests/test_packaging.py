"""The built distribution ships the CUDA sources and an installed copy finds them.

A copy of the source tree is built into a wheel (and an sdist) without build isolation,
so no network is needed; the wheel is installed into a temporary --target directory and
a separate Python process, run elsewhere with only that directory added to its path,
imports the installed package: kernel_dir() must point inside it, the sources must read,
and, where NVRTC loads, one instance must compile from the installed copy. The build
runs on a copy so that it never writes build/ or *.egg-info into the checkout, and a
stale build/lib there can never leak into what is tested.

Needs pip, setuptools >= 64 and a bdist_wheel (the ``wheel`` package, or setuptools
>= 70.1): the ``test`` extra installs them. Without them the tests skip, except under
CI (CI=true), where they fail.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
# What a build reads: metadata, the package and the kernel sources; and what the sdist
# adds for running the tests and examples (MANIFEST.in).
SDIST_EXTRAS = ("tests", "examples", "benchmarks/results/h200/bench.json")
BUILD_INPUTS = ("pyproject.toml", "setup.cfg", "MANIFEST.in", "README.md", "cupyconv",
                "kernels") + SDIST_EXTRAS
KERNEL_FILES = ("ct1d_scatter.cu", "ct1d_mma.cu", "ct1d_gemm.cu", "ct1d_depthwise.cu",
                "ct1d_stream.cu", "ct1d_wgmma.cu", "ct1d_pipe.cu",
                "ct1d_types.cuh", "ct1d_tensor.cuh", "ct1d_warpgroup.cuh", "ct1d_wgmma_rs.cuh",
                "ct1d_wgmma_ss.cuh")


def _build_tools_missing() -> str | None:
    # versions from metadata: importing setuptools here would patch distutils in-process
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return "setuptools is not installed"
    major_minor = tuple(int(v) for v in re.findall(r"\d+", version)[:2])
    if major_minor < (64,):
        return f"setuptools {version} < 64"
    has_bdist_wheel = major_minor >= (70, 1)   # setuptools ships bdist_wheel from 70.1
    if importlib.util.find_spec("wheel") is None and not has_bdist_wheel:
        return "no bdist_wheel (install wheel, or setuptools >= 70.1)"
    if importlib.util.find_spec("pip") is None:
        return "pip is not installed"
    return None


def _run(cmd, **kw):
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=180, **kw)
    assert res.returncode == 0, (f"{' '.join(map(str, cmd))} exited {res.returncode}\n"
                                 f"--- stdout\n{res.stdout}\n--- stderr\n{res.stderr}")
    return res


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(wheel path, sdist path, install target) for a fresh build of the source tree."""
    missing = _build_tools_missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"cannot build a wheel under CI: {missing}")
        pytest.skip(f"cannot build a wheel here: {missing}")
    base = tmp_path_factory.mktemp("packaging")
    src = base / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info")
    for name in BUILD_INPUTS:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=ignore)
        elif p.exists():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(p, src / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PIP_NO_INPUT"] = "1"

    dist = base / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
          "--no-index", "-q", "-w", str(dist), str(src)], env=env, cwd=base)
    wheels = list(dist.glob("cupyconv-*.whl"))
    assert len(wheels) == 1, f"expected one cupyconv wheel in {dist}, got {wheels}"

    # The sdist through the build backend itself (what `python -m build` calls).
    _run([sys.executable, "-c",
          "import sys, setuptools.build_meta as b; print(b.build_sdist(sys.argv[1]))",
          str(dist)], env=env, cwd=src)
    sdists = list(dist.glob("cupyconv-*.tar.gz"))
    assert len(sdists) == 1, f"expected one cupyconv sdist in {dist}, got {sdists}"

    target = base / "site"
    _run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
          "--target", str(target), str(wheels[0])], env=env, cwd=base)
    return wheels[0], sdists[0], target


def test_wheel_contains_kernel_sources(built):
    wheel, _, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in KERNEL_FILES:
        assert f"cupyconv/kernels/{f}" in names, sorted(names)
    # every source in the tree is shipped, under the package
    for p in (ROOT / "kernels").iterdir():
        if p.suffix in (".cu", ".cuh"):
            assert f"cupyconv/kernels/{p.name}" in names
    assert "cupyconv/precompile.py" in names
    assert not any(n.startswith("kernels/") for n in names), "kernels/ must not be top-level"
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(meta).decode()
    assert "Requires-Dist: numpy>=1.24" in text
    assert "Provides-Extra: cuda12" in text and "Provides-Extra: cuda13" in text


def test_sdist_contains_kernel_sources(built):
    _, sdist, _ = built
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for f in KERNEL_FILES:
        assert f"kernels/{f}" in names, sorted(names)
    assert {"setup.cfg", "pyproject.toml", "README.md"} <= names
    # what the tests and examples need (test_bench.py reads the committed sweep)
    assert {"tests/conftest.py", "tests/test_bench.py", "examples/basic.py",
            "benchmarks/results/h200/bench.json"} <= names, sorted(names)


_CHECK = textwrap.dedent("""
    import importlib.resources, json, sys
    from pathlib import Path
    target = Path(sys.argv[1]).resolve()
    import cupyconv
    from cupyconv import _modules
    out = {"file": str(Path(cupyconv.__file__).resolve()),
           "kernel_dir": str(_modules.kernel_dir().resolve()),
           "resource": importlib.resources.files("cupyconv").joinpath(
               "kernels/ct1d_scatter.cu").is_file(),
           "source_len": len(_modules.kernel_source("ct1d_scatter")),
           "header_inlined": "struct bf16_t" in _modules.kernel_source("ct1d_scatter")}
    try:
        from cupy_backends.cuda.libs import nvrtc
        nvrtc.getVersion()
    except Exception as exc:  # no CuPy, or no NVRTC library
        out["nvrtc"] = f"unavailable: {type(exc).__name__}: {exc}"
    else:
        from cupyconv._args import check_conv_args
        from cupyconv._dispatch import plan
        key = plan(check_conv_args((2, 32, 4096), (32, 64, 3), None, stride=2,
                                   padding=1, dilation=2), "float32").key
        out["nvrtc"] = "ok"
        out["expr"] = key.name_expression()
        out["cubin"] = len(_modules.compile_instance(key, "sm_90"))
    print(json.dumps(out))
""")


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory):
    _, _, target = built
    elsewhere = tmp_path_factory.mktemp("elsewhere")   # cwd: the checkout is not importable
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    res = _run([sys.executable, "-c", _CHECK, str(target)], env=env, cwd=elsewhere)
    return json.loads(res.stdout.strip().splitlines()[-1]), target, env, elsewhere


def test_installed_package_finds_its_kernels(installed):
    out, target, _, _ = installed
    pkg = (target / "cupyconv").resolve()
    assert Path(out["file"]).parent == pkg, out          # imported the installed copy
    assert Path(out["kernel_dir"]) == pkg / "kernels", out
    assert out["resource"], out
    assert out["source_len"] > 1000 and out["header_inlined"], out


def test_installed_package_compiles_an_instance(installed):
    out = installed[0]
    if out["nvrtc"] != "ok":
        pytest.skip(f"NVRTC {out['nvrtc']}")
    assert out["expr"].startswith(("ct1d_mma<float, 2, 2, 3,", "ct1d_scatter<float, 2, 2, 3,")), out
    assert out["cubin"] > 1000, out


def test_installed_precompile_cli(installed):
    _, _, env, elsewhere = installed
    cli = [sys.executable, "-m", "cupyconv.precompile"]
    res = _run(cli + ["--list", "--call", "2,32,64,3,4096,2,1,2", "--dtype", "float32",
                      "--dtype", "bfloat16"], env=env, cwd=elsewhere)
    assert "<float, 2, 2, 3," in res.stdout
    assert "<bf16_t, 2, 2, 3," in res.stdout
    bad = subprocess.run(cli + ["--call", "1,2,3"], capture_output=True, text=True,
                         env=env, cwd=elsewhere, timeout=60)
    assert bad.returncode == 2 and "5 to 9 integers" in bad.stderr
    if installed[0]["nvrtc"] == "ok":
        res = _run(cli + ["--call", "2,8,8,4,256,2", "--dtype", "float64"],
                   env=env, cwd=elsewhere)
        # the call's instance and, for sm_90, kernels/ct1d_probe.cu's
        assert "2 of 2 compiled" in res.stdout and "ok  ct1d_cluster_probe  sm_90" in res.stdout, res.stdout
