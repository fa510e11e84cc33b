"""cupyconv.nn: the torch.nn drop-in layer and convert(), on the CPU path (torch CPU
tensors run cupyconv's NumPy implementation here): results and gradients against
torch's own layers, what convert() changes and what it leaves alone."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
import cupyconv.nn  # noqa: E402  (needs torch)

pytestmark = pytest.mark.torch


@pytest.fixture
def calls(monkeypatch):
    """Counts the forwards that reach cupyconv.conv_transpose1d through cupyconv.nn."""
    seen = []
    real = cupyconv.nn.conv_transpose1d

    def spy(*args, **kw):
        seen.append(args[0].shape)
        return real(*args, backend="cpu", **kw)
    monkeypatch.setattr(cupyconv.nn, "conv_transpose1d", spy)
    return seen


def _pair(rng, **kw):
    """A torch layer and a cupyconv layer of the same arguments and parameters (float64)."""
    torch.manual_seed(int(rng.integers(2**31)))
    ours = cupyconv.nn.ConvTranspose1d(**kw, dtype=torch.float64)
    theirs = torch.nn.ConvTranspose1d(**kw, dtype=torch.float64)
    theirs.load_state_dict(ours.state_dict())
    return ours, theirs


def _same_as_torch(ours, theirs, x):
    """A forward and backward of both modules on ``x``: the same outputs, and the same
    gradients of x and of every parameter (accumulated over the calls so far)."""
    xo, xt = (x.detach().clone().requires_grad_() for _ in range(2))
    y, yt = ours(xo), theirs(xt)
    torch.testing.assert_close(y, yt, rtol=1e-12, atol=1e-12)
    gy = torch.randn_like(yt)
    y.backward(gy)
    yt.backward(gy)
    torch.testing.assert_close(xo.grad, xt.grad)
    for p, q in zip(ours.parameters(), theirs.parameters()):
        torch.testing.assert_close(p.grad, q.grad)


@pytest.mark.parametrize("kw", [
    dict(in_channels=6, out_channels=4, kernel_size=4, stride=2, padding=1),
    dict(in_channels=6, out_channels=6, kernel_size=3, stride=3, padding=2, output_padding=1,
         groups=3, dilation=2, bias=False),
    dict(in_channels=4, out_channels=8, kernel_size=5, stride=1, padding=(2,), dilation=(3,)),
])
def test_layer_matches_torchs(rng, calls, kw):
    """Outputs (batched, unbatched, with output_size) and gradients of input, weight and
    bias equal torch.nn.ConvTranspose1d's; the forwards ran through cupyconv."""
    ours, theirs = _pair(rng, **kw)
    assert isinstance(ours, torch.nn.ConvTranspose1d)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for shape in ((3, kw["in_channels"], 11), (kw["in_channels"], 7)):
        _same_as_torch(ours, theirs, torch.tensor(rng.standard_normal(shape)))
    x = torch.tensor(rng.standard_normal((2, kw["in_channels"], 9)))
    shortest = cupyconv.output_length(9, kw["kernel_size"], stride=ours.stride, padding=ours.padding,
                                      dilation=ours.dilation)
    longest = shortest + ours.stride[0] - 1       # (the layer's rule: below the stride)
    for size in ([shortest], [longest], [2, kw["out_channels"], longest]):
        torch.testing.assert_close(ours(x, output_size=size), theirs(x, output_size=size))
    with pytest.raises(ValueError, match="output size"):       # torch's own rule and text
        ours(x, output_size=[longest + 1])
    assert len(calls) == 5          # (the rejected output_size fails before any call)


@pytest.mark.filterwarnings("ignore:.*torch.nn.utils.weight_norm. is deprecated")
def test_convert_in_place_keeps_parameters_hooks_and_parametrizations(rng, calls):
    """convert() changes the class of plain layers, of layers under old-style
    weight_norm (hooks) and under parametrizations.weight_norm; the parameters stay the
    same objects, outputs and gradients stay torch's, removing the parametrization
    leaves a cupyconv layer, and a subclass with a forward of its own is left alone."""
    class Custom(torch.nn.ConvTranspose1d):
        def forward(self, x, output_size=None):
            return super().forward(x, output_size) * 2

    seed, dt = int(rng.integers(2**31)), dict(dtype=torch.float64)

    def build():
        torch.manual_seed(seed)
        return torch.nn.Sequential(
            torch.nn.ConvTranspose1d(8, 6, 4, stride=2, padding=1, **dt),
            torch.nn.utils.weight_norm(torch.nn.ConvTranspose1d(6, 4, 3, stride=3, **dt)),
            torch.nn.utils.parametrizations.weight_norm(torch.nn.ConvTranspose1d(4, 4, 5, padding=2, **dt)),
            Custom(4, 2, 2, **dt))
    model, reference = build(), build()
    params = [id(p) for p in model.parameters()]
    hooked = []
    model[0].register_forward_hook(lambda m, i, o: hooked.append(o.shape))
    assert cupyconv.nn.convert(model) is model
    assert [id(p) for p in model.parameters()] == params
    assert type(model[0]) is cupyconv.nn.ConvTranspose1d
    assert type(model[1]) is cupyconv.nn.ConvTranspose1d
    assert isinstance(model[2], cupyconv.nn.ConvTranspose1d) and type(model[3]) is Custom
    assert list(model.state_dict()) == list(reference.state_dict())
    _same_as_torch(model, reference, torch.tensor(rng.standard_normal((2, 8, 10))))
    assert len(calls) == 3 and hooked == [calls[1]]
    torch.nn.utils.parametrize.remove_parametrizations(model[2], "weight")
    assert type(model[2]) is cupyconv.nn.ConvTranspose1d
    assert cupyconv.nn.convert(model) is model and type(model[0]) is cupyconv.nn.ConvTranspose1d


def test_layer_rejects_other_padding_modes():
    """torch's rule: its constructor refuses them, and so does the forward of a layer
    whose padding_mode was changed afterwards."""
    with pytest.raises(ValueError, match="zeros"):
        cupyconv.nn.ConvTranspose1d(2, 2, 3, padding_mode="reflect")
    layer = cupyconv.nn.ConvTranspose1d(2, 2, 3)
    layer.padding_mode = "reflect"
    with pytest.raises(ValueError, match="zeros"):
        layer(torch.ones(1, 2, 5))


def test_importing_cupyconv_does_not_import_torch():
    """cupyconv.nn imports torch; cupyconv alone does not (a NumPy user needs none)."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", "import sys, cupyconv; print('torch' in sys.modules)"],
                         capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_docstring_examples():
    import doctest
    result = doctest.testmod(cupyconv.nn)
    assert result.failed == 0 and result.attempted >= 5, result
