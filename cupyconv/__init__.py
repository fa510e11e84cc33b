"""cupyconv: exact, fast 1-D transposed convolution for NumPy, CuPy and torch arrays.

>>> import numpy as np, cupyconv
>>> y = cupyconv.conv_transpose1d(np.ones((1, 2, 4), np.float32),
...                               np.ones((2, 3, 3), np.float32), stride=2)
>>> y.shape
(1, 3, 9)
"""
from ._api import conv_transpose1d, gpu_available, last_backend
from ._args import output_length

__all__ = ["conv_transpose1d", "output_length", "gpu_available", "last_backend"]
__version__ = "0.1.0"
