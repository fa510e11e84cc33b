"""GPU launcher: CuPy arrays in, kernel launched on CuPy's current stream.

Owns the argument marshalling (every scalar as the exact C type), the launch geometry
and the launch itself: through the driver with prebuilt parameter blocks, on sm_90 with
programmatic dependent launch (PDL_LAUNCH). Callers have validated the call and
selected the device.
"""
from __future__ import annotations

import ctypes
import functools
import threading
from dataclasses import dataclass
from typing import Callable, Optional, Tuple

import numpy as np

from ._args import ConvParams
from . import _dispatch
from ._dispatch import (MAX_GRID_YZ, MIN_COMPUTE_CAPABILITY, LaunchPlan, card_of, fit_plan,
                        plan, usable_arch)
from ._keys import ClusterProbeKey
from ._modules import get_kernel

# Blocks per launch to aim for before blocks start looping over several tiles (and reusing
# their staged weights), in waves of 2 resident blocks per SM. ct1d_mma stages its weights
# once per block, so fewer, longer-lived blocks pay off there.
# ct1d_gemm stages everything per tile: one tile per block.
# ct1d_depthwise: up to 4 row segments per block, so depthwise blocks load the next
# segment's x while storing one: 66-80% -> 80-83% of the copy bandwidth on 4 of the 5
# depthwise calls measured (results/2026-11-30-session6/tune_depthwise_tpb.txt), and
# at most _dispatch.DEPTHWISE_BLOCK_BYTES of output per block (depthwise_tiles_per_block).
# ct1d_stream: n_tiles counts warp tiles, WARPS per block at a time; its grid is the
# resident blocks (_resident_blocks).
_WAVES = {"ct1d_scatter": 8, "ct1d_mma": 2, "ct1d_gemm": 1, "ct1d_depthwise": 1, "ct1d_narrow": 1,
          "ct1d_stream": 1, "ct1d_wgmma": 1, "ct1d_pipe": 1}
# ct1d_stream blocks per row as a multiple of the resident ones (benchmarks/tune_stream.py
# --grid-factors varies it): 1 is the fastest on all 9 calls the dispatcher sends there,
# 2x and 3x 3-61% slower (results/2026-11-30-session8/tune_stream_grid_factors.txt)
_STREAM_GRID_FACTOR = 1
# ct1d_mma calls whose blocks would take fewer tiles than this each in _WAVES waves run one
# wave: the second wave's start (weights staged again, first x tile) is not amortised.
# up-16-16-s8 (mma.sync, 3.9 tiles per block in 2 waves): 0.083 -> 0.076 ms in one wave,
# 0.095 in 4 (results/2026-12-01-session16/ab_waves_s8.txt, 5 of 5 rounds)
_MMA_FEW_TILES = 8
# ... but no block takes more tiles than this (load balance at the tail)
_MAX_TILES_PER_BLOCK = {"ct1d_scatter": 8, "ct1d_mma": 64, "ct1d_gemm": 1, "ct1d_depthwise": 4,
                        "ct1d_narrow": 1,
                        "ct1d_stream": 64, "ct1d_wgmma": 1, "ct1d_pipe": 1 << 30}


@functools.lru_cache(maxsize=None)
def _sm_count(device_id: int) -> int:
    import cupy
    return cupy.cuda.Device(device_id).attributes["MultiProcessorCount"]


@functools.lru_cache(maxsize=None)
def device_arch(device_id: int) -> int:
    """plan()'s ``arch`` for a device: its compute capability as an int (90 for sm_90),
    0 where CuPy's NVRTC cannot target it (``_dispatch.usable_arch``)."""
    import cupy
    return usable_arch(int(cupy.cuda.Device(device_id).compute_capability),
                       cupy.cuda.nvrtc.getVersion())


@functools.lru_cache(maxsize=None)
def device_card(device_id: int) -> str:
    """plan()'s ``card`` for a device: whose measured dispatch rules apply there
    (``_dispatch.card_of`` of its CUDA name)."""
    import cupy
    name = cupy.cuda.runtime.getDeviceProperties(device_id)["name"]
    return card_of(device_arch(device_id), name.decode() if isinstance(name, bytes) else name)


@functools.lru_cache(maxsize=None)
def device_smem_limit(device_id: int) -> int:
    """Dynamic shared memory one block may opt into on ``device_id``; NotImplementedError
    for GPUs the kernels cannot run on (compute capability below 8.0)."""
    import cupy
    dev = cupy.cuda.Device(device_id)
    cc = int(dev.compute_capability)
    if cc < MIN_COMPUTE_CAPABILITY:
        raise NotImplementedError(
            f"cupyconv's GPU kernels need compute capability >= {MIN_COMPUTE_CAPABILITY / 10:.1f}; "
            f"GPU {device_id} has {cc / 10:.1f}: use backend='cpu' for host arrays")
    return int(dev.attributes["MaxSharedMemoryPerBlockOptin"])


# CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION (cuda.h), and dynamic shared memory beyond half of
# an sm_90 SM's 228 KB, which holds one block per SM
_CLUSTER_DIMENSION = 4
_WHOLE_SM_SMEM = 120 << 10
# (a fixed count, not _dispatch.GEMM_SPLIT_MAX: the answer is cached per device, and the
# benchmarks lower that constant for a while to plan without the split)
_PORTABLE_CLUSTER = 8


def max_active_clusters(kernel, block: int, smem: int, cluster: int, fixed: bool = False) -> int:
    """How many clusters of ``cluster`` blocks of ``kernel`` the current device holds at
    once, with ``block`` threads and ``smem`` bytes of dynamic shared memory per block
    (cuOccupancyMaxActiveClusters); ``fixed``: the kernel's own ``__cluster_dims__`` say the
    size. 0 where the driver cannot say."""
    query = _driver_function("cuOccupancyMaxActiveClusters", ctypes.POINTER(ctypes.c_int),
                             ctypes.c_void_p, ctypes.POINTER(_LaunchConfig))
    if query is None:
        return 0
    attr = _LaunchAttribute(id=_CLUSTER_DIMENSION)
    (ctypes.c_uint * 3).from_buffer(attr.value)[:] = [cluster, 1, 1]
    cfg = _LaunchConfig(grid=(cluster, 1, 1), block=(block, 1, 1), smem=smem,
                        attrs=ctypes.pointer(attr), n_attrs=0 if fixed else 1)
    n = ctypes.c_int(0)
    return n.value if query(ctypes.byref(n), kernel.kernel.ptr, ctypes.byref(cfg)) == 0 else 0


@functools.lru_cache(maxsize=None)
def device_cluster_slots(device_id: int) -> Tuple[int, ...]:
    """plan()'s ``clusters`` for a device: how many clusters of 1, 2, ... 8 (the portable
    maximum) blocks of one block per SM it holds at once. A cluster's blocks run on one
    GPC, so where a size does not divide a GPC's SMs some stay idle: an H100 (132 SMs)
    holds 39 clusters of 3, 30 of 4 and 15 of 8. 0 for a size none of whose clusters fits
    (a GPU partition smaller than it); () before sm_90 (no clusters) or where the driver
    cannot say."""
    if device_arch(device_id) < _dispatch.WGMMA_ARCH:
        return ()
    import cupy
    with cupy.cuda.Device(device_id):
        kern = get_kernel(ClusterProbeKey(), device_id)
        kern.max_dynamic_shared_size_bytes = _WHOLE_SM_SMEM
        slots = tuple(max_active_clusters(kern, 128, _WHOLE_SM_SMEM, s)
                      for s in range(1, _PORTABLE_CLUSTER + 1))
    return slots if slots[0] else ()


def device_plan(p: ConvParams, dtype: str, device_id: int, family: Optional[str] = None) -> LaunchPlan:
    """plan() for a call on ``device_id`` (its compute capability, card and cluster
    slots), within its shared memory per block (``_dispatch.fit_plan``). (Benchmarks
    replace ``plan`` here to launch a plan of their own.)"""
    arch, card, limit = device_arch(device_id), device_card(device_id), device_smem_limit(device_id)
    clusters = device_cluster_slots(device_id)
    pl = plan(p, dtype, family, arch, card, clusters)
    return pl if pl.smem_bytes <= limit else fit_plan(p, dtype, family, arch, card, limit, clusters)


def family_on(dtype: str, device_id: int) -> Callable[[ConvParams], str]:
    """The kernel family device_plan picks for a call in ``dtype`` on ``device_id``, as a
    function of the call (cupyconv._complex.interleaved's ``family_of``)."""
    return lambda p: device_plan(p, dtype, device_id).key.family


# (device, key) -> the dynamic shared memory its kernel was opted into (only raised)
_smem_set: dict = {}
_smem_lock = threading.Lock()


@dataclass(frozen=True)
class Prepared:
    """Everything a launch needs besides the arrays: the compiled kernel, the block size,
    the dynamic shared memory and, per batch slice, the grid and the scalar arguments."""
    kernel: object
    block: Tuple[int]
    smem: int
    launches: Tuple[tuple, ...]     # (grid, scalar arguments) per batch slice
    # Every launch goes through the driver (cuLaunchKernel) with these prebuilt
    # kernel-parameter blocks (one per batch slice): slots 0-3 take the array pointers,
    # the rest hold the scalars. CuPy's kernel call packs 13 Python arguments per launch,
    # ~2x the host time of the launch itself
    # (benchmarks/results/2026-11-30-session5/host_call_costs.txt).
    raw: Tuple[tuple, ...] = ()     # (grid, values, pointers, address of pointers) per slice
    # sm_90+: launched with programmatic dependent launch (PDL_LAUNCH, below), through
    # these prebuilt cuLaunchKernelEx configurations (one per batch slice)
    pdl: Tuple[object, ...] = ()
    device_id: int = -1             # what the plan, grid and shared-memory opt-in are for


def prepare(p: ConvParams, dtype: str, device_id: int, family: Optional[str] = None) -> Prepared:
    """Plan, compile (first use) and size the launch of one call on ``device_id``."""
    pl = device_plan(p, dtype, device_id, family)
    kern = get_kernel(pl.key, device_id)
    if pl.smem_bytes > 48 * 1024 and _smem_set.get((device_id, pl.key), 0) < pl.smem_bytes:
        with _smem_lock:     # (threads preparing one key for two sizes: keep the larger)
            if _smem_set.get((device_id, pl.key), 0) < pl.smem_bytes:
                # above 48 KB a block needs an explicit opt-in (cudaFuncSetAttribute)
                kern.max_dynamic_shared_size_bytes = pl.smem_bytes
                # ask for the largest shared-memory carveout, so two such blocks share an SM
                kern.preferred_shared_memory_carveout = 100
                _smem_set[(device_id, pl.key)] = pl.smem_bytes
    grid_y = p.groups * pl.co_chunks          # <= MAX_GRID_YZ, checked by plan()
    i32 = np.int32
    common = (i32(p.in_channels), i32(p.out_channels), i32(p.groups), i32(p.length_in),
              i32(p.length_out), i32(p.padding))
    launches = []
    # ct1d_mma's warpgroup blocks loop over batch items in one wave of resident blocks
    item_loop = pl.key.family == "ct1d_mma" and pl.key.wg and _dispatch.MMA_ITEM_LOOP
    resident = _resident_blocks(kern, pl, device_id) if item_loop or pl.key.family == "ct1d_pipe" else 0
    for n0 in range(0, p.batch, MAX_GRID_YZ):
        nz = min(MAX_GRID_YZ, p.batch - n0)
        target = _WAVES[pl.key.family] * 2 * _sm_count(device_id)
        row_tiles = -(-pl.n_tiles // getattr(pl.key, "warps", 1))   # block-sized steps
        least = -(-row_tiles // (depthwise_tiles_per_block(pl) if pl.key.family == "ct1d_depthwise"
                                 else _MAX_TILES_PER_BLOCK[pl.key.family]))
        if pl.key.family == "ct1d_mma" and row_tiles * grid_y * nz < _MMA_FEW_TILES * target:
            target = 2 * _sm_count(device_id)      # one wave (below)
        if pl.key.family == "ct1d_pipe":
            # one resident wave of blocks; each warpgroup takes every (grid_x * wg)-th
            # (item, tile) unit of its row (warp-specialised blocks: each block every
            # grid_x-th; grid_z 1)
            grid_x = max(1, min(-(-nz * pl.n_tiles // pl.key.pipelines), resident // grid_y))
        elif pl.key.family == "ct1d_stream":
            # exactly the blocks that are resident at once (rounded down): a second partial
            # wave of long-lived streaming blocks would double the call's tail
            grid_x = min(row_tiles, max(least, _STREAM_GRID_FACTOR
                                        * _resident_blocks(kern, pl, device_id) // (grid_y * nz)))
        elif item_loop:
            # _WAVES waves of the resident blocks (as the occupancy API counts them: one per
            # SM for the largest tiles), rounded down so that items / k rows of blocks fit
            # one wave. Sized for 2 blocks per SM and rounded up, g4-128-k4-s2 ran 2.06
            # waves (0.202 -> 0.168 ms) and sd-s3d2k5's one-block tiles 2 (0.239 -> 0.222;
            # results/2026-12-01-session16/ab_resident.txt, ab_wgt_blocks.txt "t128")
            grid_x = min(row_tiles, max(_WAVES[pl.key.family] * resident // (grid_y * nz), least))
        else:
            grid_x = min(row_tiles, max(-(-target // (grid_y * nz)), least))
        # ct1d_gemm_split, ct1d_narrow_split: a cluster of blocks, consecutive along x,
        # per tile block
        grid_x *= getattr(pl.key, "split", 1)
        grid_z = 1 if pl.key.family == "ct1d_pipe" else nz
        if item_loop:
            # the warpgroup blocks loop over items n0 + z, n0 + z + grid_z, ...
            grid_z = mma_item_rows(nz, grid_x * grid_y, resident)
        if pl.key.family == "ct1d_pipe":
            scalars = common + (i32(pl.u_first), i32(pl.n_tiles), i32(n0), i32(nz), i32(pl.tile_out))
        elif pl.key.family == "ct1d_mma":
            scalars = common + (i32(pl.u_first), i32(pl.n_tiles), i32(n0), i32(nz))
        elif pl.key.family != "ct1d_scatter":
            scalars = common + (i32(pl.u_first), i32(pl.n_tiles), i32(n0))
        else:
            scalars = common + (i32(p.stride), i32(p.dilation), i32(p.kernel_size),
                                i32(pl.tile_out), i32(pl.n_tiles), i32(n0))
        launches.append(((grid_x, grid_y, grid_z), scalars))
    pdl = ()
    out_bytes = p.batch * p.out_channels * p.length_out * _dispatch.ELEMENT_BYTES[dtype]
    if (PDL_LAUNCH and out_bytes >= PDL_MIN_OUTPUT_BYTES and device_arch(device_id) >= 90
            and _launch_kernel_ex() is not None):
        pdl = tuple(_LaunchConfig(g, (pl.key.threads, 1, 1), pl.smem_bytes, None,
                                  ctypes.pointer(_PDL_ATTR), 1) for g, _ in launches)
    return Prepared(kern, (pl.key.threads,), pl.smem_bytes, tuple(launches),
                    tuple(_param_block(g, sc) for g, sc in launches), pdl, device_id)


def depthwise_tiles_per_block(pl) -> int:
    """Most row segments a ct1d_depthwise block takes: _MAX_TILES_PER_BLOCK, fewer where
    they would hold more than _dispatch.DEPTHWISE_BLOCK_BYTES of output, 2 at least (so
    that the next segment's x is loaded while one is stored)."""
    cap = _MAX_TILES_PER_BLOCK["ct1d_depthwise"]
    return max(min(2, cap), min(cap, _dispatch.DEPTHWISE_BLOCK_BYTES // pl.smem_bytes))


def mma_item_rows(items: int, blocks_per_item: int, resident: int) -> int:
    """grid_z for ct1d_mma's warpgroup blocks, which take items z, z + grid_z, ... in
    turn: the largest grid_z = items / k (k >= 2, every block the same number of items)
    whose grid fills 90-100% of the resident blocks, so that one wave of blocks replaces
    the k waves of one item each; else ``items`` (one item per block, as elsewhere)."""
    for k in range(2, items + 1):
        rows = items // k
        if items % k == 0 and 0.9 * resident <= rows * blocks_per_item <= resident:
            return rows
    return items


def _resident_blocks(kern, pl, device_id: int) -> int:
    """Blocks of this kernel that the device holds at once (occupancy x SMs)."""
    from cupy_backends.cuda.api.driver import occupancyMaxActiveBlocksPerMultiprocessor
    per_sm = occupancyMaxActiveBlocksPerMultiprocessor(kern.kernel.ptr, pl.key.threads,
                                                        pl.smem_bytes)
    return max(1, per_sm) * _sm_count(device_id)


def _param_block(grid, scalars):
    # one 8-byte slot per argument (an int32 reads its slot's low half: little-endian)
    values = np.zeros(4 + len(scalars), np.uint64)
    values[4:] = [int(v) & 0xFFFFFFFF for v in scalars]
    pointers = values.ctypes.data + 8 * np.arange(len(values), dtype=np.uint64)
    return grid, values, pointers, pointers.ctypes.data


def run(prep: Prepared, x, weight, bias, y) -> None:
    """Launch on CuPy's current stream. Arrays are C-contiguous CuPy arrays on the current
    device; y is 16-byte aligned and not empty."""
    import cupy
    run_pointers(prep, x.data.ptr, weight.data.ptr, 0 if bias is None else bias.data.ptr,
                 y.data.ptr, cupy.cuda.get_current_stream().ptr)


_raw_lock = threading.Lock()
_launch_kernel = None       # cupy_backends' cuLaunchKernel binding, imported on first use


# Programmatic dependent launch (sm_90+): every kernel starts by waiting for the grid
# before it (kernels/ct1d_types.cuh, pdl_prologue), so each launch may carry the
# programmatic-serialization attribute and begin while that grid drains: about 1 us per
# back-to-back call (GPU time: small calls 10-23% less, the bf16 seed 1%;
# benchmarks/pdl_probe.py).
# False: plain cuLaunchKernel everywhere. A PDL launch costs the host more than a plain one
# (small calls' wall clock 11-12 -> 16-25 us per call, results/2026-12-03-session30/run_3),
# which only calls whose GPU time covers the host's hide: those writing at least
# PDL_MIN_OUTPUT_BYTES (the seeds: 0.54-1.07 GB; host-bound small calls stay plain).
PDL_LAUNCH = True
PDL_MIN_OUTPUT_BYTES = 64 << 20
_PSS = 6      # CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION (cuda.h)


class _LaunchAttribute(ctypes.Structure):       # CUlaunchAttribute: id, 64-byte value union
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_int), ("value", ctypes.c_ubyte * 64)]


class _LaunchConfig(ctypes.Structure):          # CUlaunchConfig
    _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                ("smem", ctypes.c_uint), ("stream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(_LaunchAttribute)), ("n_attrs", ctypes.c_uint)]


_PDL_ATTR = _LaunchAttribute(id=_PSS)
_PDL_ATTR.value[0] = 1                          # programmaticStreamSerializationAllowed
_pdl_failed = False


@functools.lru_cache(maxsize=None)
def _driver_function(name: str, *argtypes):
    """The CUDA driver's function ``name`` (returning a CUresult), or None where libcuda
    cannot be loaded or lacks it."""
    try:
        fn = getattr(ctypes.CDLL("libcuda.so.1"), name)
    except (OSError, AttributeError):
        return None
    fn.argtypes = list(argtypes)
    fn.restype = ctypes.c_int
    return fn


@functools.lru_cache(maxsize=None)
def _launch_kernel_ex():
    """The driver's cuLaunchKernelEx (CUDA >= 12.0), or None where it cannot be loaded.
    (No arguments: run_pointers looks it up on every launch.)"""
    return _driver_function("cuLaunchKernelEx", ctypes.POINTER(_LaunchConfig), ctypes.c_void_p,
                            ctypes.c_void_p, ctypes.c_void_p)


def run_pointers(prep: Prepared, x: int, weight: int, bias: int, y: int, stream: int) -> None:
    """Launch for device pointers (bias 0: none) on the stream handle ``stream``, through
    cuLaunchKernel (cuLaunchKernelEx with PDL where ``prep.pdl``) with the prebuilt
    parameters; the kernel's device must be current."""
    global _launch_kernel, _pdl_failed
    if _launch_kernel is None:
        from cupy_backends.cuda.api.driver import launchKernel as _launch_kernel
    fn = prep.kernel.kernel.ptr
    bx = prep.block[0]
    pdl = bool(prep.pdl) and not _pdl_failed
    with _raw_lock:         # the parameter blocks are shared; the launch copies them
        for i, ((gx, gy, gz), values, _, params) in enumerate(prep.raw):
            values[0], values[1], values[2], values[3] = x, weight, bias, y
            if pdl:
                cfg = prep.pdl[i]
                cfg.stream = stream
                if _launch_kernel_ex()(ctypes.byref(cfg), fn, params, None) == 0:
                    continue
            # (a refused PDL launch: the plain one raises CuPy's error where the launch
            # itself is wrong; where it runs, the driver refused the attribute, and the
            # process launches plainly from now on)
            _launch_kernel(fn, gx, gy, gz, bx, 1, 1, prep.smem, stream, params, 0)
            if pdl:
                _pdl_failed, pdl = True, False


def launch(x, weight, bias, y, p: ConvParams, dtype: str, device_id: int,
           family: Optional[str] = None) -> Optional[Prepared]:
    """y[...] = conv_transpose1d(x, weight, bias) for C-contiguous CuPy arrays.

    ``dtype`` names the element type (``bfloat16`` data may arrive as an int16 view).
    Must be called with ``device_id`` current; runs on the current stream. ``family``
    forces a kernel family (see ``_dispatch.plan``). Returns the launch it ran (None for
    an empty output), for repeat calls to reuse.
    """
    if y.size == 0:
        return None
    if y.data.ptr % 16:       # ct1d_mma stores 16-byte vectors; fresh allocations qualify
        raise ValueError("the output buffer must be 16-byte aligned")
    prep = prepare(p, dtype, device_id, family)
    run(prep, x, weight, bias, y)
    return prep
