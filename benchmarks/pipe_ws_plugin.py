"""pytest plugin for device runs: the GPU tests with ct1d_pipe's warp-specialised blocks
(PipeKey.ws) wherever their shared memory fits, the shapes from $PIPE_WS_SHAPES (a Python
tuple of (consumers, producers, stages, output buffers)).

    PIPE_WS_SHAPES="((2,1,5,2),)" PYTHONPATH=.:benchmarks python -m pytest -p pipe_ws_plugin ...
"""
import ast
import os


def pytest_configure(config):
    from cupyconv import _dispatch
    _dispatch.PIPE_WS_SHAPES = ast.literal_eval(os.environ["PIPE_WS_SHAPES"])
    _dispatch.plan.cache_clear()
