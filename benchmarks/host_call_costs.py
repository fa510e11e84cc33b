"""Host cost of one launch, piece by piece (device probe): CuPy RawKernel vs its Function
with a stream argument, output allocation, whole calls. python benchmarks/host_call_costs.py"""
import time, sys
import cupy, numpy as np, torch
sys.path.insert(0, '.')
import cupyconv
from cupyconv import _fast
x = cupy.random.standard_normal((1, 32, 1024), dtype=np.float32)
w = cupy.random.standard_normal((32, 64, 3), dtype=np.float32)
y = cupyconv.conv_transpose1d(x, w, stride=2, padding=1, dilation=2)
prep, shape = next(iter(_fast._cache.values()))
(grid, scal), = prep.launches
args = (x, w, np.uint64(0), y) + scal
k = prep.kernel
f = k.kernel
def t(fn, n=2000):
    for _ in range(100): fn()
    cupy.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(n): fn()
    t1 = time.perf_counter()
    cupy.cuda.Device().synchronize()
    return (t1 - t0) / n * 1e6
print("RawKernel call  %.2f us" % t(lambda: k(grid, prep.block, args, shared_mem=prep.smem)))
print("Function call   %.2f us" % t(lambda: f(grid, prep.block, args, shared_mem=prep.smem)))
s = cupy.cuda.ExternalStream(torch._C._cuda_getCurrentRawStream(0), 0)
try:
    print("Function+stream %.2f us" % t(lambda: f(grid, prep.block, args, shared_mem=prep.smem, stream=s)))
except Exception as e:
    print("Function stream kwarg:", repr(e))
def ctx():
    with s:
        k(grid, prep.block, args, shared_mem=prep.smem)
print("with stream + RawKernel %.2f us" % t(ctx))
print("cupy.empty      %.2f us" % t(lambda: cupy.empty(shape, dtype=np.float32)))
print("torch.empty     %.2f us" % t(lambda: torch.empty(shape, device='cuda')))
print("api cupy-in     %.2f us" % t(lambda: cupyconv.conv_transpose1d(x, w, stride=2, padding=1, dilation=2)))
xt, wt = torch.from_dlpack(x), torch.from_dlpack(w)
print("api torch-in    %.2f us" % t(lambda: cupyconv.conv_transpose1d(xt, wt, stride=2, padding=1, dilation=2)))
print("torch itself    %.2f us" % t(lambda: torch.nn.functional.conv_transpose1d(xt, wt, stride=2, padding=1, dilation=2)))
# the torch-in repeat path piece by piece (cupyconv/_fast.py)
from cupyconv._gpu import run_pointers
args_sig = (2, 1, 0, 1, 2, None)
print("signature()     %.2f us" % t(lambda: _fast.signature(xt, wt, None, args_sig)))
print("checks          %.2f us" % t(lambda: [a.get_device() == 0 and a.is_contiguous() for a in (xt, wt)]))
print("getDevice       %.2f us" % t(lambda: cupy.cuda.runtime.getDevice()))
print("torch.empty(dtype, device=x.device) %.2f us" % t(lambda: torch.empty(shape, dtype=xt.dtype, device=xt.device)))
print("x.new_empty     %.2f us" % t(lambda: xt.new_empty(shape)))
print("stream handle   %.2f us" % t(lambda: _fast._torch_stream(torch, 0)))
yt = torch.empty(shape, device='cuda')
print("run_pointers    %.2f us" % t(lambda: run_pointers(prep, xt.data_ptr(), wt.data_ptr(), 0, yt.data_ptr(), 0)))
