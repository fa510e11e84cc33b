"""Every kernel instance that representative calls select compiles with NVRTC (sm_90).

No GPU is needed: cupyconv._modules.compile_instance drives NVRTC directly with the
same source and options as the runtime path. The tests skip (with the reason shown)
only when the NVRTC library itself cannot be loaded.
"""
from __future__ import annotations

import inspect
import re

import pytest

from cupyconv._args import check_conv_args
from cupyconv._dispatch import plan
from cupyconv._modules import compile_instance

ARCH = "sm_90"

# (id, x shape, weight shape, stride, padding, dilation, groups, dtype)
# weight is (C_in, C_out // groups, K), as in torch.
COMPILE_CASES = [
    ("seed-fp32", (16, 32, 131072), (32, 64, 3), 2, 1, 2, 1, "float32"),
    ("seed-fp64", (16, 32, 131072), (32, 64, 3), 2, 1, 2, 1, "float64"),
    ("seed-fp16", (16, 32, 131072), (32, 64, 3), 2, 1, 2, 1, "float16"),
    ("seed-bf16", (16, 32, 131072), (32, 64, 3), 2, 1, 2, 1, "bfloat16"),
    ("depthwise", (8, 64, 16384), (64, 1, 5), 2, 2, 1, 64, "float32"),
    ("depthwise-bf16", (8, 64, 16384), (64, 1, 5), 2, 2, 1, 64, "bfloat16"),
    ("grouped", (8, 64, 8192), (64, 8, 4), 2, 1, 1, 4, "float32"),
    ("grouped-fp16", (8, 64, 8192), (64, 8, 4), 2, 1, 1, 4, "float16"),
    ("k1", (8, 64, 8192), (64, 32, 1), 1, 0, 1, 1, "float32"),
    ("k16-s8", (8, 512, 4096), (512, 256, 16), 8, 4, 1, 1, "float32"),
    ("k16-s8-fp64", (8, 512, 4096), (512, 256, 16), 8, 4, 1, 1, "float64"),
    ("k40-runtime", (4, 16, 8192), (16, 16, 40), 4, 0, 1, 1, "float32"),
    ("k40-runtime-bf16", (4, 16, 8192), (16, 16, 40), 4, 0, 1, 1, "bfloat16"),
    ("s1-d4-k16", (4, 32, 8192), (32, 32, 16), 1, 0, 4, 1, "float32"),
    ("c512-to-256", (8, 512, 4096), (512, 256, 4), 2, 1, 1, 1, "float32"),
    ("c512-to-256-fp16", (8, 512, 4096), (512, 256, 4), 2, 1, 1, 1, "float16"),
    # a wide bfloat16 layer that sm_90 plans leave to ct1d_gemm (few taps per output class)
    ("c1024-to-256-s5d3-bf16", (8, 1024, 2607), (1024, 256, 3), 5, 2, 3, 1, "bfloat16"),
    ("unbatched-c1", (1, 4096), (1, 1, 3), 2, 0, 1, 1, "float64"),
    ("narrow-groups-fp64", (4, 32, 4096), (32, 2, 7), 3, 1, 2, 16, "float64"),
    ("depthwise-s8-fp16", (4, 64, 4096), (64, 1, 16), 8, 4, 1, 64, "float16"),
    ("stream-hifigan-u4", (16, 64, 8192), (64, 32, 4), 2, 1, 1, 1, "float32"),
    ("stream-s1-d4", (8, 32, 8192), (32, 32, 3), 1, 4, 4, 1, "float32"),
    ("narrow-out8", (16, 512, 16384), (512, 8, 4), 2, 1, 1, 1, "float32"),
    ("narrow-out1-split", (2, 192, 2000), (192, 1, 16), 8, 12, 2, 1, "float32"),
    # 4096-addition chains even at 8 groups: blocked sums (session 74)
    ("narrow-blk", (3, 2048, 1027), (2048, 8, 32), 1, 48, 3, 2, "float32"),
    # reach (K-1)*D/S beyond a tile's staging: ct1d_scatter's TAP_COLS instances
    ("tap-cols-fp64", (2, 8, 4000), (8, 16, 3), 1, 3, 512, 1, "float64"),
    ("tap-cols-k40-bf16", (1, 4, 10000), (4, 4, 40), 1, 0, 100, 1, "bfloat16"),
]


def _nvrtc_unavailable_reason():
    try:
        from cupy_backends.cuda.libs import nvrtc
    except ImportError as exc:
        return f"cupy_backends (NVRTC bindings) cannot be imported: {exc}"
    try:
        nvrtc.getVersion()
    except RuntimeError as exc:      # e.g. "CuPy failed to load libnvrtc.so.12: ..."
        return f"the NVRTC library cannot be loaded: {exc}"
    return None


@pytest.fixture(scope="module")
def nvrtc_ok():
    reason = _nvrtc_unavailable_reason()
    if reason:
        pytest.skip(reason)


HAS_FAMILIES = "family" in inspect.signature(plan).parameters


def _keys(case):
    """The instance plan() picks for a case, and its ct1d_scatter instance (the family
    that serves every call) when plan() can pick another family."""
    _, xs, ws, s, p, d, g, dtype = case
    prm = check_conv_args(xs, ws, None, s, p, 0, g, d)
    keys = [plan(prm, dtype).key]
    if HAS_FAMILIES:
        keys.append(plan(prm, dtype, family="ct1d_scatter").key)
    return keys


def _instances():
    """Unique kernel keys over COMPILE_CASES, with the cases that use each."""
    out = {}
    for case in COMPILE_CASES:
        for key in _keys(case):
            names = out.setdefault(key, [])
            if case[0] not in names:
                names.append(case[0])
    return out


INSTANCES = _instances()


def _instance_id(key):
    return f"{key.family}:{'+'.join(INSTANCES[key])}"


def test_cases_plan_distinct_instance_families():
    keys = list(INSTANCES)
    scatter = [k for k in keys if k.family == "ct1d_scatter"]
    assert len(scatter) >= 10
    assert {k.dtype for k in scatter} == {"float32", "float64", "float16", "bfloat16"}
    assert any(k.kernel_size == 0 for k in scatter)     # the runtime-parameter instance
    assert any(k.co_threads == 1 and k.rc == 1 for k in scatter)    # depthwise
    assert {k.dtype for k in scatter if k.tap_cols} >= {"float64", "bfloat16"}
    assert any(not k.tap_cols for k in scatter)


@pytest.mark.slow
@pytest.mark.parametrize("key", list(INSTANCES), ids=_instance_id)
def test_instance_compiles(nvrtc_ok, key):
    cubin = compile_instance(key, arch=ARCH)          # RuntimeError with the log on failure
    assert isinstance(cubin, bytes) and len(cubin) > 1000
    assert cubin[:4] == b"\x7fELF"                      # a cubin is an ELF image


def test_compile_error_reports_log(nvrtc_ok, monkeypatch):
    """A broken source raises RuntimeError carrying the instance name and compiler log."""
    import cupyconv._modules as modules

    key = _keys(COMPILE_CASES[0])[0]
    original = modules.kernel_source
    monkeypatch.setattr(modules, "kernel_source",
                        lambda family: original(family) + "\nthis is not C++;\n")
    with pytest.raises(RuntimeError, match=rf"NVRTC failed on {key.family}<float, 2, 2, 3,"):
        compile_instance(key, arch=ARCH)


MMA_INSTANCES = [k for k in INSTANCES if k.family == "ct1d_mma"]


@pytest.mark.parametrize("arch,bulk", [("compute_80", False), ("compute_90", True)])
def test_mma_copy_out_path_per_arch(nvrtc_ok, arch, bulk):
    """sm_90 stores output tiles with the bulk-copy engine, older GPUs with 16-byte stores;
    the tensor-core instruction is there either way: for the float32 seed the scaled
    3xFP16 split's float16 MMA (all weights staged, whole k16 steps), TF32 for bfloat16."""
    key = _keys(COMPILE_CASES[0])[0]
    assert key.family == "ct1d_mma" and key.f16x3
    ptx = compile_instance(key, arch=arch).decode()
    assert ("cp.async.bulk.global.shared::cta" in ptx) == bulk
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    assert "tf32" not in ptx
    bf16 = _keys(COMPILE_CASES[3])[0]
    assert bf16.family == "ct1d_mma" and not bf16.f16x3
    assert "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in compile_instance(bf16, arch=arch).decode()


@pytest.mark.parametrize("arch,native", [("compute_75", False), ("compute_80", True),
                                         ("compute_90", True)])
def test_bf16_output_conversion_per_arch(nvrtc_ok, arch, native):
    """bfloat16 outputs: the hardware conversion from sm_80 on, integer rounding before."""
    key = plan(check_conv_args((2, 8, 64), (8, 8, 3), None, stride=2), "bfloat16",
               "ct1d_scatter").key
    ptx = compile_instance(key, arch=arch).decode()
    assert ("cvt.rn.bf16.f32" in ptx) == native


def test_wgmma_instance_compiles_for_sm90a(nvrtc_ok):
    """ct1d_wgmma compiles with its -arch=sm_90a option next to the runtime's -arch=sm_90
    (CuPy appends its own), to a cubin with the warpgroup MMA; its PTX targets sm_90a."""
    from cupyconv._dispatch import WgmmaKey
    key = WgmmaKey(8, 1, 16, 2, 1, 128)
    cubin = compile_instance(key, arch="sm_90")
    assert cubin[:4] == b"\x7fELF" and len(cubin) > 1000
    ptx = compile_instance(key, arch="compute_90a").decode()
    assert ".target sm_90a" in ptx
    # 3 products x 2 k8 steps x 2 column offsets per chunk, the chunk loop unrolled twice
    # (two sets of A fragment registers)
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32") == 2 * 3 * 2 * 2
    assert "cp.async.cg.shared.global" in ptx and "fence.proxy.async.shared::cta" in ptx


def test_wgmma_f16x3_instance_compiles_for_sm90a(nvrtc_ok):
    """ct1d_wgmma's float32 instances of >= 4 column offsets (K = 7, S = 2: 4) take the
    scaled 3xFP16 split: three m64n128k16 float16 products per offset and chunk (the chunk
    loop unrolled twice) and no TF32, the chunk maxima by shared-memory atomics, the
    unscaling by FFMA; the same call's 3xTF32 instance keeps its k8 TF32 products."""
    from dataclasses import replace
    from cupyconv._dispatch import wgmma_key
    key = wgmma_key(check_conv_args((4, 256, 4096), (256, 256, 7), None, stride=2), "float32")
    assert key.f16x3 and key.name_expression().endswith(", float, true>")
    assert compile_instance(key, arch="sm_90")[:4] == b"\x7fELF"
    ptx = compile_instance(key, arch="compute_90a").decode()
    assert len(re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16", ptx)) == 3 * 4 * 2
    assert "tf32" not in ptx and "atom.shared.max.u32" in ptx and "cvt.rn.f16x2.f32" in ptx
    ptx32 = compile_instance(replace(key, f16x3=False), arch="compute_90a").decode()
    assert len(re.findall(r"m64n128k8\.f32\.tf32\.tf32", ptx32)) == 3 * 2 * 4 * 2 and "f16x2" not in ptx32


def test_wgmma_lean_copy_out_only_in_3xtf32_instances(nvrtc_ok, monkeypatch):
    """Session 62's LEAN copy-out (16-byte stores of float32 rows of y) is in ct1d_wgmma's
    3xTF32 instances, not in its 3xFP16 ones (it made NVRTC spill there) nor, as
    CT1D_WGMMA_LEAN 0 (the A/B baseline), anywhere."""
    from cupyconv import _modules
    from cupyconv._dispatch import WgmmaKey, wgmma_key
    v4 = r"st\.global\.v4\.f32"
    tf32 = WgmmaKey(8, 1, 16, 2, 1, 128)
    f16x3 = wgmma_key(check_conv_args((4, 256, 4096), (256, 256, 7), None, stride=2), "float32")
    assert f16x3.f16x3
    assert len(re.findall(v4, compile_instance(tf32, arch="compute_90a").decode())) == 1
    assert not re.search(v4, compile_instance(f16x3, arch="compute_90a").decode())
    original = _modules.kernel_source
    monkeypatch.setattr(_modules, "kernel_source", lambda family: "#define CT1D_WGMMA_LEAN 0\n" + original(family))
    assert not re.search(v4, compile_instance(tf32, arch="compute_90a").decode())


@pytest.mark.parametrize("dtype,ptype", [("bfloat16", "bf16"), ("float16", "f16")])
def test_wgmma_16bit_instances_compile_for_sm90a(nvrtc_ok, dtype, ptype):
    """ct1d_wgmma's 16-bit instances (T = bf16_t / f16_t) compile for sm_90a: one m64n128k16
    product of their own type per column offset and chunk, A from registers, B from a
    shared-memory descriptor (2 offsets x the chunk loop unrolled twice), and no TF32."""
    from cupyconv._dispatch import WgmmaKey
    key = WgmmaKey(8, 1, 16, 2, 1, 128, dtype=dtype)
    assert key.name_expression().endswith(f", 16, 1, {'bf16_t' if ptype == 'bf16' else 'f16_t'}>")
    assert compile_instance(key, arch="sm_90")[:4] == b"\x7fELF"
    ptx = compile_instance(key, arch="compute_90a").decode()
    rs = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.{ptype}\.{ptype}\s+\{{[^}}]*\}},\s*\{{", ptx)
    assert len(rs) == 2 * 2 and "tf32" not in ptx, len(rs)
    assert "cp.async.cg.shared.global" in ptx and "fence.proxy.async.shared::cta" in ptx


def test_wgmma_16bit_blocks_and_stages_compile(nvrtc_ok, monkeypatch):
    """16-bit ct1d_wgmma instances as shipped (session 53): the whole reduction in the
    accumulators and 5 raw stages (the prologue's wait leaves 4 groups pending, each
    chunk's 3), registers capped for the key's blocks per SM (2 where the dispatcher asks);
    float32 instances keep 2 stages and 1 block. The A/B baseline (CT1D_WGMMA_H_DIRECT 0,
    product chains, 2 stages) still builds, and refuses 2 blocks per SM."""
    from cupyconv import _modules
    from cupyconv._dispatch import WgmmaKey
    from dataclasses import replace
    k16 = WgmmaKey(8, 1, 16, 2, 1, 128, dtype="bfloat16")
    ptx = compile_instance(replace(k16, blocks=2), arch="compute_90a").decode()
    assert ".minnctapersm 2" in ptx
    assert "cp.async.wait_group 4" in ptx and "cp.async.wait_group 3" in ptx
    assert len(re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.bf16\.bf16", ptx)) == 2 * 2
    assert ".minnctapersm 1" in compile_instance(k16, arch="compute_90a").decode()
    ptx32 = compile_instance(WgmmaKey(8, 1, 16, 2, 1, 128), arch="compute_90a").decode()
    assert ".minnctapersm 1" in ptx32 and "cp.async.wait_group 3" not in ptx32
    original = _modules.kernel_source
    old = "#define CT1D_WGMMA_H_DIRECT 0\n#define CT1D_WGMMA_H_STAGES 2\n"
    monkeypatch.setattr(_modules, "kernel_source", lambda family: old + original(family))
    ptx_old = compile_instance(k16, arch="compute_90a").decode()
    assert "cp.async.wait_group 3" not in ptx_old and "cp.async.wait_group 1" in ptx_old
    with pytest.raises(Exception, match="CT1D_WGMMA_H_DIRECT"):
        compile_instance(replace(k16, blocks=2), arch="compute_90a")


@pytest.mark.parametrize("dtype,products,halves", [("float32", 3, 1), ("bfloat16", 1, 2),
                                                   ("float16", 1, 2)])
def test_mma_warpgroup_instance_compiles_for_sm90a(nvrtc_ok, dtype, products, halves):
    """ct1d_mma's warpgroup path (the seed's sm_90 instance) compiles with -arch=sm_90a; its
    PTX has the m64n64k16 wgmmas of 3 taps x 2 k16 steps (x 3 products for 3xFP16: lo*hi
    and hi*lo first, then hi*hi) per 64-position half (16-bit: two), operands from
    shared-memory descriptors. The 16-bit ones (256 positions) also prefetch x into L2
    (X_PREFETCH's rule), the float32 one does not (it measured slower)."""
    from cupyconv._args import check_conv_args
    from cupyconv._dispatch import plan
    p = check_conv_args((16, 32, 131072), (32, 64, 3), None, stride=2, padding=1, dilation=2)
    key = plan(p, dtype, None, 90).key
    assert key.wg and key.options == ("-arch=sm_90a",)
    cubin = compile_instance(key, arch="sm_90")
    assert cubin[:4] == b"\x7fELF" and len(cubin) > 1000
    ptx = compile_instance(key, arch="compute_90a").decode()
    assert ".target sm_90a" in ptx
    ab = "bf16" if dtype == "bfloat16" else "f16"
    assert key.nt == 8 * halves
    assert ptx.count(f"wgmma.mma_async.sync.aligned.m64n64k16.f32.{ab}.{ab}") == 3 * 2 * products * halves
    assert "cp.async.bulk.global.shared::cta" in ptx
    assert ("cp.async.bulk.prefetch.L2.global" in ptx) == (dtype != "float32")


@pytest.mark.parametrize("dtype,products", [("float32", 3), ("bfloat16", 1), ("float16", 1)])
@pytest.mark.parametrize("c_out,n", [(16, 16), (32, 32)])
def test_mma_transposed_instance_compiles_for_sm90a(nvrtc_ok, dtype, products, c_out, n):
    """ct1d_mma's transposed warpgroup tiles (16 or 32 output channels as the wgmma's N):
    a 32 -> c_out call with the seed's structure compiles with -arch=sm_90a to m64nNk16
    wgmmas of 3 taps x 2 k16 steps (x 3 products for 3xFP16) per 64-position chunk of a
    warpgroup (two: 256 positions), and no m64n64k16."""
    from cupyconv._args import check_conv_args
    from cupyconv._dispatch import plan
    p = check_conv_args((16, 32, 131072), (32, c_out, 3), None, stride=2, padding=1, dilation=2)
    key = plan(p, dtype, None, 90).key
    assert key.family == "ct1d_mma" and key.wg and (key.wm, key.wn, key.co_tile) == (1, 8, c_out)
    assert compile_instance(key, arch="sm_90")[:4] == b"\x7fELF"
    ptx = compile_instance(key, arch="compute_90a").decode()
    ab = "bf16" if dtype == "bfloat16" else "f16"
    chunks = key.nu // 128
    assert ptx.count(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{ab}.{ab}") == 3 * 2 * products * chunks
    assert "m64n64k16" not in ptx


@pytest.mark.parametrize("dtype,products", [("float32", 3), ("bfloat16", 1)])
@pytest.mark.parametrize("S,K,c_out,n", [(2, 4, 16, 32), (2, 4, 32, 64), (4, 8, 16, 64), (3, 6, 16, 16)])
def test_mma_transposed_tap_groups_compile(nvrtc_ok, monkeypatch, dtype, products, S, K, c_out, n):
    """Transposed tiles whose taps group by column offset (K = 2S, D = 1: offsets 0 and 1,
    S taps each, one per class) run one m64nNk16 wgmma per offset, k16 step and product
    with N = S x c_out (32 or 64); CT1D_MMA_WGT_GROUPS=0 builds the chain per class (N =
    c_out, S times as many wgmmas). Where S x c_out is no wgmma N here (48), per class.
    float32 tap groups at stride 2 prefetch x into L2 (X_PREFETCH's rule); the rest do not."""
    from cupyconv import _modules
    from cupyconv._args import check_conv_args
    from cupyconv._dispatch import plan
    p = check_conv_args((8, 32, 65536), (32, c_out, K), None, stride=S, padding=1)
    key = plan(p, dtype, "ct1d_mma", 90).key
    assert key.wg and (key.wm, key.co_tile) == (1, c_out), key
    ab = "bf16" if dtype == "bfloat16" else "f16"
    chunks = key.nu // 128
    grouped = n != c_out

    def count(ptx, width):
        return ptx.count(f"wgmma.mma_async.sync.aligned.m64n{width}k16.f32.{ab}.{ab}")
    ptx = compile_instance(key, arch="compute_90a").decode()
    assert count(ptx, n) == (2 if grouped else K) * 2 * products * chunks
    assert ("cp.async.bulk.prefetch.L2.global" in ptx) == (dtype == "float32" and grouped and S == 2)
    original = _modules.kernel_source
    monkeypatch.setattr(_modules, "kernel_source",
                        lambda family: "#define CT1D_MMA_WGT_GROUPS 0\n" + original(family))
    ptx = compile_instance(key, arch="compute_90a").decode()
    assert count(ptx, c_out) == K * 2 * products * chunks
    assert not grouped or count(ptx, n) == 0


@pytest.mark.parametrize("K,steps", [(7, 28), (4, 16)])
def test_mma_long_chains_compile_in_segments(nvrtc_ok, monkeypatch, K, steps):
    """A float32 warpgroup chain above MMA_WG_CHAIN_STEPS k16 steps (64 -> 64, S = 1,
    K = 7: 7 taps x 4 steps = 28), or above MMA_WG_SPLIT_ABOVE (K = 4: 16 steps), is issued
    as two segments: the same wgmmas (K x 4 x 3 products per 64-position chunk) and one
    more wait per chunk than the single chain that both macros at 999 build. (Planned on
    ct1d_mma: the dispatcher sends the 16-step call, L_out odd, to ct1d_pipe.)"""
    from cupyconv import _modules
    from cupyconv._args import check_conv_args
    from cupyconv._dispatch import MMA_WG_CHAIN_STEPS, MMA_WG_SPLIT_ABOVE, plan, wg_chain_steps
    p = check_conv_args((16, 64, 32768), (64, 64, K), None, stride=1, padding=3)
    key = plan(p, "float32", "ct1d_mma", 90).key
    assert key.family == "ct1d_mma" and key.wg and wg_chain_steps(key) == steps
    assert MMA_WG_SPLIT_ABOVE < steps <= 2 * MMA_WG_CHAIN_STEPS
    chunks = key.nu // 128

    def counts():
        ptx = compile_instance(key, arch="compute_90a").decode()
        n = key.co_tile
        return (ptx.count(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16"),
                ptx.count("wgmma.wait_group.sync.aligned 0"))
    split_mmas, split_waits = counts()
    original = _modules.kernel_source
    monkeypatch.setattr(_modules, "kernel_source",
                        lambda family: "#define CT1D_MMA_WG_CHAIN_STEPS 999\n"
                                       "#define CT1D_MMA_WG_SPLIT_ABOVE 999\n" + original(family))
    one_mmas, one_waits = counts()
    assert split_mmas == one_mmas == K * 4 * 3 * chunks
    assert split_waits == one_waits + chunks


@pytest.mark.parametrize("dtype,products", [("float32", 3), ("bfloat16", 1)])
def test_mma_ci64_instance_compiles_for_sm90a(nvrtc_ok, dtype, products):
    """MMA_WG_CI64's transposed tile for the sweep's hifigan-u4-b16 (64 -> 32, K = 4,
    S = 2): all 64 input channels staged (ci_chunk 64: four k16 steps), tap groups of 2
    (N = 2 x 32 = 64): one m64n64k16 per column offset (2), k16 step (4) and product."""
    from cupyconv._args import check_conv_args
    from cupyconv._dispatch import plan
    p = check_conv_args((16, 64, 32768), (64, 32, 4), None, stride=2, padding=1)
    key = plan(p, dtype, "ct1d_mma", 90).key       # (float32: ct1d_pipe's by default)
    assert key.family == "ct1d_mma" and key.wg and (key.ci_chunk, key.co_tile, key.wm) == (64, 32, 1)
    assert compile_instance(key, arch="sm_90")[:4] == b"\x7fELF"
    ptx = compile_instance(key, arch="compute_90a").decode()
    ab = "bf16" if dtype == "bfloat16" else "f16"
    assert ptx.count(f"wgmma.mma_async.sync.aligned.m64n64k16.f32.{ab}.{ab}") == 2 * 4 * products * key.nu // 128
    assert "m64n32k16" not in ptx and "m64n16k16" not in ptx


def test_mma_one_block_instances_compile_for_one_block(nvrtc_ok):
    """A warpgroup tile of one block per SM (the sweep's up-64-64-s3: 64 -> 64, K = 6,
    S = 3) is compiled with __launch_bounds__ minimum 1 (ONE_BLOCK: more than 128
    registers allowed); the seed's tile, two blocks per SM, with minimum 2."""
    from cupyconv._args import check_conv_args
    from cupyconv._dispatch import plan
    up = plan(check_conv_args((8, 64, 65536), (64, 64, 6), None, stride=3, padding=2),
              "float32", None, 90).key
    seed = plan(check_conv_args((16, 32, 131072), (32, 64, 3), None, stride=2, padding=1,
                                dilation=2), "float32", None, 90).key
    assert up.one_block and not seed.one_block
    for key, blocks in ((up, 1), (seed, 2)):
        ptx = compile_instance(key, arch="compute_90a").decode()
        assert re.search(r"\.minnctapersm\s+(\d+)", ptx).group(1) == str(blocks), key


@pytest.mark.parametrize("dtype,products", [("float32", 3), ("bfloat16", 1)])
def test_mma_stride8_tap_groups_compile_for_sm90a(nvrtc_ok, dtype, products):
    """The sweep's g16-512-k16-s8 (32 -> 16 per group, K = 16, S = 8) as a transposed tile
    (MMA_WG_T_MACS_STRIDE) whose tap groups of 8 classes x 16 channels run as m64n128k16:
    one per column offset (2), k16 step (2) and product."""
    from cupyconv._args import check_conv_args
    from cupyconv._dispatch import plan
    p = check_conv_args((4, 512, 2048), (512, 16, 16), None, stride=8, padding=4, groups=16)
    key = plan(p, dtype, "ct1d_mma", 90).key       # (float32: ct1d_pipe's by default)
    assert key.family == "ct1d_mma" and key.wg and (key.ci_chunk, key.co_tile, key.wm) == (32, 16, 1)
    ptx = compile_instance(key, arch="compute_90a").decode()
    ab = "bf16" if dtype == "bfloat16" else "f16"
    assert ptx.count(f"wgmma.mma_async.sync.aligned.m64n128k16.f32.{ab}.{ab}") == 2 * 2 * products * key.nu // 128
    assert "m64n16k16" not in ptx


def test_mma_3xtf32_knob(nvrtc_ok, monkeypatch):
    """CT1D_MMA_F16X3=0 builds the 3xTF32 arithmetic for the same float32 instance."""
    from cupyconv import _modules
    key = _keys(COMPILE_CASES[0])[0]
    original = _modules.kernel_source
    monkeypatch.setattr(_modules, "kernel_source",
                        lambda family: "#define CT1D_MMA_F16X3 0\n" + original(family))
    ptx = compile_instance(key, arch="compute_90").decode()
    assert "m16n8k16" not in ptx and "mma.sync.aligned.m16n8k8.row.col.f32.tf32" in ptx


@pytest.mark.slow
@pytest.mark.parametrize("key", MMA_INSTANCES, ids=_instance_id)
def test_mma_instance_compiles_for_sm80(nvrtc_ok, key):
    """The tensor-core family also builds for Ampere (no bulk-copy engine there)."""
    cubin = compile_instance(key, arch="sm_80")
    assert cubin[:4] == b"\x7fELF"


GEMM_INSTANCES = [k for k in INSTANCES if k.family == "ct1d_gemm"]


def test_wide_cases_plan_the_gemm_family():
    assert {INSTANCES[k][0] for k in GEMM_INSTANCES} >= {"k16-s8", "c512-to-256",
                                                          "c512-to-256-fp16"}
    assert any(k.f16x3 for k in GEMM_INSTANCES)
    assert any(not k.f16x3 and k.dtype == "float32" for k in GEMM_INSTANCES)


@pytest.mark.slow
@pytest.mark.parametrize("key", GEMM_INSTANCES, ids=_instance_id)
def test_gemm_instance_compiles_for_sm80(nvrtc_ok, key):
    """The wide-channel family needs only cp.async (float32; 16-bit types stage through
    registers) and mma.sync: Ampere builds it too. float32 takes the scaled 3xFP16 split
    (float16 m16n8k16 MMAs), 16-bit inputs one m16n8k16 MMA of their own type per product
    (no TF32)."""
    ptx = compile_instance(key, arch="compute_80").decode()
    assert ("cp.async.ca.shared.global" in ptx) == (key.dtype == "float32")
    assert not key.f16x3 or key.dtype == "float32"     # (3xTF32 where 3 stages do not fit)
    f16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    bf16 = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" in ptx
    tf32 = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in ptx
    expected = {"float32": (key.f16x3, False, not key.f16x3),
                "float16": (True, False, False), "bfloat16": (False, True, False)}
    assert (f16, bf16, tf32) == expected[key.dtype]
    assert compile_instance(key, arch="sm_80")[:4] == b"\x7fELF"


@pytest.mark.parametrize("shape", [(8, 1, 5, 2, 4, 2, 1), (8, 1, 8, 2, 8, 1, 1)], ids=["nt4", "nt8"])
def test_gemm_float64_instance_compiles(nvrtc_ok, shape):
    """float64 (dispatch.GEMM_F64): ct1d_gemm's DFMA path, 8-byte cp.async stages, no MMA,
    for sm_90 and Ampere."""
    from cupyconv._keys import GemmKey
    key = GemmKey("float64", *shape, 16, 3, 1)
    assert compile_instance(key, arch="sm_90")[:4] == b"\x7fELF"
    for arch in ("compute_80", "compute_90"):
        ptx = compile_instance(key, arch=arch).decode()
        assert "fma.rn.f64" in ptx and "mma" not in ptx
        assert re.search(r"cp\.async\.ca\.shared\.global \[%r\d+\], \[%rd\d+\], 8, %r\d+;", ptx)
        assert not re.search(r"cp\.async\S* \[[^]]*\], \[[^]]*\], (4|16),", ptx)


DEPTHWISE_INSTANCES = [k for k in INSTANCES if k.family == "ct1d_depthwise"]


def test_depthwise_cases_plan_the_depthwise_family():
    assert {k.dtype for k in DEPTHWISE_INSTANCES} == {"float32", "float64", "float16", "bfloat16"}
    assert {INSTANCES[k][0] for k in DEPTHWISE_INSTANCES} >= {
        "depthwise", "unbatched-c1", "narrow-groups-fp64", "depthwise-s8-fp16"}


@pytest.mark.slow
@pytest.mark.parametrize("key", DEPTHWISE_INSTANCES, ids=_instance_id)
def test_depthwise_instance_compiles_for_sm80_and_both_store_paths(nvrtc_ok, key, monkeypatch):
    """Plain CUDA C++ (no sm_90 feature): Ampere builds it. The default 16-byte-vector
    stores and the element-wise variant (CT1D_DW_VECTOR_STORE=0, benchmarks/
    tune_depthwise.py) both build."""
    assert compile_instance(key, arch="sm_80")[:4] == b"\x7fELF"
    assert "st.global.v4.u32" in compile_instance(key, arch="compute_90").decode()
    from cupyconv import _modules
    original = _modules.kernel_source
    monkeypatch.setattr(_modules, "kernel_source",
                        lambda family: "#define CT1D_DW_VECTOR_STORE 0\n" + original(family))
    assert "st.global.v4.u32" not in compile_instance(key, arch="compute_90").decode()


NARROW_INSTANCES = [k for k in INSTANCES if k.family == "ct1d_narrow"]


def test_narrow_cases_plan_the_narrow_family_with_and_without_a_split():
    assert set().union(*(INSTANCES[k] for k in NARROW_INSTANCES)) >= {"narrow-out8", "narrow-out1-split"}
    assert sorted(k.cs for k in NARROW_INSTANCES)[0] == 1 and max(k.cs for k in NARROW_INSTANCES) > 1
    assert [INSTANCES[k] for k in NARROW_INSTANCES if k.blk] == [["narrow-blk"]]


@pytest.mark.parametrize("key", NARROW_INSTANCES, ids=_instance_id)
def test_narrow_instance_compiles_for_sm80_and_its_knobs(nvrtc_ok, key, monkeypatch):
    """Plain CUDA C++ (no sm_90 feature): Ampere builds it; so do its A/B knobs (x of one
    channel in flight instead of two, registers capped for two blocks per SM, blocked
    sums joined every few chunks)."""
    assert compile_instance(key, arch="sm_80")[:4] == b"\x7fELF"
    from cupyconv import _modules
    original = _modules.kernel_source
    monkeypatch.setattr(_modules, "kernel_source", lambda family: (
        "#define CT1D_NARROW_AHEAD 1\n#define CT1D_NARROW_MIN_BLOCKS 2\n"
        "#define CT1D_NARROW_BLK_TERMS 256\n" + original(family)))
    assert compile_instance(key)[:4] == b"\x7fELF"


@pytest.mark.parametrize("split", [1, 2])
@pytest.mark.parametrize("contig", [True, False], ids=["contig", "windows"])
def test_narrow_xchain_instances_compile(nvrtc_ok, split, contig):
    """The cross-chunk x prefetch (XCH, NarrowKey.xchain; off by default) compiles in both
    x layouts (a thread's contiguous positions: u = 2; windows: u = 1) and with a split."""
    from dataclasses import replace
    from cupyconv._keys import NarrowKey
    key = NarrowKey("float32", 3, 1, 32, 4, 2 if contig else 1, 4, 256, True, split, True)
    assert key.name_expression().endswith(", true>")
    arch = "sm_90" if split > 1 else "sm_80"
    assert compile_instance(key, arch=arch)[:4] == b"\x7fELF"
    assert compile_instance(replace(key, blk=False), arch=arch)[:4] == b"\x7fELF"


# ct1d_narrow_split (sm_90 plans since session 77): a cluster of 2-8 blocks per tile
NARROW_SPLIT_CALLS = {
    "1500-to-4-k32": ((1, 1500, 700), (1500, 4, 32), 1, 5, 2, 1),          # 8 ranks
    "2048-to-8-k32-s2": ((2, 2048, 800), (2048, 8, 32), 2, 0, 1, 1),
    "1680-to-7-k23-blocked": ((2, 1680, 1038), (1680, 7, 23), 1, 0, 1, 1),   # 3 ranks
}


def test_gemm_split_instance_compiles_for_sm90a(nvrtc_ok):
    """ct1d_gemm's cluster split (sm_90 plans of few-tile wide reductions: 1 x 384 -> 32,
    K=7, S=3, D=3 takes 8 ranks) compiles with its cluster barrier and remote reads."""
    key = plan(check_conv_args((1, 384, 1024), (384, 32, 7), None, 3, 0, 0, 1, 3), "float32",
               arch=90).key
    assert key.name_expression().startswith("ct1d_gemm_split<") and key.split == 8, key
    assert compile_instance(key, arch="sm_90")[:4] == b"\x7fELF"
    ptx = compile_instance(key, arch="compute_90a").decode()
    assert "barrier.cluster.wait" in ptx and "ld.shared::cluster" in ptx


@pytest.mark.parametrize("case", sorted(NARROW_SPLIT_CALLS))
def test_narrow_split_instances_compile_for_sm90a(nvrtc_ok, case):
    """The sm_90 plans of few-tile, long-reduction float32 calls split each tile over a
    cluster; the instance compiles (sm_90a) with the cluster barrier and the reads of the
    other ranks' shared memory that join their sums."""
    xs, ws, s, p, d, g = NARROW_SPLIT_CALLS[case]
    key = plan(check_conv_args(xs, ws, None, s, p, 0, g, d), "float32", "ct1d_narrow", 90).key
    assert key.split > 1 and key.blk == case.endswith("blocked"), key
    assert compile_instance(key, arch="sm_90")[:4] == b"\x7fELF"
    ptx = compile_instance(key, arch="compute_90a").decode()
    assert ".target sm_90a" in ptx and "barrier.cluster.wait" in ptx
    assert "ld.shared::cluster" in ptx and "mapa.shared::cluster" in ptx


STREAM_INSTANCES = [k for k in INSTANCES if k.family == "ct1d_stream"]


def test_stream_cases_plan_the_stream_family():
    assert {INSTANCES[k][0] for k in STREAM_INSTANCES} >= {"stream-hifigan-u4", "stream-s1-d4"}


@pytest.mark.slow
@pytest.mark.parametrize("key", STREAM_INSTANCES, ids=_instance_id)
def test_stream_instance_arithmetic_and_sm80(nvrtc_ok, key, monkeypatch):
    """float32 runs the scaled 3xFP16 split (m16n8k16 float16 MMAs) by default and 3xTF32
    with CT1D_STREAM_F16X3=0; 16-bit inputs take TF32 MMAs; all of it builds for sm_80."""
    import dataclasses
    ptx = compile_instance(key, arch="compute_90").decode()
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    assert "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" not in ptx
    bf16 = dataclasses.replace(key, dtype="bfloat16")
    ptx = compile_instance(bf16, arch="compute_90").decode()
    assert "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in ptx
    assert compile_instance(key, arch="sm_80")[:4] == b"\x7fELF"
    from cupyconv import _modules
    original = _modules.kernel_source
    monkeypatch.setattr(_modules, "kernel_source",
                        lambda family: "#define CT1D_STREAM_F16X3 0\n" + original(family))
    ptx = compile_instance(key, arch="compute_90").decode()
    assert "m16n8k16" not in ptx and "mma.sync.aligned.m16n8k8.row.col.f32.tf32" in ptx


def test_precompile_takes_each_targets_instances(capsys):
    """Each --arch target gets the instances a GPU of its compute capability runs: a wide
    float32 or bfloat16 layer is ct1d_wgmma on sm_90, ct1d_gemm on sm_80; on sm_90 those of every
    card's rules (no compile: --list)."""
    from cupyconv.precompile import arch_number, instances, main
    assert (arch_number("sm_90"), arch_number("compute_90a"), arch_number("sm_80")) == (90, 90, 80)
    wide = "8,512,256,16,4096,8,4"
    assert [k.family for k in instances([wide], ["float32"], 90)[0]] == ["ct1d_wgmma"]
    assert [k.family for k in instances([wide], ["float32"], 80)[0]] == ["ct1d_gemm"]
    assert [k.family for k in instances([wide], ["bfloat16"], 90)[0]] == ["ct1d_wgmma"]
    assert [k.family for k in instances([wide], ["bfloat16"], 80)[0]] == ["ct1d_gemm"]
    # sm_90 targets cover every card's rules: a call the H100 runs on warp-specialised
    # ct1d_pipe blocks, the H200 on plain ones (hifigan-u4's structure), lists both
    # instances (one card: its own)
    u4 = "8,64,32,4,65536,2,1"
    assert [(k.family, k.ws) for k in instances([u4], ["float32"], 90)[0]] == [("ct1d_pipe", 0), ("ct1d_pipe", 1)]
    assert [k.ws for k in instances([u4], ["float32"], 90, ("h100",))[0]] == [1]
    assert len(instances([u4], ["float32"], 80)[0]) == 1                # (no card rules there)
    assert main(["--list", "--arch", "sm_80", "--arch", "sm_90", "--call", wide,
                 "--dtype", "float32"]) == 0
    out = capsys.readouterr().out
    assert "ct1d_gemm<float, 8, 1, 16," in out and "ct1d_wgmma<8, 1, 16," in out


def test_pipe_instances_compile_for_sm90a(nvrtc_ok, monkeypatch):
    """Every ct1d_pipe instance the sweep routes there (sm_90; among them sd-s2d2k3-c64's:
    rows of any length, a dead class, 12 k16 steps), and three more beside it (7 live
    classes; 3 of 6 with dead classes; 16 k16 steps on 3 warpgroups; rows of any length on
    a one-stage ring; one-stage rings among them), compiles with NVRTC; its PTX holds 3 products x the reduction's k16 steps as register-A wgmmas of
    N = classes x channels columns, 16-byte cp.async for x, bulk copies out, and the
    block size."""
    from cupyconv import _dispatch
    from cupyconv._dispatch import plan
    from cupyconv.bench import SWEEP, config_params
    # (one pipeline per warpgroup: the warp-specialised blocks have their own test below)
    monkeypatch.setattr(_dispatch, "PIPE_WS", False)
    plan.cache_clear()
    keys = {plan(config_params(c), c.dtype, None, 90).key for c in SWEEP}
    for S, D, K, P, OP in ((7, 1, 7, 0, 0), (6, 2, 5, 2, 1), (2, 1, 16, 7, 0)):
        p = check_conv_args((4, 32, 32768), (32, 32, K), None, stride=S, padding=P, dilation=D,
                            output_padding=OP)
        keys.add(plan(p, "float32", None, 90).key)
    p = check_conv_args((16, 64, 65536), (64, 32, 4), None, stride=2, padding=2)   # L_out = 2 mod 4
    keys.add(plan(p, "float32", None, 90).key)
    keys = sorted((k for k in keys if k.family == "ct1d_pipe"), key=lambda k: k.name_expression())
    assert len(keys) >= 6, keys
    assert any(k.any_l for k in keys) and any(k.offsets * k.ci == 16 * 16 and k.wg == 3 for k in keys)
    assert {(k.stages, k.outbuf) for k in keys if k.stages == 1} == {(1, 1), (1, 2)}   # one-stage rings
    assert any(k.any_l and k.stages == 1 for k in keys)
    plan.cache_clear()
    for key in keys:
        assert compile_instance(key, arch="sm_90")[:4] == b"\x7fELF"
        ptx = compile_instance(key, arch="compute_90a").decode()
        steps = key.offsets * key.ci // 16
        wgmma = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.f16\.f16\s+\{[^}]*\},\s*\{", ptx)
        assert len(wgmma) == 3 * steps and set(wgmma) == {str(key.n)}, (key, len(wgmma), set(wgmma))
        assert "cp.async.cg.shared.global" in ptx and "cp.async.bulk.global.shared::cta" in ptx
        assert re.search(r"\.maxntid\s+(\d+)", ptx).group(1) == str(key.threads), key


def test_pipe_warp_specialised_instances_compile_for_sm90a(nvrtc_ok):
    """ct1d_pipe's warp-specialised blocks (PipeKey.ws: producer warpgroups split x in
    place, consumers multiply) compile with NVRTC for one, two and three consumers and one
    or two producers, on channel-major and class-major columns, rows of any length and
    4 column offsets: the PTX holds 3 products x the k16 steps as wgmmas with A from a
    shared-memory descriptor (none from registers), the pairs' named barriers (bar.arrive
    by each side) and the block size of all the warpgroups."""
    from dataclasses import replace

    from cupyconv._dispatch import PipeKey
    keys = [PipeKey(2, 1, 4, 64, 32, wg=2, ws=1, stages=5, outbuf=2),
            PipeKey(2, 2, 3, 64, 32, wg=3, ws=1, stages=5, outbuf=1, any_l=True),
            PipeKey(5, 1, 11, 32, 16, wg=2, ws=2, stages=5, outbuf=2),
            PipeKey(4, 3, 5, 16, 32, wg=1, ws=1, stages=3, outbuf=2)]
    assert any(8 % k.classes for k in keys)                 # class-major columns
    for key in keys:
        ptx = compile_instance(key, arch="compute_90a").decode()
        steps = key.offsets * key.ci // 16
        ss = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.f16\.f16\s+\{[^}]*\},\s*%rd", ptx)
        rs = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n\d+k16\.f32\.f16\.f16\s+\{[^}]*\},\s*\{", ptx)
        assert len(ss) == 3 * steps and set(ss) == {str(key.n)} and not rs, (key, len(ss), len(rs))
        assert re.search(r"bar(rier)?(\.sync)?\.arrive\s", ptx) and "cp.async.bulk.global.shared::cta" in ptx
        assert re.search(r"\.maxntid\s+(\d+)", ptx).group(1) == str(key.threads) == str(128 * (key.wg + key.ws))
    assert compile_instance(keys[0], arch="sm_90")[:4] == b"\x7fELF"
    with pytest.raises(Exception):           # more named barriers than a block has
        compile_instance(replace(keys[0], wg=3, stages=6), arch="compute_90a")


def test_precompile_warm_checks_the_device_number(monkeypatch, capsys):
    """--warm --device N on a machine without GPU N: a usage error naming the GPUs there,
    not a traceback (one GPU faked, since this machine may have none)."""
    import sys
    from types import SimpleNamespace

    import cupyconv._api
    from cupyconv.precompile import main
    monkeypatch.setattr(cupyconv._api, "gpu_available", lambda: True)
    fake = SimpleNamespace(cuda=SimpleNamespace(runtime=SimpleNamespace(getDeviceCount=lambda: 1)))
    monkeypatch.setitem(sys.modules, "cupy", fake)
    with pytest.raises(SystemExit) as exc:
        main(["--warm", "--device", "3"])
    assert exc.value.code == 2
    assert "--device 3: this machine has GPU(s) 0 to 0" in capsys.readouterr().err
