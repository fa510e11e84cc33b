"""Kernel instance choice: a pure function from a validated call to a kernel key.

No CuPy and no device here, so every decision is unit-testable on a CPU. The keys
themselves (one class per kernels/*.cu family, their C++ names and shared-memory sizes)
are in ``_keys``; this module holds the measured routing rules (its upper-case
constants, which benchmarks/ab_variant.py overrides as ``dispatch.NAME``) and ``plan``.
"""
from __future__ import annotations

import functools
from dataclasses import replace
from itertools import chain
from typing import Callable, Optional, Tuple

from ._args import ConvParams
# (the key classes are also imported from here by benchmarks/ and tests/)
from ._keys import (ELEMENT_BYTES, DepthwiseKey, GemmKey, KernelKey, LaunchPlan, MmaKey,
                    NarrowKey, PipeKey, StreamKey, WgmmaKey, gemm_density, live_classes,
                    max_class_taps, used_columns)

# Taps up to this many are compile-time constants (fully unrolled index arithmetic);
# larger kernels use the runtime-parameter instance (S = D = K = 0 in the name).
MAX_UNROLLED_K = 32

# Shared-memory budgets per block, in bytes: small enough for >= 2 resident blocks per
# SM on sm_80/sm_90 (164/228 KB), large enough for 64-channel tiles.
_OUT_TILE_BUDGET = 64 * 1024
_STAGE_BUDGET = 40 * 1024
# Accumulator registers per thread (KB*RC*RJ values) before spills set in.
_ACC_BUDGET = 48


def _pow2_at_least(v: int) -> int:
    return 1 << max(0, (v - 1).bit_length())


def max_tile_out(ncol: int, S: int, D: int, K: int) -> int:
    """Largest tile whose columns fit in ``ncol``: (ncol-1)*S + 1 - (K-1)*D (may be < 1)."""
    return (ncol - 1) * S + 1 - (K - 1) * D


FAMILIES = ("ct1d_depthwise", "ct1d_gemm", "ct1d_mma", "ct1d_narrow", "ct1d_pipe", "ct1d_scatter",
            "ct1d_stream", "ct1d_wgmma")
# CUDA limit on gridDim.y and gridDim.z (channel tiles x groups, batch items)
MAX_GRID_YZ = 65535
# The kernels take sizes as int32 and address within a row in 32 bits (row bases are
# 64-bit): positions up to a tile past the row's end must stay below 2**31. Tiles span
# at most this many positions u (ct1d_mma's 256-position halves, ct1d_wgmma's 2 x 128).
_MAX_TILE_POSITIONS = 512


def _rows_fit_int32(p: ConvParams) -> bool:
    """A tile past the row's last output (its positions u*S - padding) stays in int32."""
    return p.length_out + p.padding + p.stride * (_MAX_TILE_POSITIONS + 1) < 2**31
# Per-block dynamic shared memory that still lets two blocks share an sm_90 SM (228 KB,
# 1 KB reserved per block), less 64 bytes for the kernels' static shared words (the 3xFP16
# maxima: 4-24 bytes)
_MMA_SMEM = 113 * 1024 - 64
# ... and the most one block may take (227 KB on sm_90)
_MMA_SMEM_ONE_BLOCK = 227 * 1024 - 64


@functools.lru_cache(maxsize=4096)
def plan(p: ConvParams, dtype: str, family: Optional[str] = None, arch: int = 0,
         card: str = "", clusters: Tuple[int, ...] = ()) -> LaunchPlan:
    """Choose the kernel family, instance and tile geometry for one call.

    Depthwise and narrow groups (at most 4 input channels per group) go to
    ct1d_depthwise, a memory-bound gather on CUDA cores. Three tensor-core families serve
    channel blocks wide enough for 16x8x8 MMA tiles: ct1d_gemm the compute-heavy float32
    calls (``_prefers_gemm``), ct1d_stream float32 calls of narrow groups with many
    multiply-adds per output (``_prefers_stream``), ct1d_mma the other
    float32/float16/bfloat16 ones. On sm_90 float64 calls that float32's rules give
    ct1d_gemm take its DFMA path where they fill the GPU (``GEMM_F64``).
    float32, float16 and bfloat16 calls with more than 4 input and at most 8 output
    channels per group go to ct1d_narrow (CUDA cores: all of a group's output channels
    per block, x read once), ahead of the tensor-core families (``_prefers_narrow``; on
    sm_90 the compute-heavy ones to ct1d_wgmma (float32 ones at strides >= 5,
    ``_narrow_to_wgmma``), float32 ones of 3-8 output channels to
    ct1d_pipe first; 16-bit 8-64 -> 8 per group stay on ct1d_mma), and so do small calls
    with wide reductions to 9-64 output channels per group (``_prefers_narrow_small``:
    chunks of 4 or 8 per block; on sm_90 ct1d_gemm takes the float32 ones it splits over
    clusters with blocks of <= 8 warps) and float64 narrow-output calls that only
    ct1d_scatter would take (``NARROW_FALLBACK_DTYPES``; float32 and float64: any such
    call, ``SCATTER_TO_NARROW_DTYPES``). float32 calls whose ct1d_mma tile cannot
    stage all its weights go to ct1d_stream, ct1d_wgmma, ct1d_gemm or ct1d_narrow, 16-bit
    ones of >= 8 taps to ct1d_stream or ct1d_gemm (``_mma_partial``).
    ct1d_depthwise also takes the groups those leave with at most 32 input and fewer than
    8 output channels; the CUDA-core scatter family serves everything else (16-bit calls
    no other family takes, and calls beyond ct1d_narrow: more than MAX_UNROLLED_K taps,
    strides over 16). ``family`` forces one
    (tests use it to run several on the same calls). ``arch`` is the device's compute
    capability (90 for sm_90; 0: none known): on sm_90 the float32 calls ct1d_gemm would
    take go to ct1d_wgmma, its warpgroup-MMA successor, where that applies and pays
    (``_prefers_wgmma``: wide or strided GEMMs of enough blocks whose rows hold taps;
    float32 by 3xTF32, or the scaled 3xFP16 split where they have >= 4 column offsets),
    ct1d_mma's 64-channel x 128-position instances run their products on warpgroup MMA
    (``mma_warpgroup``), memory-bound float32 calls of 16-64 input channels per group
    that ct1d_pipe covers go there first (``_prefers_pipe``), and float32 ct1d_gemm calls
    of few tiles split each tile's reduction over a cluster of blocks (``gemm_split``:
    ``GemmKey.split``, kernel ct1d_gemm_split). ``card`` names the sm_90
    card whose measured rules apply (``card_of``; "": the H200's, CARD_RULES the others'),
    ``clusters`` how many clusters of 1, 2, ... 8 whole-SM blocks the device holds at once
    (``_gpu.device_cluster_slots``; (): an H100's, GEMM_SPLIT_CLUSTERS).
    """
    if family not in (None,) + FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    # (stride and dilation are template arguments too: an int; with L_in = 1 or K = 1 no
    # row length below bounds them)
    big = {name: v for name, v in (("C_in", p.in_channels), ("C_out", p.out_channels),
                                   ("L_in", p.length_in), ("padding", p.padding),
                                   ("stride", p.stride), ("dilation", p.dilation))
           if v >= 2**31}
    if big:
        raise NotImplementedError(f"the GPU kernels take sizes below 2**31, got {big}; use "
                                  "backend='cpu' for this call")
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    clusters = clusters or GEMM_SPLIT_CLUSTERS
    pl = None
    if family == "ct1d_depthwise" or (family is None and cig <= DEPTHWISE_MAX_CIG):
        pl = _plan_depthwise(p, dtype)
    if pl is None and family is None and _prefers_narrow_small(p, dtype):
        pl = _split_gemm(p, dtype, arch, clusters) or _plan_narrow(p, dtype)
    narrow = family is None and _prefers_narrow(p, dtype)
    if pl is None and narrow and arch == WGMMA_ARCH and _narrow_to_wgmma(p, dtype):
        pl = _plan_wgmma(p, dtype)          # (None where its GEMM is too sparse)
    if pl is None and (family == "ct1d_narrow" or (narrow and cog <= NARROW_BEFORE_PIPE_COG)):
        pl = _plan_narrow(p, dtype)
    if pl is None and (family == "ct1d_pipe" or (family is None and arch == WGMMA_ARCH
                                                  and PIPE_ROUTE)):
        pl = _plan_pipe(p, dtype, card)
        if family is None and pl is not None and not _prefers_pipe(p, pl, card):
            pl = None
    if pl is None and narrow and cog > NARROW_BEFORE_PIPE_COG:      # (after ct1d_pipe)
        pl = _plan_narrow(p, dtype)
    if pl is None and (family == "ct1d_wgmma" or (family is None and arch == WGMMA_ARCH)):
        pl = _plan_wgmma(p, dtype)
        if (family is None and pl is not None and not _prefers_wgmma(p, pl)
                and not _wgmma_as_float32(p, dtype, arch, card, clusters)):
            pl = None
    if pl is None and (family == "ct1d_gemm" or (family is None and _prefers_gemm(p, dtype)
                                                  and not _mma_staged(p, dtype, arch))):
        pl = _plan_gemm(p, dtype, ck8=family == "ct1d_gemm")
        if family is None and pl is not None and dtype == "float64" and not _gemm_f64_pays(p, pl, arch):
            pl = None
    if pl is None and (family == "ct1d_stream" or (family is None and _prefers_stream(p, dtype, arch))):
        pl = _plan_stream(p, dtype)
    if pl is None and family in (None, "ct1d_mma"):
        pl = _plan_mma(p, dtype, arch)
        if family is None and pl is not None and _mma_partial(p, dtype, pl):
            pl = _plan_mma_partial(p, dtype, arch) or pl
    if pl is None and family is None and cig > DEPTHWISE_MAX_CIG and cog < DEPTHWISE_NARROW_COG:
        pl = _plan_depthwise(p, dtype)
    if pl is None and family is None and (dtype in NARROW_FALLBACK_DTYPES and _narrow_output(p)
                                          or dtype in SCATTER_TO_NARROW_DTYPES):
        pl = _plan_narrow(p, dtype)         # (rather than ct1d_scatter)
    if pl is None:
        if family is not None and family != "ct1d_scatter":
            raise NotImplementedError(f"{family} does not cover this call")
        pl = _plan_scatter(p, dtype)
    if arch == WGMMA_ARCH and pl.key.family == "ct1d_gemm":
        split = gemm_split(p, pl, clusters)
        if split > 1:
            pl = replace(pl, key=split_key(pl.key, split))
    if arch == WGMMA_ARCH and pl.key.family == "ct1d_narrow" and _narrow_may_split(p, dtype, pl):
        key = _narrow_key(p, dtype, pl.key.cog, clusters=clusters)
        if key is not None and key.split > 1:
            pl = narrow_launch_plan(p, key)
    # checked here, before any module is compiled for the call
    if p.groups * pl.co_chunks > MAX_GRID_YZ:
        raise NotImplementedError(f"groups * ceil(C_out/groups / {pl.key.co_tile}) = "
                                  f"{p.groups * pl.co_chunks} exceeds the grid limit {MAX_GRID_YZ}")
    return pl


# ct1d_depthwise serves calls with at most this many input channels per group (one
# multiply-add chain per channel and tap: memory-bound, see kernels/ct1d_depthwise.cu) ...
DEPTHWISE_MAX_CIG = 4
# ... and, where no tensor-core family applies, up to this many with fewer output channels
# per group than this: 1.4-3.4x faster than ct1d_scatter on grouped calls with 7-32 input
# and 2-7 output channels per group, 2.1x on a 32 -> 1 projection
# (results/2026-11-30-session6/family_compare_narrow*.txt)
DEPTHWISE_NARROW_MAX_CIG = 32
DEPTHWISE_NARROW_COG = 8
# Its output segment per block (shared memory), and the registers a thread's U > 1
# positions may hold (U*S sums plus U x columns per used offset)
_DEPTHWISE_SMEM = 32 * 1024
_DEPTHWISE_REGS = 64
# 128 threads x 4 positions: 1.0-1.3x faster than 256 x 4 and 1.5-3x faster than 1 or 2
# positions per thread (more loads in flight), results/2026-11-30-session6/tune_depthwise*
_DEPTHWISE_THREADS = 128
_DEPTHWISE_MAX_U = 4
# A block takes segments of its row up to this much output (_gpu.depthwise_tiles_per_block;
# 2-4 segments): dw-64-k16-s8's 16 KB segments 4 -> 2 per block, 0.097 -> 0.090 ms (74% ->
# 80% of copy) in run 2, 0.099 -> 0.092 in run 3; with 4-8 KB segments 2 or 8 per block
# are equal or 2-5% slower than 4 (results/2026-12-02-session23/run_2/ab_walk.txt
# "rowgrid-t2/-t8", run_3/ab_f32.txt)
DEPTHWISE_BLOCK_BYTES = 32 * 1024


def depthwise_key(p: ConvParams, dtype: str) -> Optional[DepthwiseKey]:
    """The ct1d_depthwise instance for a call (None where the family does not apply)."""
    S, D, K = p.stride, p.dilation, p.kernel_size
    # one block row per output channel (grid y); positions u*S of a row in 32-bit
    if (p.in_channels // p.groups > DEPTHWISE_NARROW_MAX_CIG or K > MAX_UNROLLED_K or S > 16
            or p.out_channels > MAX_GRID_YZ or p.length_out + p.padding + S >= 2**31):
        return None
    columns = used_columns(S, D, K)
    per_u = (2 if dtype == "float64" else 1) * (S + columns)
    # (one position always fits: at most 2 * (16 + 32) registers)
    u = min(_DEPTHWISE_MAX_U, max(1, _DEPTHWISE_REGS // per_u),
            _DEPTHWISE_SMEM // (S * _DEPTHWISE_THREADS * ELEMENT_BYTES[dtype]))
    return DepthwiseKey(dtype, S, D, K, u, _DEPTHWISE_THREADS)


def _plan_depthwise(p: ConvParams, dtype: str) -> Optional[LaunchPlan]:
    key = depthwise_key(p, dtype)
    return None if key is None else depthwise_launch_plan(p, key)


def depthwise_launch_plan(p: ConvParams, key: DepthwiseKey) -> LaunchPlan:
    """Tile geometry of a ct1d_depthwise instance: row segments of at most NU positions."""
    u_first, n_u = _row_positions(p)
    # the kernel splits a row's n_u positions into n_tiles equal segments, each <= NU
    return LaunchPlan(key, p.stride * key.nu, -(-n_u // key.nu), p.out_channels // p.groups,
                      key.smem_bytes(), u_first)


# float32 calls with more input channels per group than ct1d_depthwise's one-row blocks
# take (> DEPTHWISE_MAX_CIG) and at most NARROW_MAX_COG output channels per group go to
# ct1d_narrow (forced: any dtype), those with at most NARROW_BEFORE_PIPE_COG before
# ct1d_pipe, the rest where ct1d_pipe does not take them. H100, session 54
# (results/2026-12-06-session54/run_3/fc_f32.txt, ms, the dispatcher's family before ->
# ct1d_narrow; torch fp32): in192-out1-s4 ct1d_wgmma 0.390 -> 0.122 (torch 0.189),
# in192-out1-s8d2 0.288 -> 0.070 (0.075), in256-out8-k16d2 2.157 -> 0.254 (0.177),
# in1024-out4-s4 0.240 -> 0.186 (0.135), in512-out8-s2 0.949 -> 0.799 (0.483);
# in768-out8-s10 ct1d_mma 1.419 -> 0.403 (0.184), in128-out8-s8 0.124 -> 0.080 (0.073),
# in768-out8-k5d2 (N = 1) 0.102 -> 0.042 (0.043); g2-in64-out2 ct1d_scatter 0.089 -> 0.052;
# narrow groups off ct1d_depthwise: g4-cig32-cog4 0.164 -> 0.093, g16-cig7 0.128 -> 0.108,
# g8-cig8-cog2 0.062 -> 0.050; off ct1d_pipe at one output channel: in64-out1-k3 0.150 ->
# 0.111, proj-32-1-k7 0.146 -> 0.107; but g8-cig16-cog4 stays there (0.090, ct1d_narrow
# 0.101). float16 and bfloat16 take the same route since session 66 (bfloat16, H100,
# results/2026-12-06-session66/run_3, run_5: the random calls whose plan moves, 3 rounds):
# narrow groups off ct1d_depthwise 1.25x over 85 calls, small wide reductions off
# ct1d_gemm / ct1d_wgmma 1.58x / 1.46x, ct1d_wgmma first from 128 multiply-adds per x
# value (in768-out8-s10 ct1d_mma 1.24 -> 0.095 ms), but 8 output channels per group from
# 8-64 input channels stay on ct1d_mma, whose tiles stage all their weights and pay one
# tensor-core product per multiply-add (those calls ran 0.30-2.08x on ct1d_narrow, 14 of
# 21 slower; from 96 input channels 19 of 24 faster). With that rule 1.39x / 1.41x over
# the moved calls of draws 0-3 / 4-7, 7 / 5 of 66 / 62 more than 5% slower. float64: only
# where ct1d_scatter would take them (NARROW_FALLBACK_DTYPES).
NARROW_ROUTE = True
NARROW_DTYPES = ("float32", "bfloat16", "float16")
NARROW_16BIT_MMA_MAX_CIG = 64
# Calls of other dtypes that no family but ct1d_scatter takes go to ct1d_narrow:
# float64, H100, session 55 (results/2026-12-06-session55/run_2/fc_f64.txt, ms,
# ct1d_scatter -> ct1d_narrow; torch): in512-out8-s2 3.828 -> 1.236 (1.032),
# in1024-out4-s4 10.820 -> 0.342 (0.297), in768-out8-s10 9.060 -> 0.924 (0.417),
# in256-out8-k16d2 1.435 -> 0.483 (1.396), in768-out8-k5d2 1.115 -> 0.131 (0.195),
# in128-out8-s8 0.820 -> 0.161, in192-out1-s4 0.308 -> 0.164, in192-out1-s8d2 0.321 ->
# 0.155, in64-out1-k3 0.242 -> 0.214, g2-in64-out2 0.123 -> 0.105: 10 of 10 faster.
# bfloat16 (run_3/fc_bf16_scatter.txt, the calls ct1d_scatter took): in192-out1-s4 0.325
# -> 0.104 (torch bf16 0.402), in192-out1-s8d2 0.188 -> 0.060, in1024-out4-s4 2.346 ->
# 0.249 (0.154; ct1d_wgmma forced: 0.086, run_2), g2-in64-out2 0.094 -> 0.040, in64-out1-k3
# 0.241 -> 0.094; float16 runs the same code but its conversions (not timed)
NARROW_FALLBACK_DTYPES = ("float64", "bfloat16", "float16")
# ... and float32 calls of any output width that only ct1d_scatter would take (strides of
# 10 with 16-20 taps; 5 of 1000 random calls, ct1d_narrow in chunks of 8 output channels):
# H100, session 56 (results/2026-12-06-session56/run_2/sync_scan.txt, ms, ct1d_scatter ->
# ct1d_narrow; torch): r040 64 -> 384 g8 K3 S10 0.142 -> 0.084 (4.130), r146 8 -> 48 K20
# S10 (N = 1) 0.049 -> 0.026 forced (0.031), r475 8 -> 768 K20 S10 0.155 -> 0.068 (0.290),
# r589 16 -> 512 g2 K16 S10 0.380 -> 0.163 (0.746), r813 96 -> 48 K20 S10 0.981 -> 0.309
# (0.358; ct1d_gemm forced 0.221). float64 too (no tensor-core family takes it): H100,
# session 70, the 160 scan calls against torch fp64 (results/2026-12-07-session70/run_7/,
# one process per rule): 92 move, 89 of them > 5% faster, geomean 2.43x (r152 1024 -> 24
# K20 S10 N1 0.04x -> 0.66x torch, r029 0.09x -> 1.42x, r068 384 -> 1024 K17 S8 0.12x ->
# 0.84x); slower: r154 64 -> 64 K1 0.74x, r117 128 -> 256 K4 S2 D3 N1 0.92x. All 160
# calls 2.02x -> 3.35x torch fp64, 43 -> 18 slower. (Chunks of 4 output channels instead:
# 3.42x, 14 slower, but no rule that separates their 1.03x of gains from losses.)
SCATTER_TO_NARROW_DTYPES = ("float32", "float64")
NARROW_MAX_COG = 8
NARROW_BEFORE_PIPE_COG = 2
# ... but on sm_90 those with at least this many multiply-adds per loaded x value (C_out
# per group x K) go to ct1d_wgmma where it covers them: compute-bound on CUDA cores
# (session 54, run 3, ms: in768-out8-s10 ct1d_narrow 0.403, ct1d_wgmma 0.221, torch 0.184;
# in128-out8-s8 0.080, 0.044, torch 0.073; at 32-40 ct1d_narrow was the faster:
# in512-out8-s2 0.799 against 0.949, in1024-out4-s4 0.186 against 0.240)
NARROW_WGMMA_MIN_MACS = 128
# (lower thresholds lose: H200, session 78, 40 ran 0.43x and 64 0.67x geomean on 20
# random float32 calls, 40 0.71x on 10 bfloat16 ones). Float32 calls go there only at
# strides of at least this: below it ct1d_narrow is now the faster (H200, session 78,
# results/2026-12-07-session78 run_3-4, ct1d_wgmma -> ct1d_narrow, medians of 3 rounds):
# 16 random calls of strides 2-4 and C_out x K 128-256, 1.72x geomean, all faster (u08
# 1024 -> 4 K32 S3 8.20 -> 2.46 ms, torch 1.58), and 16 drawn after those ran, 1.60x, 15
# faster (w05 0.68 -> 0.81). Strides 8 and 10 are session 54's calls above, not measured
# since; 5-7 never. 16-bit calls keep the route (the same calls in bfloat16: 0.46-0.86x
# on ct1d_narrow, run_5).
NARROW_WGMMA_F32_MIN_STRIDE = 5
# A thread's sums and x columns (U*(S*COG + 2*columns), the next channel's x in flight) in
# at most this many registers (float64: half as many U), ...
_NARROW_REGS = 96
_NARROW_MAX_U = 4
_NARROW_THREADS = 256
# ... its shared memory within this (a few blocks per SM), ...
_NARROW_SMEM = 48 * 1024
# ... and its threads split into input-channel groups (1, 2, 4, 8; at most half the
# channels) and positions per thread as model fastest in waves of the blocks resident at
# once on NARROW_SMS SMs (NARROW_WAVES; narrow_key). One group and 4 positions per thread
# gave in512-out8-s2 272 blocks for 264 slots, a second wave of 8 blocks. H100, ct1d_narrow
# forced, medians of 3 rounds (results/2026-12-06-session55/run_3/ab_narrow.txt, ms, the
# earlier rule -> waves -> waves with CT1D_NARROW_AHEAD 2; torch fp32): in512-out8-s2
# 0.781 -> 0.461 -> 0.386 (0.506), in1024-out4-s4 0.231 -> 0.181 -> 0.144 (0.139),
# in256-out8-k16d2 0.257 -> 0.277 -> 0.237 (0.173), scan calls r145 0.093 -> 0.066 -> 0.054,
# r128 0.051 -> 0.044 -> 0.043, r122 0.163 -> 0.167 -> 0.146; slower: in192-out1-s4 0.084
# -> 0.118 -> 0.093 (torch 0.185); six others within 3%. The earlier rule (NARROW_WAVES
# False): the fewest groups that give a call at least NARROW_MIN_BLOCKS blocks, then fewer
# positions per thread where even 8 do not.
NARROW_WAVES = True
NARROW_MIN_BLOCKS = 264
# A group's float32 sum of an output is one chain of ceil(C_in/groups / cs) x (taps of
# its class) additions, whose error grows with its length: H100, session 56
# (results/2026-12-06-session56/run_5/ab_chain.txt, against float64): 4096-6144 additions
# read 1.1-1.4e-6, above the 1e-6 bar (scan calls r018 256 -> 8 with 16 taps per class at
# cs = 1; 384 -> 512 K16 S1; 768 -> 512 K16 S2 D2), 2048 read 5.8-8.0e-7, 192-1344
# 3.5-6.5e-7. So the threads take at least the input-channel groups (cs, up to 8) that
# keep the chains within this many additions. More groups than the cost model picks cost
# time (at most 512 additions: r018 0.239 -> 0.277 ms, a 192 -> 1 K7 S3 D3 call 0.140 ->
# 0.199), hence the bound at the longest chains measured below the bar. (Since session
# 74 the length beyond which a thread's sums are blocked instead: below.)
NARROW_MAX_CHAIN = 2048
# Where even 8 groups leave longer chains (more than 8 x NARROW_MAX_CHAIN terms per class,
# e.g. 1024 input channels per group and 32 taps at S = 1: 4096 additions, 1.5e-6 in a
# GPU test), the instance sums each weight chunk's products from zero and adds those
# partial sums to the running ones (NarrowKey.blk: chains of at most 8 channels' taps and
# of the chunk count; that call 2.8e-7 in an exact CPU emulation of both orders,
# benchmarks/narrow_chain.py). It costs a second set of sums in registers. H100, forced
# ct1d_narrow, medians of 3 rounds (results/2026-12-07-session74/run_3/ab_blk.txt): five
# such calls' errors 0.9-1.4e-6 -> 2.3-3.0e-7, time 1.00-1.06x and 1.33x (2 x 1024 -> 8
# K32 S1 D3, one channel per chunk, 0.373 -> 0.494 ms; CT1D_NARROW_BLK_TERMS).
NARROW_BLK = True
# NARROW_BLK_ANY_CS: every float32 call whose chain the cost model's groups leave longer
# than NARROW_MAX_CHAIN takes blocked sums on those groups instead of the extra groups the
# bound asks for (16-bit and float64 calls keep the bound: unmeasured there). H100, forced
# ct1d_narrow, medians of 3 rounds (results/2026-12-07-session75/run_1/ab_blk3.txt: the 5
# calls above and the 19 of session 74's anycs_calls.txt, 384 -> 8 K16 S1, 256 -> 8 K12,
# 512 -> 1 K8 and the like): 1.080x geomean against the bound, 2 x 1024 -> 8 K32 S1 D3
# 0.479 -> 0.303 ms (4 groups, not 8), n16-384-8-k16 1.474 -> 1.123; 2 slower: 1024 -> 8
# K24 S1 D3 0.214 -> 0.253 (4 groups, not 8) and 2048 -> 1 K2 S1 0.727 -> 0.831 (1, not 2);
# errors <= 8.1e-7 -> <= 3.0e-7 (every output NaN-poisoned, against float64). In the
# first of the slower two the model counts one block per SM for the 8-group instance,
# which NVRTC 13 compiles to 128 registers (sm_90), so two fit (benchmarks/narrow_regs.py
# finds such differences in 16 of 80 random plans). Joining fewer chunks
# (CT1D_NARROW_BLK_TERMS 256) on top added nothing (1.078x). The narrow GPU tests and the
# random-call selection passed with this default (H100, results/2026-12-07-session77/).
NARROW_BLK_ANY_CS = True
# NARROW_SPLIT (sm_90): for calls of less than a wave of blocks whose outputs each sum at
# least NARROW_SPLIT_MIN_CHAIN products (input channels per group x taps per class), the
# cost model also weighs clusters of 2-8 blocks that share each tile's reduction
# (NarrowKey.split, ct1d_narrow_split: each rank its own run of the input channels, joined
# in rank order through distributed shared memory). H100, forced ct1d_narrow, split off ->
# on, medians of 3 rounds (results/2026-12-07-session77/run_1/chains/ab_split.txt):
# session 74's long-chain calls (chains 20480-48000) 2.54x (2 x 2048 -> 8 K32 S2: 0.304 ->
# 0.120 ms), 4.33x (1 x 1500 -> 4 K32: 0.179 -> 0.041, torch 0.061), 1.98x, 1.24x; random
# calls with chains of 3072-16384 all 1.08-1.40x; below, the join and the cluster
# barrier cost more than the extra blocks save: chains of 256-1536 0.60-0.95x on five
# calls, 1.00-1.10x on three. float32 only (the ranks' sums are read as float; 16-bit
# inputs unmeasured, float64 has no cluster reads).
NARROW_SPLIT = True
NARROW_SPLIT_MIN_CHAIN = 2048
NARROW_SPLIT_DTYPES = ("float32",)
NARROW_SPLIT_MAX = 8        # a portable cluster's blocks
NARROW_SMS = 132            # an H100 SXM's or H200's
NARROW_BPS = 0              # blocks per SM the model counts on (0: _narrow_blocks_per_sm's)


# Small float32 calls (N x L_in <= NARROW_SMALL_MAX_LENGTH) with wide reductions (>=
# NARROW_SMALL_MIN_CIG input channels per group) to 9-64 output channels per group go to
# ct1d_narrow too, a group's outputs in chunks of <= 8 per block: the tensor-core families
# give them 8-32 blocks, each over the whole reduction. H100, N = 1, L = 1024, ms
# (results/2026-12-06-session55/run_3/ab_narrow.txt; the default ct1d_gemm from run 1's
# scan; torch fp32): 1024 -> 64 K=3 S=1 0.156 -> 0.041 (0.044), 768 -> 24 K=10 S=5 0.110
# -> 0.048 (0.036), 1024 -> 24 K=20 S=10 0.177 -> 0.095 (0.048)
NARROW_SMALL_MIN_CIG = 512
NARROW_SMALL_MAX_COG = 64
NARROW_SMALL_MAX_LENGTH = 1024
# ... except, on sm_90, where ct1d_gemm splits the call's reduction over clusters (session
# 58) with blocks of at most NARROW_SMALL_GEMM_THREADS threads (8 warps: strides <= 2, or
# 3-4 with fewer warps per class). H100, forced families through prepared launches, every
# such call of draws 0-7 (results/2026-12-06-session59/run_6/): chosen on draws 0-3 (41
# calls): 1.39x over ct1d_narrow, 1 call more than 5% slower; draws 4-7 (48): 1.29x, 1
# slower (512 -> 32 K7 S4: 0.025 -> 0.027 ms), slower than torch 18 -> 12. E.g. 1024 -> 16
# K16 S2 D3 0.115 -> 0.027 ms (torch 0.048), 768 -> 64 K4 S2 0.048 -> 0.020 (0.040).
# Blocks of 10-14 warps (strides 3-10) split too, but lost there as often as they won
# (768 -> 16 K3 S10 D2: 0.025 -> 0.065).
NARROW_SMALL_GEMM_THREADS = 256
# ... and ct1d_narrow takes those in chunks of NARROW_SMALL_CHUNK_COG output channels per
# block (not NARROW_MAX_COG) where that leaves the call at least as many blocks: lighter
# blocks (half the sums per thread; the cost model then picks positions and channel groups
# again). H100, forced ct1d_narrow, medians of 3 rounds (results/2026-12-06-session65/
# run_5/ab_cog_in.txt), the 12 such calls of draws 0, 1 and 3: 1024 -> 24 K20 S10 N1
# 0.0948 -> 0.0727 ms (torch 0.048), 512 -> 64 K5 S8 0.0567 -> 0.0307 (0.031), 1024 -> 16
# K5 S5 0.0412 -> 0.0319, eight more 1.03-1.19x; 768 -> 64 K3 S3 D2 0.92x (264 -> 176 blocks: it
# keeps chunks of 8). Chunks of 2: 0.64-1.84x. Out of sample (run_6/ab_small_chunks.txt,
# 5 rounds): every such call of draws 4-11 (32; 29 move), 1.14x over chunks of 8
# (0.75-1.66x; 1024 -> 16 K16 S10 0.0772 -> 0.0466 ms, torch 0.049; slower: 512 -> 48 K16
# S3 0.0610 -> 0.0814), slower than torch 24 -> 18.
NARROW_SMALL_CHUNK_COG = 4
# (Refuted, session 66: such calls in 512-thread blocks of 16 channel groups, the same
# tiles, 0.98x over the 44 small-route calls of draws 0-11 on an H100; the knob is
# benchmarks/variants/narrow_small_threads_s66.patch.)


def _prefers_narrow_small(p: ConvParams, dtype: str) -> bool:
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    return (NARROW_ROUTE and dtype in NARROW_DTYPES and cig >= NARROW_SMALL_MIN_CIG
            and NARROW_MAX_COG < cog <= NARROW_SMALL_MAX_COG
            and p.batch * p.length_in <= NARROW_SMALL_MAX_LENGTH)


def _split_gemm(p: ConvParams, dtype: str, arch: int, clusters: Tuple[int, ...]
                ) -> Optional[LaunchPlan]:
    """The ct1d_gemm plan of a small wide-reduction call where it splits its reduction with
    blocks of at most NARROW_SMALL_GEMM_THREADS threads (plan() adds the split), else None."""
    pl = _plan_gemm(p, dtype) if arch == WGMMA_ARCH else None
    if (pl is None or pl.key.threads > NARROW_SMALL_GEMM_THREADS
            or gemm_split(p, pl, clusters) == 1):
        return None
    return pl


def _narrow_blocks_per_sm(regs_per_thread: int, macs: int) -> int:
    """Blocks of 256 threads ptxas fits per SM: 2 where a thread's sums and columns take
    at most 80 registers and a column's products at most 64 (NVRTC 13.0, sm_90, float32,
    CT1D_NARROW_AHEAD 1: those instances compiled to <= 126 registers; larger tap sets
    hoist their weights, 145-253), else 1. An estimate: ptxas's choices vary with the
    channel groups and AHEAD (e.g. 4 groups of 3 positions at K=8, 4 outputs: 126 or 202);
    capping every instance at 128 (CT1D_NARROW_MIN_BLOCKS 2 with NARROW_BPS 2) was no
    better overall in run 3 (in768-out8-s10 0.362 -> 0.428 ms, r159 0.084 -> 0.096,
    in1024-out4-s4 0.144 -> 0.118)."""
    return 2 if regs_per_thread <= 80 and macs <= 64 else 1


def _narrow_regs_per_u(dtype: str, S: int, cob: int, columns: int, blk: bool) -> int:
    """Registers the model counts per position u: its S x cob sums (a second set with
    blocked sums) and two sets of x columns (the next channel's in flight); float64 twice."""
    return (S * cob * (1 + blk) + 2 * columns) * (2 if dtype == "float64" else 1)


def _narrow_modelled_blocks_per_sm(key: NarrowKey) -> int:
    """Blocks of a ct1d_narrow instance the cost model counts on per SM."""
    columns = used_columns(key.stride, key.dilation, key.kernel_size)
    regs = key.u * _narrow_regs_per_u(key.dtype, key.stride, key.cog, columns, key.blk)
    return NARROW_BPS or _narrow_blocks_per_sm(regs, key.kernel_size * key.cog)


def _narrow_may_split(p: ConvParams, dtype: str, pl: LaunchPlan) -> bool:
    """Whether the cost model weighs cluster splits for this ct1d_narrow plan (sm_90):
    NARROW_SPLIT's dtypes, outputs summing >= NARROW_SPLIT_MIN_CHAIN products, and less
    than a wave of blocks (where the GPU is full, the model's preference for ranks over
    groups is unmeasured)."""
    chain = p.in_channels // p.groups * max_class_taps(p.stride, p.dilation, p.kernel_size)
    return (NARROW_SPLIT and dtype in NARROW_SPLIT_DTYPES and chain >= NARROW_SPLIT_MIN_CHAIN
            and _block_count(p, pl) < NARROW_SMS * _narrow_modelled_blocks_per_sm(pl.key))


def _long_chain(cig: int, taps: int, ways: int) -> bool:
    """Whether a group's cig input channels split ``ways`` ways (thread groups x cluster
    ranks), times ``taps`` per class, leave float32 sums beyond NARROW_MAX_CHAIN additions."""
    return -(-cig // ways) * taps > NARROW_MAX_CHAIN


def narrow_blocked(dtype: str, cig: int, taps: int, ways: int) -> bool:
    """Whether ct1d_narrow sums each weight chunk from zero (NarrowKey.blk): where the
    chains are long (_long_chain; float64's are 2**29 times finer)."""
    return NARROW_BLK and dtype != "float64" and _long_chain(cig, taps, ways)


def _narrow_to_wgmma(p: ConvParams, dtype: str) -> bool:
    """Whether a narrow-output call is compute-bound enough for ct1d_wgmma on sm_90."""
    return (p.out_channels // p.groups * p.kernel_size >= NARROW_WGMMA_MIN_MACS
            and (dtype != "float32" or p.stride >= NARROW_WGMMA_F32_MIN_STRIDE))


def _narrow_output(p: ConvParams) -> bool:
    """More input channels per group than ct1d_depthwise takes, at most NARROW_MAX_COG
    output channels per group."""
    return (p.in_channels // p.groups > DEPTHWISE_MAX_CIG
            and p.out_channels // p.groups <= NARROW_MAX_COG)


def _prefers_narrow(p: ConvParams, dtype: str) -> bool:
    if not (NARROW_ROUTE and dtype in NARROW_DTYPES and _narrow_output(p)):
        return False
    # 16-bit calls that ct1d_mma tiles with at most NARROW_16BIT_MMA_MAX_CIG input
    # channels per group stay there (one tensor-core product per multiply-add)
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    return dtype == "float32" or not (cog >= 8 and 8 <= cig <= NARROW_16BIT_MMA_MAX_CIG)


# ct1d_narrow's x prefetch running on across weight chunks (NarrowKey.xchain, the kernel's
# XCH: without it every warp of a block waits one x latency after each chunk's barrier).
# It costs registers (NVRTC 13.5: u08 224 -> 240; a 125-register instance 230, which
# halves its blocks per SM), so it goes only to float32 instances the cost model runs at
# one block per SM, with at least two input channels per group and chunk (the kernel's
# CT1D_NARROW_AHEAD, 2: fewer leave it a no-op). Off: on an H100 (session 80, run_3) it
# gave 1.026x over the 28 of session 78's 32 calls it re-plans (u07 1.43x; u08 0.88x)
# and 0.971x over 5 fresh ones (n04 0.65x), short of its rule; correct there (run_2).
NARROW_XCHAIN = False
NARROW_XCHAIN_DTYPES = ("float32",)


def _with_xchain(key: NarrowKey) -> NarrowKey:
    if (NARROW_XCHAIN and key.dtype in NARROW_XCHAIN_DTYPES
            and key.channels_per_chunk // key.cs >= 2
            and _narrow_modelled_blocks_per_sm(key) == 1):
        return replace(key, xchain=True)
    return key


def narrow_key(p: ConvParams, dtype: str) -> Optional[NarrowKey]:
    """The ct1d_narrow instance for a call (None where the family does not apply): a
    group's output channels in the fewest chunks of at most NARROW_MAX_COG per block, or
    of NARROW_SMALL_CHUNK_COG for a small wide-reduction call where those give it at least
    as many blocks."""
    key = _narrow_key(p, dtype, NARROW_MAX_COG)
    if (key is not None and NARROW_SMALL_CHUNK_COG < NARROW_MAX_COG
            and _prefers_narrow_small(p, dtype)):
        small = _narrow_key(p, dtype, NARROW_SMALL_CHUNK_COG)
        if small is not None and (_block_count(p, narrow_launch_plan(p, small))
                                  >= _block_count(p, narrow_launch_plan(p, key))):
            return small
    return key


def _narrow_key(p: ConvParams, dtype: str, max_cog: int,
                blocks_per_sm: Optional[Callable[[NarrowKey], int]] = None,
                clusters: Tuple[int, ...] = ()) -> Optional[NarrowKey]:
    """narrow_key with chunks of at most ``max_cog`` output channels (``blocks_per_sm``:
    the blocks of a candidate instance resident per SM, in place of
    _narrow_modelled_blocks_per_sm; benchmarks/narrow_regs.py passes the compiled
    instances' counts). ``clusters``: the cluster slots of an sm_90 device (as for
    gemm_split), with which the cost model also weighs cluster splits (NARROW_SPLIT)."""
    S, D, K = p.stride, p.dilation, p.kernel_size
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    chunks = -(-cog // max_cog)
    cob = -(-cog // chunks)                 # output channels per block
    # one block row per group and chunk (grid y); positions u*S of a row in 32-bit
    if (K > MAX_UNROLLED_K or S > 16 or p.groups * chunks > MAX_GRID_YZ
            or p.length_out + p.padding + S >= 2**31):
        return None
    columns = used_columns(S, D, K)
    taps = max_class_taps(S, D, K)
    cs_min = 1 if NARROW_BLK and NARROW_BLK_ANY_CS and dtype == "float32" else next(
        (c for c in (1, 2, 4) if not _long_chain(cig, taps, c)), 8)

    def blk(cs, split=1):
        return narrow_blocked(dtype, cig, taps, cs * split)

    def key_of(u, cs, split=1):
        return NarrowKey(dtype, S, D, K, cob, u, cs, _NARROW_THREADS, blk(cs, split), split)

    def u_max(cs):
        per_u = _narrow_regs_per_u(dtype, S, cob, columns, blk(cs))
        return min(_NARROW_MAX_U, max(1, _NARROW_REGS // per_u))
    _, n_u = _row_positions(p)

    def blocks(u, cs):
        return p.batch * p.groups * chunks * -(-n_u // (u * _NARROW_THREADS // cs))
    if NARROW_WAVES:
        # the (u, cs) of the least modelled time: waves of resident blocks x a thread's
        # work in each, in channel steps of one position: its input channels x (u + 1)
        # (the products plus the per-channel weight loads and loop), and per output
        # channel the groups' partial sums and a row store (cs + 1); ties to fewer
        # groups, then more positions. A cluster split (clusters: sm_90) multiplies the
        # blocks and divides the channels; its ranks' sums add, per output channel, a
        # store and the loads of the rows each rank joins (NARROW_SPLIT).
        resident = blocks_per_sm or _narrow_modelled_blocks_per_sm

        def cost(u, cs, split):
            per_sm = resident(key_of(u, cs, split))
            slots = NARROW_SMS if split == 1 else clusters[split - 1] * split
            waves = -(-blocks(u, cs) * split // (slots * per_sm))
            join = cob + -(-cob // split) * split if split > 1 else 0
            return (waves * (-(-cig // (cs * split)) * (u + 1) + cob * (cs + 1) + join),
                    cs, -u, split)

        def splits(u, cs):                  # every rank gets at least one weight chunk
            ck = key_of(u, cs).channels_per_chunk
            return [1] + [s for s in range(2, min(len(clusters), NARROW_SPLIT_MAX) + 1)
                          if clusters[s - 1] and split_fits(-(-cig // ck), s)
                          and key_of(u, cs, s).smem_bytes() <= _NARROW_SMEM]
        u, cs, split = min(((u_, cs_, s_) for cs_ in (1, 2, 4, 8) for u_ in range(1, u_max(cs_) + 1)
                            if cs_ == cs_min or cs_min < cs_ <= cig // 2
                            for s_ in splits(u_, cs_)), key=lambda c: cost(*c))
        key = key_of(u, cs, split)
    else:
        cs = cs_min
        u = u_max(cs)
        while cs < 8 and cs * 2 <= cig and blocks(u, cs) < NARROW_MIN_BLOCKS:
            cs *= 2
        u = min(u, u_max(cs))
        while u > 1 and blocks(u, cs) < NARROW_MIN_BLOCKS:
            u -= 1
        key = key_of(u, cs)
    while key.u > 1 and key.smem_bytes() > _NARROW_SMEM:
        key = replace(key, u=key.u - 1)
    return _with_xchain(key)


def _plan_narrow(p: ConvParams, dtype: str) -> Optional[LaunchPlan]:
    key = narrow_key(p, dtype)
    return None if key is None else narrow_launch_plan(p, key)


def narrow_launch_plan(p: ConvParams, key: NarrowKey) -> LaunchPlan:
    """Tile geometry of a ct1d_narrow instance: row segments of at most NU positions, a
    chunk of key.cog of a group's output channels per block (grid y: group x chunk)."""
    u_first, n_u = _row_positions(p)
    return LaunchPlan(key, p.stride * key.nu, -(-n_u // key.nu),
                      -(-(p.out_channels // p.groups) // key.cog), key.smem_bytes(), u_first)


def _row_positions(p: ConvParams):
    """(u_first, n_u): a row's outputs o = u*S + r - P lie at positions u_first = P div S
    .. (L_out - 1 + P) div S."""
    u_first = p.padding // p.stride
    return u_first, (p.length_out - 1 + p.padding) // p.stride + 1 - u_first


# ct1d_mma tiles overlap by a few positions so that every row is stored in whole 32-byte
# sectors (mma_overlap); small calls (one tile per block) keep tiles that do not overlap
MMA_SECTOR_TILES = True


# ct1d_mma's warpgroup path (sm_90): float32 3xFP16 and 16-bit instances of 64 channels x
# 128 positions with all weights staged run their products on wgmma (mma_warpgroup):
# seed 0.537 -> 0.442 ms, bf16 seed 0.308 -> 0.292 (results/2026-12-01-session11/ab_wg_v2.txt)
MMA_WGMMA = True
# ... and its 16-bit instances take tiles of 256 positions where two blocks per SM still
# fit (rows of 1 KB per tile: bf16 seed 0.233 -> 0.224 ms in one run,
# results/2026-12-01-session12/ab_wg16_wide_halves.txt)
MMA_WG16_WIDE = True
# ... and their blocks take several batch items in turn, in a grid resident at once
# (_gpu.prepare), instead of a second wave of blocks that stage their weights again
MMA_ITEM_LOOP = True
# ... and 64-channel instances whose 128-position warpgroup tile needs more shared memory
# than two blocks per SM leave (strides 3-4 with 5-6 taps) take it with one block per SM
# instead of mma.sync tiles of 64 positions: sd-s3d2k5 0.273 -> 0.232 ms, 5 of 5 rounds
# (results/2026-12-01-session15/ab_one_block.txt); strides up to 4, where the one
# block's output tile is at most 128 KB (larger strides' tiles are not measured)
MMA_WG_ONE_BLOCK = True
# ... and instances of 16 or 32 output channels (strides up to 4; session 19: see
# MMA_WG_T_MAX_STRIDE) as transposed warpgroup
# tiles: positions as the MMA's M (64 per instruction), the channels as its N (m64n16k16,
# m64n32k16), so no MMA row is wasted on padding; tiles of the first of
# MMA_WG_T_POSITIONS that fits two blocks per SM. A/B against the mma.sync tiles
# (results/2026-12-01-session15/ab_transposed.txt; 128 / 256 positions): up-32-16-s2
# 0.277 -> 0.229 / 0.232 ms, sd-s4d3k5 0.160 -> 0.127 / (no fit), sd-s1d4k3 0.201 ->
# 0.135 / 0.129, g4-128-k4-s2 0.298 -> 0.198 / (no fit), sd-s2d2k3-c16 0.212 -> 0.232 /
# 0.202; stride 8 (up-16-16-s8) 0.085 -> 0.097 / (no fit), hence the stride limit.
# bfloat16, the same calls (ab_transposed_bf16.txt): 1.14-1.49x faster. Where a call
# would go to ct1d_stream, such a tile takes it instead (_prefers_stream).
MMA_WG_TRANSPOSED = True
MMA_WG_T_POSITIONS = (256, 128)
# Strides up to 5: sd-s5d1k11 0.104 ms on ct1d_stream -> 0.075, a 32 -> 16 stride-5 call
# 0.088 -> 0.077 (results/2026-12-01-session19/ab_s5.txt) ...
MMA_WG_T_MAX_STRIDE = 5
# ... and up to 8 where the call has at least STREAM_MIN_MACS multiply-adds per output
# (staged input channels x K / S; with tap groups of 8 classes x 16 channels, m64n128k16):
# g16-512-k16-s8 0.090 ms on ct1d_stream -> 0.076 (0.088 without tap groups). Fewer stay
# on mma.sync: up-16-16-s8 0.082 there, 0.089 / 0.101 with / without tap groups
# (results/2026-12-01-session19/ab_s8.txt; session 16: ab_s8_transposed.txt)
MMA_WG_T_MACS_STRIDE = 8
# ... and MMA_WG_ONE_BLOCK's 64-channel calls as two transposed tiles of 32 channels where
# those fit two blocks per SM: sd-s3d2k5 0.211 -> 0.190 ms (x is read once per channel
# half, mostly from L2; results/2026-12-01-session17/ab_t32.txt)
MMA_WG_SPLIT_64 = True
# ... and 32-channel transposed tiles that do not fit two blocks per SM (stride 4 with 8
# taps) as two of 16 channels (with tap groups of 4 there): up-32-32-s4 / g8-256-k8-s4
# 0.285 / 0.287 ms on ct1d_stream -> 0.158 / 0.160 (mma.sync tiles 0.269 / 0.319;
# results/2026-12-01-session18/ab_split32*.txt)
MMA_WG_SPLIT_32 = True
# ... and calls of 33-64 input channels per group with at most 32 output channels as
# transposed tiles staging all 64 input channels at once (eight rows of x per warp; the
# vocoder's 64 -> 32 layers, on ct1d_stream before) of MMA_WG_CI64_CHANNELS output
# channels and MMA_WG_CI64_POSITIONS: float32 hifigan-u4-b16 0.227 ms on ct1d_stream ->
# 0.146 with 32 channels (12 bytes spilled), 0.210 with 16 (x read twice), encodec-s2
# 0.512 -> 0.315 / 0.470 (results/2026-12-01-session18/ab_ci64*.txt); 256 positions
# spill 128 bytes (float32) / 290 (16-bit)
MMA_WG_CI64 = True
MMA_WG_CI64_CHANNELS = 32
MMA_WG_CI64_POSITIONS = (128,)
# ... for calls of up to this many output channels per group (above 32: several channel
# tiles, each reading x), which then leave ct1d_gemm (and ct1d_stream) on sm_90:
# sd-s2d2k3-c64 0.788 ms on ct1d_gemm -> 0.459, sd-s2d4k4 0.240 -> 0.150 (two sweeps of
# results/2026-12-01-session18, not one process; error 1.5e-7 -> 2.7-3.5e-7)
MMA_WG_CI64_MAX_COG = 64
# ... in at most this many channel tiles (each reading x, mostly from L2) ...
MMA_WG_CI64_TILES = 4
# ... whose 32-channel tile takes one block per SM where it does not fit two, before the
# split into 16-channel tiles. up-64-64-s3 (stride 3, 6 taps) 0.699 ms on ct1d_gemm ->
# 0.423 at one block (52 bytes spilled), 0.479 as four 16-channel tiles; 64 -> 64 with
# stride 3, dilation 2: 0.698 -> 0.516 / 0.499 (results/2026-12-01-session19/ab_ci64_tiles.txt)
MMA_WG_CI64_ONE_BLOCK = True
# Calls of up to 32 input channels per group whose mma.sync tile cannot stage all weights
# (w_all: 48 KB; e.g. 64 channels x 7 taps) as transposed tiles that stage them all, in
# up to MMA_WG_CI64_TILES channel tiles of up to MMA_WG_CI64_CHANNELS; with at most
# MMA_WG_CI64_MAX_COG output channels they leave ct1d_gemm on sm_90 too. sd-s2d1k7 0.495
# ms on ct1d_gemm -> 0.191 (bf16: 0.396 on mma.sync -> 0.110), 32 -> 64 with K = 9
# 0.534 -> 0.236, 32 -> 64 with stride 4, K = 8 0.891 on ct1d_stream -> 0.287 (four
# 16-channel tiles; results/2026-12-01-session19/ab_wide_w.txt, ab_bf16.txt)
MMA_WG_WIDE_W = True


def _wg_layout(k: MmaKey, nu: int, co_warps: int) -> MmaKey:
    """k as a warpgroup tile of nu positions, co_warps x (8 / co_warps) warps (4: 16
    channels x 64-position halves per warp; 1: transposed)."""
    return replace(k, mt=k.co_tile // (16 * co_warps), nt=nu * co_warps // 64,
                   wm=co_warps, wn=8 // co_warps, wg=True,
                   overlap=mma_overlap(k.dtype, k.stride, nu) if k.overlap else 0)


def transposed_tile(k: MmaKey, positions, split: bool = False,
                    one_block: bool = False) -> Optional[MmaKey]:
    """k as a transposed warpgroup tile (1 x 8 warps: 2 warpgroups x 64 positions as the
    MMA's M, k's channels as N) of the first of ``positions`` that fits two blocks per SM
    (with ``one_block``, a 32-channel k else one); with ``split``, a 32-channel k that fits
    none as 16-channel tiles; None where none fits or k's channels or stride do not allow
    one."""
    if not (MMA_WG_TRANSPOSED and k.co_tile in (16, 32) and (k.stride <= MMA_WG_T_MAX_STRIDE or (
            k.stride <= MMA_WG_T_MACS_STRIDE and k.ci_chunk * k.kernel_size >= STREAM_MIN_MACS * k.stride))):
        return None
    tiles = [_wg_layout(k, nu, 1) for nu in positions]
    t = next((t for limit in ((_MMA_SMEM, _MMA_SMEM_ONE_BLOCK) if one_block and k.co_tile == 32
                              else (_MMA_SMEM,))
              for t in tiles if t.smem_bytes() <= limit), None)
    if t is None and split and k.co_tile == 32:
        return transposed_tile(replace(k, mt=1), positions)
    return t


# A warpgroup tile sums each output's 3xFP16 products in a chain of k16 wgmma steps (every
# tap x staged 16-channel step), and the tensor cores truncate as they accumulate: the
# float32 error grows with the chain, about 2e-8 per step (N=3, 63 -> 61 channels, S=1,
# D=3, 4 steps per tap: K=3/6/12/16 read 2.7/5.0/9.5/12.5e-7 in one chain, the last above
# the 1e-6 bar; results/2026-12-02-session23/run_7/accuracy_scan.txt). The kernel runs
# chains longer than MMA_WG_CHAIN_STEPS as equal segments added on the CUDA cores
# (CT1D_MMA_WG_CHAIN_STEPS in kernels/ct1d_mma.cu, the same number). Such calls took
# ct1d_gemm in session 23 and are 1.1-2.7x faster this way (K=16, S=2, 64 -> 64: 1.53 ->
# 0.58 ms; 64 -> 64, K=7, S=1: 0.49 -> 0.35; results/2026-12-02-session24/run_2/
# ab_split.txt). Segments of 16 (run 3, ab_seglen.txt): 26-36 steps read 2.7-3.5e-7 (one
# chain 5.4-7.2e-7); 8 and 12 were more accurate (1.8-2.5e-7) but 17-27% slower on K=16,
# S=2 (more spilled), 16 and 24 equal in speed everywhere else. The sweep's warpgroup
# calls run at most 16 steps (the seed 6): one segment. MMA_WG_SPLIT_CHAINS False: chains
# above MMA_WG_CHAIN_STEPS keep the mma.sync tile or ct1d_gemm instead.
MMA_WG_CHAIN_STEPS = 16
# Chains of more than MMA_WG_SPLIT_ABOVE steps run in at least two segments
# (CT1D_MMA_WG_SPLIT_ABOVE, the same number): 13-16-step chains read 3.5e-7 in one
# segment and 2.0e-7 in two; with 64 staged channels one segment spilled (NVRTC 13.0 SASS,
# sd-s2d4k4: 18 LDL / 17 STL, in two 0 / 0) and ran 2-3% slower (0.155 -> 0.151 ms,
# 64 -> 64 K = 4 S = 1 0.257 -> 0.250); 32 -> 32, K = 7, S = 1 lost 4% (0.113 -> 0.118),
# 8-16 taps of 16-32 channels within 1% (results/2026-12-02-session29/run_2).
MMA_WG_SPLIT_ABOVE = 12
MMA_WG_SPLIT_CHAINS = True


def wg_chain_steps(key: MmaKey) -> int:
    """k16 steps in the accumulation chain of one output of the key as a warpgroup tile:
    the taps of the largest residue class x the staged channels / 16."""
    return max_class_taps(key.stride, key.dilation, key.kernel_size) * (key.ci_chunk // 16)


def mma_warpgroup(key: MmaKey, arch: int) -> MmaKey:
    """The key with its products on warpgroup MMA where that applies (sm_90, MMA_WGMMA,
    a 3xFP16 or 16-bit instance of 64 channels x 128 positions, 8 warps, all weights
    staged, one channel chunk whose rows split evenly over the warps): 4 warps x 16
    channels x 64 positions each (16-bit: two such halves, where they fit). With
    MMA_WG_ONE_BLOCK (strides up to 4), also where that tile fits one block per SM but
    not two (the mma.sync key then has fewer positions). Instances of 16 or 32 channels
    (strides up to MMA_WG_T_MAX_STRIDE, or MMA_WG_T_MACS_STRIDE with enough multiply-adds),
    with MMA_WG_TRANSPOSED: transposed tiles, 2
    warpgroups x 64 positions (M) x all channels (N) per wgmma (key wm = 1, wn = 8,
    mt = channels / 16). With MMA_WG_SPLIT_64, a float32 64-channel tile that would need
    one block per SM becomes two transposed 32-channel tiles (two blocks per SM; 16-bit
    tiles fit two blocks as they are); with MMA_WG_SPLIT_32, a 32-channel transposed tile
    that does not fit two blocks per SM becomes two of 16 channels. Keys staging 64 input
    channels (MMA_WG_CI64, made by _plan_mma) take transposed tiles only.
    (Padding them to 64-channel tiles instead lost: sd-s2d2k3-c16 0.218 -> 0.236 ms,
    up-32-16-s2 0.276 -> 0.493; results/2026-12-01-session15/ab_narrow*.txt.)
    Without MMA_WG_SPLIT_CHAINS, float32 keys qualify only where each output's wgmma chain
    has at most MMA_WG_CHAIN_STEPS k16 steps (``wg_chain_steps``: accuracy)."""
    if not (MMA_WGMMA and arch == WGMMA_ARCH and (key.f16x3 or key.dtype != "float32")
            and key.w_all and key.threads == 256 and key.ci_chunk in (16, 32, 64)
            and (key.dtype != "float32" or MMA_WG_SPLIT_CHAINS
                 or wg_chain_steps(key) <= MMA_WG_CHAIN_STEPS)):
        return key
    if key.ci_chunk == 64:                # (MMA_WG_CI64: transposed tiles only; many taps: 16 channels)
        return transposed_tile(key, MMA_WG_CI64_POSITIONS, True, MMA_WG_CI64_ONE_BLOCK) or key
    if key.co_tile in (16, 32):
        return transposed_tile(key, MMA_WG_T_POSITIONS, MMA_WG_SPLIT_32) or key
    one_block = MMA_WG_ONE_BLOCK and key.stride <= 4
    if key.co_tile == 64 and (key.nu == 128 or (one_block and key.nu < 128)):
        wg, wide = _wg_layout(key, 128, 4), _wg_layout(key, 256, 4)
        if wg.smem_bytes() > _MMA_SMEM and MMA_WG_SPLIT_64:
            split = transposed_tile(replace(key, mt=2, wm=1, wn=8), MMA_WG_T_POSITIONS)   # 32 channels
            if split is not None:
                return split
        if wg.smem_bytes() > (_MMA_SMEM_ONE_BLOCK if one_block else _MMA_SMEM):
            return key
        if MMA_WG16_WIDE and key.dtype != "float32" and wide.smem_bytes() <= _MMA_SMEM:
            return wide
        return wg
    return key


# Warpgroup tiles that take more shared memory than two blocks per SM leave run one block
# per SM; they are compiled so (the kernel's ONE_BLOCK: __launch_bounds__ minimum 1, not
# 2), so ptxas may give them more than 128 registers. In one process against 128
# (results/2026-12-02-session25/run_3/ab_out_bufs.txt "minb1"): 64 -> 64, K = 6, S = 3,
# D = 2 0.498 -> 0.419 ms, K = 8, S = 2 0.417 -> 0.389; five other such calls (the
# sweep's up-64-64-s3 among them) within 1%
MMA_WG_ONE_BLOCK_REGS = True


def with_one_block(key: MmaKey) -> MmaKey:
    """``key`` marked one_block where it is a warpgroup tile that fits only one block
    per SM (MMA_WG_ONE_BLOCK_REGS)."""
    if MMA_WG_ONE_BLOCK_REGS and key.wg and key.smem_bytes() > _MMA_SMEM:
        return replace(key, one_block=True)
    return key


def _staged_ci(cig: int, w_all: bool) -> int:
    """The input channels per step of a transposed tile that stages all input channels
    and weights where the mma.sync tile stages fewer (0: no such tile): 64 for 33-64 input
    channels per group (MMA_WG_CI64), 16 or 32 for calls whose mma.sync tile cannot keep all
    their weights (MMA_WG_WIDE_W)."""
    if 32 < cig <= 64:
        return 64 if MMA_WG_CI64 else 0
    if not (MMA_WG_WIDE_W and 8 < cig <= 32 and not w_all):
        return 0
    return 16 if cig <= 16 else 32


def _mma_staged_key(key: MmaKey, cig: int, cog: int, arch: int) -> Optional[MmaKey]:
    """MMA_WG_CI64 / MMA_WG_WIDE_W: the mma.sync key of a call that stages part of its
    input channels or weights per step as a transposed warpgroup tile staging them all
    (None where that does not apply or fit). Each channel tile reads x: at most
    MMA_WG_CI64_TILES of them cover the group."""
    ci = _staged_ci(cig, key.w_all)
    if not (ci and cog <= MMA_WG_CI64_MAX_COG and key.threads == 256):
        return None
    wg = mma_warpgroup(replace(key, mt=min(-(-cog // 16), MMA_WG_CI64_CHANNELS // 16), wm=1, wn=8,
                               ci_chunk=ci, w_all=True, f16x3=key.dtype == "float32"), arch)
    return wg if wg.wg and cog <= MMA_WG_CI64_TILES * wg.co_tile else None


def mma_weights_fit(K: int, ci_chunk: int, co_tile: int) -> bool:
    """A mma.sync tile of co_tile channels can keep all K taps of a ci_chunk-channel
    chunk staged (w_all; 48 KB of float32 weight fragments)."""
    return 4 * K * ci_chunk * co_tile <= 48 * 1024


def _plan_mma(p: ConvParams, dtype: str, arch: int = 0):
    S, D, K = p.stride, p.dilation, p.kernel_size
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    cmax = (K - 1) * D // S
    if (dtype == "float64" or K > MAX_UNROLLED_K or S > 16 or cig < 8 or cog < 8
            or cmax > 512 or not _rows_fit_int32(p)):
        return None
    # channel tile: 16, 32, 48 or 64 output channels; 8 warps per block
    m16 = min(4, -(-cog // 16))
    mt, wm = (2, 2) if m16 == 4 else (m16, 1)
    wn = 8 // wm
    ci_chunk = 8 if cig <= 8 else (16 if cig <= 16 else 32)
    # the widest tile (positions per warp) that keeps two blocks per SM, then fewer channels
    # staged per step
    while True:
        w_all = cig <= ci_chunk and mma_weights_fit(K, ci_chunk, 16 * mt * wm)
        for nt in (4, 2, 1):
            # float32 with all weights staged in whole k16 steps: the scaled 3xFP16 split,
            # 1.06-1.28x faster than 3xTF32 on the sweep's ct1d_mma calls (seed 0.714 ->
            # 0.589 ms, results/2026-11-30-session7/ab_mma_f16x3.txt)
            f16x3 = dtype == "float32" and w_all and ci_chunk % 16 == 0
            ov = mma_overlap(dtype, S, 8 * nt * wn) if MMA_SECTOR_TILES else 0
            key = MmaKey(dtype, S, D, K, mt, nt, wm, wn, ci_chunk, w_all, f16x3, ov)
            if key.smem_bytes() <= _MMA_SMEM:
                base = mma_launch_plan(p, key)
                pl = _small_call_tiles(p, base)
                wg = mma_warpgroup(pl.key, arch)
                if not wg.wg:
                    wg = _mma_staged_key(pl.key, cig, cog, arch) or pl.key
                wg = with_one_block(wg)
                if wg != pl.key:
                    return mma_launch_plan(p, wg)
                # an mma.sync tile: small calls may also narrow its channels
                return _small_call_tiles(p, base, channels=True) if SMALL_CALL_CHANNELS else pl
        if ci_chunk == 8:
            return None
        ci_chunk //= 2


# ct1d_stream stages all weights of a block (every tap and input channel) once: at most
# this many bytes of them, and at most this many input channels per group (x slots in
# registers, one tile ahead)
_STREAM_W_SMEM = 48 * 1024
STREAM_MAX_CIG = 64
_STREAM_SMEM = _MMA_SMEM          # per block, with room for two blocks per SM


# ct1d_stream (float32, scaled 3xFP16) instead of ct1d_mma from this many multiply-adds per
# output (C_in/groups * K / S), with at least this many output channels per group or a
# stride of at least STREAM_WIDE_STRIDE (longer row segments per warp tile): 1.14-1.8x
# faster on the 9 sweep calls that qualify; slower on 5 of the 6 that do not (the seed:
# 0.96 vs 0.72 ms, bound by its stores), results/2026-11-30-session7/tune_stream_v3.txt
STREAM_MIN_MACS = 64
STREAM_MIN_COG = 32
STREAM_WIDE_STRIDE = 4
# ... and for calls with at least this many positions u over all rows (batch x groups):
# small calls (N = 1, L = 1024) are one block's latency, measured only on ct1d_mma
STREAM_MIN_POSITIONS = 16384


def _mma_transposed(p: ConvParams, dtype: str, arch: int) -> Optional[MmaKey]:
    """The key where ct1d_mma would run the call as transposed warpgroup tiles (sm_90)."""
    if not (MMA_WG_TRANSPOSED and arch == WGMMA_ARCH):
        return None
    mp = _plan_mma(p, dtype, arch)
    return mp.key if mp is not None and mp.key.wg and mp.key.wm == 1 else None


def _mma_staged(p: ConvParams, dtype: str, arch: int) -> bool:
    """ct1d_mma would run the call (sm_90) as transposed tiles staging all its input
    channels (33-64 per group with MMA_WG_CI64, up to 32 with MMA_WG_WIDE_W), at most
    MMA_WG_CI64_TILES of them per group of at most MMA_WG_CI64_MAX_COG output channels:
    such tiles beat ct1d_gemm there."""
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    if cog > MMA_WG_CI64_MAX_COG or not _staged_ci(cig, w_all=False):
        return False
    key = _mma_transposed(p, dtype, arch)
    return key is not None and key.ci_chunk >= min(cig, 64) and cog <= MMA_WG_CI64_TILES * key.co_tile


# ct1d_mma's mma.sync tiles that cannot keep all of a channel chunk's weights staged
# (w_all False: 16-48 input channels with many taps, 96-128 with any) run float32 as
# 3xTF32 over weight chunks, 1.1-6.8x slower than another family. 1000 random calls,
# H100, session 56 (results/2026-12-06-session56/run_2/sync_scan.txt, forced families,
# ms, ct1d_mma -> the route below): of the 50 such calls with at least
# MMA_PARTIAL_MIN_POSITIONS positions (batch x groups x row), r953 32 -> 128 K21 S10 0.646
# -> 0.095 (ct1d_stream), r062 16 -> 128 K17 S8 0.366 -> 0.064, r047 24 -> 384 K16 S8
# 0.406 -> 0.079, r051 96 -> 1024 K7 S8 0.435 -> 0.153 (ct1d_gemm), r010 24 -> 768 K10 S10
# 0.455 -> 0.275 (ct1d_gemm); geomean 2.04x, none slower. So they go to ct1d_stream where
# it takes them with at most MMA_PARTIAL_STREAM_MAX_CIG input channels per group and at
# least MMA_PARTIAL_STREAM_MIN_MACS multiply-adds per output (C_in/groups x K / S;
# ct1d_stream at 48-64 channels or fewer multiply-adds lost to ct1d_gemm: r186 64 -> 256
# K3 S8 0.051 -> 0.134 there, 0.040 on ct1d_gemm), else to ct1d_gemm, else ct1d_narrow.
# Calls of fewer positions (the scan's N = 1, L = 1024: a few blocks' latency, where the
# launches' host time hid most differences) keep ct1d_mma.
MMA_PARTIAL_ROUTE = True
MMA_PARTIAL_MIN_POSITIONS = 1280
# 16-bit calls take one MMA per product, yet their partial-weight tiles lost too where
# K >= MMA_PARTIAL_16BIT_MIN_K: bfloat16, the 157 such calls of 1000 random draws
# (seed 0) against every family (H100, forced, one process, results/2026-12-06-session57/
# run_5/bf16_sync_scan.txt): the route's ct1d_stream or ct1d_gemm 2.2x faster on the 51
# with K >= 8 and none more than 4% slower (96 -> 192 K16 S10 1.802 -> 0.411 ms, 128 ->
# 768 K21 S10 G2 1.717 -> 0.326); with fewer taps ct1d_mma won 13 of 106 by up to 1.95x
# (96 -> 48 K3 S1 0.033 -> 0.065), and its ct1d_narrow fallback lost (256 -> 8 K16 S2 D2
# 0.164 -> 0.243), so 16-bit calls take the route's first two families only, at any
# number of positions.
MMA_PARTIAL_16BIT_DTYPES = ("bfloat16", "float16")
MMA_PARTIAL_16BIT_MIN_K = 8
MMA_PARTIAL_STREAM_MAX_CIG = 32
MMA_PARTIAL_STREAM_MIN_MACS = 32


def _mma_partial(p: ConvParams, dtype: str, pl: LaunchPlan) -> bool:
    """pl, ct1d_mma's plan for a call, is a mma.sync tile that stages part of its
    weights per step, on a float32 call of at least MMA_PARTIAL_MIN_POSITIONS positions
    or a 16-bit one of at least MMA_PARTIAL_16BIT_MIN_K taps."""
    k = pl.key
    if not MMA_PARTIAL_ROUTE or k.wg or k.w_all:
        return False
    if dtype == "float32":
        return p.batch * p.groups * _row_positions(p)[1] >= MMA_PARTIAL_MIN_POSITIONS
    return dtype in MMA_PARTIAL_16BIT_DTYPES and p.kernel_size >= MMA_PARTIAL_16BIT_MIN_K


def _plan_mma_partial(p: ConvParams, dtype: str, arch: int) -> Optional[LaunchPlan]:
    """The plan for a call _mma_partial takes off ct1d_mma (None: none covers it):
    ct1d_wgmma before ct1d_gemm where it beats it (``_wgmma_any``), and ct1d_gemm's
    8-channel rings (GEMM_CK8) before ct1d_narrow; 16-bit calls ct1d_stream or ct1d_gemm."""
    cig = p.in_channels // p.groups
    pl = None
    if (cig <= MMA_PARTIAL_STREAM_MAX_CIG
            and cig * p.kernel_size >= MMA_PARTIAL_STREAM_MIN_MACS * p.stride):
        pl = _plan_stream(p, dtype)
    if dtype != "float32":                  # (MMA_PARTIAL_16BIT_*)
        return pl or _plan_gemm(p, dtype)
    if pl is None and arch == WGMMA_ARCH:
        pl = _plan_wgmma(p, dtype)
        pl = pl if pl is not None and _wgmma_any(p, pl) else None
    return pl or _plan_gemm(p, dtype, ck8=True) or _plan_narrow(p, dtype)


def _prefers_stream(p: ConvParams, dtype: str, arch: int = 0) -> bool:
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    if _mma_transposed(p, dtype, arch) is not None:   # ct1d_mma's transposed tiles win
        return False
    return (dtype == "float32" and cig * p.kernel_size >= STREAM_MIN_MACS * p.stride
            and (cog >= STREAM_MIN_COG or p.stride >= STREAM_WIDE_STRIDE)
            and p.batch * p.groups * _row_positions(p)[1] >= STREAM_MIN_POSITIONS)


def stream_key(p: ConvParams, dtype: str, nt: int = 2, warps: int = 4,
               min_blocks: int = 3) -> Optional[StreamKey]:
    """The ct1d_stream instance for a call (None where the family does not apply)."""
    S, D, K = p.stride, p.dilation, p.kernel_size
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    if (dtype not in ("float32", "float16", "bfloat16") or K > MAX_UNROLLED_K or S > 16
            or cig < 8 or cig > STREAM_MAX_CIG or cog < 8 or (K - 1) * D // S > 64
            or not _rows_fit_int32(p)):
        return None
    cig_pad = -(-cig // 16) * 16
    mt = min(4, -(-cog // 16))
    while mt > 1 and 4 * K * cig_pad * 16 * mt > _STREAM_W_SMEM:
        mt -= 1
    if 4 * K * cig_pad * 16 * mt > _STREAM_W_SMEM:
        return None
    key = StreamKey(dtype, S, D, K, mt, nt, warps, cig_pad, min_blocks)
    while key.smem_bytes() > _STREAM_SMEM and key.warps > 1:
        key = StreamKey(dtype, S, D, K, mt, nt, key.warps // 2, cig_pad, min_blocks)
    return key if key.smem_bytes() <= _STREAM_SMEM else None


def _plan_stream(p: ConvParams, dtype: str) -> Optional[LaunchPlan]:
    key = stream_key(p, dtype)
    return None if key is None else stream_launch_plan(p, key)


def stream_launch_plan(p: ConvParams, key: StreamKey) -> LaunchPlan:
    """Tile geometry of a ct1d_stream instance: n_tiles counts warp tiles of NU positions."""
    return _row_tile_plan(p, key, key.nu)


def _row_tile_plan(p: ConvParams, key, step: int) -> LaunchPlan:
    """Tiles whose first positions u lie ``step`` apart from the row's first (each tile
    covers S*step outputs of a row), for every family that tiles whole rows this way."""
    u_first, n_u = _row_positions(p)
    return LaunchPlan(key, p.stride * step, -(-n_u // step),
                      -(-(p.out_channels // p.groups) // key.co_tile), key.smem_bytes(), u_first)


# ct1d_gemm (float32) from this many input channels per group, or from this many
# multiply-adds per computed output (C_in/groups x most taps of a class) ...
GEMM_MIN_CIG = 128
GEMM_MIN_MACS = 256
# ... or half that with at least this many output channels per group. Measured on the
# sweep (results/2026-11-30-session5/family_compare.txt): below, ct1d_mma's overlapped
# copy-out wins (memory-bound calls such as the seed).
GEMM_MIN_COG = 64
# Per-block shared memory for ct1d_gemm: one block per SM (up to 16 warps) may use most of
# the 227 KB of an sm_90 SM
_GEMM_SMEM = 200 * 1024
# ... and the wide-tile instance from this many blocks (half the SMs of an H100/H200)
_GEMM_WIDE_MIN_BLOCKS = 64
# ... and up to this many warps per block: 10-12 warps (strides 3 and 5) cap the registers
# at 168-200 and spill, yet were 6-14% faster than 2x4 tiles in 3 of 4 runs (encodec-s5,
# up-64-64-s3: results/2026-11-30-session5/tune_gemm_*, session6/tune_gemm_*)
_GEMM_WIDE_MAX_WARPS = 12
# Where no ring of 16-channel chunks fits (one live class with 12-16 taps and >= 128
# channels per tile: 384 -> 512 K16 S1 takes 230-850 KB), ct1d_gemm can run chunks of 8
# input channels in 3xTF32 (``gemm_key(ck8=True)``). Such calls otherwise fall to
# ct1d_narrow's CUDA cores; there the 8-channel rings were 1.5-2.8x faster on 5 of 5
# (H100, one process, ms: 384 -> 512 K16 S1 N1 L17857 5.727 -> 2.316, torch 3.245; 768 ->
# 512 K16 S2 D2 17.87 -> 6.44, torch 9.62; 256 -> 256 K12 S1 2.551 -> 0.934; 200 -> 192 K13
# S3 D3 0.855 -> 0.444; 128 -> 192 K16 S2 D2 0.504 -> 0.341; results/2026-12-06-session57/
# run_1/ab_ck8.txt, run_3/ab_ck8.txt). Where ct1d_stream or ct1d_mma took the call they
# lost (3 of 3 ct1d_stream calls 1.2-1.6x slower, e.g. 32 -> 768 K16 S2 D2 in 4 groups
# 0.207 -> 0.329 ms; 768 -> 128 K7 S2 D2 N1 L1024 on ct1d_mma 0.153 -> 0.296), though they
# beat ct1d_mma on three small N = 1 calls (32 -> 1024 K16 S1 0.138 -> 0.057). So they
# serve MMA_PARTIAL_ROUTE's calls before ct1d_narrow (and a forced ct1d_gemm), nothing else.
GEMM_CK8 = True
# float64 on ct1d_gemm's DFMA path (CUDA cores, the MMA tiles' elements per lane), for the
# calls float32's rules give it, ahead of ct1d_narrow / ct1d_scatter, on sm_90 (measured
# on the H100 only) where the plan has at least GEMM_F64_MIN_BLOCKS blocks. Session 73
# (H100, 30 calls of 160 float64 draws, seed 0, each against ct1d_narrow): 1.13x geomean
# over all 30, but the calls of 8-64 blocks lost up to 7.7x (1024 -> 64 K3 N1 L1024, 8
# blocks: 0.052 -> 0.404 ms), where ct1d_narrow's chunks of 8 outputs spread over more
# blocks; from one block per SM on, 1.36x geomean, 20 of 22 faster, worst 0.88x. Out of
# sample (seeds 1, 2: 31 and 30 calls): 1.47x and 1.40x, 56 of 61 faster than 5%, worst
# 0.69x (512 -> 16 K3 S1) (results/2026-12-07-session73/run_1/f64gemm, run_2)
GEMM_F64 = True
GEMM_F64_MIN_BLOCKS = 132
# ... there the 8 n8 tiles' double sums alone take 128 registers: at most 8 warps per block
# (255 registers each); 10-12 warps (168-200) spilled ~150 LDL (NVRTC 13.0, sm_90:
# encodec-s5, up-64-64-s3), and take 4 n8 tiles instead
_GEMM_F64_WIDE_MAX_WARPS = 8


def _prefers_gemm(p: ConvParams, dtype: str) -> bool:
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    if dtype != "float32" and not (dtype == "float64" and GEMM_F64):
        # 16-bit: one MMA per product leaves little compute to save; the wide layers,
        # where ct1d_mma restages its weights per class, are where it pays
        return dtype != "float64" and cig >= GEMM_MIN_CIG
    macs = cig * max_class_taps(p.stride, p.dilation, p.kernel_size)
    return (cig >= GEMM_MIN_CIG or macs >= GEMM_MIN_MACS
            or (macs >= GEMM_MIN_MACS // 2 and cog >= GEMM_MIN_COG))


def _gemm_f64_pays(p: ConvParams, pl: LaunchPlan, arch: int) -> bool:
    return arch == WGMMA_ARCH and _block_count(p, pl) >= GEMM_F64_MIN_BLOCKS


def gemm_key(p: ConvParams, dtype: str, ck8: bool = False) -> Optional[GemmKey]:
    """The ct1d_gemm instance for a call (None where the family does not apply); with
    ``ck8`` (and GEMM_CK8), float32 rings of 8-channel chunks where 16-channel ones do not fit."""
    S, D, K = p.stride, p.dilation, p.kernel_size
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    if ((dtype == "float64" and not GEMM_F64) or K > MAX_UNROLLED_K or S > 16 or cig < 8
            or cog < 16 or (K - 1) * D // S > 256 or not _rows_fit_int32(p)):
        return None
    rl = live_classes(S, D, K)
    # 8-16 warps: one live class each, then along channels (while each warp keeps two
    # m16 tiles of real channels) and positions
    wc = wn = 1
    while rl * wc * wn < 8:
        if wc <= wn and 64 * wc <= cog:
            wc *= 2
        else:
            wn *= 2
    mt = 2 if cog > 16 * wc else 1
    # 8 n8 tiles per warp (more independent MMA chains, half the weight traffic per
    # output) need ~250 registers, one block of at most 12 warps per SM: only with enough
    # blocks to fill the GPU; otherwise 4, and two blocks per SM where 8 warps make a block
    wide = GemmKey(dtype, S, D, K, mt, 8, wc, wn, 16, 3, 1)
    max_warps = _GEMM_F64_WIDE_MAX_WARPS if dtype == "float64" else _GEMM_WIDE_MAX_WARPS
    shapes = [(8, 1)] if (_block_count(p, gemm_launch_plan(p, wide)) >= _GEMM_WIDE_MIN_BLOCKS
                          and rl * wc * wn <= max_warps) else []
    shapes.append((4, 2 if rl * wc * wn <= 8 else 1))
    # float32: the scaled 3xFP16 split (half the MMAs of 3xTF32; it measures each chunk two
    # chunks ahead, so it wants a deeper ring), else 3xTF32; 16-bit chunks go through
    # registers into two stages (kernels/ct1d_gemm.cu)
    # (float64: cp.async rings of double stages, chunks of 16 or else 8 channels)
    arith = ([(True, 16, (5, 4, 3)), (False, 16, (3, 2))] if dtype == "float32"
             else [(False, 16, (3, 2)), (False, 8, (3, 2))] if dtype == "float64"
             else [(False, 16, (2,))])
    if ck8 and GEMM_CK8 and dtype == "float32":     # then chunks of 8, in 3xTF32
        arith += [(False, 8, (3, 2))]
    for f16x3, ck, depths in arith:
        for nt, min_blocks in shapes:
            for stages in depths:
                key = GemmKey(dtype, S, D, K, mt, nt, wc, wn, ck, stages, min_blocks, f16x3)
                if key.smem_bytes() <= gemm_smem_limit(key):
                    return key
    return None


def gemm_smem_limit(key: GemmKey) -> int:
    return _MMA_SMEM if key.min_blocks > 1 else _GEMM_SMEM


def _plan_gemm(p: ConvParams, dtype: str, ck8: bool = False) -> Optional[LaunchPlan]:
    key = gemm_key(p, dtype, ck8)
    return None if key is None else gemm_launch_plan(p, key)


# sm_90: ct1d_gemm calls of few tiles split each tile's reduction over a cluster of blocks
# (ct1d_gemm_split; 1: off; 8 is the portable cluster size), compiled for one block per SM.
# A cluster runs on one GPC, so the device holds fewer clusters than SMs / size: an H100
# (cuOccupancyMaxActiveClusters, results/2026-12-06-session59/run_2/slots.txt) holds 39
# clusters of 3 (117 blocks), 30 of 4 (120), 22 of 5, 17 of 6, 15 of 7 or 8. plan() takes
# the device's own counts (``clusters``); these are its default.
GEMM_SPLIT_MAX = 8
GEMM_SPLIT_CLUSTERS = (132, 66, 39, 30, 22, 17, 15, 15)
# The size is the one of least cost in chunk times, waves x (chunks per block +
# GEMM_SPLIT_FIXED_CHUNKS), for calls whose unsplit tiles take less than one wave
# (session 59, run 2: every size on draws 6-7, 172 calls; session 58's one-wave rule, which
# counted SMs / size clusters per wave, lost where that was more than the GPCs hold: 1024
# -> 24 K2 S1 N1, 23 tiles: 0.061 ms at 5 blocks per tile, 115 blocks in two waves, 0.038
# at 4). Over no split 1.30x (the one-wave rule 1.23x, the fastest size per call 1.34x),
# 2 calls more than 5% slower; slower than torch 49 -> 36. Out of sample (run 4, draws
# 8-9, 161 calls; benchmarks/split_rules.py): 1.31x against 1.27x (oracle 1.34x), 3 calls
# more than 5% slower (multi-wave picks, 512 -> 24 K9 S4 N16: 0.108 -> 0.125 ms) ...
GEMM_SPLIT_FIXED_CHUNKS = 2
# ... from GEMM_SPLIT_MIN_MACS multiply-adds per output (C_in/groups x K / S), and where
# blocks have more than 8 warps (strides >= 3: a warp per live class) only while every
# block keeps GEMM_SPLIT_WIDE_BLOCK_MACS of them: such blocks' fixed work (ring fill,
# partial tile, cluster reduction) outweighed a short run of chunks. Session 58 chose
# these with the one-wave rule (tiles x size <= 132, fewest chunks per block) on every
# cluster size of the ct1d_gemm calls of fewer tiles than block slots in four 1000-call
# draws (H100, results/2026-12-06-session58/run_3-4/split_scan_s*.txt): over no split
# 1.22x, 1.08x, 1.20x, 1.27x. What lost: two blocks per SM or two waves (384 -> 384 K5 S5,
# 102 tiles: 0.055 -> 0.123 at 2 blocks per tile), short reductions (256 -> 128 K7 S8:
# 0.038 -> 0.074), 10-warp blocks at 256 multiply-adds per block (256 -> 48 K20 S10: 0.048
# -> 0.067). Session 59 kept them: on draws 6-7 the cost rule's geomean moved by < 1.5%
# over 64-160 and 160-400 (benchmarks/NOTES.md, "Session 59 findings").
GEMM_SPLIT_MIN_MACS = 128
GEMM_SPLIT_WIDE_BLOCK_MACS = 320
# Measured in float32 only (16-bit instances split correctly, GPU tests; ct1d_wgmma takes
# nearly all of their ct1d_gemm calls: 10 of a 1000-call draw would split)
GEMM_SPLIT_DTYPES = ("float32",)


def split_key(key: GemmKey, split: int) -> GemmKey:
    """``key`` with each tile shared by a cluster of ``split`` blocks. Those run one block
    per SM, so they are compiled for one (no 128-register cap where the key allows two:
    1.14x on 35 such plans of draws 4 and 5, 5 of them 6-18% slower;
    results/2026-12-06-session58/run_8/)."""
    return replace(key, split=split, min_blocks=1 if split > 1 else key.min_blocks)


def split_fits(chunks: int, split: int) -> bool:
    """Every block of a cluster of ``split`` gets at least one of ``chunks`` chunks (each
    block takes the next ceil(chunks / split))."""
    return (split - 1) * -(-chunks // split) < chunks


def gemm_split(p: ConvParams, pl: LaunchPlan,
               clusters: Tuple[int, ...] = GEMM_SPLIT_CLUSTERS) -> int:
    """Blocks per cluster that share each tile of the ct1d_gemm plan ``pl`` (1: none), on a
    device that holds ``clusters[s - 1]`` clusters of s whole-SM blocks at once (0: a size
    it cannot launch)."""
    cig, k = p.in_channels // p.groups, pl.key
    macs = cig * k.kernel_size / k.stride
    if macs < GEMM_SPLIT_MIN_MACS or k.dtype not in GEMM_SPLIT_DTYPES:
        return 1
    tiles, chunks = _block_count(p, pl), -(-cig // k.ci_chunk)
    if tiles >= clusters[0] * k.min_blocks:     # the unsplit blocks fill a wave already
        return 1
    best, best_cost = 1, chunks + GEMM_SPLIT_FIXED_CHUNKS
    for split in range(2, min(GEMM_SPLIT_MAX, len(clusters)) + 1):
        if k.threads > 256 and macs < GEMM_SPLIT_WIDE_BLOCK_MACS * split:
            break
        if not split_fits(chunks, split) or not clusters[split - 1]:
            continue
        cost = -(-tiles // clusters[split - 1]) * (-(-chunks // split) + GEMM_SPLIT_FIXED_CHUNKS)
        if cost < best_cost:
            best, best_cost = split, cost
    return best


def class_positions(p: ConvParams, r: int) -> int:
    """How many outputs o in [0, L_out) have (o + P) mod S == r (positions u of class r)."""
    S, P = p.stride, p.padding
    return max(0, (p.length_out - 1 + P - r) // S + (r - P) // S + 1)


def gemm_launch_plan(p: ConvParams, key: GemmKey) -> LaunchPlan:
    """Tile geometry of a ct1d_gemm instance: tiles follow each class's own first position
    (kernels/ct1d_gemm.cu), so the tile count comes from the longest class."""
    n_u = -(-p.length_out // p.stride)  # the longest class: max over r of class_positions
    return LaunchPlan(key, p.stride * key.nu, max(1, -(-n_u // key.nu)),
                      -(-(p.out_channels // p.groups) // key.co_tile), key.smem_bytes(),
                      p.padding // p.stride)


# ct1d_wgmma: the compute capability with warpgroup MMA (sm_90a) ...
WGMMA_ARCH = 90
# ... and GEMMs more than this dense, K / (S * (CMAX + 1)): the (class, column offset)
# pairs that some tap fills (1 for every vocoder layer, K = 2S). Half-dense ones (dilation
# 2 with half the classes dead, or half the offsets' taps) ran 2x slower here than on
# ct1d_gemm (H100, float32, results/2026-12-06-session54/run_2/scan.txt, ms): 768 -> 1024
# K=6 S=3 D=2 1.677 against 0.860 (torch 1.178), 256 -> 48 K=8 S=4 D=2 1.083 against 0.492
# (torch 0.750); 256 -> 8 K=16 S=2 D=2 2.157 against ct1d_mma's 0.249. (Before session
# 54: 0.5 and more, never measured; the sweep's layers are all fully dense.) 16-bit calls:
# not measured at 0.5
WGMMA_MIN_DENSITY = 0.5
# It takes the float32 calls ct1d_gemm would take with at least this many input channels
# per group and blocks (two waves of an H200's 132 SMs). Measured against ct1d_gemm in one
# run (results/2026-12-01-session10/family_compare_wgmma_v7_*.txt): 1.2-1.4x faster on 11
# of the sweep's 12 such layers, 5% slower on hifigan-u1-b16; below, slower on
# up-64-64-s3 and sd-s2d2k3-c64 (64 channels: 0.90x, 0.83x) and small-512-256-s8 (128
# blocks: 0.72x), 5% faster on sd-s2d1k7 (32 channels).
WGMMA_MIN_CIG = 128
WGMMA_MIN_BLOCKS = 256
# ... or, at strides of 2 and more, with any input channels where its GEMM rows are at
# least this full (``_wgmma_row_use``: output channels over the channel tiles that hold
# them, times the (class, offset) pairs some tap fills). Measured against ct1d_gemm on
# the float32 calls of two 1000-call random draws that ct1d_gemm took and ct1d_wgmma
# covers (H100, one process; results/2026-12-06-session57/run_1/gemm_scan.txt, seed 0,
# 104 calls; run_3/gemm_scan_s1.txt, seed 1, 107): ct1d_wgmma was faster on 73 and 75, up to
# 3.25x (96 -> 192 K16 S10 1.328 -> 0.409 ms); it lost where rows were half empty (512 ->
# 32 S2: 64-channel tiles, 0.55x), at stride 1 (768 -> 24 K3 D2: 0.19x) and on N = 1
# calls of 128-144 blocks (384 -> 1024 K16 S2 0.52x; the sweep's small-512-256-s8 0.1009
# -> 0.1401 ms, run_3/ab_small512.txt). With 64 blocks this rule gained 1.105x / 1.075x
# on the two draws, 2 / 6 calls over 5% slower; with WGMMA_MIN_BLOCKS (256) 1.056x /
# 1.065x, 1 / 2 slower (at worst 0.82x, 384 -> 192 K16 S4 in 4 groups): shipped. It
# applies to the calls plan() would give ct1d_gemm, also through MMA_PARTIAL_ROUTE
# (``_wgmma_any``). Out of sample (a third draw, seed 2, run_4/gemm_scan_s2.txt): 1.036x
# over its 112 covered calls, 2 more than 5% slower (96 -> 192 K7 S2 0.87x).
WGMMA_ANY_MIN_ROW_USE = 0.7
# ... and with >= WGMMA_MIN_CIG input channels too, at least this fraction where ct1d_gemm
# covers the call: narrow outputs at strides 1-3 (64*2/S channels per block, 16-48 of them
# used) ran 1.3-3.6x faster on ct1d_gemm. Forced families on every float32 ct1d_wgmma call
# of row use < 0.5 in shape_scan draws 0-5 (prepared launches, H100, results/
# 2026-12-06-session60/run_6/): chosen on draws 0-2 (thresholds 0.2-0.5 tried), 1.36x
# over ct1d_wgmma on their 37 calls, 1 more than 5% slower (1024 -> 48 K1 D2 0.240 ->
# 0.340 ms), slower than torch 17 -> 5; draws 3-5 (31 calls): 1.61x, none slower, slower
# than torch 16 -> 3 (e.g. 384 -> 32 K3 S1 D2 N1 0.570 -> 0.194 ms, torch 0.364)
WGMMA_MIN_ROW_USE = 0.45
# ... and where its fixed 128-position tiles leave at most this fraction of the computed
# positions empty: a row of L_in + 1 positions (vocoder layers) with L_in = 256 computes
# 384 for 257, and hifigan-u1-b16 was the one such layer ct1d_wgmma lost (0.371 against
# ct1d_gemm's 0.351-0.355 ms; ct1d_gemm's tiles follow each class, so they are not slivers)
WGMMA_MAX_TILE_WASTE = 0.25
# ... its block shapes, (warpgroups along positions, positions per warpgroup) in order of
# preference, each with two warpgroups along GEMM rows
WGMMA_SHAPES = ((1, 128), (2, 64), (1, 64))
# Per-block shared memory of ct1d_wgmma at most (one block per SM; 16-bit instances that
# fit twice run two: WGMMA_2B_MAX_NC below)
_WGMMA_SMEM = 220 * 1024
# float16/bfloat16 calls on it too, by the float32 rule (False: on ct1d_gemm). Its 16-bit
# instances (session 50) on the sweep's 10 wide layers, against ct1d_gemm's, H100, medians
# of 3 rounds: 1.01-1.87x faster in both dtypes (hifigan-u1-b4-long bf16 0.5351 -> 0.2866
# ms, up-512-512-s2 0.4727 -> 0.2684, encodec-s5 0.6999 -> 0.6940), errors equal
# (results/2026-12-05-session51/run_4/ab_wgmma16_*.txt)
WGMMA_16BIT = True
# ... and then every 16-bit call that ct1d_gemm would take, whatever its channels, blocks
# or tile waste (False: the float32 thresholds above). With two blocks per SM (session 53)
# it was at least as fast as ct1d_gemm on all 17 calls those thresholds kept off it that
# were measured (H200, bf16, medians of 3 rounds, errors equal): the sweep's
# hifigan-u1-b16 0.2982 -> 0.1406 ms, small-512-256-s8 0.0836 -> 0.0558, and 15 small or
# short calls of N 1-16, 128-512 channels, S 2-8, L 64-1024, 1.05-1.74x on 13, equal
# within noise on two one-block calls (1.006x, 1.014x) (results/2026-12-06-session53/
# run_6/ab_16bit_any.txt; on an H100 the first two alike in fp16 too: run_5)
WGMMA_16BIT_ANY = True
# ... and wherever the same call in float32 would take ct1d_wgmma. The rules above keep
# 16-bit calls that ct1d_gemm would not take (fewer than GEMM_MIN_CIG input channels) on
# ct1d_mma's mma.sync tiles (one TF32 MMA per 8 products) or ct1d_gemm's partial route,
# where float32 runs 3xTF32/3xFP16 warpgroup MMAs. Session 73 (H100, the 41 calls it
# moves of 320 draws: bfloat16 seeds 0-2, float16 seed 0, errors equal): 1.52-1.97x
# geomean per draw set, 39 faster, 2 at 0.92-0.93x (64 -> 1024 K3 S4, both dtypes);
# against torch in the same dtype 0.63-1.27x -> 1.25-1.87x geomean (results/
# 2026-12-07-session73/run_1/route16)
WGMMA_16BIT_F32_ROUTE = True
# 16-bit instances run two blocks per SM (their registers capped at 128 per thread: the
# kernel's MINB) where both blocks' shared memory fits and the GEMM has at most this many
# column offsets: each adds 2 registers of A rows per thread, and NVRTC's SASS spills
# 0-2 instructions at 2 (every vocoder layer, K = 2S), 7-13 at 3, 19-249 at 4-47. Two
# blocks against one, both with the whole reduction in the accumulators
# (CT1D_WGMMA_H_DIRECT) and 5 raw stages: 1.47-1.62x faster on six of the sweep's wide
# layers in bf16; against the session's start (one block, product chains, 2 stages)
# 1.42-1.65x on its nine wide 16-bit layers (bf16 on all nine, fp16 on six), errors
# equal (H100, results/2026-12-06-session53/run_1/ab_h16_bfloat16.txt, run_4/ab_h16_*.txt;
# the H200, seven layers: 1.38-1.64x, run_7). Only 256-thread blocks (128 registers each;
# a 512-thread block would get 64)
WGMMA_2B_MAX_NC = 2
# float32 instances of at least this many column offsets (CMAX + 1) take the scaled 3xFP16
# split (WgmmaKey.f16x3: three k16 float16 products per offset and chunk) instead of
# 3xTF32 (three k8 TF32 products per k8 step: twice the tensor time). The split measures
# and splits more per element, which costs more than the halved products save where the
# offsets are few. Forced ct1d_wgmma on the dispatcher's wgmma calls of shape_scan draws
# 0-1, H100, medians of 3 rounds, geomean speedup of 3xFP16 (results/2026-12-06-session60/
# run_2/ab_calls.txt): 1 offset 0.82x (8 calls), 2 0.88x (9), 3 0.97x (6), 4 1.42x (3),
# 5 1.58x (2); the sweep's 12 wide layers (2 offsets) 0.84-0.89x; errors 2.3-5.8e-7 ->
# 0.98-1.9e-7. Out of sample (draws 2-5, run_3/ab_calls_2_5.txt): >= 4 offsets 1.44x on 16
# calls (1.24-2.29x, errors 3.7-9.2e-7 -> 1.3-2.4e-7), 3 offsets 0.96x on 8
WGMMA_F16X3_MIN_NC = 4
# ... and the 3xFP16 instances take the float32 calls ct1d_gemm's arithmetic suits from
# this many blocks, at stride 1 too, where their GEMM rows are full
# (WGMMA_ANY_MIN_ROW_USE), at most WGMMA_MAX_TILE_WASTE of their positions lie past the
# row and ct1d_mma would not stage the call (``_prefers_wgmma``); the older limits
# (WGMMA_MIN_BLOCKS, and strides >= 2 below WGMMA_MIN_CIG input channels: _wgmma_any)
# were set on 3xTF32. Forced families, H100,
# the family each call had against ct1d_wgmma (results/2026-12-06-session64/): >= 7
# offsets (one A fragment set, CT1D_WGMMA_F3_ONE_A), chosen on draws 0-3 (run_3), out of
# sample on draws 4-11 1.33x over 25 calls (0.96-3.36x, the new plan timed through the
# API; run_4/summary.txt; three calls ct1d_mma stages had 0.62-0.70x, hence that
# condition); 4-6 offsets (prepared launches, run_5_6_summary.txt) on draws 0-5 1.26x
# over 17 (0.84-2.17x; 0.84-0.90x on four small calls of 48-64 blocks), out of sample on
# draws 6-11 1.36x over 22 (0.63-5.59x; below 0.95x: 96 -> 1024 K7 S2 N1, 144 blocks,
# 0.032 -> 0.050 ms, and 32 -> 384 K7 S2 N1, 54 blocks, 0.88x). Fewer blocks lost (9-18:
# 0.73-0.77x, run_3)
WGMMA_F16X3_MIN_BLOCKS = 48
# shared memory of an sm_90 SM, and what the runtime reserves of it per block
SMEM_PER_SM = 228 * 1024
SMEM_PER_BLOCK_RESERVED = 1024


# The kernels use sm_80 instructions (cp.async, bf16 mma.sync, __reduce_max_sync): older
# GPUs cannot run them (GPU runs: sm_90 only; sm_80-89 by construction, untested).
MIN_COMPUTE_CAPABILITY = 80


def fit_plan(p: ConvParams, dtype: str, family: Optional[str], arch: int, card: str,
             smem_limit: int, clusters: Tuple[int, ...] = ()) -> LaunchPlan:
    """plan() within a device's shared memory per block (``smem_limit`` bytes, its opt-in
    maximum): the rules are sized for sm_90's 227 KB, so on GPUs with less (sm_80: 163 KB,
    sm_86/89: 99 KB) a call whose family needs more takes ct1d_scatter, in output tiles
    cut to fit where needed (session 68: its tap mode's wider tiles would otherwise leave
    calls that fitted before); otherwise, or where another ``family`` was forced,
    NotImplementedError names both sizes."""
    pl = plan(p, dtype, family, arch, card, clusters)
    if pl.smem_bytes <= smem_limit:
        return pl
    if family in (None, "ct1d_scatter"):
        try:
            fallback = _scatter_tile_within(
                p, plan(p, dtype, "ct1d_scatter", arch, card, clusters), smem_limit)
        except NotImplementedError:
            fallback = None
        if fallback is not None:
            return fallback
    raise NotImplementedError(
        f"{pl.key.family} needs {pl.smem_bytes} bytes of shared memory per block for this "
        f"call and this GPU allows {smem_limit}; use backend='cpu' for this call")


def _scatter_tile_within(p: ConvParams, pl: LaunchPlan, smem_limit: int) -> Optional[LaunchPlan]:
    """A ct1d_scatter plan with its output tile cut to fit ``smem_limit`` bytes (its
    staging alone is at most _STAGE_BUDGET, within any sm_80+ GPU's); the plan itself
    where it fits, None where not even a one-output tile does."""
    if pl.smem_bytes <= smem_limit:
        return pl
    key = pl.key
    row_bytes = key.acc_bytes * key.co_tile            # one output position of the tile
    rows = (smem_limit - (key.smem_bytes(1) - row_bytes)) // row_bytes
    tile = min(pl.tile_out, rows if rows % 2 else rows - 1)    # (the pitch is tile | 1)
    if tile < 1 or -(-p.length_out // tile) >= 2**30:
        return None
    return replace(pl, tile_out=tile, n_tiles=-(-p.length_out // tile),
                   smem_bytes=key.smem_bytes(tile))


def usable_arch(compute_capability: int, nvrtc_version: tuple) -> int:
    """plan()'s ``arch`` for a device: its compute capability, or 0 where the NVRTC in use
    cannot build that architecture's own instructions (sm_90a needs CUDA 12.0 or later),
    so that only the portable families are chosen."""
    if compute_capability == WGMMA_ARCH and tuple(nvrtc_version) < (12, 0):
        return 0
    return compute_capability


# The rules below are set on the H200 (their A/B runs). Where another sm_90 card measured a
# rule otherwise, its entry here overrides that constant for it (plan's ``card``); cards
# not named take the H200's rules. The H100 (results/2026-12-05-session47/run_2/
# ab_h100_rules.txt, medians of 5 rounds, ms, each override alone against the H200's
# rules): 64 input channels at 8 steps on 2 + 1 WS blocks, hifigan-u4-b16 0.1319 ->
# 0.1271, hifigan-u4-b4-long 0.2401 -> 0.2370, encodec-s2 equal; narrow calls on WS
# blocks whatever their out_per_x, up-32-16-s2 0.2340 -> 0.2290, sd-s1d4k3 0.1272 ->
# 0.1246 (on the H200 these two were 7-11% slower so, session 46). (A third, 16-step rows
# of any length, became every card's rule in session 48: PIPE_ANY_L_MAX_STEPS; two more,
# measured first on an H100 in session 49, in session 50: PIPE_NCO32_ANY_L_MAX_N and
# PIPE_WS_NCO64_MIN_COG.)
CARD_RULES = {
    "h100": {"PIPE_WS_WIDE_ON": True, "PIPE_WS_MIN_OUT_X": 0.0},
}


def card_of(arch: int, name: str) -> str:
    """plan()'s ``card`` for a device of compute capability ``arch`` named ``name`` (the
    CUDA device name): a CARD_RULES key, or "" for the H200's rules."""
    return "h100" if arch == WGMMA_ARCH and "H100" in name else ""


def _rule(name: str, card: str):
    """A dispatch constant as it holds on ``card`` (CARD_RULES over the module's value)."""
    return CARD_RULES.get(card, {}).get(name, globals()[name])


def wgmma_key(p: ConvParams, dtype: str = "float32") -> Optional[WgmmaKey]:
    """The ct1d_wgmma instance for a call (None where the family does not apply)."""
    S, D, K = p.stride, p.dilation, p.kernel_size
    cig = p.in_channels // p.groups
    nc = (K - 1) * D // S + 1
    if (dtype not in ("float32", "float16", "bfloat16") or K > MAX_UNROLLED_K or S > 16 or cig < 16
            or gemm_density(S, D, K) <= WGMMA_MIN_DENSITY or not _rows_fit_int32(p)):
        return None
    for wn, nw in WGMMA_SHAPES:
        key = WgmmaKey(S, D, K, 2, wn, nw, dtype=dtype)
        smem = key.smem_bytes()
        if smem <= _WGMMA_SMEM:
            if (dtype != "float32" and nc <= WGMMA_2B_MAX_NC and key.threads == 256
                    and 2 * (smem + SMEM_PER_BLOCK_RESERVED) <= SMEM_PER_SM):
                key = replace(key, blocks=2)
            if dtype == "float32" and nc >= WGMMA_F16X3_MIN_NC:
                key = replace(key, f16x3=True)
            return key
    return None


def _prefers_wgmma(p: ConvParams, pl: LaunchPlan) -> bool:
    """Whether the dispatcher takes the ct1d_wgmma plan ``pl`` for a call (16-bit ones only
    with WGMMA_16BIT; with WGMMA_16BIT_ANY wherever ct1d_gemm would take them)."""
    if pl.key.dtype != "float32":
        if not WGMMA_16BIT:
            return False
        if WGMMA_16BIT_ANY:     # (the calls plan() would give ct1d_gemm)
            return _prefers_gemm(p, pl.key.dtype) and gemm_key(p, pl.key.dtype) is not None
    if not _prefers_gemm(p, pl.key.dtype):
        return False
    if (pl.key.f16x3 and _wgmma_any(p, pl, WGMMA_F16X3_MIN_BLOCKS, min_stride=1)
            and not _mma_staged(p, pl.key.dtype, WGMMA_ARCH)):
        return True
    if p.in_channels // p.groups >= WGMMA_MIN_CIG:
        return (_block_count(p, pl) >= WGMMA_MIN_BLOCKS
                and _tile_waste(p, pl) <= WGMMA_MAX_TILE_WASTE
                and (_wgmma_row_use(p, pl) >= WGMMA_MIN_ROW_USE
                     or gemm_key(p, pl.key.dtype) is None))
    return _wgmma_any(p, pl) and not _mma_staged(p, pl.key.dtype, WGMMA_ARCH)


def _wgmma_as_float32(p: ConvParams, dtype: str, arch: int, card: str,
                      clusters: Tuple[int, ...]) -> bool:
    """WGMMA_16BIT_F32_ROUTE: a 16-bit call takes ct1d_wgmma wherever the same call in
    float32 would (its 16-bit products are native, float32's three-way splits)."""
    return (WGMMA_16BIT and WGMMA_16BIT_F32_ROUTE and dtype in ("float16", "bfloat16")
            and plan(p, "float32", None, arch, card, clusters).key.family == "ct1d_wgmma")


def _tile_waste(p: ConvParams, pl: LaunchPlan) -> float:
    """The fraction of a row-tiled plan's computed positions that lie past the row."""
    return 1 - _row_positions(p)[1] / (pl.n_tiles * pl.key.nu)


def _wgmma_any(p: ConvParams, pl: LaunchPlan, min_blocks: int = WGMMA_MIN_BLOCKS,
               min_stride: int = 2) -> bool:
    """WGMMA_ANY_MIN_ROW_USE: the ct1d_wgmma plan ``pl`` beats ct1d_gemm on a float32 call
    whatever its input channels (strides of ``min_stride`` and more, ``min_blocks``
    blocks, rows full enough; the 3xFP16 instances from WGMMA_F16X3_MIN_BLOCKS at any
    stride)."""
    return (p.stride >= min_stride and _block_count(p, pl) >= min_blocks
            and _tile_waste(p, pl) <= WGMMA_MAX_TILE_WASTE
            and _wgmma_row_use(p, pl) >= WGMMA_ANY_MIN_ROW_USE)


def _wgmma_row_use(p: ConvParams, pl: LaunchPlan) -> float:
    """The fraction of a ct1d_wgmma plan's GEMM rows that hold taps: output channels over
    the channel tiles that hold them, times the (class, column offset) pairs some tap fills."""
    return ((p.out_channels // p.groups) / (pl.co_chunks * pl.key.co_tile)
            * gemm_density(p.stride, p.dilation, p.kernel_size))


def _plan_wgmma(p: ConvParams, dtype: str) -> Optional[LaunchPlan]:
    key = wgmma_key(p, dtype)
    return None if key is None else wgmma_launch_plan(p, key)


def wgmma_launch_plan(p: ConvParams, key: WgmmaKey) -> LaunchPlan:
    """Tile geometry of a ct1d_wgmma instance: S*NU consecutive outputs per tile row."""
    return _row_tile_plan(p, key, key.nu)


# ct1d_pipe (sm_90 only) takes float32 calls of 16-64 input channels per group (a multiple
# of 16), at most PIPE_MAX_N GEMM columns (live classes x 16, 32 or, in WS blocks, 64
# channels) and, where some class gets no tap, tiles in whole 32-byte units unless S
# divides 4 (the bias-only places must not move between tiles). Rows of y that are not
# whole 16-byte units (L_out % 4 != 0, or = 4 mod 8 where tiles take whole 32-byte units)
# take the ANY_L instances (a row pitch of L_out mod 8, the rows' ends stored
# element-wise), with dead classes only where channels per group are a multiple of 8 (then
# every tile's block starts on a row whose index is a multiple of 8, and the rows' shift
# is the tile's).
PIPE_MAX_N = 192
# ... and reductions of at most this many k16 steps (column offsets x input channels / 16):
# a thread holds its A fragments of all of them (8 registers each), and the tile's three
# products accumulate in one chain (the tensor cores truncate as they add, about 2e-8
# per step: MMA_WG_CHAIN_STEPS, ~3.5e-7 at 16 steps); more than 8 steps only in blocks
# of the warpgroups whose registers hold them (PIPE_STEPS_WG: (steps, warpgroups) at
# most, the register rules below permitting; 3 warpgroups have 168 registers per thread). Against the ct1d_mma plans
# (results/2026-12-04-session34/run_1, run_5, run_7/ab_*.txt, medians of 3 rounds, ms):
# on 3 warpgroups, 12 steps 64 -> 64 K=3 S=1 0.226 -> 0.169; 14-16 steps, rows of y in
# 16-byte units: 48 -> 48 K=5 S=1 0.268 -> 0.201, 32 -> 32 K=7 S=1 0.115 -> 0.102,
# 48 -> 48 K=10 S=2 0.405 -> 0.282, 32 -> 32 K=16 S=2 0.202 -> 0.187; 16 steps with L_out
# odd (ANY_L) slower: 32 -> 32 K=8 S=1 0.128 -> 0.147 (5 spilled loads), sd-s2d4k4 0.142 ->
# 0.152 and 64 -> 64 K=4 S=1 0.2415 -> 0.2458 (none; on 2 warpgroups also slower: 0.150 ->
# 0.157, 0.243 -> 0.255)
PIPE_MAX_STEPS = 16
PIPE_STEPS_WG = ((8, 5), (16, 3))
# ... and 4 warpgroups (128 registers per thread) only where accumulators and A fragments
# take at most this many of them (PipeKey.fragment_regs; NVRTC: 2-7 spilled loads at 96,
# 9 at 112, where up-64-64-s3 ran 0.2473 -> 0.2706 ms on (4, 1, 1) against (3, 2, 1),
# results/2026-12-04-session35/run_1/ab_stages.txt)
PIPE_WG4_MAX_REGS = 96
# ... and 5 warpgroups (96 registers per thread) where they take at most this many (0:
# never). Measured mixed on the smallest GEMM (up-32-16-s2: 16 + 32), (4, 3, 2) -> (5, 3, 2)
# 0.1825 -> 0.1741 and 0.1752 -> 0.1738 ms, then 0.1690 -> 0.1727 on the final code; at 64
# sd-s1d4k3 0.1070 -> 0.1053 but g4-128-k4-s2 0.1403 -> 0.1448, at 80 up-16-16-s8 0.0576 ->
# 0.0625 (results/2026-12-04-session36/run_2-4/ab_*.txt)
PIPE_WG5_MAX_REGS = 0
# ... and ANY_L calls of at most this many steps are taken (routing; session 43 run 1, H100,
# 16 steps still slower: sd-s2d4k4 0.1604 -> 0.1662 ms, 64 -> 64 K=4 S=1 0.2507 -> 0.2803).
# Since the warp-specialised blocks (whose consumers hold no A fragments) 16 steps were
# faster on an H100 (session 46 run 11, medians of 3 rounds: sd-s2d4k4 0.1483 -> 0.1238,
# 64 -> 64 K=4 S=1 0.2480 -> 0.1504, 32 -> 32 K=8 S=1 0.2162 -> 0.1850; session 47 run 2
# the same), and on the H200 (session 48 run 11, ab_any16.txt, medians of 5 rounds:
# sd-s2d4k4 0.1560 -> 0.1242, 64 -> 64 K=4 S=1 L_out odd 0.2652 -> 0.1628, 32 -> 32 K=8 S=1
# 0.2180 -> 0.1906, 48 -> 48 K=5 S=1 0.2652 -> 0.1877; errors 1.9-2.1e-7 -> 3.3-3.5e-7,
# the 16 steps in one chain)
PIPE_ANY_L_MAX_STEPS = 16
# Rows of x that are not whole 16-byte units (L_in % 4 != 0) load by 4-byte copies, four
# times the instructions: taken up to this many input channels per group
# (results/2026-12-04-session33/run_9/ab_odd_lin.txt, ct1d_mma -> ct1d_pipe: 32 -> 32 K=8
# S=4 L=65535 0.1719 -> 0.1487 ms, groups of 32 at K=8 S=4 0.1748 -> 0.1520, 16 -> 16 K=16
# S=8 0.0820 -> 0.0643; 64 -> 32 K=4 S=2 L=32770 0.1467 -> 0.1501)
PIPE_X4_MAX_CI = 32
# Blocks of 32 output channels (else 16) where that GEMM has at most this many columns:
# 4 classes x 32, not 5 or 6 (results/2026-12-04-session33/run_3/ab_new.txt, 32 -> 16
# channels: sd-s5d1k11 0.0575 -> 0.0550 ms, 64 -> 64 K=5 S=5 D=2 0.2539 -> 0.2471,
# 32 -> 32 K=12 S=6 0.0889 -> 0.0883; 3 classes: up-64-64-s3 0.2417 -> 0.3043)
PIPE_NCO32_MAX_N = 128
# ... and up to this many where that gives a call with rows of y of any length (ANY_L) one
# channel tile (<= 32 channels per group), which the routing below requires of ANY_L calls
# of few steps. H100 (results/2026-12-05-session49/run_6/ab_any32.txt, medians of 5
# rounds, ms, ct1d_mma -> 32-channel 2 + 2 WS blocks): 32 -> 32 K=10 S=5 L_out odd 0.2024 ->
# 0.1855, 32 -> 24 the same 0.2005 -> 0.1486, at N=4, L=32768 0.0711 -> 0.0567, 32 -> 32
# K=12 S=6 (192 columns) 0.2239 -> 0.2080; without ANY_L, 5-class calls are 6-7% slower on
# 32-channel blocks (run 5: sd-s5d1k11 0.0514 -> 0.0550). H200 (results/2026-12-05-session50/
# run_3/ab_h100_rules_on_h200.txt, medians of 5 rounds, against 0): 0.1996 -> 0.1610, 0.2019
# -> 0.1442, 0.0688 -> 0.0513, 0.2217 -> 0.2040
PIPE_NCO32_ANY_L_MAX_N = 192
# Outputs per tile a multiple of this many floats at least (8: tiles start on a 32-byte
# sector of rows that do; 4: 16-byte units, so more positions per tile). 8 measured mixed
# (results/2026-12-03-session32/run_2: g4-128-k4-s2 0.1377 -> 0.1342 ms, hifigan-u4-b16
# 0.1064 -> 0.1092, up-32-16-s2 0.1830 -> 0.1873, the rest within 1%)
PIPE_QUANTUM = 4
# The dispatcher sends it the calls it covers whose GEMM is at least PIPE_MIN_DENSITY dense
# (taps / (column offsets x live classes)) with at least PIPE_MIN_TILES tiles in all
# (a few per warpgroup of a full wave). Against the shipped ct1d_mma plans in one process
# (results/2026-12-03-session31/run_3/ab_pipe.txt, medians of 3 rounds): hifigan-u4-b16
# 0.140 -> 0.119 ms, hifigan-u4-b4-long 0.251 -> 0.209, encodec-s2 0.306 -> 0.252,
# up-32-16-s2 0.202 -> 0.176, up-32-32-s4 0.162 -> 0.130, up-16-16-s8 0.082 -> 0.072,
# sd-s2d1k7 0.190 -> 0.178, sd-s1d4k3 0.133 -> 0.111, g4-128-k4-s2 0.156 -> 0.148,
# g8-256-k8-s4 0.163 -> 0.129, g16-512-k16-s8 0.072 -> 0.060; sd-s4d3k5 (density 5/16)
# 0.130 -> 0.144
# (session 43 run 1, on the H100, below half dense still slower: sd-s4d3k5 0.1561 -> 0.1729
# ms, 32 -> 64 K=4 S=3 D=2 0.2082 -> 0.2173, 16 -> 32 K=5 S=4 D=3 0.2451 -> 0.2933)
PIPE_ROUTE = True
PIPE_MIN_DENSITY = 0.5
PIPE_MIN_TILES = 1024
# ... and of the calls whose rows of x load by 4-byte copies (L_in % 4 != 0), those whose
# rows of y carry at least this many times x's bytes (C_out * S >= 4 * C_in per group:
# session 33's wins were at 4 and 8; at 1 ct1d_mma is faster,
# results/2026-12-04-session34/run_2/ab_route.txt: 32 -> 16 K=4 S=2 L=131071 0.194 ->
# 0.210 ms, and 64 -> 32 K=4 S=2 in session 33)
PIPE_X4_MIN_Y_PER_X = 4
# ... and of the ANY_L calls with dead classes (whose tiles store twice the outputs they
# compute) or several channel tiles per group (each builds A from x again), those of more
# than this many k16 steps: the element-wise row ends and the odd row pitch cost ANY_L
# tiles ~6% (hifigan-u4-b16 0.1050 ms, the same call with L_out = 2 mod 4 0.1111), which
# only the long reductions, where ct1d_mma's 64-channel tiles are slow, pay back.
# ct1d_mma -> ct1d_pipe (results/2026-12-04-session34/run_1-2/ab_route.txt, medians of 3
# rounds, ms): sd-s2d2k3-c64 (12 steps, 2 tiles) 0.471 -> 0.423; 6 steps, 2 tiles: the
# seed 0.398 -> 0.607, 32 -> 40 0.119 -> 0.127, sd-s3d2k5 0.194 -> 0.198 (and 0.179 ->
# 0.184 in run 4's sweep); 3 steps, 1 tile: sd-s2d2k3-c16 0.208 -> 0.288; 8 steps, 1 tile,
# no dead class (taken): 64 -> 32 K=4 S=2 P=2 0.138 -> 0.109
# Session 43 measured the two kinds apart on session 36's faster ANY_L instances: the
# same threshold holds for several channel tiles without a dead class
# (results/2026-12-05-session43/run_1/ab_route.txt, H100: sd-s3d2k5, 6 steps in 2 channel
# tiles, 0.2058 -> 0.2389 ms on ct1d_pipe)
PIPE_ANY_L_MIN_STEPS = 9
# (warpgroups per block, ring stages, output buffers) in order of preference: the first
# that fits one SM. The most warpgroups win: a tile's steps run one after another in its
# warpgroup (~850 instructions per warp), and only other warpgroups fill the gaps (run
# 2-3: 2 warpgroups with 3 stages and 2 buffers 0.127 ms on hifigan-u4-b16, 3 with 2
# stages and 1 buffer 0.119; g8-256-k8-s4 0.139 -> 0.129 with 4; session 32 run 4: 3
# warpgroups for the 4-warpgroup calls slower or equal, up-32-16-s2 0.171 -> 0.195), and
# one ring stage (its window refilled within the tile) for a fourth warpgroup or a second
# buffer (results/2026-12-04-session35/run_1/ab_stages.txt, medians of 3 rounds, ms:
# hifigan-u4-b16 (3, 2, 1) -> (4, 1, 1) 0.1101 -> 0.1082, encodec-s2 0.2560 -> 0.2489,
# up-32-32-s4 (3, 3, 1) -> (4, 1, 1) 0.1227 -> 0.1205, g8-256-k8-s4 0.1276 -> 0.1273;
# sd-s2d1k7 (4, 3, 1) -> (4, 1, 2) 0.1813 -> 0.1765; but (3, 1, 2) on hifigan-u4-b16 0.1130;
# run_2/ab_shapes.txt, session 34's shapes -> these: hifigan-u4-b16 0.1069 -> 0.1039,
# hifigan-u4-b4-long 0.2034 -> 0.1928, encodec-s2 0.2577 -> 0.2519, sd-s2d1k7 0.1835 ->
# 0.1722, g8-256-k8-s4 0.1211 -> 0.1189, five calls off the sweep 0.7-1.4% faster or equal,
# g16-512-k16-s8 0.0417 -> 0.0427 (5.5 tiles per warpgroup). Rows of y of any length take
# them since the warp-uniform indices (session 36) removed ANY_L's 10 spilled loads on
# (4, 1, 1): 64 -> 32 K=4 S=2 P=2 (3, 2, 1) -> (4, 1, 1) 0.2345 -> 0.2145, 0.2213 -> 0.2102
# and on the final code 0.2148 -> 0.2012 ms (results/2026-12-04-session36/run_2-4; session
# 35, with the spills: 0.2109 -> 0.2425). Rows of x by 4-byte copies do not (32 -> 32 K=8
# S=4 L=65535 (3, 3, 1) -> (4, 1, 1) 0.1301 -> 0.1253 and 0.1288 -> 0.1251 before the final
# code, 0.1309 -> 0.1323 on it; session 35: 0.1400 -> 0.1439)
PIPE_ONE_STAGE_ANY_L = True
PIPE_ONE_STAGE_X4 = False
PIPE_SHAPES = ((5, 3, 2), (5, 2, 2), (5, 3, 1), (5, 2, 1),
               (4, 3, 2), (4, 2, 2), (4, 1, 2), (4, 3, 1), (4, 2, 1), (4, 1, 1), (3, 3, 2),
               (3, 2, 2), (3, 3, 1), (3, 2, 1), (3, 1, 2), (3, 1, 1), (2, 3, 2), (2, 2, 2),
               (2, 3, 1), (1, 3, 2))
# Warp-specialised blocks (PipeKey.ws): shapes (consumers, producers, stages, output
# buffers) in order of preference, the first whose shared memory fits. PIPE_WS_SHAPES
# (non-empty) for every call, else with PIPE_WS by pipe_ws_shapes' rule. Session 44 (H100,
# results/2026-12-05-session44/run_2/ab_ws.txt, medians of 2 rounds against the plain
# blocks): 9-16-step reductions, whose plain pipelines fit only 3 per block, 8% faster with
# 3 consumers and 1 producer (sd-s2d2k3-c64 0.4425 -> 0.4063 ms); 32 input channels or fewer
# 2-10% faster with 2 consumers and 2 producers (sd-s5d1k11 0.0601 -> 0.0539, g8-256-k8-s4
# 0.1530 -> 0.1438). Session 46 (H200, results/2026-12-05-session46/run_4-8): 2 + 2 before
# 2 + 1 where 3 + 1 does not fit (sd-s2d2k3-c64 in 64-channel blocks 0.3782 -> 0.3109)
PIPE_WS_SHAPES = ()
PIPE_WS = True
PIPE_WS_LONG = ((3, 1, 5, 1), (3, 1, 5, 2), (2, 2, 5, 1), (2, 1, 5, 1))
PIPE_WS_NARROW = ((2, 2, 5, 2), (2, 2, 5, 1))
# ... narrow ones only where a tile writes at least this many times its x window's floats
# (PipeKey.out_per_x): below, the producers must split x at the pace of the whole tile.
# H200, session 46 run 5, medians of 5 rounds: up-32-16-s2 (0.98) 0.1919 -> 0.1701 ms and
# sd-s1d4k3 (0.89) 0.1148 -> 0.1039 without WS blocks, the calls at 1.9-7.9 faster with
# them (g16-512-k16-s8 0.0439 -> 0.0391); on an H100 (run 2) the two 1-2% slower without
# (0 there: CARD_RULES)
PIPE_WS_MIN_OUT_X = 1.5
# 64 input channels at <= 8 steps: the 2 + 1 shapes in blocks of 64 output channels (64 ->
# 64 K=4 S=2 0.3793 -> 0.3293 ms, H200, session 46 run 8), else none: in blocks of 32
# the H200 runs them slower (run 5: hifigan-u4-b16 0.1056 -> 0.1135, encodec-s2 0.2513 ->
# 0.2746; 64 -> 64 K=8 S=4 0.2702 -> 0.3216 in run 8), the H100 faster (session 45 run 4:
# hifigan-u4-b16 0.1296 -> 0.1238, encodec-s2 0.3028 -> 0.2995): PIPE_WS_WIDE_ON takes
# them up to PIPE_WS_WIDE_N GEMM columns (on an H100: CARD_RULES; off here)
PIPE_WS_WIDE = ((2, 1, 5, 2), (2, 1, 4, 2), (2, 1, 4, 1))
PIPE_WS_WIDE_N = 64
PIPE_WS_WIDE_ON = False
# Warp-specialised blocks of 64 output channels (else 16 or 32), tried first where C_out
# has at least 64 per group and that GEMM has at most this many columns (0: never): each x
# window is then loaded and split once per 64 channels, not by two 32-channel blocks, and
# the consumers' wgmma are twice as wide for the same A reads. H200, session 46 run 7,
# against 32-channel blocks (medians of 3 rounds): sd-s2d2k3-c64 0.3833 -> 0.3162 ms,
# sd-s2d1k7 0.1751 -> 0.1531, 64 -> 64 K=3 S=1 0.3711 -> 0.2210, 32 -> 64 K=4 S=2 0.2576 ->
# 0.2471
PIPE_WS_NCO64_MAX_N = 192
# ... where C_out has at least this many channels per group (64: whole blocks; fewer: one
# partly filled block per group instead of two of 32, each x window split once). H100
# (results/2026-12-05-session49/run_8/ab_cog33.txt, medians of 4 rounds, ms, at 33):
# 32 -> 40 K=4 S=2 0.1334 -> 0.1138, 32 -> 48 0.1331 -> 0.1293, two groups of 32 -> 48
# 0.0773 -> 0.0739; with rows of y of any length, which one tile moves off ct1d_stream /
# ct1d_mma, 32 -> 48 0.2003 -> 0.1383 and 64 -> 48 0.2495 -> 0.1728 (all at 4-8 k16 steps);
# at 12-16 steps (session 50 run 1, against 64) 64 -> 48 K=3 S=2 D=2 0.3622 -> 0.3455, 64 ->
# 48 K=4 S=1 0.2036 -> 0.1500, 48 -> 40 K=5 S=1 0.1899 -> 0.1264. H200 (session 50 run 3,
# medians of 5 rounds, against 64): the same eight calls 14-34% faster (32 -> 48 K=4 S=2
# 0.1801 -> 0.1263, two groups of 32 -> 48 0.0736 -> 0.0636, 64 -> 48 K=3 S=2 D=2 0.3543 ->
# 0.2748, 48 -> 40 K=5 S=1 0.1877 -> 0.1244)
PIPE_WS_NCO64_MIN_COG = 33


def pipe_ws_shapes(key: "PipeKey", card: str = "") -> tuple:
    """The warp-specialised shapes a ct1d_pipe key tries first (() for none): long
    reductions always, narrow x where its tiles write enough per x window, 64 input
    channels at <= 8 steps in 64-channel blocks (or with PIPE_WS_WIDE_ON)."""
    if PIPE_WS_SHAPES or not PIPE_WS:
        return PIPE_WS_SHAPES
    if key.steps > PIPE_STEPS_WG[0][0]:
        return PIPE_WS_LONG
    if key.ci <= 32:
        return PIPE_WS_NARROW if key.out_per_x >= _rule("PIPE_WS_MIN_OUT_X", card) else ()
    wide = _rule("PIPE_WS_WIDE_ON", card) and key.n <= PIPE_WS_WIDE_N
    return PIPE_WS_WIDE if key.nco == 64 or wide else ()


def pipe_geometry(p: ConvParams, quantum: int = 4) -> Optional[Tuple[int, int]]:
    """(U, e0) of ct1d_pipe's tiles for a call: tile t computes the 64 positions from
    u = t*U + e0 on and stores the S*U outputs from t*S*U on, U the most that leaves those
    outputs a multiple of ``quantum`` floats, all reached (None where none is)."""
    S, P = p.stride, p.padding
    e0 = (P - S + 1) // S
    for U in range(64, 0, -1):
        if (S * U) % quantum == 0 and (S * U - 1 - (e0 * S - P)) // S < 64:
            return U, e0
    return None


def pipe_key(p: ConvParams, dtype: str, card: str = "") -> Optional[PipeKey]:
    """The ct1d_pipe instance for a call on ``card`` (None where the family does not apply)."""
    S, D, K = p.stride, p.dilation, p.kernel_size
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    if (dtype != "float32" or cig % 16 or cig > 64
            or (p.length_in % 4 and cig > PIPE_X4_MAX_CI)
            or p.length_out + S * 64 >= 2**31 or K > MAX_UNROLLED_K):
        return None
    classes = live_classes(S, D, K)
    base = PipeKey(S, D, K, cig, 16)
    any_l = p.length_out % 4 != 0 or (_pipe_quantum(p, base) == 8 and p.length_out % 8 != 0)
    base = replace(base, any_l=any_l)
    if any_l and classes < S and cog % 8:
        return None
    # 32-channel blocks where C_out has more than 16 per group and the GEMM stays narrow
    # enough; wider for ANY_L calls that one channel tile then covers, on warp-specialised
    # blocks (as measured), else 16-channel blocks
    wide = (cog > 16 and 32 * classes > PIPE_NCO32_MAX_N and any_l and cog <= 32
            and 32 * classes <= _rule("PIPE_NCO32_ANY_L_MAX_N", card))
    if wide:
        k = _pipe_shape(p, replace(base, nco=32), card)
        if k is not None and k.ws:
            return k
    elif cog > 16 and 32 * classes <= PIPE_NCO32_MAX_N:
        base = replace(base, nco=32)
    return _pipe_shape(p, base, card)


def _pipe_shape(p: ConvParams, base: PipeKey, card: str) -> Optional[PipeKey]:
    """pipe_key's instance of ``base``'s channels and structure: its first block shape that
    fits (warp-specialised first, in blocks of 64 output channels first), or None."""
    if base.n % 16 or base.n > PIPE_MAX_N or base.steps > PIPE_MAX_STEPS:
        return None
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    max_wg = next(wg for most, wg in PIPE_STEPS_WG if base.steps <= most)
    fr = base.fragment_regs
    max_wg = min(max_wg, 5 if fr <= PIPE_WG5_MAX_REGS else 4 if fr <= PIPE_WG4_MAX_REGS else 3)
    # (one-stage rings for ANY_L and 4-byte-x calls: PIPE_ONE_STAGE_ANY_L, _X4)
    one_stage = ((not base.any_l or PIPE_ONE_STAGE_ANY_L)
                 and (p.length_in % 4 == 0 or PIPE_ONE_STAGE_X4))

    def fits(k: PipeKey) -> bool:
        # one block per SM, and the raw weights staged where the rings and buffers go
        return (k.smem_bytes() <= _MMA_SMEM_ONE_BLOCK
                and k.offsets * cig * k.n <= k.ring_and_out_words())

    # warp-specialised shapes first (named barriers: 1 + ws + wg + 2 stages <= 16), those
    # of 64-channel blocks before the others
    nco64 = ((replace(base, nco=64),)
             if (cog >= _rule("PIPE_WS_NCO64_MIN_COG", card)
                 and 64 * base.classes <= min(PIPE_WS_NCO64_MAX_N, PIPE_MAX_N)) else ())
    ws_keys = (replace(k, wg=wg, ws=ws, stages=st, outbuf=ob)
               for k in nco64 + (base,) for wg, ws, st, ob in pipe_ws_shapes(k, card))
    plain_keys = (replace(base, wg=wg, stages=st, outbuf=ob) for wg, st, ob in PIPE_SHAPES)
    return next(chain((k for k in ws_keys
                       if k.ws + k.wg + 2 * k.stages <= 15 and k.stages > k.wg + k.ws and fits(k)),
                      (k for k in plain_keys
                       if k.wg <= max_wg and (k.stages > 1 or one_stage) and fits(k))), None)


def _pipe_quantum(p: ConvParams, key: PipeKey) -> int:
    return max(PIPE_QUANTUM, 4 if key.classes == p.stride or 4 % p.stride == 0 else 8)


def _plan_pipe(p: ConvParams, dtype: str, card: str = "") -> Optional[LaunchPlan]:
    key = pipe_key(p, dtype, card)
    if key is None:
        return None
    geo = pipe_geometry(p, _pipe_quantum(p, key))
    if geo is None:
        return None
    U, e0 = geo
    n_tiles = -(-p.length_out // (p.stride * U))
    if p.batch * n_tiles >= 2**31 - 2**20:            # (item, tile) units count in 32 bits
        return None
    return LaunchPlan(key, p.stride * U, n_tiles, -(-(p.out_channels // p.groups) // key.nco),
                      key.smem_bytes(), e0)


def _prefers_pipe(p: ConvParams, pl: LaunchPlan, card: str = "") -> bool:
    """Whether the dispatcher takes the ct1d_pipe plan ``pl`` for a call (on sm_90 ``card``)."""
    k = pl.key
    cog = p.out_channels // p.groups
    any_l_slow = k.any_l and (k.steps > _rule("PIPE_ANY_L_MAX_STEPS", card)
                              or ((k.classes < p.stride or pl.co_chunks > 1)
                                  and k.steps < PIPE_ANY_L_MIN_STEPS))
    return (p.kernel_size >= PIPE_MIN_DENSITY * k.offsets * k.classes
            and _block_count(p, pl) >= PIPE_MIN_TILES
            and (p.length_in % 4 == 0 or cog * p.stride >= PIPE_X4_MIN_Y_PER_X * k.ci)
            and not any_l_slow)


# Calls with fewer blocks than this (one per SM of an H100/H200, roughly) take narrower
# ct1d_mma tiles: a small call's time is one block's latency, and narrower tiles spread
# it over more SMs (N = 1, L = 1024: 26 -> 15.5 us GPU time, small_calls.txt, session 5).
_SMALL_CALL_BLOCKS = 128
# ... narrowing, in turn: positions per warp (nt 2, then 1), output channels per block
# (16, where the tile had more; SMALL_CALL_CHANNELS), warps along positions (halved; to
# no fewer than 4 warps per block once the channels narrowed). Channels before warps: a 16-channel block stages a
# quarter or half of the weights and keeps its warps for the staging (GPU time without the
# host's share, results/2026-12-02-session26/run_4-5: small-64-32-s2 15.0 -> 10.2 us,
# small-seed 10.3 -> 6.8, torch 14.6 / 8.1; halving warps at 16 channels 10.1 -> 13.0 us)
SMALL_CALL_CHANNELS = True


def _small_call_tiles(p: ConvParams, pl: LaunchPlan, channels: bool = False) -> LaunchPlan:
    """Narrower tiles for a call of few blocks (``channels``: 16 channels per block too,
    for calls that stay on mma.sync tiles; warpgroup choices are made without it)."""
    k = pl.key
    if _block_count(p, pl) >= _SMALL_CALL_BLOCKS:
        return pl
    # about one tile per block: 3xTF32, as the scaled split's weight staging would not be
    # amortised (small-seed 12 -> 15 us with it, results/2026-11-30-session7/)
    pl = mma_launch_plan(p, replace(k, f16x3=False, overlap=0))
    steps = [(k.mt, k.wm, 2, k.wn), (k.mt, k.wm, 1, k.wn)]
    if channels and k.mt * k.wm > 1:
        steps += [(1, 1, 1, k.wn), (1, 1, 1, max(4, k.wn // 2))]
    else:
        steps += [(k.mt, k.wm, 1, max(1, k.wn // 2))]
    for mt, wm, nt, wn in steps:
        if _block_count(p, pl) >= _SMALL_CALL_BLOCKS:
            break
        if nt < pl.key.nt or wn < pl.key.wn or mt * wm < pl.key.mt * pl.key.wm:
            pl = mma_launch_plan(p, MmaKey(k.dtype, k.stride, k.dilation, k.kernel_size,
                                           mt, nt, wm, wn, k.ci_chunk, k.w_all))
    return pl


def _block_count(p: ConvParams, pl: LaunchPlan) -> int:
    """Tiles of the whole call: tiles per row x channel tiles x groups x batch items."""
    return pl.n_tiles * pl.co_chunks * p.groups * p.batch


def mma_overlap(dtype: str, S: int, nu: int) -> int:
    """Positions u that a ct1d_mma tile shares with the previous one so that every row's
    stores start at a 32-byte sector boundary: the fewest with OV*S >= the elements per
    sector - 1 and OV*S whole 16-byte vectors (tiles keep their rows' alignment in shared
    memory); 0 where that would be more than an eighth of the tile."""
    size = ELEMENT_BYTES[dtype]
    ov = 1
    while ov * S < 32 // size - 1 or (ov * S * size) % 16:
        ov += 1
    return ov if 8 * ov <= nu else 0


def mma_launch_plan(p: ConvParams, key: MmaKey) -> LaunchPlan:
    """Tile geometry of a ct1d_mma instance for one call (tiles overlap by key.overlap)."""
    return _row_tile_plan(p, key, key.nu_owned)


# ct1d_scatter stages each tap's own columns (KernelKey.tap_cols, one tap per block, one
# pass each) where the widest all-taps staging (1024 columns) holds fewer outputs per tile
# than this (1: the calls it cannot hold at all, NotImplementedError before session 68) ...
SCATTER_TAP_COLS_BELOW = 1
# ... and where the all-taps staging's passes, ceil(K/kb) tap blocks x T phases, each
# behind a barrier, are at least this many times tap mode's K. H100, session 68 (runs 2-4,
# forced ct1d_scatter, N = 4, ms, all-taps -> tap): every float64 call with T >= 2 (kb = 1)
# gains or is equal: 32 -> 64 K3 S2 D2 0.303 -> 0.280, 64 -> 32 K4 S2 0.091 -> 0.080,
# 32 -> 32 K7 S1 0.141 -> 0.076, K40 S4 0.354 -> 0.199, 16 -> 16 K3 S1 D100 0.363 -> 0.027,
# D511 338.7 -> 0.030 (a tile of 2 outputs staged 1024 columns; torch 0.133), 256 -> 128
# K16 S8 2.078 -> 2.054; float32/bfloat16 (kb = 2-3) gain where the rule says so (K7 S1
# 0.081 -> 0.042, K5 S1 D8 0.090 -> 0.033, K40 S4 0.289 -> 0.139, K3 S3 D30 0.052 ->
# 0.026) and lose below it: K4 S2 1.13-1.24x slower (2 x 2 passes against 4), K11 S5
# 1.06x, K16 S8 1.09x; the float32 seed shape would gain 8% and stays (3 passes against 3).
SCATTER_TAP_COLS_PASS_RATIO = 2


def _plan_scatter(p: ConvParams, dtype: str) -> LaunchPlan:
    S, D, K = p.stride, p.dilation, p.kernel_size
    # Positions inside one row are 32-bit in the kernel (row offsets are 64-bit), and so
    # are its phase count's (K-1)*D + S and a tile's first column's o0 + pad + S - 1.
    full = (p.length_in - 1) * S + (K - 1) * D + 1 + p.output_padding
    if max(full, p.length_out + p.padding + max(S - 2, 0), (K - 1) * D + S) >= 2**31:
        raise NotImplementedError(
            f"row positions of 2**31 or more (a row of {full}, an output window of "
            f"{p.length_out + p.padding}, each plus the stride {S}) are not supported on the "
            "GPU; use backend='cpu' for this call")
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    a = 8 if dtype == "float64" else 4
    acc_budget = _ACC_BUDGET // (a // 4)

    rc = 4 if cog >= 4 else (2 if cog >= 2 else 1)
    rj = 4
    kb = max(1, min(K, acc_budget // (rc * rj)))
    kb = -(-K // -(-K // kb))                      # equal-sized tap blocks
    threads = 256
    co_threads = min(16, _pow2_at_least(-(-cog // rc)))

    # One tap per block, each staging its own columns (TAP_COLS; x is read K times per
    # tile): where the reach (K-1)*D/S is beyond the most columns a tile stages, or where
    # the all-taps staging takes many more passes (ceil(K/kb) blocks of T) than its K.
    tap_cols = (max_tile_out(threads * rj, S, D, K) < SCATTER_TAP_COLS_BELOW
                or -(-K // kb) * p.phases >= SCATTER_TAP_COLS_PASS_RATIO * K)
    if tap_cols:
        kb = 1
    span = kb if tap_cols else K        # taps whose columns are staged together

    def geometry(co_threads, threads):
        ncol = threads // co_threads * rj
        return ncol, max_tile_out(ncol, S, D, span)

    ncol, tile = geometry(co_threads, threads)
    # Keep the recomputed halo under half the tile: trade channel width for columns.
    while co_threads > 1 and tile * 2 < ncol * S:
        co_threads //= 2
        ncol, tile = geometry(co_threads, threads)
    # Large strides make wide output tiles: cap the tile's shared memory.
    co_tile = co_threads * rc
    tile = min(tile, _OUT_TILE_BUDGET // (a * co_tile) - 1)
    tile = max(tile, 1)

    ci_chunk = min(32, _pow2_at_least(max(cig, 1)))
    while ci_chunk > 1 and a * ci_chunk * (ncol + kb * co_tile) > _STAGE_BUDGET:
        ci_chunk //= 2

    unrolled = K <= MAX_UNROLLED_K
    key = KernelKey(dtype, S if unrolled else 0, D if unrolled else 0, K if unrolled else 0,
                    co_threads, rc, rj, kb, ci_chunk, threads, tap_cols)
    tile = min(tile, p.length_out)
    n_tiles = -(-p.length_out // tile)
    # the tile loop steps by gridDim.x <= n_tiles in int32: tile + gridDim.x < 2 n_tiles
    if n_tiles >= 2**30:
        raise NotImplementedError(
            f"{n_tiles} tiles of {tile} output(s) in a row exceed the GPU kernel's 2**30; "
            "use backend='cpu' for this call")
    return LaunchPlan(key, tile, n_tiles, -(-cog // co_tile), key.smem_bytes(tile))
