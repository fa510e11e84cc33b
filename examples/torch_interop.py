"""cupyconv with torch tensors: same call, same result as torch's conv_transpose1d.

    python examples/torch_interop.py

* torch CPU tensors in, torch CPU tensor out (run on the GPU when CuPy finds one,
  otherwise on cupyconv's NumPy implementation).
* torch CUDA tensors in, a torch CUDA tensor out: zero-copy through DLPack, allocated by
  torch's caching allocator and computed on torch's current stream. This part needs a
  CUDA build of torch and a GPU; without them it is skipped with a message.
* autograd: with a weight that requires grad, the result has a grad_fn (torch's own
  convolution backward), so the layer trains like torch's.

Each result is compared with torch.nn.functional.conv_transpose1d computed in float64.
Exits 0 when torch is not installed (nothing to show), 1 on a mismatch.
"""
import sys

try:
    import torch
except ImportError:
    print("torch is not installed; nothing to show (pip install torch)")
    sys.exit(0)
import torch.nn.functional as F

import cupyconv

failed = False


def check(label, y, x, w, b, **kw):
    """Compare y with torch's conv_transpose1d on float64 copies of the inputs."""
    global failed
    ref = F.conv_transpose1d(x.double().cpu(), w.double().cpu(),
                             None if b is None else b.double().cpu(), **kw)
    err = ((y.double().cpu() - ref).abs().max() / ref.abs().max()).item()
    ok = y.shape == ref.shape and y.dtype == x.dtype and y.device == x.device and err <= 1e-5
    failed |= not ok
    print(f"{label:<45} backend={cupyconv.last_backend()}  {type(y).__name__} "
          f"{tuple(y.shape)} {y.dtype} on {y.device}  rel.err {err:.1e}  "
          f"{'ok' if ok else 'MISMATCH'}")


g = torch.Generator().manual_seed(0)
# An upsampling layer as in a vocoder: kernel = 2 x stride, with bias.
x = torch.randn(2, 64, 1000, generator=g)
w = torch.randn(64, 32, 8, generator=g) / 16
b = torch.randn(32, generator=g)
kw = dict(stride=4, padding=2)

y = cupyconv.conv_transpose1d(x, w, b, **kw)
check("torch CPU, stride 4, bias", y, x, w, b, **kw)

# Depthwise (groups = channels), dilated, with an explicit output_size.
xd = torch.randn(64, 500, generator=g)                   # unbatched (C_in, L_in)
wd = torch.randn(64, 1, 3, generator=g)
L_want = cupyconv.output_length(500, 3, stride=2, dilation=2) + 1
yd = cupyconv.conv_transpose1d(xd, wd, stride=2, dilation=2, groups=64, output_size=L_want)
check("torch CPU, depthwise, dilation 2, output_size", yd, xd, wd, None,
      stride=2, dilation=2, groups=64, output_padding=1)

# Autograd: a weight that requires grad gets torch's gradient (its convolution backward).
wp = w.clone().requires_grad_()
loss = cupyconv.conv_transpose1d(x, wp, b, **kw).square().mean()
loss.backward()
wt = w.clone().requires_grad_()
F.conv_transpose1d(x, wt, b, **kw).square().mean().backward()
gerr = ((wp.grad - wt.grad).abs().max() / wt.grad.abs().max()).item()
failed |= not gerr <= 1e-5
print(f"{'torch CPU, weight gradient (autograd)':<45} rel.err vs torch's {gerr:.1e}  "
      f"{'ok' if gerr <= 1e-5 else 'MISMATCH'}")

if not torch.cuda.is_available():
    print("skipping the CUDA part: this torch has no CUDA device "
          f"(torch {torch.__version__}, built for CUDA {torch.version.cuda})")
elif not cupyconv.gpu_available():
    print("skipping the CUDA part: torch sees a GPU but CuPy cannot use it "
          "(install cupyconv[cuda12] or [cuda13] to match the driver)")
else:
    xc, wc, bc = x.cuda(), w.cuda(), b.cuda()
    yc = cupyconv.conv_transpose1d(xc, wc, bc, **kw)     # torch's current stream
    check("torch CUDA float32, stride 4, bias", yc, xc, wc, bc, **kw)
    xh, wh, bh = xc.half(), wc.half(), bc.half()
    yh = cupyconv.conv_transpose1d(xh, wh, bh, **kw)
    # fp16 storage: compare against float64 of the rounded inputs, at fp16 accuracy
    ref = F.conv_transpose1d(xh.double(), wh.double(), bh.double(), **kw)
    err = ((yh.double() - ref).abs().max() / ref.abs().max()).item()
    failed |= not err <= 2e-3
    print(f"{'torch CUDA float16, stride 4, bias':<44} backend={cupyconv.last_backend()}  "
          f"{tuple(yh.shape)} {yh.dtype} on {yh.device}  rel.err {err:.1e}  "
          f"{'ok' if err <= 2e-3 else 'MISMATCH'}")

print("FAILED" if failed else "OK")
sys.exit(1 if failed else 0)
