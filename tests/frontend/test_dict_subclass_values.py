"""Instances of dict and OrderedDict subclasses (model-output dataclasses such as
mindnlp's/transformers' ``ModelOutput``) cross a GRAPH-mode cell's boundary as containers:
returned with their class, items and attributes holding the computed Tensors, taken as
arguments, and differentiated through."""
from collections import OrderedDict
from dataclasses import dataclass, fields

import numpy as np

import graphkiln as ms
from graphkiln import nn


class _Output(OrderedDict):
    """transformers' ModelOutput pattern: fields that are not None become items too."""

    def __post_init__(self):
        for f in fields(self):
            if getattr(self, f.name) is not None:
                self[f.name] = getattr(self, f.name)

    def __getitem__(self, k):
        return dict(self.items())[k] if isinstance(k, str) else tuple(self.values())[k]

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        super().__setattr__(key, value)


@dataclass
class _LossOutput(_Output):
    loss: ms.Tensor = None
    hidden: ms.Tensor = None
    logits: ms.Tensor = None


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)),
                              name="w")

    def construct(self, x):
        logits = ms.ops.matmul(x, self.w)
        return _LossOutput(loss=(logits ** 2).mean(), logits=logits)


class _Plain(dict):
    pass


class _Reader(nn.Cell):
    def construct(self, d):
        return d["a"] * 2 + d["b"]


X = ms.Tensor(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32))


def _both(fn):
    want = fn()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = fn()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return got, want


def test_returned_model_output_keeps_class_items_and_attributes():
    got, want = _both(lambda: _Net()(X))
    assert type(got) is _LossOutput and list(got.keys()) == ["loss", "logits"]
    assert got.hidden is None
    logits = X.asnumpy() @ np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)
    np.testing.assert_allclose(got["logits"].asnumpy(), logits, rtol=1e-6)
    np.testing.assert_allclose(got.loss.asnumpy(), (logits ** 2).mean(), rtol=1e-6)
    np.testing.assert_array_equal(got[0].asnumpy(), want[0].asnumpy())


def test_dict_subclass_argument():
    d = _Plain(a=X, b=ms.Tensor(np.ones((2, 2), np.float32)))
    got, want = _both(lambda: _Reader()(d))
    np.testing.assert_array_equal(got.asnumpy(), X.asnumpy() * 2 + 1)
    np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


def test_gradient_through_model_output():
    net = _Net()
    grad = ms.grad(lambda x: net(x).loss, None, net.trainable_params())
    got, want = _both(lambda: grad(X)[0].asnumpy())
    logits = X.asnumpy() @ net.w.asnumpy()
    np.testing.assert_allclose(got, X.asnumpy().T @ (logits / 2), rtol=1e-6)
    np.testing.assert_array_equal(got, want)
