"""Argument validation and normalisation: the one place that knows torch's rules.

Everything here is pure Python on shapes and integers, so it runs (and is tested)
without a GPU, and every check happens before any device work.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Optional, Sequence, Union

IntArg = Union[int, Sequence[int]]

# Element types the kernels compute in; complex calls run as real calls on their parts
# (cupyconv._complex). Anything else (bool, integers, complex32, float128, ...) is a
# TypeError, as in torch's CUDA path.
REAL_DTYPES = ("float16", "bfloat16", "float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")
SUPPORTED_DTYPES = REAL_DTYPES + COMPLEX_DTYPES


@dataclass(frozen=True)
class ConvParams:
    """A validated call, with every size derived once."""

    batch: int          # N (1 for unbatched input)
    in_channels: int    # C_in
    out_channels: int   # C_out = groups * weight.shape[1]
    kernel_size: int    # K
    length_in: int      # L_in
    length_out: int     # L_out
    stride: int
    padding: int
    output_padding: int
    groups: int
    dilation: int
    batched: bool       # False for (C_in, L) input; the output drops the batch axis too
    has_bias: bool

    @property
    def out_shape(self) -> tuple:
        shape = (self.batch, self.out_channels, self.length_out)
        return shape if self.batched else shape[1:]

    @property
    def phases(self) -> int:
        """T = ceil(((K-1)*D + 1) / S): columns i and i+T never write the same output."""
        return -(-((self.kernel_size - 1) * self.dilation + 1) // self.stride)


def _as_int(value, name: str) -> int:
    """One int from an int or a 1-element tuple/list (torch's `_single`).

    Anything with ``__index__`` counts, as in torch (NumPy integers, 0-d integer arrays
    and one-element integer tensors); bools do not, and the value must fit torch's int64.
    """
    if isinstance(value, (tuple, list)):
        if len(value) != 1:
            raise ValueError(
                f"{name} must be an int or a sequence of 1 int for a 1-D convolution, "
                f"got {value!r}")
        value = value[0]
    # bool is an int subclass, and a bool tensor has __index__: be explicit about both.
    if isinstance(value, bool) or str(getattr(value, "dtype", "")) in ("bool", "torch.bool"):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}") from None
    if not -2**63 <= v < 2**63:
        raise ValueError(f"{name} must fit a signed 64-bit integer, as in torch, got {v}")
    return v


def output_length(length_in: int, kernel_size: int, stride: IntArg = 1, padding: IntArg = 0,
                  output_padding: IntArg = 0, dilation: IntArg = 1) -> int:
    """Output length of a 1-D transposed convolution (torch's formula).

    ``L_out = (L_in - 1)*stride - 2*padding + dilation*(kernel_size - 1) + output_padding + 1``

    Example
    -------
    >>> output_length(131072, 3, stride=2, padding=1, dilation=2)
    262145
    """
    L = _as_int(length_in, "length_in")
    K = _as_int(kernel_size, "kernel_size")
    S, P = _as_int(stride, "stride"), _as_int(padding, "padding")
    OP, D = _as_int(output_padding, "output_padding"), _as_int(dilation, "dilation")
    return (L - 1) * S - 2 * P + D * (K - 1) + OP + 1


def _output_padding_from_size(output_size, L_in, K, S, P, D, batched: bool = True) -> int:
    """output_padding implied by ``output_size``, as nn.ConvTranspose1d.forward computes it."""
    # a scalar is anything with __index__ (0-d integer arrays and tensors too; _as_int
    # refuses bools); torch's module wants a sequence, which is also taken here
    if hasattr(type(output_size), "__index__") and getattr(output_size, "ndim", 0) == 0:
        sizes = [output_size]
    else:
        try:
            sizes = list(output_size)
        except TypeError:
            raise TypeError("output_size must be an int or a sequence of ints, "
                            f"got {type(output_size).__name__}") from None
        # torch accepts (L,), or the full output shape with the leading entries ignored:
        # (N, C, L) for batched input, (C, L) for unbatched input -- nothing else
        full, given = (3 if batched else 2), len(sizes)
        if given == full:
            sizes = sizes[full - 1:]
        if len(sizes) != 1:
            raise ValueError(f"output_size must have 1 or {full} elements (L_out, or the full "
                             f"output shape) for {full}-D input, got {given} elements")
    L = _as_int(sizes[0], "output_size")
    lo = (L_in - 1) * S - 2 * P + D * (K - 1) + 1
    hi = lo + S - 1
    if not lo <= L <= hi:
        raise ValueError(f"output_size: requested an output size of {L}, but valid sizes range "
                         f"from {lo} to {hi} (for an input of length {L_in})")
    return L - lo


def check_conv_args(x_shape: tuple, w_shape: tuple, bias_shape: Optional[tuple],
                    stride: IntArg = 1, padding: IntArg = 0, output_padding: IntArg = 0,
                    groups: int = 1, dilation: IntArg = 1, output_size=None) -> ConvParams:
    """Check one call against torch's rules; return its normalised parameters.

    Shapes only: dtype and array-kind checks live with the adapters. Raises
    ``ValueError`` for broken rules and ``TypeError`` for non-integer arguments.
    """
    S = _as_int(stride, "stride")
    P = _as_int(padding, "padding")
    OP = _as_int(output_padding, "output_padding")
    D = _as_int(dilation, "dilation")
    if isinstance(groups, (tuple, list)):
        raise TypeError(f"groups must be an int, got {type(groups).__name__}")
    G = _as_int(groups, "groups")
    if S < 1:
        raise ValueError(f"stride must be >= 1, got {S}")
    if D < 1:
        raise ValueError(f"dilation must be >= 1, got {D}")
    if P < 0:
        raise ValueError(f"padding must be >= 0, got {P}")
    if OP < 0:
        raise ValueError(f"output_padding must be >= 0, got {OP}")
    if G < 1:
        raise ValueError(f"groups must be >= 1, got {G}")

    if len(x_shape) not in (2, 3):
        raise ValueError("x must be 2-D (C_in, L) or 3-D (N, C_in, L), "
                         f"got shape {tuple(x_shape)}")
    batched = len(x_shape) == 3
    N, C_in, L_in = x_shape if batched else (1,) + tuple(x_shape)
    if len(w_shape) != 3:
        raise ValueError(f"weight must be 3-D (C_in, C_out/groups, K), got shape {tuple(w_shape)}")
    W_in, C_og, K = w_shape
    if K < 1:
        raise ValueError(f"weight: kernel_size (weight.shape[2]) must be >= 1, got {K}")
    if W_in < 1:    # as torch: zero-channel x is only allowed with a non-empty weight
        raise ValueError(f"weight: C_in = weight.shape[0] must be >= 1, got {W_in}")
    if W_in % G:
        raise ValueError(f"groups={G} must divide C_in = weight.shape[0] = {W_in}")
    if C_in != W_in:
        raise ValueError(f"x has {C_in} channels but weight expects C_in = weight.shape[0] = "
                         f"{W_in} (x shape {tuple(x_shape)}, weight shape {tuple(w_shape)})")
    C_out = C_og * G
    # torch derives C_out from the weight, so "groups divides C_out" holds by construction;
    # a zero C_out/groups is the only way it can be broken.
    if C_og < 1:
        raise ValueError(f"weight.shape[1] = C_out/groups must be >= 1, got {C_og}")
    if L_in < 1:
        raise ValueError(f"x: input length must be >= 1 (only the batch may be empty), "
                         f"got shape {tuple(x_shape)}")
    if bias_shape is not None and tuple(bias_shape) != (C_out,):
        raise ValueError(f"bias must have shape (C_out,) = ({C_out},), got {tuple(bias_shape)}")

    if output_size is not None:
        OP = _output_padding_from_size(output_size, L_in, K, S, P, D, batched)
    elif not (OP < S or OP < D):
        raise ValueError("output_padding must be smaller than either stride or dilation, got "
                         f"output_padding={OP}, stride={S}, dilation={D}")
    L_out = (L_in - 1) * S - 2 * P + D * (K - 1) + OP + 1
    if L_out < 1:
        raise ValueError(f"output length (L_in-1)*stride - 2*padding + dilation*(K-1) + "
                         f"output_padding + 1 = {L_out} must be >= 1 (padding={P} is too large "
                         f"for L_in={L_in}, K={K}, stride={S}, dilation={D})")
    return ConvParams(N, C_in, C_out, K, L_in, L_out, S, P, OP, G, D, batched,
                      bias_shape is not None)
