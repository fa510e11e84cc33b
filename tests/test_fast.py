"""The repeat-call cache (cupyconv/_fast.py), on the CPU: what makes a signature, and the
bound on the cache. The launches themselves are GPU tests (test_gpu.py:
test_repeat_calls_take_the_fast_path, test_repeat_call_on_a_busy_torch_stream)."""
import numpy as np

import cupyconv
from cupyconv import _fast

ARGS = (2, 1, 0, 1, 1, None)     # stride, padding, output_padding, groups, dilation, output_size


def test_signature_tells_calls_apart():
    x = np.zeros((2, 4, 10), np.float32)
    w = np.zeros((4, 3, 3), np.float32)
    b = np.zeros(3, np.float32)
    base = _fast.signature(x, w, b, ARGS)
    assert base == _fast.signature(x.copy(), w.copy(), b.copy(), ARGS)   # values do not count
    others = [
        _fast.signature(x[:1], w, b, ARGS),                                # shape
        _fast.signature(x.astype(np.float64), w, b, ARGS),                 # dtype
        _fast.signature(x, w, None, ARGS),                                 # no bias
        _fast.signature(x, w, b, (3,) + ARGS[1:]),                         # an integer argument
        _fast.signature(x, w, b, ARGS[:-1] + (21,)),                       # output_size
    ]
    assert None not in others and len({base, *others}) == len(others) + 1


def test_unhashable_arguments_have_no_signature():
    x = np.zeros((2, 4, 10), np.float32)
    w = np.zeros((4, 3, 3), np.float32)
    assert _fast.signature(x, w, None, ([2], 1, 0, 1, 1, None)) is None
    assert _fast.signature([[1.0]], w, None, ARGS) is None                # no shape attribute


def test_equal_arguments_of_other_types_have_other_signatures():
    """2.0 == 2 and True == 1, but only the ints are valid: a cached stride=2 call must not
    let a later stride=2.0 skip the TypeError the full path raises."""
    x = np.zeros((2, 4, 10), np.float32)
    w = np.zeros((4, 3, 3), np.float32)
    base = _fast.signature(x, w, None, ARGS)
    others = [_fast.signature(x, w, None, (2.0,) + ARGS[1:]),
              _fast.signature(x, w, None, ARGS[:1] + (True,) + ARGS[2:]),
              _fast.signature(x, w, None, ((2,),) + ARGS[1:]),
              _fast.signature(x, w, None, ((2.0,),) + ARGS[1:]),
              _fast.signature(x, w, None, (np.int64(2),) + ARGS[1:])]
    assert None not in others and len({base, *others}) == len(others) + 1
    # arrays as arguments (0-d or not) are never keys
    assert _fast.signature(x, w, None, (np.array(2),) + ARGS[1:]) is None


def test_unknown_signature_takes_the_full_path():
    x = np.ones((2, 4, 10), np.float32)
    w = np.ones((4, 3, 3), np.float32)
    sig = _fast.signature(x, w, None, ARGS)
    assert sig not in _fast._cache and _fast.try_run(sig, x, w, None) is None
    # host input never fills the cache (only device calls do)
    cupyconv.conv_transpose1d(x, w, stride=2, backend="cpu")
    assert sig not in _fast._cache


def test_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(_fast, "_cache", {})
    monkeypatch.setattr(_fast, "_MAX_ENTRIES", 3)
    for i in range(3):
        _fast.remember(("sig", i), object(), (1, 2, 3))
    assert len(_fast._cache) == 3
    _fast.remember(("sig", 3), object(), [1, 2, 3])
    assert list(_fast._cache) == [("sig", 3)] and _fast._cache[("sig", 3)][1] == (1, 2, 3)


def test_raw_launch_parameter_block_layout():
    """The prebuilt cuLaunchKernel parameters: entry i of the pointer array is the address
    of argument i; slots 0-3 take the array pointers, int32 scalars read their slot's low
    half (negative values too)."""
    import ctypes

    from cupyconv._gpu import _param_block
    grid, values, pointers, address = _param_block((7, 2, 3), (np.int32(5), np.int32(-1)))
    assert grid == (7, 2, 3) and address == pointers.ctypes.data and len(pointers) == 6
    values[0], values[3] = 0xDEAD0000BEEF, 2**63 + 16
    read = [ctypes.c_uint64.from_address(int(p)).value for p in pointers[:4]]
    assert read == [0xDEAD0000BEEF, 0, 0, 2**63 + 16]
    assert [ctypes.c_int32.from_address(int(p)).value for p in pointers[4:]] == [5, -1]


def test_pdl_launch_config_layout():
    """The cuLaunchKernelEx structures as cuda.h lays them out on 64-bit Linux: CUlaunchConfig
    (grid, block, shared memory, stream at 32, attribute pointer at 40, count at 48; 56
    bytes), CUlaunchAttribute (id, 4 bytes of padding, a 64-byte value union; 72 bytes),
    and the one attribute PDL needs: programmatic stream serialization (6) allowed."""
    import ctypes

    from cupyconv._gpu import _PDL_ATTR, _LaunchAttribute, _LaunchConfig
    assert ctypes.sizeof(_LaunchConfig) == 56 and ctypes.sizeof(_LaunchAttribute) == 72
    assert (_LaunchConfig.smem.offset, _LaunchConfig.stream.offset, _LaunchConfig.attrs.offset,
            _LaunchConfig.n_attrs.offset) == (24, 32, 40, 48)
    assert _LaunchAttribute.value.offset == 8
    assert _PDL_ATTR.id == 6 and ctypes.c_int.from_buffer(_PDL_ATTR.value).value == 1
    cfg = _LaunchConfig((7, 2, 3), (256, 1, 1), 4096, 0xABC, ctypes.pointer(_PDL_ATTR), 1)
    raw = bytes(cfg)
    assert np.frombuffer(raw[:28], np.uint32).tolist() == [7, 2, 3, 256, 1, 1, 4096]
    assert int.from_bytes(raw[32:40], "little") == 0xABC and raw[48] == 1
