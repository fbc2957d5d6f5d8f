"""MindSpore's ``mindspore.*`` re-exports (metrics, callbacks, dtype aliases and helpers,
from_numpy/frombuffer) and the metrics added with them (CosineSimilarity, Perplexity, auc),
against MindSpore 2.10 (fixtures/record_toplevel_names.py)."""
import importlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures"))
from roc_cases import roc_cases  # noqa: E402

REC = json.loads((Path(__file__).resolve().parent / "fixtures" /
                  "toplevel_names.json").read_text())


@pytest.mark.parametrize("name", sorted(REC["same_as_train"]))
def test_reexport_is_the_train_object(name):
    assert REC["same_as_train"][name]
    assert getattr(ms, name) is getattr(ms.train, name)
    if hasattr(ms.nn, name):
        assert getattr(ms.nn, name) is getattr(ms, name)


@pytest.mark.parametrize("path", sorted(REC["same_as_module"]))
def test_reexport_is_the_module_object(path):
    assert REC["same_as_module"][path]
    module, name = path.split(".")
    assert getattr(ms, name) is getattr(importlib.import_module(f"graphkiln.{module}"), name)


def test_log_is_the_log_module():
    assert REC["log_is_module"] and ms.log is importlib.import_module("graphkiln.log")


@pytest.mark.parametrize("name", sorted(REC["dtype_aliases"]))
def test_dtype_alias(name):
    assert str(getattr(ms, name)) == REC["dtype_aliases"][name]
    assert getattr(ms, name) is getattr(ms.dtype, name if name != "float" else "float32")


def test_dtype_helpers():
    values = {"int": 1, "bool": True, "float_type": float, "np_float32": np.float32,
              "tensor": ms.Tensor(np.ones(2, np.float32))}
    for key, v in values.items():
        assert str(ms.get_py_obj_dtype(v)) == REC["py_obj_dtype"][key], key
    for key, t in {"int": int, "float": float, "bool": bool}.items():
        assert str(ms.pytype_to_dtype(t)) == REC["pytype_to_dtype"][key]
    for key in ("float32", "int8", "bool_"):
        assert ms.dtype_to_pytype(getattr(ms, key)).__name__ == REC["dtype_to_pytype"][key]
    assert ms.dtype_to_nptype(ms.long) is np.int64


def test_from_numpy_and_frombuffer_share_memory():
    a = np.arange(4, dtype=np.float32)
    t = ms.from_numpy(a)
    a[0] = 7.0
    assert t.asnumpy()[0] == 7.0
    buf = bytearray(np.arange(6, dtype=np.int16).tobytes())
    out = ms.frombuffer(buf, ms.int16, 3, 4)
    assert out.asnumpy().tolist() == REC["frombuffer"] and out.dtype == ms.int16


@pytest.mark.parametrize("name,args", [
    ("count", (-2,)), ("offset", (-1, 12)), ("too_many", (7,)), ("odd", (-1, 2))])
def test_frombuffer_errors(name, args):
    buf = bytearray(np.arange(6, dtype=np.int16).tobytes())
    dtype = ms.int32 if name == "odd" else ms.int16
    with pytest.raises(Exception) as info:
        ms.frombuffer(buf, dtype, *args)
    assert type(info.value).__name__ == REC["frombuffer_errors"][name]


ROWS = np.array([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.1, 0.2], [0.0, 1.0, 1.0]])


@pytest.mark.parametrize("sim", ["cosine", "dot"])
@pytest.mark.parametrize("red", ["none", "sum", "mean"])
def test_cosine_similarity_matches_mindspore(sim, red):
    m = ms.CosineSimilarity(sim, red, red != "mean")
    m.update(ms.Tensor(ROWS))
    np.testing.assert_allclose(m.eval(), REC[f"cosine/{sim}/{red}"], rtol=1e-12)


@pytest.mark.parametrize("ignore", [None, 2])
def test_perplexity_matches_mindspore(ignore):
    probs = np.array([[0.2, 0.5, 0.3], [0.7, 0.1, 0.2], [0.25, 0.25, 0.5]])
    labels = np.array([1, 0, 2])
    m = ms.Perplexity(ignore)
    m.update(ms.Tensor(probs), ms.Tensor(labels))
    m.update(probs[:2], labels[:2])
    assert m.eval() == pytest.approx(REC[f"perplexity/{ignore}"], rel=1e-12)
    m.clear()
    with pytest.raises(RuntimeError):
        m.eval()


def test_auc_matches_mindspore():
    x = np.array([0.0, 0.5, 1.5, 2.0])
    y = np.array([1.0, 3.0, 2.0, 0.5])
    assert ms.auc(x, y) == pytest.approx(REC["auc"])
    assert ms.auc(x[::-1], y[::-1]) == pytest.approx(REC["auc_decreasing"])
    order = [2, 0, 3, 1]
    assert ms.auc(x[order], y[order], reorder=True) == pytest.approx(REC["auc_reorder"])
    with pytest.raises(ValueError, match="increasing"):
        ms.auc(x[order], y[order])
    with pytest.raises(TypeError):
        ms.auc([0, 1], [1, 2])


def test_metric_factory_knows_the_new_metrics():
    assert isinstance(ms.get_metric_fn("perplexity"), ms.Perplexity)
    assert "cosine_similarity" in ms.names()
    with pytest.raises(ValueError):
        ms.CosineSimilarity("l2")


@pytest.mark.parametrize("name", ["binary", "binary_ties"])
def test_roc_matches_mindspore(name):
    kw, pred, y = roc_cases()[name]
    m = ms.ROC(**kw)
    m.update(ms.Tensor(pred), y)
    for got, want in zip(m.eval(), REC[f"roc/{name}"]):
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_multiclass_roc_is_each_class_against_the_rest():
    # MindSpore 2.10 reshapes (N, C) scores to (C, N) before taking columns (a port of
    # torch's transpose(0, 1), a no-op in NumPy), which scrambles the scores; graphkiln
    # takes column c with c as the positive label, the curve its binary ROC gives
    kw, scores, y = roc_cases()["multiclass"]
    m = ms.ROC(**kw)
    m.update(scores, y)
    fpr, tpr, thresholds = m.eval()
    for c in range(kw["class_num"]):
        one = ms.ROC(pos_label=c)
        one.update(scores[:, c], y)
        for got, want in zip((fpr[c], tpr[c], thresholds[c]), one.eval()):
            np.testing.assert_array_equal(got, want)


def test_roc_errors():
    with pytest.raises(RuntimeError):
        ms.ROC().eval()
    with pytest.raises(ValueError, match="class_num"):
        ms.ROC(class_num=3).update(np.zeros((2, 4)), np.zeros(2))
    with pytest.raises(ValueError, match="no negative"):
        m = ms.ROC()
        m.update(np.array([0.2, 0.4]), np.array([1, 1]))
        m.eval()


def test_set_deterministic_once():
    ms.context.reset_context()
    with pytest.raises(TypeError, match="deterministic"):
        ms.set_deterministic(1)
    ms.set_deterministic(True)
    assert ms.get_context("deterministic") == "ON"
    with pytest.raises(RuntimeError, match="repeatedly"):
        ms.set_deterministic(False)
    ms.context.reset_context()
    assert ms.get_context("deterministic") == "OFF"
