"""torch's CUDA dtype rules where its CPU kernels are loose (README, Semantics): a bias of
another dtype, integer and complex inputs. Run on the GPU machine."""
import torch

F = torch.nn.functional
for xd, bd in [(torch.float64, torch.float32), (torch.float16, torch.float32),
               (torch.float32, torch.float64), (torch.int64, None), (torch.complex64, None)]:
    x = torch.ones(1, 2, 5, dtype=xd, device="cuda")
    w = torch.ones(2, 3, 3, dtype=xd, device="cuda")
    b = None if bd is None else torch.ones(3, dtype=bd, device="cuda")
    try:
        r = F.conv_transpose1d(x, w, b)
        r = f"ok {r.dtype} {tuple(r.shape)}"
    except Exception as e:
        r = f"{type(e).__name__}: {str(e)[:100]}"
    print(f"cuda x/w {xd} bias {bd}: {r}")
