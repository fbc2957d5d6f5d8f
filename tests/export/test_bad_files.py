"""Damaged or foreign files given to ``ms.load`` raise a ValueError that says what is wrong
(never a crash, a hang or a graph that computes something else)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.train import mindir_schema
from tests.export.recorded import FIXTURES, NETS


def _data(name="ms_lenet.mindir") -> bytes:
    return (FIXTURES / name).read_bytes()


def _load(tmp_path, data: bytes):
    path = tmp_path / "bad.mindir"
    path.write_bytes(data)
    return ms.load(str(path))


@pytest.mark.parametrize("fraction", [0.0, 0.01, 0.1, 0.3, 0.5, 0.75, 0.9, 0.99])
def test_truncated_file(tmp_path, fraction):
    data = _data()
    with pytest.raises(ValueError, match="For 'load'"):
        graph = _load(tmp_path, data[:int(len(data) * fraction)])
        nn.GraphCell(graph)(ms.Tensor(NETS.sample("lenet")))


def test_every_cut_of_a_small_file_is_refused(tmp_path):
    data = _data("ms_mlp.mindir")
    for end in range(0, len(data) - 1, 37):
        with pytest.raises(ValueError, match="For 'load'"):
            _load(tmp_path, data[:end])


def test_flipped_bytes_load_or_fail_with_value_error(tmp_path):
    """Damage anywhere: the file loads (the damage hit data) or ``load`` says it cannot."""
    data = bytearray(_data("ms_mlp.mindir"))
    rng = np.random.default_rng(1)
    for _ in range(150):
        bad = bytearray(data)
        for pos in rng.integers(0, len(bad), 3):
            bad[pos] = int(rng.integers(0, 256))
        try:
            _load(tmp_path, bytes(bad))
        except ValueError as e:
            assert str(e).startswith("For 'load'"), e


def test_random_bytes_and_wrong_magic(tmp_path):
    rng = np.random.default_rng(0)
    for _ in range(5):
        with pytest.raises(ValueError, match="is not a MINDIR file"):
            _load(tmp_path, rng.bytes(300))
    with pytest.raises(ValueError, match="is not a MINDIR file"):
        _load(tmp_path, b"\x89PNG\r\n\x1a\n" + _data()[8:])


def test_foreign_protobuf(tmp_path):
    ckpt = tmp_path / "net.ckpt"
    ms.save_checkpoint(NETS.make("mlp"), str(ckpt))
    with pytest.raises(ValueError, match="is not a MINDIR file"):
        _load(tmp_path, ckpt.read_bytes())
    onnx = pytest.importorskip("onnx")
    model = onnx.helper.make_model(onnx.helper.make_graph([], "g", [], []))
    with pytest.raises(ValueError, match="is not a MINDIR file"):
        _load(tmp_path, model.SerializeToString())


def test_other_version(tmp_path):
    model = mindir_schema.ModelProto()
    model.ParseFromString(_data())
    model.mind_ir_version = 9
    with pytest.raises(ValueError, match="mind_ir_version 9; graphkiln reads versions up to 3"):
        _load(tmp_path, model.SerializeToString())


def test_unknown_primitive_is_named(tmp_path):
    model = mindir_schema.ModelProto()
    model.ParseFromString(_data("ms_mlp.mindir"))
    next(p for p in model.primitives if p.op_type == "Tanh").op_type = "NoSuchOp"
    with pytest.raises(ValueError, match="'NoSuchOp', which graphkiln does not have"):
        _load(tmp_path, model.SerializeToString())


def test_weight_of_the_wrong_size(tmp_path):
    model = mindir_schema.ModelProto()
    model.ParseFromString(_data("ms_mlp.mindir"))
    model.graph.parameter[0].raw_data = model.graph.parameter[0].raw_data[:-4]
    with pytest.raises(ValueError, match="'fc1.weight' .* holds 47 values but its shape"):
        _load(tmp_path, model.SerializeToString())


def test_file_name_checks(tmp_path):
    with pytest.raises(ValueError, match="should end with '.mindir'"):
        ms.load(str(tmp_path / "net.ckpt"))
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "missing.mindir"))


def test_encrypted_file_needs_the_right_key():
    path = str(FIXTURES / "ms_mlp_enc.mindir")
    with pytest.raises(ValueError, match="is encrypted: pass its key and mode as 'dec_key'"):
        ms.load(path)
    with pytest.raises(ValueError, match="could not be decrypted with this 'dec_key'"):
        ms.load(path, dec_key=b"0123456789abcdef")
    with pytest.raises(ValueError, match="the mode must be one of"):
        ms.load(path, dec_key=NETS.ENC_KEY, dec_mode="ROT13")


def test_obfuscation_is_refused_clearly():
    with pytest.raises(RuntimeError, match="cannot run obfuscated MINDIR files"):
        ms.load(str(FIXTURES / "ms_mlp.mindir"), obf_func=lambda x: x)
    graph = ms.load(str(FIXTURES / "ms_mlp.mindir"))
    with pytest.raises(NotImplementedError, match="obfuscation is not supported"):
        nn.GraphCell(graph, obf_random_seed=1)  # MindSpore 2.10 CPU raises this too
