"""graphkiln.context: set_context/get_context, devices, environment variables, precedence."""
import warnings

import pytest

import graphkiln as ms
from graphkiln import context

_ENV_VARS = ("MS_COMPILER_CACHE_ENABLE", "MS_COMPILER_CACHE_PATH", "MS_DEV_SAVE_GRAPHS",
             "MS_DEV_SAVE_GRAPHS_PATH", "MS_DEV_SIDE_EFFECT_LOAD_ELIM")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for name in _ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(context, "_warned_device", set())


def test_defaults_match_mindspore():
    assert ms.get_context("mode") == ms.PYNATIVE_MODE == 1
    assert ms.GRAPH_MODE == 0
    assert ms.get_context("device_target") == "CPU"
    assert ms.get_context("device_id") == 0
    assert not ms.get_context("save_graphs")
    assert ms.get_context("save_graphs_path") == "."
    assert not ms.get_context("enable_compile_cache")
    assert ms.get_context("compile_cache_path") == ""


def test_mode_round_trip_and_module_alias():
    ms.set_context(mode=ms.GRAPH_MODE)
    assert ms.get_context("mode") == ms.GRAPH_MODE
    assert context.is_graph_mode()
    context.set_context(mode=context.PYNATIVE_MODE)
    assert ms.get_context("mode") == ms.PYNATIVE_MODE
    assert ms.context is context and ms.set_context is context.set_context


def test_reset_context_forgets_values():
    ms.set_context(mode=ms.GRAPH_MODE, save_graphs=True)
    context.reset_context()
    assert ms.get_context("mode") == ms.PYNATIVE_MODE
    assert not ms.get_context("save_graphs")


@pytest.mark.parametrize("leak_check", [0, 1])
def test_conftest_resets_mode_between_tests(leak_check):
    # Whichever of the two runs second sees the default mode: the autouse fixture
    # in conftest.py reset the GRAPH_MODE the other one set.
    assert ms.get_context("mode") == ms.PYNATIVE_MODE
    ms.set_context(mode=ms.GRAPH_MODE)


def test_bad_values():
    with pytest.raises(ValueError, match=r"'mode' should be context.GRAPH_MODE \(0\) or "
                                         r"context.PYNATIVE_MODE \(1\), but got 5"):
        ms.set_context(mode=5)
    with pytest.raises(ValueError, match="the keyword argument foo is not recognized"):
        ms.set_context(foo=1)
    with pytest.raises(ValueError, match="the argument foo is not recognized"):
        ms.get_context("foo")
    with pytest.raises(ValueError, match="'device_target' must be one of"):
        ms.set_context(device_target="TPU")


@pytest.mark.parametrize("device", ["Ascend", "GPU"])
def test_accelerator_targets_accepted_with_one_warning(device):
    with pytest.warns(UserWarning, match=f"device_target='{device}'.*CPU"):
        ms.set_context(device_target=device)
    assert ms.get_context("device_target") == device
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ms.set_context(device_target=device)  # the second time is silent
        ms.set_device(device, 1)
    assert ms.get_context("device_id") == 1


def test_cpu_target_is_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ms.set_context(device_target="CPU")
        ms.set_device("CPU")
    assert ms.get_context("device_target") == "CPU"


def test_accelerator_runs_on_cpu():
    with pytest.warns(UserWarning):
        ms.set_context(device_target="Ascend")
    out = ms.Tensor([1.0, 2.0]) + ms.Tensor([3.0, 4.0])
    assert out.asnumpy().tolist() == [4.0, 6.0]


def test_graph_options_round_trip(tmp_path):
    ms.set_context(save_graphs=True, save_graphs_path=str(tmp_path / "ir"),
                   enable_compile_cache=True, compile_cache_path=str(tmp_path / "cache"))
    assert ms.get_context("save_graphs")
    assert ms.get_context("save_graphs_path") == str(tmp_path / "ir")
    assert ms.get_context("enable_compile_cache") is True
    assert ms.get_context("compile_cache_path") == str(tmp_path / "cache")
    ms.set_context(save_graphs=2)
    assert ms.get_context("save_graphs") == 2


# ------------------------------------------------------------------ environment

@pytest.mark.parametrize("raw,expected", [("1", True), ("0", False), ("true", True),
                                          ("false", False)])
def test_compile_cache_enable_from_env(monkeypatch, raw, expected):
    monkeypatch.setenv("MS_COMPILER_CACHE_ENABLE", raw)
    assert ms.get_context("enable_compile_cache") is expected


def test_compile_cache_path_from_env(monkeypatch, tmp_path):
    monkeypatch.setenv("MS_COMPILER_CACHE_PATH", str(tmp_path))
    assert ms.get_context("compile_cache_path") == str(tmp_path)


def test_save_graphs_from_env(monkeypatch):
    monkeypatch.setenv("MS_DEV_SAVE_GRAPHS", "1")
    assert ms.get_context("save_graphs")
    monkeypatch.setenv("MS_DEV_SAVE_GRAPHS", "")
    assert not ms.get_context("save_graphs")


def test_context_wins_over_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("MS_COMPILER_CACHE_ENABLE", "1")
    monkeypatch.setenv("MS_COMPILER_CACHE_PATH", str(tmp_path / "env"))
    monkeypatch.setenv("MS_DEV_SAVE_GRAPHS", "1")
    ms.set_context(enable_compile_cache=False, compile_cache_path=str(tmp_path / "ctx"),
                   save_graphs=False)
    assert ms.get_context("enable_compile_cache") is False
    assert ms.get_context("compile_cache_path") == str(tmp_path / "ctx")
    assert not ms.get_context("save_graphs")
    context.reset_context()  # without a context value the environment applies again
    assert ms.get_context("enable_compile_cache") is True
    assert ms.get_context("compile_cache_path") == str(tmp_path / "env")
    assert ms.get_context("save_graphs")


def test_environment_is_read_at_get_time(monkeypatch):
    assert not ms.get_context("enable_compile_cache")
    monkeypatch.setenv("MS_COMPILER_CACHE_ENABLE", "1")
    assert ms.get_context("enable_compile_cache") is True


@pytest.mark.parametrize("raw,level", [("", 1), ("0", 0), ("2", 2), ("3", 3), ("9", 3),
                                       ("-4", 0), ("x", 1)])
def test_load_elim_level(monkeypatch, raw, level):
    monkeypatch.setenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM", raw)
    assert context.load_elim_level() == level


def test_ps_context_keys_defaults_and_errors():
    ms.reset_ps_context()
    assert ms.get_ps_context("enable_ps") is False
    assert ms.context.get_ps_context("worker_num") == 0
    ms.set_ps_context(config_file_path="/tmp/x.json", enable_ssl=True, client_password="")
    assert ms.get_ps_context("config_file_path") == "/tmp/x.json"
    with pytest.raises(ValueError, match="keyword foo is not recognized"):
        ms.set_ps_context(foo=1)
    with pytest.raises(ValueError, match="keyword client_password is not recognized"):
        ms.get_ps_context("client_password")
    with pytest.warns(UserWarning, match="no parameter server"):
        ms.set_ps_context(enable_ps=True)
    assert ms.get_ps_context("enable_ps") is True
    ms.reset_ps_context()
    assert ms.get_ps_context("enable_ps") is False and ms.get_ps_context("enable_ssl") is False


def test_run_check_reports_success(capsys):
    ms.run_check()
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("MindSpore version: ")
    assert out[1] == ("The result of multiplication calculation is correct, MindSpore has been "
                      "installed on platform [CPU] successfully!")


def test_version_is_mindspores_for_version_checks():
    # scripts gate on it (mindocr/mindyolo: version.parse(ms.__version__) >= "2.0.0rc")
    assert ms.__version__ == "2.10.0"
    assert tuple(int(p) for p in ms.__version__.split(".")) >= (2, 0)
