"""Interpolating complex baseband (IQ) signals by 4 with a low-pass FIR filter.

    python examples/polyphase_upsample.py

Upsampling by U (U - 1 zeros after every sample) followed by an FIR filter h is a
transposed convolution with stride U and kernel h: y[n] = sum_i x[i] h[n - U i]. Its
polyphase form, which never multiplies the inserted zeros, is what the kernels compute.
Each of the 8 channels is one batch item (C_in = C_out = 1); the signal and the filter
are complex64 (a filter shifted in frequency by a complex exponential). Checked against
zero-stuffing and numpy.convolve in complex128. Runs on the GPU when CuPy finds one,
otherwise on cupyconv's NumPy implementation. Exits with status 1 if the result is off.
"""
import sys

import numpy as np

import cupyconv

U, TAPS_PER_PHASE = 4, 16                 # upsampling factor, filter taps per output phase
CHANNELS, LENGTH = 8, 20000               # signals, samples per signal

rng = np.random.default_rng(0)
iq = (rng.standard_normal((CHANNELS, LENGTH)) + 1j * rng.standard_normal((CHANNELS, LENGTH)))
x = iq.astype(np.complex64)[:, None, :]   # (N, C_in=1, L_in)

# windowed-sinc low-pass at 1/U of the band, moved up by an eighth of the band
K = U * TAPS_PER_PHASE
t = np.arange(K) - (K - 1) / 2
h = np.sinc(t / U) * np.hamming(K) * np.exp(2j * np.pi * t / 8)
w = h.astype(np.complex64)[None, None, :]  # (C_in=1, C_out=1, K)

y = cupyconv.conv_transpose1d(x, w, stride=U)            # (N, 1, (L - 1) U + K)

# the textbook form, in complex128: zero-stuff, then convolve
stuffed = np.zeros((CHANNELS, (LENGTH - 1) * U + 1), np.complex128)
stuffed[:, ::U] = x[:, 0, :]
ref = np.stack([np.convolve(s, w[0, 0].astype(np.complex128)) for s in stuffed])

rel_err = float(np.max(np.abs(y[:, 0, :] - ref)) / np.max(np.abs(ref)))
print(f"backend:      {cupyconv.last_backend()} (GPU available: {cupyconv.gpu_available()})")
print(f"input:        {CHANNELS} complex64 signals of {LENGTH} samples, filter of {K} taps, "
      f"up by {U}")
print(f"output:       {y.shape} {y.dtype}")
print(f"max rel. err: {rel_err:.2e} vs zero-stuffing + numpy.convolve in complex128 "
      "(limit 1e-5)")
if y.shape != (CHANNELS, 1, ref.shape[1]) or not rel_err <= 1e-5:
    print("FAILED")
    sys.exit(1)
print("OK")
