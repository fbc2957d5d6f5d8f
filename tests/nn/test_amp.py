"""Mixed precision (amp.auto_mixed_precision O0-O3, Cell.to_float) against MindSpore 2.10
CPU runs (fixtures/record_amp.py, PyNative) in both modes; loss scaling
(TrainOneStepWithLossScaleCell, recorded with MindSpore's IsFinite overflow check) in both
modes; loss-scale managers and scalers."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import amp, compat, nn

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from amp_cases import LEVELS, bn_after_one_step, net, run_level, run_loss_scale  # noqa: E402

RECORDED = np.load(FIXTURES / "amp.npz")
TO_FLOAT = json.loads((FIXTURES / "to_float.json").read_text())
CUSTOM = json.loads((FIXTURES / "custom_amp.json").read_text())
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("level", LEVELS)
def test_auto_mixed_precision_matches_mindspore(level, mode):
    ms.set_context(mode=MODES[mode])
    y, losses = run_level(ms, level)
    assert str(y.dtype) == str(RECORDED[f"{level}/dtype"])
    # float16 levels differ from MindSpore by float16 rounding at most
    tol = 1e-5 if level == "O0" else 2e-3
    np.testing.assert_allclose(y.asnumpy(), RECORDED[f"{level}/y"], rtol=tol, atol=tol)
    np.testing.assert_allclose(losses, RECORDED[f"{level}/losses"], rtol=tol, atol=tol)


@pytest.mark.parametrize("mode", MODES)
def test_train_step_updates_batchnorm_statistics_once(mode):
    ms.set_context(mode=MODES[mode])
    mean, variance = bn_after_one_step(ms)
    np.testing.assert_allclose(mean, RECORDED["bn_step/mean"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(variance, RECORDED["bn_step/variance"], rtol=1e-5, atol=1e-6)


def test_to_float_casts_inputs_and_weights_not_the_parameters():
    dense = nn.Dense(3, 2).to_float(ms.float16)
    out = dense(ms.Tensor(np.ones((1, 3), np.float32)))
    assert out.dtype is ms.float16 and dense.weight.dtype is ms.float32
    with pytest.raises(ValueError, match="dst_type"):
        nn.Dense(3, 2).to_float(ms.int32)


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16"])
def test_to_float_runs_a_cell_in_float16_or_bfloat16_as_mindspore(dtype_name):
    """fixtures/record_to_float.py (PYNATIVE_MODE): inputs and the weight cast, x * w + x."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    recorder = compat.import_mindspore_module(FIXTURES / "record_to_float.py")
    got = recorder.run(dtype_name)
    want = TO_FLOAT[dtype_name]
    assert (got["dtype"], got["weight_dtype"]) == (want["dtype"], want["weight_dtype"])
    np.testing.assert_array_equal(got["value"], want["value"])


@pytest.mark.parametrize("mode", MODES)
def test_to_float_outranks_the_auto_strategy_as_mindspore(mode):
    recorder = compat.import_mindspore_module(FIXTURES / "record_to_float.py")
    got = recorder.run_auto_with_to_float(MODES[mode])
    want = TO_FLOAT[f"auto_with_to_float/{mode}"]
    assert got["dtype"] == want["dtype"] == "Float32"
    np.testing.assert_allclose(got["value"], want["value"], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", ["white", "black"])
def test_custom_mixed_precision_matches_mindspore(kind, mode):
    recorder = compat.import_mindspore_module(FIXTURES / "record_custom_amp.py")
    got = recorder.run(kind, MODES[mode])
    want = CUSTOM[f"{kind}/{mode}"]
    assert got["dtype"] == want["dtype"]
    np.testing.assert_allclose(got["value"], want["value"], rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("case", sorted(CUSTOM["errors"]))
def test_custom_mixed_precision_bad_arguments_raise_what_mindspore_raises(case):
    recorder = compat.import_mindspore_module(FIXTURES / "record_custom_amp.py")
    kind, message = CUSTOM["errors"][case]
    with pytest.raises((TypeError, ValueError)) as info:
        recorder.BAD[case]()
    assert type(info.value).__name__ == kind
    if "ReLU()" in message or "<class 'mindspore." in message:  # reprs of MindSpore objects
        message = message.split(", but got")[0]
    assert str(info.value).startswith(message)


PRIMITIVES = json.loads((FIXTURES / "custom_amp_primitives.json").read_text())


@pytest.mark.parametrize("case", sorted(PRIMITIVES))
def test_custom_mixed_precision_casts_listed_primitives_as_mindspore(case):
    """float16 inside a listed primitive's call, float32 out (fixtures/
    record_custom_amp_primitives.py): the values are MindSpore's to float32 rounding, which
    tells them from a float32 run (they differ by ~2e-4)."""
    recorder = compat.import_mindspore_module(FIXTURES / "record_custom_amp_primitives.py")
    name, mode = case.split("/")
    got, want = recorder.run(name, mode), PRIMITIVES[case]
    assert got["parameters"] == want["parameters"] and got["dtypes"] == want["dtypes"]
    for g, w in zip(got["values"], want["values"]):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def test_to_float_refuses_other_dtypes_as_mindspore():
    kind, message = TO_FLOAT["error"]
    with pytest.raises(ValueError) as info:
        nn.Dense(3, 2).to_float(ms.int32)
    head, tail = message.split(" but got type: ")
    assert str(info.value).startswith(head) and str(info.value).endswith(tail.split(">")[-1])


def test_output_to_32_casts_float_outputs_and_resolves_as_mindspore_train_amp():
    compat.install()
    try:
        from mindspore.train.amp import _OutputTo32
    finally:
        compat.uninstall()
    net = _OutputTo32(nn.Dense(3, 2).to_float(ms.float16))
    assert net(ms.Tensor(np.ones((1, 3), np.float32))).dtype is ms.float32


@pytest.mark.parametrize("mode", MODES)
def test_loss_scale_step_matches_mindspore(mode):
    """Losses, flags, the scale after each step, the weights and BatchNorm's moving
    statistics (updated once per step: the network runs once) as MindSpore records them."""
    ms.set_context(mode=MODES[mode])
    rows, weight, mean, variance = run_loss_scale(ms, 1024.0)
    key = f"loss_scale/{mode}/1024"
    np.testing.assert_allclose(rows, RECORDED[f"{key}/rows"], rtol=1e-5)
    assert rows[:, 2].tolist() == [1024.0, 2048.0, 2048.0]  # grown after 2 clean steps
    np.testing.assert_allclose(weight, RECORDED[f"{key}/weight"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mean, RECORDED[f"{key}/mean"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(variance, RECORDED[f"{key}/variance"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_loss_scale_overflow_skips_the_update_and_shrinks_the_scale(mode):
    ms.set_context(mode=MODES[mode])
    before = net(ms).fc.weight.asnumpy()
    rows, after, _, _ = run_loss_scale(ms, 3e38)
    # flags and scales as MindSpore's; its losses after the second step depend on how its
    # CPU kernels treat the denormal 1/1.5e38 (its two modes disagree), so they are not used
    np.testing.assert_array_equal(rows[:, 1:], RECORDED[f"loss_scale/{mode}/3e+38/rows"][:, 1:])
    assert rows[0, 0] == rows[1, 0]  # the overflowing first step changed nothing
    assert not np.array_equal(after, before)  # the clean second step did update


def test_loss_scale_managers():
    fixed = amp.FixedLossScaleManager(128.0, drop_overflow_update=False)
    assert fixed.get_loss_scale() == 128.0 and fixed.get_update_cell() is None
    assert isinstance(amp.FixedLossScaleManager().get_update_cell(),
                      nn.FixedLossScaleUpdateCell)
    dyn = ms.DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)
    for overflow in (False, False, True, False):
        dyn.update_loss_scale(overflow)
    assert dyn.get_loss_scale() == 16.0  # doubled after 2 clean steps, halved on overflow
    with pytest.raises(ValueError, match="scale_factor"):
        amp.DynamicLossScaleManager(scale_factor=1)


def test_scalers_and_all_finite():
    grads = (ms.Tensor(np.array([1.0, 2.0], np.float32)),)
    static = amp.StaticLossScaler(8.0)
    assert static.unscale(static.scale(grads))[0].asnumpy().tolist() == [1.0, 2.0]
    dyn = amp.DynamicLossScaler(1024.0, 2, 2)
    assert bool(amp.all_finite(grads).asnumpy())
    bad = (ms.Tensor(np.array([np.inf], np.float32)),)
    finite = amp.all_finite(bad)
    assert not bool(finite.asnumpy())
    dyn.adjust(finite)
    assert float(dyn.scale_value.asnumpy()) == 512.0
    dyn.adjust(amp.all_finite(grads))
    dyn.adjust(amp.all_finite(grads))
    assert float(dyn.scale_value.asnumpy()) == 1024.0


def test_build_train_network_levels():
    x, y = (ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.array([0, 1], np.int32)))
    for level in ("O0", "O1", "O3"):
        model = nn.Dense(3, 2)
        step = amp.build_train_network(model, nn.Momentum(model.trainable_params(), 0.1, 0.9),
                                       nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                        reduction="mean"),
                                       level=level)
        assert step(x, y).dtype is ms.float32
    model = nn.Dense(3, 2)
    with pytest.raises(ValueError, match="supported on device `CPU`"):
        amp.build_train_network(model, nn.Momentum(model.trainable_params(), 0.1, 0.9),
                                nn.MSELoss(), level="O2")


@pytest.mark.parametrize("mode", MODES)
def test_float16_sum_accumulates_like_mindspore(mode):
    """ReduceSum (and so Dense's bias gradient under O2) of float16 rounds once, as
    MindSpore's CPU kernel; a float16 running sum differs in the last bits."""
    ms.set_context(mode=MODES[mode])
    x = ms.Tensor(RECORDED["fp16_sum/x"])
    got = ms.jit(lambda t: ms.ops.ReduceSum()(t, 0))(x).asnumpy()
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, RECORDED["fp16_sum/reduce_sum"])
