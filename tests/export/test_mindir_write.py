"""``ms.export(..., file_format="MINDIR")``: graphkiln writes, for fixed and dynamic input
shapes, exactly the files MindSpore 2.10 loaded and ran with the nets' outputs when
``record_export.py`` ran (SHA-256 recorded with MindSpore's outputs); graphkiln reads its
own files back with the same outputs; and, where /work/msvenv exists, MindSpore runs a
freshly written file."""
import hashlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.train import mindir_ops, mindir_schema
from tests.export.recorded import FIXTURES, NETS, RECORDED, VARIANTS

MSVENV_PYTHON = "/work/msvenv/bin/python"


def _export(name: str, suffix: str, directory) -> str:
    net = NETS.make(name)
    inputs = NETS.dynamic_input(name) if suffix else ms.Tensor(NETS.sample(name))
    path = os.path.join(str(directory), name + suffix)
    ms.export(net, inputs, file_name=path, file_format="MINDIR")
    return path + ".mindir"


@pytest.mark.parametrize("suffix", sorted(VARIANTS))
@pytest.mark.parametrize("name", sorted(NETS.NETS))
def test_writes_the_file_mindspore_accepted(name, suffix, tmp_path):
    path = _export(name, suffix, tmp_path)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    recorded = RECORDED["graphkiln_files"][name + suffix]
    assert digest == recorded["sha256"], (
        "graphkiln now writes another MINDIR file for this net: check it on MindSpore with "
        "tests/export/fixtures/record_export.py (it records the new digest)")
    batch = VARIANTS[suffix]
    np.testing.assert_allclose(recorded["mindspore_output"],
                               RECORDED["outputs"][name][str(batch)], rtol=1e-5, atol=1e-6)


def test_writes_the_zoo_file_mindspore_accepted(tmp_path):
    """Conv2DTranspose, Cast (TypeId), erf GELU (expanded), Squeeze, scalar operands..."""
    net = NETS.seeded(NETS.LayerZoo())
    ms.export(net, ms.Tensor(NETS.zoo_sample()), file_name=str(tmp_path / "zoo"),
              file_format="MINDIR")
    recorded = RECORDED["graphkiln_files"]["zoo"]
    digest = hashlib.sha256((tmp_path / "zoo.mindir").read_bytes()).hexdigest()
    assert digest == recorded["sha256"], "check the new file with record_export.py"
    np.testing.assert_allclose(recorded["mindspore_output"], RECORDED["outputs"]["zoo"],
                               rtol=1e-5, atol=1e-5)
    got = nn.GraphCell(ms.load(str(tmp_path / "zoo.mindir")))(ms.Tensor(NETS.zoo_sample()))
    np.testing.assert_allclose(got.asnumpy(), RECORDED["outputs"]["zoo"], rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize("suffix", sorted(VARIANTS))
@pytest.mark.parametrize("name", sorted(NETS.NETS))
def test_round_trip_through_graphkiln(name, suffix, tmp_path, mode):
    path = _export(name, suffix, tmp_path)
    x = ms.Tensor(NETS.sample(name, VARIANTS[suffix]))
    got = nn.GraphCell(ms.load(path))(x).asnumpy()
    np.testing.assert_allclose(got, NETS.make(name)(x).asnumpy(), rtol=1e-6, atol=1e-7)


def test_file_structure(tmp_path):
    """What MindSpore needs: version fields, weights with data and ref keys, typed inputs
    (-1 for a dynamic size), primitive functions with their arguments as inputs."""
    model = mindir_schema.ModelProto()
    with open(_export("mlp", "_dyn", tmp_path), "rb") as f:
        model.ParseFromString(f.read())
    assert (model.producer_name, model.ir_version, model.mind_ir_version) == \
        ("MindSpore", "1.1", 3)
    g = model.graph
    assert [p.ref_key for p in g.parameter] == ["fc1.weight", "fc1.bias", "fc2.weight",
                                                "fc2.bias"]
    assert mindir_ops.proto_array(g.parameter[0], "w").shape == (8, 6)
    assert list(g.input[0].tensor[0].dims) == [-1, 6]
    ops = {p.name: p for p in model.primitives}
    matmul = next(n for n in g.node if ops.get(n.op_type[5:], None) is not None
                  and ops[n.op_type[5:]].op_type == "MatMul")
    assert ops[matmul.op_type[5:]].prim_type == mindir_ops.PRIMITIVE_FUNCTION
    assert len(matmul.input) == 4  # x, w, transpose_a, transpose_b
    assert g.output[0].name == g.node[-1].output[0]


def test_export_leaves_training_mode_as_it_was(tmp_path):
    net = NETS.make("lenet")
    net.set_train(True)
    ms.export(net, ms.Tensor(NETS.sample("lenet")), file_name=str(tmp_path / "n"),
              file_format="MINDIR")
    assert net.training
    np.testing.assert_allclose(
        nn.GraphCell(ms.load(str(tmp_path / "n.mindir")))(ms.Tensor(NETS.sample("lenet")))
        .asnumpy(), RECORDED["outputs"]["lenet"]["None"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("enc_mode", ["AES-GCM", "AES-CBC"])
def test_encrypted_export(tmp_path, enc_mode):
    net, x = NETS.make("mlp"), ms.Tensor(NETS.sample("mlp"))
    path = str(tmp_path / "enc")
    ms.export(net, x, file_name=path, file_format="MINDIR", enc_key=NETS.ENC_KEY,
              enc_mode=enc_mode)
    plain = (tmp_path / "enc.mindir").read_bytes()
    with open(_export("mlp", "", tmp_path), "rb") as f:
        assert plain[:64] != f.read()[:64]
    graph = ms.load(path + ".mindir", dec_key=NETS.ENC_KEY, dec_mode=enc_mode)
    np.testing.assert_allclose(nn.GraphCell(graph)(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)


def test_bad_format_and_air():
    net, x = NETS.make("mlp"), ms.Tensor(NETS.sample("mlp"))
    with pytest.raises(ValueError, match="'file_format' must be one of"):
        ms.export(net, x, file_name="n", file_format="PB")
    with pytest.raises(ValueError, match="'AIR' format with Ascend backend"):
        ms.export(net, x, file_name="n", file_format="AIR")


def test_an_op_without_a_mindir_form_is_named(tmp_path):
    class Net(nn.Cell):
        def construct(self, x):
            return ms.ops.cumsum(x, 0)

    with pytest.raises(ValueError, match="'CumSum' has no MINDIR mapping"):
        ms.export(Net(), ms.Tensor(np.ones((2, 2), np.float32)), file_name=str(tmp_path / "c"),
                  file_format="MINDIR")


class _Heads(nn.Cell):
    """Several outputs (a tuple), a concat of a tuple of tensors."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x):
        y = self.fc(x)
        return y, ms.ops.relu(y) * 2.0, ms.ops.concat((y, y), 1)


def test_several_outputs(tmp_path, mode):
    net, x = _Heads(), ms.Tensor(np.ones((2, 3), np.float32))
    ms.export(net, x, file_name=str(tmp_path / "h"), file_format="MINDIR")
    model = mindir_schema.ModelProto()
    model.ParseFromString((tmp_path / "h.mindir").read_bytes())
    assert len(model.graph.output[0].attr_info.values) == 3  # as MindSpore writes it
    got = nn.GraphCell(ms.load(str(tmp_path / "h.mindir")))(x)
    for g, w in zip(got, net(x), strict=True):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6)


class _Branch(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


@pytest.mark.parametrize("file_format", ["MINDIR", "ONNX"])
def test_control_flow_is_refused(tmp_path, file_format):
    pytest.importorskip("onnx")
    with pytest.raises(ValueError, match="primitives only|has no (MINDIR|ONNX) mapping"):
        ms.export(_Branch(), ms.Tensor(np.ones((2,), np.float32)),
                  file_name=str(tmp_path / "b"), file_format=file_format)


@pytest.mark.skipif(not os.path.exists(MSVENV_PYTHON),
                    reason="MindSpore 2.10 is not installed here (/work/msvenv)")
def test_mindspore_runs_a_fresh_file(tmp_path):
    path = str(tmp_path / "t")
    ms.export(NETS.make("transformer"), NETS.dynamic_input("transformer"), file_name=path,
              file_format="MINDIR", enc_key=NETS.ENC_KEY, enc_mode="AES-CBC")
    script = (
        "import sys, json, numpy as np, mindspore as ms\n"
        f"sys.path.insert(0, {str(FIXTURES)!r})\n"
        "import export_nets as E\n"
        f"graph = ms.load({path + '.mindir'!r}, dec_key=E.ENC_KEY, dec_mode='AES-CBC')\n"
        "cell = ms.nn.GraphCell(graph)\n"
        "print(json.dumps(cell(ms.Tensor(E.sample('transformer', 3))).asnumpy().tolist()))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([MSVENV_PYTHON, "-c", script], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    np.testing.assert_allclose(got, RECORDED["outputs"]["transformer"]["3"], rtol=1e-5,
                               atol=1e-6)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
