"""ct1d_narrow's occupancy model against the compiler, on the CPU. For random float32
calls the dispatcher sends to ct1d_narrow, the blocks per SM its cost model assumes for
the planned instance (``_narrow_modelled_blocks_per_sm``) next to those the instance's
compiled register count allows (NVRTC, sm_90; 65536 registers per SM,
allocated per warp in units of 256; the model's range, 1-2), and the plans the cost model
makes when it weighs every candidate (u, cs) with the compiled counts instead; for both,
the SASS's local-memory loads and stores (spills, which the counts do not show).

    NVRTC_LIB=.../libnvrtc.so.13 PYTHONPATH=.:benchmarks \\
        python benchmarks/narrow_regs.py [--calls 150] [--seed 1]

Session 75 found the case that made it: 1024 -> 8, K=24, S=1, D=3, N=4, L=2000 planned 4
groups on one modelled block per SM, where the 8-group instance compiles to 128 registers
(two blocks fit) and ran 1.18x faster on an H100. A plan listed here as changed is a
candidate to time on the GPU, not a finding: registers are one part of the model.
"""
import argparse
import dataclasses
import json
import os
import struct

import numpy as np

from cupyconv import _dispatch
from cupyconv._args import check_conv_args
from cupyconv._keys import NarrowKey
from cupyconv._modules import CUPY_ADDED_OPTIONS, compile_options, kernel_source
from nvrtc_sass import instance_sass, nvrtc_cubin

REGS_PER_SM = 65536


def cubin_registers(cubin: bytes) -> int:
    """Registers per thread of the one kernel in a 64-bit cubin: the EIATTR_REGCOUNT
    attribute (0x2f) in its .nv.info sections (4-byte records of format, attribute and a
    half-word, which for EIFMT_SVAL (4) is the size of the data after it: there the
    kernel's symbol index, then the count)."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)

    def header(i):
        return struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize)
    strtab = header(shstrndx)[4]
    for i in range(shnum):
        name_off, offset, size = header(i)[0], header(i)[4], header(i)[5]
        if not cubin[strtab + name_off:].startswith(b".nv.info"):
            continue
        at = offset
        while at < offset + size:
            fmt, attr, half = cubin[at], cubin[at + 1], struct.unpack_from("<H", cubin, at + 2)[0]
            if attr == 0x2F:
                return struct.unpack_from("<I", cubin, at + 8)[0]
            at += 4 + (half if fmt == 4 else 0)         # EIFMT_SVAL: the half is a size
    raise ValueError("no register count in the cubin")


CACHE = os.environ.get("NARROW_REGS_CACHE", "/tmp/narrow_regs.json")   # name -> registers
_registers = json.load(open(CACHE)) if os.path.exists(CACHE) else {}


def compiled_registers(key: NarrowKey) -> int:
    """(NVRTC takes 1-3 s an instance: counts are kept in CACHE across runs.)"""
    name = key.name_expression()
    if name not in _registers:
        options = list(compile_options(key) + CUPY_ADDED_OPTIONS)
        if not any(o.startswith("-arch") for o in options):
            options.append("-arch=sm_90")
        cubin = nvrtc_cubin(os.environ["NVRTC_LIB"], kernel_source(key.family), name, options)
        _registers[name] = cubin_registers(cubin)
        with open(CACHE, "w") as f:
            json.dump(_registers, f)
    return _registers[name]


SPILLS = CACHE.replace(".json", "_spills.json")                       # name -> LDL + STL
_spills = json.load(open(SPILLS)) if os.path.exists(SPILLS) else {}


def spill_ops(key: NarrowKey) -> int:
    """Local-memory loads and stores in the instance's SASS (ptxas's spills)."""
    name = key.name_expression()
    if name not in _spills:
        sass = instance_sass(key, 90)
        _spills[name] = sass.count("LDL") + sass.count("STL")
        with open(SPILLS, "w") as f:
            json.dump(_spills, f)
    return _spills[name]


def compiled_blocks_per_sm(key: NarrowKey) -> int:
    per_warp = -(-compiled_registers(key) * 32 // 256) * 256
    return max(1, min(2, REGS_PER_SM // (per_warp * (key.threads // 32))))


def random_calls(rng, n):
    """Dense float32 calls of 64-2048 input and 1-8 output channels, 1-32 taps."""
    for _ in range(n):
        cig = int(rng.choice([64, 128, 192, 256, 384, 512, 768, 1024, 2048]))
        k, s, d = int(rng.integers(1, 33)), int(rng.choice([1, 2, 3, 4])), int(rng.integers(1, 4))
        yield check_conv_args((int(rng.integers(1, 17)), cig, int(rng.integers(500, 30000))),
                              (cig, int(rng.integers(1, 9)), k), None, stride=s, padding=0,
                              output_padding=0, groups=1, dilation=d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="write the changed plans here (narrow_regs_ab.py times them)")
    args = ap.parse_args()
    planned = differ = changed = 0
    rows = []
    for p in random_calls(np.random.default_rng(args.seed), args.calls):
        if not _dispatch._prefers_narrow(p, "float32"):
            continue
        key = _dispatch._narrow_key(p, "float32", _dispatch.NARROW_MAX_COG)
        if key is None:
            continue
        planned += 1
        model, real = _dispatch._narrow_modelled_blocks_per_sm(key), compiled_blocks_per_sm(key)
        differ += model != real
        alt = _dispatch._narrow_key(p, "float32", _dispatch.NARROW_MAX_COG,
                                    blocks_per_sm=compiled_blocks_per_sm)
        changed += alt != key
        if alt != key:
            rows.append({"call": f"{p.batch},{p.in_channels},{p.out_channels},{p.kernel_size},"
                                 f"{p.length_in},{p.stride},{p.padding},{p.dilation},{p.groups}",
                         "planned": dataclasses.asdict(key), "compiled": dataclasses.asdict(alt),
                         "registers": [compiled_registers(key), compiled_registers(alt)],
                         "spill_ops": [spill_ops(key), spill_ops(alt)]})
        print(f"N={p.batch} {p.in_channels} -> {p.out_channels} K={p.kernel_size} S={p.stride} "
              f"D={p.dilation} L={p.length_in}: u={key.u} cs={key.cs} blk={key.blk:d} "
              f"{compiled_registers(key)} registers, {spill_ops(key)} spill ops, {real} per SM "
              f"(modelled {model})"
              + (f" | with compiled counts u={alt.u} cs={alt.cs} blk={alt.blk:d} "
                 f"{compiled_registers(alt)} registers, {spill_ops(alt)} spill ops, "
                 f"{compiled_blocks_per_sm(alt)} per SM" if alt != key else ""), flush=True)
    print(f"{planned} float32 calls planned on ct1d_narrow ({len(_registers)} instances "
          f"compiled); the planned instance's blocks per SM: modelled = compiled on "
          f"{planned - differ}, differ on {differ}; plans with the compiled counts: {changed} change")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
