"""Compile every kernel instance the benchmark sweep uses, in parallel processes, into
CuPy's on-disk cache (CUPY_CACHE_DIR), so `python -m cupyconv.bench` then measures
instead of compiling one instance after another. GPU machine, repo root."""
from cupyconv._args import check_conv_args
from cupyconv._dispatch import plan
from cupyconv.bench import SWEEP
from gpu_timing import key_job, warm_parallel


def main():
    keys = []
    for c in SWEEP:
        p = check_conv_args((c.N, c.C_in, c.L), (c.C_in, c.C_out // c.G, c.K),
                            (c.C_out,) if c.bias else None, stride=c.S, padding=c.P,
                            output_padding=c.OP, groups=c.G, dilation=c.D)
        keys.append(plan(p, c.dtype).key)
    warm_parallel([key_job(k) for k in keys])


if __name__ == "__main__":      # the compile workers are spawned: they import this file
    main()
