"""None, str, plain objects, mixed lists and wrong dtypes where a Tensor belongs: a
TypeError or ValueError that names the op (or function, or Cell), the argument and what it
got, the same in PYNATIVE and inside a compiled graph. Never an AttributeError from
graphkiln's insides.

Primitives are walked from the registry, with valid inputs taken from the finite-difference
samples of ``tests/ops/test_bprop.py``: each tensor input in turn is replaced by each bad
value. Functional ops and layers are checked on a table of common calls.
"""
from __future__ import annotations

import importlib.util
import inspect
import re
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.ops.primitive import REGISTRY

_spec = importlib.util.spec_from_file_location(
    "gk_bprop_samples", Path(__file__).resolve().parents[1] / "ops" / "test_bprop.py")
_bprop = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bprop)

BAD = {"None": None, "str": "abc", "object": object(), "mixed_list": [1.0, "a"]}
# what the message must say was got (a mixed list may be named by the offending element)
BAD_TYPE_NAMES = {"None": ("NoneType",), "str": ("str",), "object": ("object",),
                  "mixed_list": ("list", "float", "str")}


def _first_line(e: BaseException) -> str:
    return str(e).split("\n\n")[0].strip()


def _run_both_modes(fn, *args):
    """``[(type, first line of message)]`` of ``fn(*args)`` eagerly and in a graph."""
    out = []
    for call in (fn, ms.jit(fn)):
        try:
            call(*args)
        except Exception as e:  # noqa: BLE001 - the type is what is checked
            out.append((type(e), _first_line(e)))
        else:
            out.append((None, ""))
    return out


def _check(results, where: str, arg: str | None, got: str | None):
    (te, me), (tg, mg) = results
    assert te in (TypeError, ValueError), f"{where}: eager raised {te}: {me}"
    assert (tg, mg) == (te, me), f"{where}: graph {tg}: {mg!r} != eager {te}: {me!r}"
    assert any(form in me for form in (f"'{where}'", f"primitive[{where}]",
                                       f"Primitive[{where}]")), me  # MindSpore's forms
    assert re.search(r"(input|type of|the) '\w+(\[\d+\])?'|argument\[\w+\]", me), \
        f"no argument named: {me}"
    if arg is not None:
        names = (arg,) if isinstance(arg, str) else arg
        assert any(f"'{a}'" in me or f"argument[{a}]" in me for a in names), me
    if got is not None:
        assert any(g in me for g in got), me


# ---------------------------------------------------------------- primitives

def _cases():
    for name in sorted(_bprop.SAMPLES):
        params = [p.name for p in inspect.signature(REGISTRY[name].infer).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        args, attrs = _bprop.SAMPLES[name][0](np.random.default_rng(0))
        for i, a in enumerate(args):
            if isinstance(a, (np.ndarray, Tensor)) and i < len(params):
                yield name, i, params[i], args, attrs


CASES = list(_cases())


@pytest.mark.parametrize("bad", sorted(BAD))
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_primitive_names_the_bad_input(case, bad):
    name, i, param, args, attrs = case
    opdef = REGISTRY[name]
    tensors = [Tensor(a) if isinstance(a, np.ndarray) else a for a in args]

    def call(*_):
        values = list(tensors)
        values[i] = BAD[bad]
        return opdef(*values, **attrs)

    # the argument's name in messages is MindSpore's (x1 for BatchMatMul's first input)
    _check(_run_both_modes(call), name, None, BAD_TYPE_NAMES[bad])


def test_every_primitive_rejects_bad_inputs_by_name():
    """All inputs bad, for every registered primitive that takes user inputs."""
    internal = {"Depend", "MakeTuple", "Print", "Switch", "While", "WhileGrad", "UpdateState",
                "HyperMap", "NPUAllocFloatStatus", "NPUClearFloatStatus",
                "NPUGetFloatStatus", "TopTypeof",
                "MakeSlice"}  # take any value, or built by the compiler
    problems = []
    for name, opdef in sorted(REGISTRY.items()):
        if name in internal:
            continue
        params = inspect.signature(opdef.infer).parameters.values()
        n = sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.default is p.empty)
        if any(p.kind is p.KEYWORD_ONLY and p.default is p.empty and p.name not in opdef.attrs
               for p in params):
            continue  # built by graphkiln with its attributes (collectives...), not by users
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            n = max(n, 1)
        if n == 0:
            continue  # no input to spoil (Barrier...)
        if opdef.check_attrs is not None:
            try:
                opdef.check_attrs(dict(opdef.attrs))
            except TypeError:
                continue  # its constructor needs arguments (DeformableOffsets(strides, ...))
        for bad, value in BAD.items():
            try:
                opdef(*[value] * n, **opdef.attrs)
            except (TypeError, ValueError) as e:
                if not any(form in str(e) for form in
                           (f"'{name}'", f"primitive[{name}]", f"Primitive[{name}]")):
                    problems.append(f"{name}({bad}): {e}")
            except Exception as e:  # noqa: BLE001
                problems.append(f"{name}({bad}): {type(e).__name__}: {e}")
            else:
                problems.append(f"{name}({bad}): no error")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- functions and cells

def x23():
    return Tensor(np.ones((2, 3), np.float32))


FUNCTIONAL = [  # (function, valid args, index of the argument to spoil, its name)
    (ops.matmul, (x23(), Tensor(np.ones((3, 2), np.float32))), 1, "other"),
    (ops.matmul, (x23(), Tensor(np.ones((3, 2), np.float32))), 0, "input"),
    (ops.sum, (x23(),), 0, "input"),
    (ops.mean, (x23(),), 0, "x"),
    (ops.add, (x23(), x23()), 1, ("y", "other")),
    (ops.exp, (x23(),), 0, "x"),
    (ops.reshape, (x23(), (3, 2)), 0, "input_x"),
    (ops.transpose, (x23(), (1, 0)), 0, None),
    (ops.softmax, (x23(),), 0, None),
    (ops.concat, ((x23(), x23()),), 0, None),
    (ops.squeeze, (x23(),), 0, None),
    (ops.expand_dims, (x23(), 0), 0, None),
    (ops.gather, (x23(), Tensor(np.array([0, 1], np.int32)), 1), 1, "input_indices"),
    (ops.relu, (x23(),), 0, "x"),
    (ops.maximum, (x23(), x23()), 0, ("x", "input")),
]


@pytest.mark.parametrize("bad", sorted(BAD))
@pytest.mark.parametrize("case", FUNCTIONAL,
                         ids=[f"{c[0].__name__}-{c[2]}" for c in FUNCTIONAL])
def test_functional_names_the_bad_input(case, bad):
    fn, args, i, arg = case

    def call(*_):
        values = list(args)
        values[i] = BAD[bad]
        return fn(*values)

    results = _run_both_modes(call)
    (te, me), _ = results
    where = me.split("'")[1] if me.startswith("For '") else fn.__name__
    _check(results, where, arg, BAD_TYPE_NAMES[bad])


@pytest.mark.parametrize("bad", sorted(BAD))
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_layer_names_the_bad_input(bad, mode):
    ms.set_context(mode=mode)
    with pytest.raises((TypeError, ValueError)) as info:
        nn.Dense(3, 2)(BAD[bad])
    assert re.match(r"For '(Dense|Dense.construct|MatMul)'", str(info.value)), info.value
    assert BAD_TYPE_NAMES[bad][0] in str(info.value)


def test_wrong_dtype_names_op_argument_and_dtype():
    def f(x, i):
        return ops.gather(x, i, 0)

    results = _run_both_modes(f, x23(), Tensor(np.array([0.0], np.float32)))
    _check(results, "Gather", "input_indices", ("Float32",))
    results = _run_both_modes(ops.sin, Tensor(np.ones(2, np.int32)))
    _check(results, "Sin", "x", ("Int32",))


def test_user_attribute_errors_are_not_rewritten():
    """An AttributeError in the user's own code is the user's: it is not blamed on an
    argument that happens to be None."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.bias = None

        def construct(self, x, mask=None):
            return x + self.bias.shape[0]

    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'shape'"):
        Net()(x23())
