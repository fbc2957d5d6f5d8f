"""Checkpoints against files recorded from MindSpore 2.10 (fixtures/record_checkpoints.py)."""
import os
import shutil
import stat
import subprocess
import sys
import time

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.train import serialization

FIX = os.path.join(os.path.dirname(__file__), "fixtures")
KEY = bytes(range(16))
MS_PYTHON = "/work/msvenv/bin/python"
MODES = {"gcm": "AES-GCM", "cbc": "AES-CBC", "sm4": "SM4-CBC"}


class Net(nn.Cell):
    """The recording script's network, with the same weights."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)
        self.fc.weight.set_data(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 7))
        self.fc.bias.set_data(ms.Tensor(np.array([0.5, -1.25], np.float32)))
        self.half = ms.Parameter(ms.Tensor(np.array([[1.5, -2.0]], np.float16)), name="half")
        self.count = ms.Parameter(ms.Tensor(np.array([7, -3, 2], np.int32)), name="count",
                                  requires_grad=False)
        self.step = ms.Parameter(ms.Tensor(np.array(11, np.int64)), name="step",
                                 requires_grad=False)
        self.flag = ms.Parameter(ms.Tensor(np.array([True, False])), name="flag",
                                 requires_grad=False)
        self.dbl = ms.Parameter(ms.Tensor(np.array([0.1, 0.2], np.float64)), name="dbl")

    def construct(self, x):
        return self.fc(x)


EXPECTED = {name: p.asnumpy() for name, p in Net().parameters_and_names()}


def fixture(name):
    return os.path.join(FIX, name)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def assert_params(params, expected=EXPECTED):
    assert list(params) == list(expected)
    for name, value in expected.items():
        got = params[name].asnumpy()
        assert got.dtype == value.dtype and got.shape == value.shape, name
        np.testing.assert_array_equal(got, value)


def test_loads_mindspore_ckpt_with_same_tensors():
    assert_params(ms.load_checkpoint(fixture("ms_net.ckpt")))


def test_loads_mindspore_safetensors():
    params = ms.load_checkpoint(fixture("ms_net.safetensors"), format="safetensors")
    assert_params(params, dict(sorted(EXPECTED.items())))


@pytest.mark.parametrize("mode", sorted(MODES))
def test_loads_mindspore_encrypted_ckpt(mode):
    params = ms.load_checkpoint(fixture(f"ms_net_{mode}.ckpt"), dec_key=KEY, dec_mode=MODES[mode])
    assert_params(params)


def test_append_dict_values_and_strings():
    params = ms.load_checkpoint(fixture("ms_net_append.ckpt"))
    assert params["note"] == "hello"
    assert params["epoch_num"].dtype == ms.int64 and int(params["epoch_num"]) == 3
    assert params["lr"].dtype == ms.float32 and params["done"].dtype == ms.bool_


@pytest.mark.parametrize("name, kwargs", [
    ("ms_net.ckpt", {}),
    ("ms_net_choice.ckpt", {"choice_func": lambda n: n.startswith("fc")}),
    ("ms_net_append.ckpt", {"append_dict": {"epoch_num": 3, "lr": 0.01, "note": "hello",
                                            "done": True}}),
    ("ms_net.safetensors", {"format": "safetensors"}),
])
def test_writes_mindspore_bytes(tmp_path, name, kwargs):
    out = tmp_path / name
    ms.save_checkpoint(Net(), str(out), **kwargs)
    assert read(out) == read(fixture(name))


def test_save_list_and_dict_forms(tmp_path):
    net = Net()
    ms.save_checkpoint([p for p in net.get_parameters()], str(tmp_path / "list.ckpt"))
    ms.save_checkpoint([{"name": p.name, "data": p} for p in net.get_parameters()],
                       str(tmp_path / "dicts.ckpt"))
    ms.save_checkpoint(ms.load_checkpoint(fixture("ms_net.ckpt")), str(tmp_path / "dict.ckpt"))
    for name in ("list.ckpt", "dicts.ckpt", "dict.ckpt"):
        assert read(tmp_path / name) == read(fixture("ms_net.ckpt"))


def test_suffix_added_and_file_read_only(tmp_path):
    ms.save_checkpoint(Net(), str(tmp_path / "w"))
    path = tmp_path / "w.ckpt"
    assert stat.S_IMODE(os.stat(path).st_mode) == stat.S_IRUSR
    ms.save_checkpoint(Net(), str(path))  # overwriting a read-only file works
    assert sorted(os.listdir(tmp_path)) == ["w.ckpt"]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_encrypted_round_trip_and_wrong_key(tmp_path, mode):
    path = str(tmp_path / "enc.ckpt")
    ms.save_checkpoint(Net(), path, enc_key=KEY, enc_mode=MODES[mode])
    assert read(path)[:4] == read(fixture(f"ms_net_{mode}.ckpt"))[:4]
    assert_params(ms.load_checkpoint(path, dec_key=KEY, dec_mode=MODES[mode]))
    with pytest.raises(ValueError, match="enc.ckpt.*dec_key"):
        ms.load_checkpoint(path, dec_key=bytes(16), dec_mode=MODES[mode])


def test_bad_key_length():
    with pytest.raises(ValueError, match="key length"):
        ms.save_checkpoint(Net(), "x.ckpt", enc_key=b"short")


def test_damaged_and_truncated_files_name_the_file(tmp_path):
    data = read(fixture("ms_net.ckpt"))
    truncated = tmp_path / "truncated.ckpt"
    truncated.write_bytes(data[:100])
    with pytest.raises(ValueError, match="truncated.ckpt"):
        ms.load_checkpoint(str(truncated))
    garbage = tmp_path / "garbage.ckpt"
    garbage.write_bytes(b"\xff" * 64)
    with pytest.raises(ValueError, match="garbage.ckpt.*corrupted"):
        ms.load_checkpoint(str(garbage))
    bad_st = tmp_path / "bad.safetensors"
    bad_st.write_bytes(read(fixture("ms_net.safetensors"))[:200])
    with pytest.raises(ValueError, match="bad.safetensors"):
        ms.load_checkpoint(str(bad_st), format="safetensors")
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint(str(tmp_path / "missing.ckpt"))


def test_crc_check(tmp_path):
    path = tmp_path / "crc.ckpt"
    ms.save_checkpoint(Net(), str(path), crc_check=True)
    assert_params(ms.load_checkpoint(str(path), crc_check=True))
    data = bytearray(read(path))
    data[40] ^= 1
    os.chmod(path, 0o600)
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="crc check is failed"):
        ms.load_checkpoint(str(path), crc_check=True)


def test_crc_check_refuses_bytes_appended_through_the_file_system(tmp_path):
    """MindSpore's test appends through ``common.file_system.FileSystem`` (plain ``open``)."""
    from graphkiln.common.file_system import FileSystem
    path = str(tmp_path / "appended.ckpt")
    ms.save_checkpoint(Net(), path, crc_check=True)
    fs = FileSystem()
    os.chmod(path, 0o600)
    with fs.create(path, *fs.create_args) as f:
        f.write(b"111")
    with fs.open(path, *fs.open_args) as f:
        assert f.read().endswith(b"111")
    assert fs.backend == "basic"
    with pytest.raises(ValueError):
        ms.load_checkpoint(path, crc_check=True)


def test_fast_load_file_reads_mindspore_safetensors():
    from graphkiln.parallel.transform_safetensors import _fast_load_file
    arrays = _fast_load_file(fixture("ms_net.safetensors"))
    assert_params({k: ms.Tensor(v) for k, v in sorted(arrays.items())},
                  dict(sorted(EXPECTED.items())))


def test_failed_write_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "keep.safetensors"
    ms.save_checkpoint(Net(), str(path), format="safetensors")
    before = read(path)

    def boom(tensors, filename, metadata=None):
        with open(filename, "wb") as f:
            f.write(b"half")
        raise OSError("disk full")

    monkeypatch.setattr(serialization.safetensors.numpy, "save_file", boom)
    with pytest.raises(OSError, match="disk full"):
        ms.save_checkpoint(Net(), str(path), format="safetensors")
    assert read(path) == before
    assert os.listdir(tmp_path) == ["keep.safetensors"]


def test_load_param_into_net_returns_not_loaded_names():
    net = Net()
    params = ms.load_checkpoint(fixture("ms_net_append.ckpt"))
    del params["dbl"]
    for p in net.get_parameters():
        p.set_data(ms.Tensor(np.zeros(p.shape, p.dtype.np_dtype), p.dtype))
    param_not_load, ckpt_not_load = ms.load_param_into_net(net, params)
    assert param_not_load == ["dbl"]
    assert ckpt_not_load == ["epoch_num", "lr", "note", "done"]
    np.testing.assert_array_equal(net.fc.weight.asnumpy(), EXPECTED["fc.weight"])


def test_load_into_net_with_filters_and_prefix():
    net = Net()
    ms.load_checkpoint(fixture("ms_net.ckpt"), net, filter_prefix="fc")
    with pytest.raises(ValueError, match="empty after filter"):
        ms.load_checkpoint(fixture("ms_net.ckpt"), specify_prefix="nothing")
    prefixed = {"network." + k: v for k, v in ms.load_checkpoint(fixture("ms_net.ckpt")).items()}
    assert ms.load_param_into_net(Net(), prefixed)[0] == []
    assert ms.load_param_into_net(Net(), prefixed, strict_load=True)[0] == list(EXPECTED)


def test_shape_and_dtype_mismatch():
    net = Net()
    params = ms.load_checkpoint(fixture("ms_net.ckpt"))
    params["fc.bias"] = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="fc.bias")
    with pytest.raises(RuntimeError, match=r"fc.bias in the argument 'net' should have the same "
                                           r"shape as fc.bias .* \(2,\) .* \(3,\)"):
        ms.load_param_into_net(net, params)
    params = ms.load_checkpoint(fixture("ms_net.ckpt"))
    params["dbl"] = ms.Parameter(ms.Tensor(np.array([1, 2], np.float32)), name="dbl")
    ms.load_param_into_net(net, params)
    assert net.dbl.dtype == ms.float64
    with pytest.raises(RuntimeError, match="same type"):
        ms.load_param_into_net(net, params, strict_load=True)


def test_async_save_and_async_load(tmp_path):
    path = str(tmp_path / "a.ckpt")
    ms.save_checkpoint(Net(), path, async_save=True)
    deadline = time.time() + 10
    while ms.train.async_ckpt_thread_status() and time.time() < deadline:
        time.sleep(0.01)
    assert_params(ms.load_checkpoint_async(path).result())


def test_format_conversion(tmp_path):
    shutil.copy(fixture("ms_net.ckpt"), tmp_path / "m.ckpt")
    ms.ckpt_to_safetensors(str(tmp_path / "m.ckpt"), str(tmp_path / "out"))
    assert read(tmp_path / "out" / "m.safetensors") == read(fixture("ms_net.safetensors"))
    ms.safetensors_to_ckpt(str(tmp_path / "out" / "m.safetensors"), str(tmp_path / "back"))
    back = ms.load_checkpoint(str(tmp_path / "back" / "m.ckpt"))
    assert_params(back, dict(sorted(EXPECTED.items())))
    (tmp_path / "ranks" / "rank_0").mkdir(parents=True)
    shutil.copy(fixture("ms_net.ckpt"), tmp_path / "ranks" / "rank_0" / "r.ckpt")
    ms.ckpt_to_safetensors(str(tmp_path / "ranks"))
    assert (tmp_path / "ranks" / "rank_0" / "r.safetensors").exists()
    with pytest.raises(ValueError, match="must be a .ckpt file"):
        ms.ckpt_to_safetensors(fixture("ms_net.safetensors"))


def test_argument_errors(tmp_path):
    with pytest.raises(TypeError, match="save_obj"):
        ms.save_checkpoint(3, str(tmp_path / "x.ckpt"))
    with pytest.raises(ValueError, match="format"):
        ms.save_checkpoint(Net(), str(tmp_path / "x.ckpt"), format="h5")
    with pytest.raises(ValueError, match="'enc_key' must be set to default"):
        ms.save_checkpoint(Net(), str(tmp_path / "x"), format="safetensors", enc_key=KEY)
    with pytest.raises(TypeError, match="append_info"):
        ms.save_checkpoint(Net(), str(tmp_path / "x.ckpt"), append_dict={"a": [1]})
    with pytest.raises(TypeError, match="'net' should be a Cell"):
        ms.load_param_into_net({}, {})


LIVE_SCRIPT = """
import sys, json, numpy as np, mindspore as ms
d = ms.load_checkpoint(sys.argv[1])
print(json.dumps({k: (v if isinstance(v, str) else [str(v.dtype), v.asnumpy().tolist()])
                  for k, v in d.items()}))
net = ms.nn.Dense(3, 2)
bad = {"weight": ms.Parameter(ms.Tensor(np.zeros((3, 3), np.float32)), name="weight")}
try:
    ms.load_param_into_net(net, bad)
except RuntimeError as e:
    print(str(e))
"""


@pytest.mark.skipif(not os.path.exists(MS_PYTHON),
                    reason="real MindSpore (/work/msvenv) is not installed on this machine")
def test_live_mindspore_reads_graphkiln_checkpoint(tmp_path):
    path = str(tmp_path / "gk.ckpt")
    ms.save_checkpoint(Net(), path, append_dict={"note": "hi", "epoch_num": 2})
    out = subprocess.run([MS_PYTHON, "-c", LIVE_SCRIPT, path], capture_output=True, text=True,
                         timeout=120, check=True).stdout.strip().splitlines()
    import json
    loaded = json.loads(out[0])
    assert loaded["note"] == "hi" and loaded["epoch_num"] == ["Int64", 2]
    for name, value in EXPECTED.items():
        assert loaded[name][0] == str(ms.dtype.from_numpy(value.dtype))
        np.testing.assert_array_equal(np.array(loaded[name][1], value.dtype), value)
    net = nn.Dense(3, 2)
    bad = {"weight": ms.Parameter(ms.Tensor(np.zeros((3, 3), np.float32)), name="weight")}
    with pytest.raises(RuntimeError) as err:
        ms.load_param_into_net(net, bad)
    assert str(err.value) == out[1]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))

