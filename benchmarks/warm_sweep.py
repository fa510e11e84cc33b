"""Compile every kernel instance the benchmark sweep uses, in parallel processes, into
CuPy's on-disk cache (CUPY_CACHE_DIR), so `python -m cupyconv.bench` then measures
instead of compiling one instance after another. GPU machine, repo root."""
from cupyconv._gpu import device_plan
from cupyconv.bench import SWEEP, config_params
from gpu_timing import key_job, warm_parallel


def main():
    # the instances the sweep's device dispatches to
    warm_parallel([key_job(device_plan(config_params(c), c.dtype, 0).key) for c in SWEEP])


if __name__ == "__main__":      # the compile workers are spawned: they import this file
    main()
