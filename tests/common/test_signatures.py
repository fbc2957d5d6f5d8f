"""``common.signatures.parameters``: ``inspect.signature``'s parameters, from the code
object for plain functions."""
import functools
import inspect

import pytest

from graphkiln.common.signatures import parameters
from graphkiln.ir.primitive import REGISTRY


def _plain(a, b=2, *args, c, d=4, **kw):
    return a


def _posonly(a, b=1, /, c=3, *, d):
    return a


def _varargs_only(*inputs, out, dout, **attrs):
    return out


@functools.wraps(_plain)
def _wrapped(*args, **kwargs):
    return _plain(*args, **kwargs)


def _signature(fn):
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("fn", [_plain, _posonly, _varargs_only, _wrapped,
                                functools.partial(_plain, 1), lambda x, y=3: x, len, pytest.approx,
                                _signature])
def test_parameters_equal_inspect_signature(fn):
    assert parameters(fn) == _signature(fn)


def test_every_primitive_rule_and_inference():
    fns = [f for op in REGISTRY.values() for f in (op.infer, op.bprop) if f is not None]
    assert len(fns) > 500
    for fn in fns:
        try:
            want = _signature(fn)
        except (TypeError, ValueError):
            continue
        assert [(n, k) for n, k, _ in parameters(fn)] == [(n, k) for n, k, _ in want]
        assert all(a is b or a == b for (_, _, a), (_, _, b) in zip(parameters(fn), want))
