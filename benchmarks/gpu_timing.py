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


def _compile_one(job):
    code, options, expr = job
    cupy.RawModule(code=code, options=options, name_expressions=(expr,)).get_function(expr).compile()
    return expr


def warm_parallel(jobs, workers: int = 16) -> None:
    """Compile (source, options, name_expression) jobs in parallel processes: each writes
    CuPy's on-disk kernel cache (CUPY_CACHE_DIR), so this process then loads them at once.
    Compiles dominate the scripts' device time otherwise."""
    import concurrent.futures
    import multiprocessing
    import time
    jobs = list(dict.fromkeys(jobs))
    t0 = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(min(workers, len(jobs) or 1), mp_context=ctx) as ex:
        list(ex.map(_compile_one, jobs))
    print(f"compiled {len(jobs)} instances in {time.perf_counter() - t0:.0f} s", flush=True)


def key_job(key):
    """warm_parallel job for a cupyconv kernel key, as cupyconv._modules.get_kernel builds it."""
    from cupyconv._modules import OPTIONS, kernel_source
    return (kernel_source(key.family), OPTIONS, key.name_expression())
