"""One warp-specialised ct1d_wgmma call (WGMMA_WS_MAX_NC 3) against a float64 reference, with a
NaN-poisoned output: the first check that the WS kernel finishes and is right (run 6)."""
import sys

import cupy
import numpy as np

from cupyconv import _dispatch, _gpu
from cupyconv._gpu import device_plan
from cupyconv.bench import config_from_spec, config_params

_dispatch.WGMMA_WS_MAX_NC = 3
if len(sys.argv) > 2:
    _gpu._WAVES["ct1d_wgmma_ws"] = int(sys.argv[2])
import cupyconv
import torch

c = config_from_spec(sys.argv[1])
p = config_params(c)
key = device_plan(p, "float32", 0, None).key           # (the API's plan)
assert key.family == "ct1d_wgmma" and key.ws, key
rs = np.random.default_rng(0)
x = rs.standard_normal((c.N, c.C_in, c.L)).astype(np.float32)
w = (rs.standard_normal((c.C_in, c.C_out // c.G, c.K)) / np.sqrt(c.C_in * c.K)).astype(np.float32)
ref = torch.nn.functional.conv_transpose1d(torch.from_numpy(x).double(), torch.from_numpy(w).double(),
                                           stride=c.S, padding=c.P, output_padding=c.OP,
                                           groups=c.G, dilation=c.D).numpy()
y = cupyconv.conv_transpose1d(cupy.asarray(x), cupy.asarray(w), stride=c.S, padding=c.P,
                              output_padding=c.OP, groups=c.G, dilation=c.D)
cupy.cuda.runtime.deviceSynchronize()
y = cupy.asnumpy(y)
err = np.linalg.norm(y - ref) / np.linalg.norm(ref)
print(c.name, key.name_expression(), "err", f"{err:.2e}", "finite", np.isfinite(y).all())
assert err < 1e-6
