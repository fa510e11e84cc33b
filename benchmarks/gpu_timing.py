"""CUDA-event timing shared by the benchmark scripts in this folder (run as scripts, so
``from gpu_timing import events_ms`` resolves here)."""
import cupy
import numpy as np


def events_ms(fn, reps: int = 30, warmup: int = 3) -> float:
    """Median ms of fn() between two CUDA events on CuPy's current stream, after warm-up."""
    for _ in range(warmup):
        fn()
    ts = []
    for _ in range(reps):
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(cupy.cuda.get_elapsed_time(a, b))
    return float(np.median(ts))
