"""float32 relative error against float64 of one call structure as the reduction widens
(input channels x taps), under the dispatcher's choice and every family forced, on fresh
NaN-poisoned outputs.

    python benchmarks/accuracy_scan.py      (GPU machine, repo root)

Session 23: ct1d_mma's 3xFP16 float32 path read 9.5e-7 on N=3, 63 -> 61 channels, K=12,
S=1, D=3 (the other families 1.6-2.6e-7); this shows how that grows with C_in and K.
"""
import sys

import numpy as np

sys.path.insert(0, "tests")
import test_gpu as T                                   # noqa: E402
from cupyconv._args import check_conv_args             # noqa: E402
from cupyconv._dispatch import FAMILIES                # noqa: E402
from cupyconv._gpu import device_plan                  # noqa: E402
from worst_call import family_errors                   # noqa: E402

BASE = dict(N=3, C_out=61, L=2942, bias=False, batched=True, dtype="float32",
            kw=dict(stride=1, padding=4, output_padding=2, groups=1, dilation=3))


def main():
    rng = np.random.default_rng(1)
    for c_in, k in ((16, 12), (32, 12), (63, 12), (63, 3), (63, 6), (128, 12), (256, 12),
                    (63, 16), (256, 16), (512, 16)):
        c = dict(BASE, C_in=c_in, K=k)
        x, w, b = T._inputs(rng, c)
        ref = T._ref64(x, w, b, **c["kw"])
        p = check_conv_args(x.shape, w.shape, None, **c["kw"])
        auto = device_plan(p, "float32", 0).key
        row = family_errors(x, w, b, c, ref, (None,) + FAMILIES)
        print(f"C_in {c_in:3d} K {k:2d} (auto: {auto.name_expression()}): " + ", ".join(row), flush=True)


if __name__ == "__main__":
    main()
