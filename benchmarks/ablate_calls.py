"""Where does a sweep call's ct1d_mma time go? ablate_mma.py's variants (one stage left
out; wrong results on purpose) timed on any sweep calls, side by side with the shipped
kernel, through ab_variant.py.

    python benchmarks/ablate_calls.py CONFIG ... --variants no_xload,no_store,no_store+no_epi [--rounds N]
    (GPU machine with torch, repo root or benchmarks/)
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from ablate_mma import VARIANTS, patched
from cupyconv._modules import kernel_source


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="+")
    ap.add_argument("--variants", required=True, help="names from ablate_mma.VARIANTS")
    ap.add_argument("--rounds", default="2")
    ap.add_argument("--dtype", default=None)
    args = ap.parse_args()
    src = kernel_source("ct1d_mma")                   # headers inlined
    tmp = Path(tempfile.mkdtemp())
    variants = []
    for name in args.variants.split(","):        # a+b: both stages left out
        path = tmp / f"{name.replace('+', '_')}.cu"
        path.write_text(patched(src, [pt for part in name.split("+") for pt in VARIANTS[part]]))
        variants += ["--variant", f"{name}=source:{path}"]
    here = Path(__file__).resolve().parent
    sys.exit(subprocess.call([sys.executable, str(here / "ab_variant.py"), "ct1d_mma", *args.configs,
                              "--rounds", args.rounds, *variants]
                             + (["--dtype", args.dtype] if args.dtype else []), cwd=here))


if __name__ == "__main__":
    main()
