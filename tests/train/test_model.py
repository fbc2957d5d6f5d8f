"""Model.train/fit/eval/predict and callbacks, against the same scenarios run on MindSpore
2.10 (fixtures/model_scenarios.py, recorded by fixtures/record_model.py)."""
import json
import os
import re
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import compat

FIX = os.path.join(os.path.dirname(__file__), "fixtures")
with open(os.path.join(FIX, "model_run.json")) as f:
    RECORDED = json.load(f)
NUMBER = re.compile(r"-?\d+\.\d+(?:e-?\d+)?")


@pytest.fixture(scope="module")
def scenarios():
    compat.install()
    sys.path.insert(0, FIX)
    try:
        import model_scenarios
        yield model_scenarios
    finally:
        sys.path.remove(FIX)
        sys.modules.pop("model_scenarios", None)
        compat.uninstall()


def assert_close(got, want, path="result"):
    """Equal structure; floats within float32 rounding; other values equal."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), path
        for key in want:
            assert_close(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            assert_close(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=2e-5, abs=1e-6), path
    else:
        assert got == want, path


def assert_lines(got, want):
    """Printed lines: the same text, numbers within float32 rounding."""
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want):
        assert NUMBER.sub("#", g) == NUMBER.sub("#", w), (g, w)
        assert [float(x) for x in NUMBER.findall(g)] == pytest.approx(
            [float(x) for x in NUMBER.findall(w)], rel=2e-5, abs=1e-6), (g, w)


def jsonable(x):
    return json.loads(json.dumps(x, default=lambda v: v.tolist()))


@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_scenarios_match_mindspore(scenarios, mode, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    got = jsonable(scenarios.collect(getattr(ms, mode)))
    ms.context.reset_context()
    for name, want in RECORDED[mode].items():
        assert_lines(got[name]["stdout"], want["stdout"])
        assert_close(got[name]["result"], want["result"], name)


class Tiny:
    """Two batches of (x, y)."""

    def __init__(self, n=2):
        self.n = n

    def get_dataset_size(self):
        return self.n

    def __iter__(self):
        for i in range(self.n):
            x = np.full((2, 2), i, np.float32)
            yield x, x.sum(1, keepdims=True)


def model(metrics=None):
    net = ms.nn.Dense(2, 1)
    return net, ms.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params(), 0.01),
                         metrics=metrics)


def test_time_monitor_line(capsys):
    _, m = model()
    m.train(1, Tiny(), callbacks=[ms.TimeMonitor()])
    out = capsys.readouterr().out.strip()
    assert re.fullmatch(r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms", out)


def test_loss_monitor_nan_stops(capsys):
    class NanData(Tiny):
        def __iter__(self):
            yield np.full((2, 2), np.nan, np.float32), np.zeros((2, 1), np.float32)

    _, m = model()
    with pytest.raises(ValueError, match="epoch: 1 step: 1, loss is NAN or INF"):
        m.train(1, NanData(1), callbacks=[ms.LossMonitor()])


def test_argument_errors():
    _, m = model()
    with pytest.raises(ValueError, match="must bigger than parameter 'initial_epoch'"):
        m.train(1, Tiny(), initial_epoch=1)
    with pytest.raises(ValueError, match="no valid data"):
        m.train(1, Tiny(0))
    with pytest.raises(TypeError, match="not a Callback"):
        m.train(1, Tiny(), callbacks="x")
    with pytest.raises(ValueError, match="'metrics' can not be None"):
        m.eval(Tiny())
    with pytest.raises(ValueError, match="eval_network"):
        ms.Model(ms.nn.Dense(2, 1), metrics={"mae": ms.nn.MAE()})
    with pytest.raises(ValueError, match="'kwargs'"):
        ms.Model(ms.nn.Dense(2, 1), bad=1)
    with pytest.raises(ValueError, match="methods may not be supported"):
        class Old(ms.Callback):
            def step_end(self, run_context):
                pass
        model(metrics={"mae": ms.nn.MAE()})[1].fit(1, Tiny(), callbacks=[Old()])


def test_checkpoint_config_rules(tmp_path):
    with pytest.raises(ValueError, match="can't be all None or 0"):
        ms.CheckpointConfig(0, 0, 0, 0)
    config = ms.CheckpointConfig(save_checkpoint_steps=None, save_checkpoint_seconds=0,
                                 keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=1)
    assert config.keep_checkpoint_max == 0 and config.keep_checkpoint_per_n_minutes == 1
    assert ms.CheckpointConfig(keep_checkpoint_max=0).keep_checkpoint_max == 1
    with pytest.raises(ValueError, match="must be in"):
        ms.CheckpointConfig(append_info=["bogus"])
    with pytest.raises(ValueError, match="does not contain '/'"):
        ms.ModelCheckpoint(prefix="a/b")
    _, m = model()
    ckpt = ms.ModelCheckpoint(prefix=lambda p: f"step{p.cur_step_num}", directory=str(tmp_path))
    m.train(1, Tiny(), callbacks=[ckpt])
    assert sorted(os.listdir(tmp_path)) == ["step1.ckpt", "step2.ckpt"]


def test_checkpoint_seconds_and_safetensors(tmp_path):
    _, m = model()
    config = ms.CheckpointConfig(save_checkpoint_steps=None, save_checkpoint_seconds=3600,
                                 format="safetensors")
    m.train(1, Tiny(), callbacks=[ms.ModelCheckpoint("s", str(tmp_path), config)])
    assert os.listdir(tmp_path) == ["s-1_2.safetensors"]  # only the end-of-training save


def test_summary_collector(tmp_path):
    _, m = model()
    m.train(2, Tiny(), callbacks=[ms.SummaryCollector(str(tmp_path / "s"), collect_freq=2)])
    lines = [json.loads(x) for x in (tmp_path / "s" / "graphkiln_summary.jsonl").read_text()
             .splitlines()]
    assert [r.get("step") for r in lines] == [None, 1, 2, 4]
    assert all("loss" in r and r["lr"] == pytest.approx(0.01) for r in lines[1:])


def test_on_request_exit_saves_and_resumes(tmp_path):
    import signal
    net, m = model()

    class Signal(ms.Callback):
        def on_train_step_end(self, run_context):
            os.kill(os.getpid(), signal.SIGTERM)

    exit_cb = ms.train.OnRequestExit(save_mindir=False, directory=str(tmp_path))
    trace = []
    m.train(3, Tiny(), callbacks=[Signal(), exit_cb, ms.train.LambdaCallback(
        on_train_step_end=lambda rc: trace.append(rc.original_args().cur_step_num))])
    assert trace == [1]
    saved = ms.load_checkpoint(str(tmp_path / "rank_0" / "Net_train.ckpt"))
    np.testing.assert_array_equal(saved["weight"].asnumpy(), net.weight.asnumpy())
    assert signal.getsignal(signal.SIGTERM) is not exit_cb._handle_signal


@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_on_request_exit_saves_the_train_graph_as_mindir(tmp_path, mode):
    """The MINDIR file holds the whole train step on the last inputs: run by GraphCell from
    the saved weights it takes the step the model's own train network takes."""
    import signal
    ms.set_context(mode=getattr(ms, mode))
    net = ms.nn.Dense(2, 1)
    m = ms.Model(net, ms.nn.MSELoss(), ms.nn.Momentum(net.trainable_params(), 0.1, 0.9))

    class Signal(ms.Callback):
        def on_train_step_end(self, run_context):
            os.kill(os.getpid(), signal.SIGTERM)

    m.train(3, Tiny(), callbacks=[Signal(), ms.train.OnRequestExit(directory=str(tmp_path))])
    graph_cell = ms.nn.GraphCell(ms.load(str(tmp_path / "rank_0" / "Net_train.mindir")))
    x, y = (ms.Tensor(a) for a in next(iter(Tiny())))
    for _ in range(2):
        np.testing.assert_allclose(graph_cell(x, y).asnumpy(),
                                   m._train_network(x, y).asnumpy(), rtol=1e-6)
        for saved, own in zip(graph_cell.trainable_params(), net.trainable_params()):
            np.testing.assert_allclose(saved.asnumpy(), own.asnumpy(), rtol=1e-6)


def test_on_request_exit_keeps_the_checkpoint_when_mindir_cannot_hold_the_graph(
        tmp_path, caplog):
    import signal
    net = ms.nn.Dense(2, 1)
    m = ms.Model(net, ms.nn.MSELoss(), ms.nn.Adadelta(net.trainable_params()))  # no MINDIR yet

    class Signal(ms.Callback):
        def on_train_step_end(self, run_context):
            os.kill(os.getpid(), signal.SIGTERM)

    m.train(1, Tiny(), callbacks=[Signal(), ms.train.OnRequestExit(directory=str(tmp_path))])
    assert os.listdir(tmp_path / "rank_0") == ["Net_train.ckpt"]
    assert "the MINDIR file was not saved" in caplog.text


def test_progress_bar_only_on_a_terminal(capsys, monkeypatch):
    _, m = model()
    m.train(1, Tiny(), callbacks=[ms.LossMonitor()])
    out = capsys.readouterr()
    assert out.out.count("loss is") == 2 and "step/s" not in out.err + out.out
    import io

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    m.train(1, Tiny(), callbacks=[ms.LossMonitor()])
    monkeypatch.undo()
    text = screen.getvalue()
    assert "epoch 1/1" in text and "2/2" in text and "loss=" in text
    assert text.count("epoch: 1 step: 1, loss is") == 1
    assert sys.stdout is not screen


def test_stdout_replaced_by_a_writer_without_isatty(monkeypatch):
    class Writer:  # what scripts capturing prints put in sys.stdout
        def __init__(self):
            self.text = ""

        def write(self, text):
            self.text += text

        def flush(self):
            pass

    writer = Writer()
    _, m = model()
    monkeypatch.setattr(sys, "stdout", writer)
    m.train(1, Tiny(), callbacks=[ms.LossMonitor()])
    monkeypatch.undo()
    assert writer.text.count("loss is") == 2


def test_training_plot(tmp_path):
    _, m = model(metrics={"mae": ms.nn.MAE()})
    path = tmp_path / "plot.png"
    m.fit(3, Tiny(), Tiny(), callbacks=[ms.train.TrainingPlot(str(path), title="tiny")])
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_loss_scale_manager_outputs():
    _, m = model()
    m = ms.Model(m._network, ms.nn.MSELoss(), m._optimizer,
                 loss_scale_manager=ms.DynamicLossScaleManager(init_loss_scale=4,
                                                               scale_window=1))
    seen = []
    m.train(1, Tiny(), callbacks=[ms.train.LambdaCallback(
        on_train_step_end=lambda rc: seen.append(rc.original_args().net_outputs))])
    assert [float(s[2].asnumpy()) for s in seen] == [8.0, 16.0]  # after each update
    assert not bool(seen[0][1].asnumpy())


def test_mindspore_program_runs_unchanged(tmp_path):
    """fixtures/compat_program.py (MindSpore imports, a custom callback that evaluates each
    epoch, ModelCheckpoint, a checkpoint round trip) under ``python -m graphkiln run`` prints
    what it printed on MindSpore (fixtures/compat_program.out)."""
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "PYTHONPATH": root}
    run = subprocess.run([sys.executable, "-m", "graphkiln", "run",
                          os.path.join(FIX, "compat_program.py")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    with open(os.path.join(FIX, "compat_program.out")) as f:
        want = f.read().splitlines()
    assert_lines(run.stdout.splitlines(), want)


def test_early_stopping_restores_best_weights():
    net, m = model()
    snapshots = []
    stop = ms.EarlyStopping(monitor="loss", patience=2, min_delta=1e9, mode="min",
                            restore_best_weights=True)
    m.train(5, Tiny(), callbacks=[stop, ms.train.LambdaCallback(
        on_train_epoch_end=lambda rc: snapshots.append(net.weight.asnumpy().copy()))])
    assert stop.stopped_epoch == 3  # epoch 1 improves on inf; two epochs without one
    assert not np.array_equal(snapshots[1], snapshots[0])
    np.testing.assert_array_equal(net.weight.asnumpy(), snapshots[0])


def test_keep_checkpoint_per_n_minutes_and_async(tmp_path):
    _, m = model()
    config = ms.CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=0,
                                 keep_checkpoint_per_n_minutes=1, async_save=True)
    m.train(2, Tiny(), callbacks=[ms.ModelCheckpoint("k", str(tmp_path), config)])
    while ms.train.async_ckpt_thread_status():
        pass
    # every save within the minute replaces the newer ones: the first and the latest remain
    assert sorted(os.listdir(tmp_path)) == ["k-1_1.ckpt", "k-2_2.ckpt"]


def test_loss_monitor_prints_tuple_output_tensor(capsys):
    class Pair(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = ms.nn.Dense(2, 1)

        def construct(self, x, y):
            loss = ((self.fc(x) - y) ** 2).mean()
            return loss, loss * 2

    m = ms.Model(Pair())
    m.train(1, Tiny(1), callbacks=[ms.LossMonitor()])
    out = capsys.readouterr().out.strip()
    value = m.train_network(ms.Tensor(np.zeros((2, 2), np.float32)),
                            ms.Tensor(np.zeros((2, 1), np.float32)))[0]
    assert out == f"epoch: 1 step: 1, loss is {value}"


def test_build_compiles_without_changing_weights():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net, m = model(metrics={"mae": ms.nn.MAE()})
        before = [p.asnumpy().copy() for p in m.train_network.get_parameters()]
        m.build(Tiny(), Tiny())
        assert ms.compile_info(m.train_network).nodes > 0
        assert ms.compile_info(m.eval_network).nodes > 0
        for p, value in zip(m.train_network.get_parameters(), before):
            np.testing.assert_array_equal(p.asnumpy(), value)
    finally:
        ms.context.reset_context()


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
def test_graph_meta_only_in_graph_mode(tmp_path, mode):
    from graphkiln.train.graph_meta import ModelProto
    ms.set_context(mode=getattr(ms, mode))
    try:
        _, m = model()
        m.train(1, Tiny(), callbacks=[ms.ModelCheckpoint("g", str(tmp_path))])
    finally:
        ms.context.reset_context()
    meta = tmp_path / "g-graph.meta"
    assert meta.exists() == (mode == "GRAPH_MODE")
    if meta.exists():
        proto = ModelProto()
        proto.ParseFromString(meta.read_bytes())
        names = [p.name for p in proto.graph.parameters]
        assert names[:4] == ["inputs0", "inputs1", "weight", "bias"]
        assert list(proto.graph.parameters[0].type.tensor_type.shape.dim[0].ListFields())


def test_hand_run_callback_loop_with_mindspore_private_names():
    # MindSpore scripts drive callbacks themselves with these two private names; the
    # callback params then hold only what the script sets (no train_network)
    from graphkiln.train.callback import _CallbackManager, _InternalCallbackParam

    cb_params = _InternalCallbackParam()
    run_context = ms.RunContext(cb_params)
    stopper = ms.EarlyStopping(monitor="accuracy", patience=2, baseline=0.55)
    with _CallbackManager(stopper) as callbacks:
        for epoch, acc in enumerate([0.6, 0.3, 0.5, 0.5], 1):
            callbacks.on_train_epoch_begin(run_context)
            cb_params.eval_results = {"accuracy": acc}
            cb_params.cur_epoch_num = epoch
            callbacks.on_train_epoch_end(run_context)
            if run_context.get_stop_requested():
                break
        callbacks.on_train_end(run_context)
    assert cb_params.cur_epoch_num == 3 and stopper.stopped_epoch == 3
