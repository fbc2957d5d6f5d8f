"""``ms.export(..., file_format="ONNX")``: the four nets, fixed and dynamic batch, run in
onnxruntime with the outputs MindSpore 2.10 recorded; an op without an ONNX form is named."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, ops
from tests.export.recorded import FIXTURES, NETS, RECORDED, VARIANTS

onnx = pytest.importorskip("onnx", reason="the onnx extra is not installed")
ort = pytest.importorskip("onnxruntime", reason="the onnx extra is not installed")


def _run(path: str, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: x})[0]


@pytest.mark.parametrize("suffix", sorted(VARIANTS))
@pytest.mark.parametrize("name", sorted(NETS.NETS))
def test_onnxruntime_gives_mindspores_outputs(name, suffix, tmp_path):
    net = NETS.make(name)
    inputs = NETS.dynamic_input(name) if suffix else ms.Tensor(NETS.sample(name))
    ms.export(net, inputs, file_name=str(tmp_path / name), file_format="ONNX")
    batch = VARIANTS[suffix]
    got = _run(str(tmp_path / f"{name}.onnx"), NETS.sample(name, batch))
    np.testing.assert_allclose(got, RECORDED["outputs"][name][str(batch)], rtol=1e-5,
                               atol=1e-6)


def test_dynamic_batch_is_a_symbolic_dimension(tmp_path):
    ms.export(NETS.make("mlp"), NETS.dynamic_input("mlp"), file_name=str(tmp_path / "m"),
              file_format="ONNX")
    model = onnx.load(str(tmp_path / "m.onnx"))
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param and dims[1].dim_value == 6
    assert {i.name for i in model.graph.initializer} >= {"fc1.weight", "fc2.bias"}


class _CumSum(nn.Cell):
    def construct(self, x):
        return ops.cumsum(x, 1) * 2


def test_an_op_without_an_onnx_form_is_named(tmp_path):
    with pytest.raises(ValueError, match="the primitive 'CumSum' has no ONNX mapping"):
        ms.export(_CumSum(), ms.Tensor(np.ones((1, 2, 5, 5), np.float32)),
                  file_name=str(tmp_path / "p"), file_format="ONNX")


class _Layers(nn.Cell):
    """Concat, strided 'same' pooling, sigmoid/exp, slicing, expand/squeeze."""

    def __init__(self):
        super().__init__()
        self.max = nn.MaxPool2d(3, 2, pad_mode="same")
        self.avg = nn.AvgPool2d(3, 2, pad_mode="same")

    def construct(self, x):
        y = ops.concat((ops.sigmoid(x), ops.exp(x * 0.1)), axis=1)
        y = self.max(y) + self.avg(y)
        y = ops.expand_dims(y[:, 1:3], 0)
        return ops.squeeze(y, 0)


def test_more_layers(tmp_path, mode):
    x = np.random.default_rng(0).standard_normal((2, 2, 7, 7)).astype(np.float32)
    net = _Layers()
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "l"), file_format="ONNX")
    np.testing.assert_allclose(_run(str(tmp_path / "l.onnx"), x), net(ms.Tensor(x)).asnumpy(),
                               rtol=1e-5, atol=1e-6)


class _Heads(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x):
        y = self.fc(x)
        return y, ops.relu(y) * 2.0


def test_several_outputs(tmp_path):
    net, x = _Heads(), np.ones((2, 3), np.float32)
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "h"), file_format="ONNX")
    session = ort.InferenceSession(str(tmp_path / "h.onnx"), providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: x})
    for g, w in zip(got, net(ms.Tensor(x)), strict=True):
        np.testing.assert_allclose(g, w.asnumpy(), rtol=1e-6)


def test_layer_zoo(tmp_path):
    """Transposed conv, casts, erf GELU, LayerNorm, reductions, slicing, scalar operands."""
    net, x = NETS.seeded(NETS.LayerZoo()), NETS.zoo_sample()
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "zoo"), file_format="ONNX")
    np.testing.assert_allclose(_run(str(tmp_path / "zoo.onnx"), x), RECORDED["outputs"]["zoo"],
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(NETS.NETS))
def test_mindspore_mindir_to_onnx(name, tmp_path):
    """A MindSpore-written MINDIR file (StridedSlice, BiasAdd, Flatten...) loaded as a
    GraphCell and exported again: ONNX for onnxruntime, MINDIR for graphkiln."""
    cell = nn.GraphCell(ms.load(str(FIXTURES / f"ms_{name}_dyn.mindir")))
    want = RECORDED["outputs"][name]["3"]
    x = NETS.sample(name, 3)
    for file_format in ("ONNX", "MINDIR"):
        ms.export(cell, NETS.dynamic_input(name), file_name=str(tmp_path / name),
                  file_format=file_format)
    np.testing.assert_allclose(_run(str(tmp_path / f"{name}.onnx"), x), want, rtol=1e-5,
                               atol=1e-6)
    again = nn.GraphCell(ms.load(str(tmp_path / f"{name}.mindir")))(ms.Tensor(x))
    np.testing.assert_allclose(again.asnumpy(), want, rtol=1e-5, atol=1e-6)
