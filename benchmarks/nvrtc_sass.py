"""SASS of the library's kernel instances as NVRTC builds them, without a GPU or CuPy: local spill
and register checks before device time (nvcc's front end can differ from NVRTC's).

    NVRTC_LIB=.../libnvrtc.so.13 NVDISASM=.../nvdisasm \
        python benchmarks/nvrtc_sass.py CONFIG ... | all [--call NAME=N,C_in,C_out,K,L[,S,P,D,G]]
                                        [--dtype D] [--arch 80] [-D MACRO=VALUE ...]
                                        [--sass FILE] [--serial]
                                        [--against OLD.cu [--old-expr PATTERN=REPL]]
                                        [--family FAMILY]

The wheels nvidia-cuda-nvrtc==13.0.* and nvidia-cuda-nvdisasm carry both (pip download,
unzip). Prints each distinct instance, its spill instructions (LDL/STL) and registers; --sass keeps
the disassembly. --serial lists the global loads whose register is used before the next
global load is issued (one load in flight: a memory latency each), with their source
lines (compiled with -lineinfo, which does not change the code). --against compiles each
instance from another source of its family too (an old version, with its local headers
from kernels/; --old-expr rewrites the name expression for it, a regular expression) and
says whether the two instruction streams are identical, kernel names aside (or the same
up to register numbers, or which opcodes' counts differ).
"""
import argparse
import ctypes
import os
import re
import subprocess
import tempfile
from collections import Counter

from cupyconv._dispatch import plan
from cupyconv._modules import CUPY_ADDED_OPTIONS, compile_options, kernel_source
from cupyconv.bench import SWEEP, config_from_spec, config_params


def nvrtc_cubin(lib, source, expr, options):
    nv = ctypes.CDLL(lib)
    prog = ctypes.c_void_p()

    def program_log():
        size = ctypes.c_size_t()
        nv.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetProgramLog(prog, log)
        return log.value.decode(errors="replace")

    def check(rc, what):
        if rc:
            raise RuntimeError(f"{what} failed ({rc}):\n{program_log()[-3000:]}")

    check(nv.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"ct1d_mma.cu", 0, None, None),
          "nvrtcCreateProgram")
    check(nv.nvrtcAddNameExpression(prog, expr.encode()), "nvrtcAddNameExpression")
    opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    check(nv.nvrtcCompileProgram(prog, len(options), opts), "nvrtcCompileProgram")
    for line in program_log().splitlines():
        if "warning" in line.lower():                 # (ptxas: e.g. serialised wgmma)
            print(f"  {expr}: {line.strip()}")
    size = ctypes.c_size_t()
    check(nv.nvrtcGetCUBINSize(prog, ctypes.byref(size)), "nvrtcGetCUBINSize")
    buf = ctypes.create_string_buffer(size.value)
    check(nv.nvrtcGetCUBIN(prog, buf), "nvrtcGetCUBIN")
    return buf.raw


def instance_sass(key, arch, defines=(), lineinfo=False, source=None, expr=None):
    """NVRTC's SASS of one instance, compiled as the library compiles it (``source``,
    ``expr``: another source text of its family and the name expression there)."""
    head = "".join("#define {} {}\n".format(*d.split("=", 1)) for d in defines)
    options = list(compile_options(key) + CUPY_ADDED_OPTIONS)
    if not any(o.startswith("-arch") for o in options):
        options.append(f"-arch=sm_{arch}")
    return source_sass(head + (source or kernel_source(key.family)), expr or key.name_expression(),
                       options, lineinfo)


def source_sass(source, expr, options, lineinfo=False):
    """NVRTC's SASS of the instance ``expr`` of a full source text (local headers inlined)."""
    options = list(options) + (["-lineinfo"] if lineinfo else [])
    cubin = nvrtc_cubin(os.environ["NVRTC_LIB"], source, expr, options)
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        return subprocess.run([os.environ.get("NVDISASM", "nvdisasm"), "-c"]
                              + (["-g"] if lineinfo else []) + [f.name],
                              capture_output=True, text=True, check=True).stdout


def sass_summary(sass, mma="HGMMA"):
    """Spills, MMA instructions and the highest register of a SASS listing, in one line."""
    regs = max((int(r) for r in re.findall(r"\bR(\d+)\b", sass)), default=-1)
    return (f"{sass.count('LDL')} LDL, {sass.count('STL')} STL, {sass.count(mma)} {mma}, "
            f"registers used up to R{regs}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*", help="sweep configuration names, or all")
    ap.add_argument("--call", action="append", default=[], help="NAME=N,C_in,C_out,K,L[,S,P,D,G]")
    ap.add_argument("--dtype")
    ap.add_argument("-D", action="append", default=[], dest="defines")
    ap.add_argument("--sass", help="keep the disassembly (one configuration)")
    ap.add_argument("--arch", type=int, default=90, help="plan for this compute capability")
    ap.add_argument("--card", default="", help="... and card (plan's card: '' the H200, h100)")
    ap.add_argument("--family", help="plan every call on this family (e.g. ct1d_narrow)")
    ap.add_argument("--serial", action="store_true", help="list loads waited for one at a time")
    ap.add_argument("--against", help="another source of the instances' family (an old version)")
    ap.add_argument("--old-expr", default="^$=", help="PATTERN=REPL: the name expression there")
    args = ap.parse_args()
    old_source = None
    if args.against:
        import shutil
        from cupyconv._modules import _inline, kernel_dir
        tmp = kernel_dir() / "_against.cu"           # (its includes resolve from kernels/)
        shutil.copy(args.against, tmp)
        try:
            old_source = _inline(tmp, set())
        finally:
            tmp.unlink()
        pattern, repl = args.old_expr.split("=", 1)
    configs = ([c for c in SWEEP if "all" in args.configs or c.name in args.configs]
               + [config_from_spec(spec) for spec in args.call])
    seen = set()
    for c in configs:
        key = plan(config_params(c), args.dtype or c.dtype, args.family, args.arch, args.card).key
        if key in seen:
            continue
        seen.add(key)
        sass = instance_sass(key, args.arch, args.defines, args.serial)
        if args.sass:
            with open(args.sass, "w") as f:
                f.write(sass)
        print(f"{key.name_expression()} ({c.name}): {sass_summary(sass)}", flush=True)
        if args.serial:
            for load, use in serial_loads(sass):
                print(f"  load at {load} waited for at {use}")
        if old_source is not None:
            expr = re.sub(pattern, repl, key.name_expression())
            try:
                old = instance_sass(key, args.arch, args.defines, source=old_source, expr=expr)
            except RuntimeError as e:
                print(f"  against {args.against}: {expr} does not compile there ({str(e)[:200]})")
                continue
            print(f"  against {args.against} ({expr}): {compare(instructions(old), instructions(sass))}")


def compare(old, new):
    """'identical', 'registers renamed' (the same instructions up to register numbers), or
    'DIFFERENT' with the opcodes whose counts differ (old, new)."""
    if old == new:
        return "identical"
    def unnamed(lines):
        return [re.sub(r"\bU?R\d+\b", "R", line) for line in lines]
    if unnamed(old) == unnamed(new):
        return "registers renamed"
    def opcodes(lines):
        return Counter(line.split()[1] if line.startswith("@") else line.split()[0] for line in lines)
    a, b = opcodes(old), opcodes(new)
    diff = {op: (a[op], b[op]) for op in sorted(set(a) | set(b)) if a[op] != b[op]}
    return f"DIFFERENT: {len(old)} -> {len(new)} instructions, opcode counts {diff}"


def instructions(sass):
    """The instruction lines of a disassembly, addresses and kernel names left out."""
    return [re.sub(r"_Z\w+", "KERNEL", re.sub(r"/\*[0-9a-f]{4,}\*/", "", line)).strip()
            for line in sass.splitlines() if re.search(r"/\*[0-9a-f]{4,}\*/", line)]


def serial_loads(sass, window=40):
    """(load's source line, first use's source line) of each LDG whose destination register
    is read before another LDG is issued (within ``window`` instructions)."""
    where, ins = "?", []
    for line in sass.splitlines():
        m = re.search(r'File "([^"]+)", line (\d+)', line)
        if line.strip().startswith("//##") and m:
            where = f"{os.path.basename(m.group(1))}:{m.group(2)}"
        elif re.match(r"\s*/\*[0-9a-f]+\*/", line):
            ins.append((line.split(";")[0], where))
    found = []
    for i, (text, src) in enumerate(ins):
        m = re.search(r"LDG\S*\s+(R\d+)", text)
        if not m:
            continue
        for later, src2 in ins[i + 1:i + 1 + window]:
            if "LDG" in later:
                break
            if re.search(rf"\b{m.group(1)}\b", later.split(None, 1)[-1]):
                found.append((src, src2))
                break
    return found


if __name__ == "__main__":
    main()
