"""torch.nn drop-in: ``ConvTranspose1d`` layers whose forward is cupyconv's.

    import cupyconv.nn
    layer = cupyconv.nn.ConvTranspose1d(512, 256, 16, stride=8, padding=4)  # as torch's
    model = cupyconv.nn.convert(model)   # a model's torch.nn.ConvTranspose1d layers, in place

A ``cupyconv.nn.ConvTranspose1d`` is a ``torch.nn.ConvTranspose1d``: the same
constructor, parameters, initialisation, ``state_dict`` keys, hooks and
``output_size`` rule (torch's own ``_output_padding``); only the forward's arithmetic
is ``cupyconv.conv_transpose1d`` (its gradients are torch's: cupyconv/_autograd.py).
Importing this module imports torch; ``import cupyconv`` alone does not.
"""
from __future__ import annotations

from typing import List, Optional

import torch
from torch.nn.utils import parametrize

from ._api import conv_transpose1d

__all__ = ["ConvTranspose1d", "convert"]


class ConvTranspose1d(torch.nn.ConvTranspose1d):
    """``torch.nn.ConvTranspose1d`` computed by cupyconv.

    Example::

        >>> import torch, cupyconv.nn
        >>> up = cupyconv.nn.ConvTranspose1d(64, 32, kernel_size=8, stride=4, padding=2)
        >>> up(torch.randn(2, 64, 100)).shape
        torch.Size([2, 32, 400])
    """

    def forward(self, input: torch.Tensor, output_size: Optional[List[int]] = None) -> torch.Tensor:
        if self.padding_mode != "zeros":
            raise ValueError("Only `zeros` padding mode is supported for ConvTranspose1d")
        output_padding = self._output_padding(input, output_size, self.stride, self.padding,
                                              self.kernel_size, 1, self.dilation)
        return conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                output_padding, self.groups, self.dilation)


_PARAMETRIZED = {}      # torch's parametrized ConvTranspose1d class -> its cupyconv twin


def _cupyconv_class(module: torch.nn.Module):
    """The class a converted ``module`` takes, or None to leave it as it is: a plain
    torch.nn.ConvTranspose1d becomes ConvTranspose1d; one with parametrizations (such as
    torch.nn.utils.parametrizations.weight_norm, which gives it a generated subclass)
    becomes that subclass rebased on ConvTranspose1d, so removing the parametrizations
    later leaves a cupyconv layer. Subclasses of its own (another forward) stay."""
    cls = type(module)
    if cls is torch.nn.ConvTranspose1d:
        return ConvTranspose1d
    if parametrize.is_parametrized(module) and cls.__bases__ == (torch.nn.ConvTranspose1d,):
        if cls not in _PARAMETRIZED:
            body = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
            _PARAMETRIZED[cls] = type(cls.__name__, (ConvTranspose1d,), body)
        return _PARAMETRIZED[cls]
    return None


def convert(model: torch.nn.Module) -> torch.nn.Module:
    """Make every ``torch.nn.ConvTranspose1d`` in ``model`` (``model`` itself included)
    compute with cupyconv, in place, and return ``model``. Parameters, buffers, hooks and
    parametrizations are kept as they are (the layers change class only); subclasses of
    torch.nn.ConvTranspose1d with a class of their own are left alone.

    Example::

        >>> import torch, cupyconv.nn
        >>> model = torch.nn.Sequential(torch.nn.ConvTranspose1d(8, 4, 4, stride=2), torch.nn.ReLU())
        >>> type(cupyconv.nn.convert(model)[0]).__name__
        'ConvTranspose1d'
        >>> isinstance(model[0], cupyconv.nn.ConvTranspose1d)
        True
    """
    for module in model.modules():
        cls = _cupyconv_class(module)
        if cls is not None:
            module.__class__ = cls
    return model
