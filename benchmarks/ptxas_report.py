"""Registers and spills of ct1d_mma's instances for the sweep's calls, as ptxas reports
them, under extra macro definitions: a CPU-only check (nvcc, no GPU) before device time.

    python benchmarks/ptxas_report.py [-D MACRO=VALUE ...] [--dtypes float32,bfloat16]

Each instance is compiled on its own (explicit instantiation of the name the dispatcher
picks for sm_90) with nvcc -arch=sm_90a -Xptxas -v; NVRTC, which the library uses, runs
the same ptxas, but nvcc's front end may differ from NVRTC's: session 28's sd-s2d4k4
spilled more under NVRTC than this report showed, so check a change's spills with
benchmarks/nvrtc_sass.py (NVRTC's own SASS) as well.
"""
import argparse
import concurrent.futures
import re
import subprocess
import tempfile
from pathlib import Path

from cupyconv._dispatch import CTYPES, plan
from cupyconv._modules import kernel_dir
from cupyconv.bench import SWEEP, config_params


def compile_one(expr, dtype, defines):
    t = CTYPES[dtype]
    src = (f'#include "ct1d_mma.cu"\ntemplate __global__ void {expr}(const {t}*, const {t}*, '
           f'const {t}*, {t}*, int, int, int, int, int, int, int, int, int, int);\n')
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "inst.cu"
        f.write_text(src)
        out = subprocess.run(["nvcc", "-arch=sm_90a", "-std=c++17", "-ftz=true", "-Xptxas", "-v", "-c", "-o",
                              str(Path(d) / "inst.o"), "-I", str(kernel_dir()), str(f)]
                             + [f"-D{d_}" for d_ in defines], capture_output=True, text=True)
    text = out.stdout + out.stderr
    if out.returncode:
        return "COMPILE ERROR: " + text[-2000:]
    regs = re.search(r"Used (\d+) registers", text)
    spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", text)
    return f"{regs.group(1) if regs else '?':>4} regs, spills {spill.group(1)}/{spill.group(2)} B" if spill else text[-500:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-D", action="append", default=[], dest="defines")
    ap.add_argument("--dtypes", default="float32")
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    jobs = {}
    for c in SWEEP:
        for dt in ({c.dtype} | set(args.dtypes.split(","))) if c.dtype == "float32" else {c.dtype}:
            if args.only and c.name not in args.only:
                continue
            key = plan(config_params(c), dt, None, 90).key
            if key.family == "ct1d_mma":
                jobs.setdefault((key.name_expression(), dt), []).append(c.name)
    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        futs = {k: ex.submit(compile_one, k[0], k[1], args.defines) for k in jobs}
        for (expr, dt), names in jobs.items():
            print(f"{futs[(expr, dt)].result():28s} {expr}  ({', '.join(names)})", flush=True)


if __name__ == "__main__":
    main()
