"""cupyconv in one page: a transposed convolution on NumPy arrays, checked in float64.

    python examples/basic.py

Runs on the GPU when CuPy finds one (the NumPy arrays are copied there and back) and
on cupyconv's NumPy implementation otherwise. The shape is the project's seed workload
(N=16, L_in=131072) made smaller. Exits with status 1 if the result is off.
"""
import sys
import time

import numpy as np

import cupyconv

N, C_in, C_out, K, L_in = 4, 32, 64, 3, 8192
S, P, D = 2, 1, 2                       # stride, padding, dilation


def reference_float64(x, w, b, stride, padding, dilation):
    """conv_transpose1d by its definition, in float64: every input column i scatters
    w[:, :, k]^T x[:, i] to output position i*stride + k*dilation - padding."""
    n, _, l_in = x.shape
    _, c_out, k_size = w.shape
    x, w = x.astype(np.float64), w.astype(np.float64)
    full = np.zeros((n, c_out, (l_in - 1) * stride + dilation * (k_size - 1) + 1))
    for k in range(k_size):
        taps = np.einsum("ncl,co->nol", x, w[:, :, k])         # (N, C_out, L_in)
        full[:, :, k * dilation: k * dilation + (l_in - 1) * stride + 1: stride] += taps
    y = full[:, :, padding: full.shape[2] - padding]           # crop `padding` each side
    return y + b.astype(np.float64)[None, :, None]


rng = np.random.default_rng(0)
x = rng.standard_normal((N, C_in, L_in), dtype=np.float32)
w = (rng.standard_normal((C_in, C_out, K)) / np.sqrt(C_in * K)).astype(np.float32)
b = rng.standard_normal(C_out, dtype=np.float32)

t0 = time.perf_counter()
y = cupyconv.conv_transpose1d(x, w, b, stride=S, padding=P, dilation=D)
elapsed = time.perf_counter() - t0

ref = reference_float64(x, w, b, S, P, D)
# Error relative to the output's scale (elementwise ratios are meaningless at zeros).
rel_err = float(np.max(np.abs(y - ref)) / np.max(np.abs(ref)))

print(f"backend:      {cupyconv.last_backend()} (GPU available: {cupyconv.gpu_available()})")
print(f"input:        x {x.shape} {x.dtype}, weight {w.shape}, bias {b.shape}, "
      f"stride={S} padding={P} dilation={D}")
print(f"output:       {type(y).__module__}.{type(y).__name__} {y.shape} {y.dtype} "
      f"(L_out = {cupyconv.output_length(L_in, K, stride=S, padding=P, dilation=D)})")
print(f"time:         {elapsed * 1e3:.1f} ms (first call; includes any kernel compile)")
print(f"max rel. err: {rel_err:.2e} vs float64 (limit 1e-5)")
if y.shape != ref.shape or not rel_err <= 1e-5:
    print("FAILED")
    sys.exit(1)
print("OK")
