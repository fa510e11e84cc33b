"""Kernel instances: one frozen key class per kernels/*.cu family.

A key's fields are its template's arguments, ``name_expression()`` is the only spelling of
its C++ instance name (the module loader registers it with NVRTC and looks the kernel up
by the same string), and ``smem_bytes()`` mirrors the shared-memory layout at the top of
its .cu file. Which key a call gets is decided in ``_dispatch``; nothing here reads a
routing rule.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

# dtype name -> C++ element type in kernels/ct1d_types.cuh
CTYPES = {"float32": "float", "float64": "double", "float16": "f16_t", "bfloat16": "bf16_t"}
# bytes per element in memory
ELEMENT_BYTES = {"float32": 4, "float64": 8, "float16": 2, "bfloat16": 2}


@dataclass(frozen=True)
class KernelKey:
    """One compiled instance of kernels/ct1d_scatter.cu. All fields are template arguments."""

    dtype: str          # key of CTYPES
    stride: int         # 0: runtime value
    dilation: int       # 0: runtime value
    kernel_size: int    # 0: runtime value
    co_threads: int     # threads along output channels
    rc: int             # output channels per thread
    rj: int             # consecutive input columns per thread
    kb: int             # taps per register block
    ci_chunk: int       # input channels staged per step
    threads: int        # threads per block
    tap_cols: bool = False  # each tap block stages its own columns (one pass per tap)

    family = "ct1d_scatter"

    def name_expression(self) -> str:
        # (TAP_COLS defaults to false: the other instances keep their names)
        return (f"{self.family}<{CTYPES[self.dtype]}, {self.stride}, {self.dilation}, "
                f"{self.kernel_size}, {self.co_threads}, {self.rc}, {self.rj}, {self.kb}, "
                f"{self.ci_chunk}, {self.threads}{', true' if self.tap_cols else ''}>")

    @property
    def co_tile(self) -> int:
        return self.co_threads * self.rc

    @property
    def ncol(self) -> int:
        """Input columns staged per tile."""
        return self.threads // self.co_threads * self.rj

    @property
    def acc_bytes(self) -> int:
        return 8 if self.dtype == "float64" else 4

    def smem_bytes(self, tile_out: int) -> int:
        stage = self.ci_chunk * (self.ncol + self.kb * self.co_tile)
        return self.acc_bytes * (stage + self.co_tile * (tile_out | 1))


def max_class_taps(S: int, D: int, K: int) -> int:
    """Most taps any output residue class (o + P) mod S receives (k*D mod S == r)."""
    return max(Counter((k * D) % S for k in range(K)).values())


def live_classes(S: int, D: int, K: int) -> int:
    """Residue classes that receive at least one tap (the rest hold only the bias)."""
    return len({(k * D) % S for k in range(K)})


def gemm_density(S: int, D: int, K: int) -> float:
    """The fraction of the (class, column offset) pairs, S x (CMAX + 1), that some tap
    fills: K / (S * (CMAX + 1)), 1 for every vocoder layer (K = 2S)."""
    return K / (S * ((K - 1) * D // S + 1))


def used_columns(S: int, D: int, K: int) -> int:
    """Column offsets k*D div S that some tap reads (the CUDA-core gather kernels load
    exactly these per position: column_used in kernels/ct1d_rows.cuh)."""
    return len({k * D // S for k in range(K)})


@dataclass(frozen=True)
class MmaKey:
    """One compiled instance of kernels/ct1d_mma.cu (tensor cores, TF32 / 3xTF32)."""

    dtype: str          # float32 (3xTF32 split), float16 or bfloat16 (exact in TF32)
    stride: int
    dilation: int
    kernel_size: int
    mt: int             # m16 tiles per warp
    nt: int             # n8 tiles per warp
    wm: int             # warps along output channels: 16*mt*wm channels per block
    wn: int             # warps along positions: 8*nt*wn positions u per block
    ci_chunk: int       # input channels staged per step (multiple of 8)
    w_all: bool         # all taps of the only channel chunk stay in shared memory
    f16x3: bool = False  # float32 through the scaled 3xFP16 split (w_all, ci_chunk % 16 == 0)
    overlap: int = 0    # positions u each tile shares with the previous one (see mma_overlap)
    wg: bool = False    # sm_90a: the products on warpgroup MMA (mma_warpgroup)
    one_block: bool = False  # warpgroup tile of one block per SM, compiled so (with_one_block)

    family = "ct1d_mma"

    def name_expression(self) -> str:
        return (f"{self.family}<{CTYPES[self.dtype]}, {self.stride}, {self.dilation}, "
                f"{self.kernel_size}, {self.mt}, {self.nt}, {self.wm}, {self.wn}, "
                f"{self.ci_chunk}, {'true' if self.w_all else 'false'}, "
                f"{'true' if self.f16x3 else 'false'}, {self.overlap}"
                + (", true" if self.wg else "") + (", true>" if self.one_block else ">"))

    @property
    def options(self) -> tuple:
        # wgmma exists on sm_90a only; NVRTC takes this next to CuPy's own -arch=sm_90
        return ("-arch=sm_90a",) if self.wg else ()

    @property
    def threads(self) -> int:
        return 32 * self.wm * self.wn

    @property
    def co_tile(self) -> int:
        return 16 * self.mt * self.wm

    @property
    def nu(self) -> int:
        """Positions u per tile (each covers S outputs)."""
        return 8 * self.nt * self.wn

    @property
    def nu_owned(self) -> int:
        """Positions u between the starts of consecutive tiles."""
        return self.nu - self.overlap

    def smem_bytes(self) -> int:
        """Mirrors the shared-memory layout at the top of kernels/ct1d_mma.cu."""
        S, D, K = self.stride, self.dilation, self.kernel_size
        xw = self.nu + (K - 1) * D // S
        xp = (xw - 4 + 15) // 16 * 16 + 4
        if self.f16x3:                                       # x slots of 4 channels
            xp = max(xp, (xw + 5) // 8 * 8 + 2)
        taps = K if self.w_all else max_class_taps(S, D, K)
        size = 4 if self.dtype == "float32" else 2          # bytes per element of the tile
        # each output row has room for its shift to its global alignment: 32 bytes where
        # tiles start whole 32-byte units apart and rows take at most 2 KB, else 16 (SALIGN)
        room = 32 if (S * self.nu_owned * size) % 32 == 0 and S * self.nu * size <= 2048 else 16
        if self.wg:      # 16-byte units of 8 channels: weights [K][parts][co], x [parts][xw]
            staged = 16 * (2 if self.f16x3 else 1) * self.ci_chunk // 8 * (K * self.co_tile + xw)
        else:
            staged = 4 * (taps * self.ci_chunk * self.co_tile + self.ci_chunk * xp)
        return staged + self.co_tile * (size * S * self.nu + room) + 4 * self.co_tile


def _pitch_8_mod_32(n: int) -> int:
    return (n + 23) // 32 * 32 + 8


def _pitch_4_mod_16(n: int) -> int:
    return (n + 11) // 16 * 16 + 4


@dataclass(frozen=True)
class GemmKey:
    """One compiled instance of kernels/ct1d_gemm.cu (wide channels; float32 in 3xTF32 or
    the scaled 3xFP16 split, float16/bfloat16 in m16n8k16 MMAs of their own type, float64
    in DFMAs on the MMA fragments' elements)."""

    dtype: str          # float32, float16, bfloat16 or float64
    stride: int
    dilation: int
    kernel_size: int
    mt: int             # m16 tiles per warp
    nt: int             # n8 tiles per warp
    wc: int             # warps along output channels, per live class
    wn: int             # warps along positions, per live class
    ci_chunk: int       # input channels per pipeline stage (multiple of 8)
    stages: int         # depth of the cp.async ring (>= 3 with f16x3)
    min_blocks: int     # resident blocks per SM the register allocation must allow
    f16x3: bool = False  # float32 through the scaled 3xFP16 split (ci_chunk % 16 == 0)
    split: int = 1      # blocks (an sm_90 cluster) sharing each tile's reduction: 1-8

    family = "ct1d_gemm"

    def name_expression(self) -> str:
        args = (f"{CTYPES[self.dtype]}, {self.stride}, {self.dilation}, {self.kernel_size}, "
                f"{self.mt}, {self.nt}, {self.wc}, {self.wn}, {self.ci_chunk}, {self.stages}, "
                f"{self.min_blocks}, {'true' if self.f16x3 else 'false'}")
        if self.split > 1:
            return f"{self.family}_split<{args}, {self.split}>"
        return f"{self.family}<{args}>"

    @property
    def options(self) -> tuple:
        return ("-arch=sm_90a",) if self.split > 1 else ()

    @property
    def threads(self) -> int:
        return 32 * live_classes(self.stride, self.dilation, self.kernel_size) * self.wc * self.wn

    @property
    def co_tile(self) -> int:
        return 16 * self.mt * self.wc

    @property
    def nu(self) -> int:
        """Positions u per tile (each covers S outputs)."""
        return 8 * self.nt * self.wn

    def smem_bytes(self) -> int:
        """Mirrors the shared-memory layout at the top of kernels/ct1d_gemm.cu: the
        cp.async ring, reused by the output tile."""
        S, D, K = self.stride, self.dilation, self.kernel_size
        if self.dtype == "float64":     # unpadded double stages and a double output tile
            ring = 8 * self.stages * self.ci_chunk * (self.co_tile * (K | 1) + self.nu
                                                      + (K - 1) * D // S + 1)
            return max(ring, 8 * self.co_tile * (S * (self.nu + 1) + 1))
        wp = _pitch_8_mod_32(self.co_tile * (K | 1))
        xp = _pitch_8_mod_32(self.nu + (K - 1) * D // S + 1)
        if self.f16x3:      # pitches 4 mod 16; the larger of both (CT1D_GEMM_F16X3=0 A/B)
            wp = max(wp, _pitch_4_mod_16(self.co_tile * (K | 1)))
            xp = max(xp, _pitch_4_mod_16(self.nu + (K - 1) * D // S + 1))
        ring = 4 * self.stages * self.ci_chunk * (wp + xp)
        return max(ring, 4 * self.co_tile * (S * (self.nu + 1) + 1))


@dataclass(frozen=True)
class WgmmaKey:
    """One compiled instance of kernels/ct1d_wgmma.cu (wide layers on sm_90's warpgroup
    MMA: all residue classes of a channel block as one dense GEMM; float32 by 3xTF32 or,
    with ``f16x3``, the scaled 3xFP16 split; float16/bfloat16 by one product of their own
    type)."""

    stride: int
    dilation: int
    kernel_size: int
    wm: int             # warpgroups along GEMM rows (co, r): 64*wm rows, 64*wm // S channels
    wn: int             # warpgroups along positions
    nw: int             # positions u per warpgroup (the wgmma N: 64 or 128)
    ci_chunk: int = 16  # input channels per chunk
    dtype: str = "float32"
    blocks: int = 1     # blocks per SM its registers are capped for (launch bounds; the
                        # dispatcher asks for 2 for some 16-bit instances: wgmma_key)
    f16x3: bool = False  # float32 by the scaled 3xFP16 split (k16 products) over 3xTF32

    family = "ct1d_wgmma"
    # wgmma exists on sm_90a only; NVRTC takes this next to CuPy's own -arch=sm_90
    options = ("-arch=sm_90a",)

    def name_expression(self) -> str:
        # (then the element type, float by default, and F16X3, false by default)
        dtype = "" if self.dtype == "float32" else f", {CTYPES[self.dtype]}"
        f16x3 = ", float, true" if self.f16x3 else ""
        return (f"{self.family}<{self.stride}, {self.dilation}, {self.kernel_size}, "
                f"{self.wm}, {self.wn}, {self.nw}, {self.ci_chunk}, {self.blocks}{dtype}{f16x3}>")

    @property
    def threads(self) -> int:
        return 128 * self.wm * self.wn

    @property
    def co_tile(self) -> int:
        return 64 * self.wm // self.stride

    @property
    def nu(self) -> int:
        """Positions u per tile (each covers S outputs)."""
        return self.nw * self.wn

    def smem_bytes(self) -> int:
        """Mirrors the shared-memory layout at the top of kernels/ct1d_wgmma.cu: the raw
        two-stage ring (reused by the output tile; 16-bit instances put more stages only
        in what the tile leaves), then two B operand buffers."""
        S, D, K = self.stride, self.dilation, self.kernel_size
        ck, xw = self.ci_chunk, self.nu + (K - 1) * D // S
        size = ELEMENT_BYTES[self.dtype]
        v, wco = 16 // size, self.co_tile * K                # elements per 16 bytes
        wp = 2 * (((wco + 1) // 2 + 27) // 32 * 32 + 4) if size == 2 else _pitch_8_mod_32(wco)
        xp = (xw + 2 * v - 2) // v * v                       # 16-byte aligned window
        ring = max(2 * ck * (wp + xp) * size // 4, self.co_tile * (S * self.nu + 1))
        ring = -(-ring // 128) * 128
        # (float32: hi and lo, each a float32 operand's room, also for 3xFP16's halves)
        parts = 1 if size == 2 else 2
        return 4 * (ring + 2 * parts * (-(-ck * xw * size // 4 // 128) * 128))


@dataclass(frozen=True)
class DepthwiseKey:
    """One compiled instance of kernels/ct1d_depthwise.cu (depthwise and narrow groups,
    CUDA cores)."""

    dtype: str          # key of CTYPES
    stride: int
    dilation: int
    kernel_size: int
    u: int              # positions u per thread and tile
    threads: int        # threads per block

    family = "ct1d_depthwise"
    co_tile = 1         # one output row per block

    def name_expression(self) -> str:
        return (f"{self.family}<{CTYPES[self.dtype]}, {self.stride}, {self.dilation}, "
                f"{self.kernel_size}, {self.u}, {self.threads}>")

    @property
    def nu(self) -> int:
        """Most positions u per tile (each covers S outputs)."""
        return self.u * self.threads

    def smem_bytes(self) -> int:
        """The output segment: S*NU elements in memory type."""
        return self.stride * self.nu * ELEMENT_BYTES[self.dtype]


@dataclass(frozen=True)
class NarrowKey:
    """One compiled instance of kernels/ct1d_narrow.cu (at most 8 output channels per
    group from any number of input channels, CUDA cores; one block per group's segment of
    positions, its threads in ``cs`` groups summing shares of the input channels)."""

    dtype: str          # key of CTYPES
    stride: int
    dilation: int
    kernel_size: int
    cog: int            # output channels per block: all of a group's, or a chunk of them
    u: int              # positions u per thread
    cs: int             # input-channel groups per block (threads // cs a multiple of 32)
    threads: int        # threads per block
    blk: bool = False   # each weight chunk's sums from zero, then added (long reductions)
    split: int = 1      # blocks (an sm_90 cluster) sharing each tile's reduction: 1-8
    xchain: bool = False  # the x prefetch runs on across weight chunks (more registers)

    family = "ct1d_narrow"

    def name_expression(self) -> str:
        args = (f"{CTYPES[self.dtype]}, {self.stride}, {self.dilation}, {self.kernel_size}, "
                f"{self.cog}, {self.u}, {self.cs}, {self.threads}")
        blk = "true" if self.blk else "false"
        xch = ", true" if self.xchain else ""      # (false is the template's default)
        if self.split > 1:
            return f"{self.family}_split<{args}, {blk}, {self.split}{xch}>"
        return f"{self.family}<{args}" + (f", {blk}{xch}>" if self.blk or self.xchain else ">")

    @property
    def options(self) -> tuple:
        return ("-arch=sm_90a",) if self.split > 1 else ()

    @property
    def co_tile(self) -> int:
        return self.cog

    @property
    def nu(self) -> int:
        """Positions u per tile (each covers S outputs)."""
        return self.u * self.threads // self.cs

    @property
    def channels_per_chunk(self) -> int:
        """CK: input channels a block stages per weight chunk (CS groups x CPS)."""
        return self.cs * max(1, min(8, 8 * self.threads // (self.kernel_size * self.cog) // self.cs))

    def smem_bytes(self) -> int:
        """Mirrors the shared-memory layout at the top of kernels/ct1d_narrow.cu: two chunks
        of weights, the channel groups' partial sums of one row (with a split, the rank's
        sums of every row), the row segment."""
        K, acc = self.kernel_size, 8 if self.dtype == "float64" else 4
        vec = 16 // acc
        wp = -(-K * self.cog // vec) * vec
        rank_rows = self.cog if self.split > 1 else 0
        return (acc * (2 * self.channels_per_chunk * wp
                       + (self.cs - 1 + rank_rows) * self.stride * self.nu)
                + ELEMENT_BYTES[self.dtype] * self.stride * self.nu)


@dataclass(frozen=True)
class StreamKey:
    """One compiled instance of kernels/ct1d_stream.cu (memory-bound tensor-core calls:
    warps streaming their own tiles)."""

    dtype: str          # float32 (3xTF32 split), float16 or bfloat16 (exact in TF32)
    stride: int
    dilation: int
    kernel_size: int
    mt: int             # m16 tiles per warp: 16*mt output channels per tile
    nt: int             # n8 tiles per warp: 8*nt positions u per tile
    warps: int          # warps per block, each streaming its own tiles
    cig_pad: int        # input channels per group rounded up to a multiple of 16
    min_blocks: int     # resident blocks per SM the register allocation must allow

    family = "ct1d_stream"

    def name_expression(self) -> str:
        return (f"{self.family}<{CTYPES[self.dtype]}, {self.stride}, {self.dilation}, "
                f"{self.kernel_size}, {self.mt}, {self.nt}, {self.warps}, {self.cig_pad}, "
                f"{self.min_blocks}>")

    @property
    def threads(self) -> int:
        return 32 * self.warps

    @property
    def co_tile(self) -> int:
        return 16 * self.mt

    @property
    def nu(self) -> int:
        """Positions u per warp tile (each covers S outputs)."""
        return 8 * self.nt

    def smem_bytes(self) -> int:
        """Mirrors the shared-memory layout at the top of kernels/ct1d_stream.cu: the
        block's weights, then each warp's x slots and output tile."""
        S, D, K = self.stride, self.dilation, self.kernel_size
        xw = self.nu + (K - 1) * D // S
        xp = (xw + 5) // 8 * 8 + 2
        size = ELEMENT_BYTES[self.dtype]
        op = S * self.nu + 32 // size            # room for a row's shift (up to a sector)
        return (4 * K * self.cig_pad * self.co_tile
                + self.warps * (4 * self.cig_pad * xp + size * self.co_tile * op))


@dataclass(frozen=True)
class PipeKey:
    """One compiled instance of kernels/ct1d_pipe.cu (memory-bound float32 calls on sm_90's
    warpgroup MMA: each warpgroup a pipeline of 64-position tiles, x by a cp.async ring,
    A from registers, outputs by bulk copies from one or two buffers; or, with ws,
    producer warpgroups that split x into shared memory for consumer warpgroups)."""

    stride: int
    dilation: int
    kernel_size: int
    ci: int             # input channels per group (a multiple of 16, <= 64)
    nco: int            # output channels per block (16 or 32; ws blocks: or 64)
    wg: int = 2         # warpgroups per block
    stages: int = 3     # x windows in each warpgroup's ring (1: refilled within the tile)
    outbuf: int = 2     # output buffers per warpgroup
    any_l: bool = False  # rows of y of any length (else whole 16-byte units)
    ws: int = 0         # producer warpgroups (warp-specialised; wg then counts consumers,
                        # and the block's warpgroups share one ring of ``stages`` windows)

    family = "ct1d_pipe"
    dtype = "float32"
    options = ("-arch=sm_90a",)

    def name_expression(self) -> str:
        return (f"{self.family}<{self.stride}, {self.dilation}, {self.kernel_size}, "
                f"{self.ci}, {self.nco}, {self.wg}, {self.stages}, {self.outbuf}, "
                f"{'true' if self.any_l else 'false'}, {self.ws}>")

    @property
    def threads(self) -> int:
        return 128 * (self.wg + self.ws)

    @property
    def pipelines(self) -> int:
        """Tile sequences per block: one per warpgroup, or with ``ws`` one per block."""
        return 1 if self.ws else self.wg

    @property
    def co_tile(self) -> int:
        return self.nco

    @property
    def offsets(self) -> int:
        """Column offsets c = k*D div S that some tap has (the reduction's blocks of ci)."""
        return len({k * self.dilation // self.stride for k in range(self.kernel_size)})

    @property
    def steps(self) -> int:
        """k16 steps of the reduction (column offsets x input channels / 16)."""
        return self.offsets * self.ci // 16

    @property
    def classes(self) -> int:
        return live_classes(self.stride, self.dilation, self.kernel_size)

    @property
    def cmax(self) -> int:
        """The largest column offset (K - 1) D div S: a tile's x window is 64 + cmax wide."""
        return (self.kernel_size - 1) * self.dilation // self.stride

    @property
    def out_per_x(self) -> float:
        """A tile's output floats (its channels x about 64 S positions) over its x window's (ci
        rows of 64 + cmax positions)."""
        return self.nco * self.stride * 64 / (self.ci * (64 + self.cmax))

    @property
    def n(self) -> int:
        """GEMM columns: (channel, live class) pairs."""
        return self.nco * self.classes

    @property
    def fragment_regs(self) -> int:
        """Registers per thread of the tile's accumulators (N/2) and A fragments (8 per
        k16 step, hi and lo)."""
        return self.n // 2 + 8 * self.steps

    def ring_and_out_words(self) -> int:
        """Words of the warpgroups' x rings and output buffers (the raw weights' room at
        the start)."""
        xp = ((70 + self.cmax) // 4 * 4 + 11) // 16 * 16 + 4     # 4 mod 16 words
        op = _pitch_8_mod_32(64 * self.stride + 4) + (7 if self.any_l else 0)   # (+ L_out mod 8)
        # (an x ring per pipeline: per warpgroup, or with ws one per block)
        return self.pipelines * self.stages * self.ci * xp + self.wg * self.outbuf * self.nco * op

    def smem_bytes(self) -> int:
        """Mirrors the shared-memory layout at the top of kernels/ct1d_pipe.cu: the split
        weights, each warpgroup's x ring (ws: the block's) and output buffers, the
        channels' bias (ws: and the producers' maxima, each stage's unscale factor)."""
        extra = 3 + 4 * self.ws + self.stages if self.ws else 0     # (maxima 16-byte aligned)
        return (4 * self.offsets * self.ci * self.n
                + 4 * (self.ring_and_out_words() + self.nco + 1 + extra))


@dataclass(frozen=True)
class ClusterProbeKey:
    """kernels/ct1d_probe.cu's empty kernel: never launched, only described to the driver
    (``_gpu.device_cluster_slots``). Not a convolution instance: no plan holds it."""

    family = "ct1d_probe"

    def name_expression(self) -> str:
        return "ct1d_cluster_probe"


@dataclass(frozen=True)
class LaunchPlan:
    key: object         # one of the key classes above
    tile_out: int       # output positions per tile
    n_tiles: int
    co_chunks: int      # channel tiles per group
    smem_bytes: int
    u_first: int = 0    # all but ct1d_scatter: position u of the first tile
