"""MindSpore's overload check of Tensor methods (ops/overload.py, ops/tensor_overloads.py):
calls that match no overload raise the TypeError MindSpore 2.10 raises, in its graph-mode
words inside a graph and in its PyNative words outside one
(fixtures/method_overload_errors.json, recorded by fixtures/record_overload_errors.py);
valid calls keep their results (NumPy, GRAPH == PYNATIVE)."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from overload_cases import CASES, MINT_PROBED, PROBED, calls_module, message  # noqa: E402

from graphkiln.ops.tensor_overloads import SIGNATURES  # noqa: E402

with open(os.path.join(FIXTURES, "method_overload_errors.json")) as _f:
    RECORDED = json.load(_f)

# cases whose message differs from MindSpore's graph mode (the error type is the same)
OTHER_WORDS = {
    "clamp_tensor_int": "MindSpore's graph mode names its ClampScalar primitive; graphkiln "
                        "lists Tensor.clamp's overloads, as MindSpore's PyNative mode does",
    "add_str": "the call matches Tensor.add(other=<any,Tensor>) and the Add op refuses the "
               "str, in graphkiln's words",
    "select_int_tensor": "MindSpore's graph mode names its SelectExtView primitive; graphkiln "
                         "lists Tensor.select's overloads, as MindSpore's PyNative mode does",
    **{case: "MindSpore's graph mode names the primitive (Add, Sub, Mul, DivMod, Reshape) "
             "that refuses the argument; graphkiln words it its own way"
       for case in ("add_probe_str", "mul_probe_str", "sub_probe_str", "sub__probe_str",
                    "div_mode_int", "reshape_tuple_str")},
    "transpose_three": "MindSpore's graph mode quotes Tensor.transpose's ValueError text",
    **{case: "MindSpore's graph mode does not check the str parameter's type: its InplaceDivMod "
             "and Scatter primitives refuse the int; graphkiln lists the overloads, as "
             "MindSpore's PyNative mode does"
       for case in ("div__mode_int", "scatter_reduce_int")},
    **{f"{m}_tuple_str": "MindSpore's graph mode binds a tuple holding a str, then its "
                         "primitive (SumExt, ReduceMean, ReduceAll) or Python code refuses it "
                         "in its own words; graphkiln says which item does not unpack to an "
                         "int, as MindSpore's PyNative mode does"
       for m in ("sum", "mean", "all", "nansum", "std")},
    "count_nonzero_tensor_keyword": "a Tensor where the int goes and an unknown keyword: "
                                    "MindSpore's graph mode lists the overloads without "
                                    "reasons, graphkiln names the unknown keyword",
}
MINT_GRAPH_WORDS = ("MindSpore's graph mode words a mint function's failed call with fewer "
                    "reason lines (or none) than its Tensor methods' (graphkiln words both "
                    "alike; the listed overloads are the same)")
OTHER_WORDS.update({
    **{case: MINT_GRAPH_WORDS for case in (
        "mint_lerp_probe_keyword", "mint_where_probe_keyword", "mint_where_probe_str")},
})
# cases where graphkiln raises another error than MindSpore's graph mode
GRAPH_OTHER_ERROR = {
    **{f"mint_{m}_probe_empty": "MindSpore 2.10's graph mode fails in its own evaluator "
                                "(RuntimeError 'Size should be greater than 0'); graphkiln "
                                "lists the overloads, as its PyNative mode does"
       for m in MINT_PROBED},
    "mint_lerp_int": "MindSpore 2.10 has no CPU kernel for LerpScalar (RuntimeError); "
                     "graphkiln runs the call, as MindSpore's PyNative mode does",
}
# cases whose eager message differs from MindSpore's PyNative one (the error type is the same)
EAGER_OTHER_WORDS = {
    **{case: "MindSpore's Add, Sub and Mul refuse the str in their PyNative words; graphkiln "
             "in its own" for case in ("add_str", "add_probe_str", "sub_probe_str",
                                       "mul_probe_str", "sub__probe_str")},
    **{f"{m}_tuple_str": "MindSpore 2.10's Python code behind the method fails on the str "
                         "(\"'<' not supported between instances of 'str' and 'int'\", \"Each "
                         "axis should be integer\"); graphkiln says which item does not unpack "
                         "to an int, as MindSpore's sum and mean do"
       for m in ("nansum", "std")},
}
# cases where graphkiln raises another error than MindSpore's PyNative mode
EAGER_OTHER_ERROR = {
    "repeat_float": "MindSpore 2.10 has no CPU kernel for Tensor.repeat (RuntimeError); "
                    "graphkiln refuses the float repeat (TypeError)",
}


@pytest.fixture(scope="module")
def calls(tmp_path_factory):
    return calls_module(str(tmp_path_factory.mktemp("overload")), ms.mint)


def _error(fn) -> tuple:
    """The error ``fn(x)`` raises, as the recording script writes it (``none``: no error)."""
    x = Tensor(np.array([1.0, 2.0], np.float32))
    try:
        fn(x)
    except Exception as e:  # noqa: BLE001 (the error is the result)
        return type(e).__name__, message(e).rstrip("\n")
    return "none", ""


def test_fixture_covers_the_cases():
    assert sorted(RECORDED) == sorted(CASES)
    assert set(OTHER_WORDS) | set(EAGER_OTHER_WORDS) | set(EAGER_OTHER_ERROR) | \
        set(GRAPH_OTHER_ERROR) <= set(CASES)


def test_every_declared_method_is_probed_on_mindspore():
    """Each declared method's overload list is checked against MindSpore's own."""
    assert set(SIGNATURES) <= set(PROBED)


@pytest.mark.parametrize("case", sorted(set(CASES) - set(GRAPH_OTHER_ERROR)))
def test_graph_mode_message_is_mindspores(case, calls):
    kind, text = _error(ms.jit(getattr(calls, case)))
    want_kind, want_text = RECORDED[case]["graph"]
    assert kind == want_kind
    if case not in OTHER_WORDS:
        assert text == want_text.rstrip("\n")


@pytest.mark.parametrize("case", sorted(set(CASES) - set(EAGER_OTHER_ERROR)))
def test_eager_message_is_mindspores(case, calls):
    """Outside a graph: MindSpore's PyNative words (its types spelled ``<None, int, tuple of
    int>``, only the overloads that take that many arguments, each with why it failed)."""
    kind, text = _error(getattr(calls, case))
    want_kind, want_text = RECORDED[case]["pynative"]
    assert kind == want_kind
    if case not in EAGER_OTHER_WORDS:
        assert text == want_text.rstrip("\n")


def test_eager_and_graph_words_differ():
    """The example of the two wordings: one call, two messages, as MindSpore's."""
    x = Tensor(np.array([1.0, 2.0], np.float32))
    with pytest.raises(TypeError) as eager:
        x.clamp(max_value=1)
    with pytest.raises(TypeError) as graph:
        ms.jit(lambda t: t.clamp(max_value=1))(x)
    assert '"Tensor.clamp(min=<None, Number>, max=<None, Number>)"\n    match failed because ' \
        "incorrect keyword name: max_value" in str(eager.value)
    assert '"Tensor.clamp(min=<number,None>, max=<number,None>)"\n' in message(graph.value)
    assert "max_value" not in message(graph.value).split("The valid calling")[1]


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_wording_follows_the_call_not_the_context(mode):
    """A plain call is eager in either context mode; a Cell's construct compiles to a graph
    in GRAPH_MODE, and is eager in PYNATIVE_MODE."""
    class Net(ms.nn.Cell):
        def construct(self, t):
            return t.clamp(max_value=1)

    before = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.array([1.0, 2.0], np.float32))
        with pytest.raises(TypeError, match="<None, Number>"):
            x.clamp(max_value=1)
        cell = "<number,None>" if mode == ms.GRAPH_MODE else "<None, Number>"
        with pytest.raises(TypeError, match=cell):
            Net()(x)
    finally:
        ms.set_context(mode=before)


def test_eager_reshape_needs_a_shape():
    """``x.reshape()`` binds in graph mode (its Reshape op refuses it), not eagerly."""
    with pytest.raises(TypeError, match=r"reshape\(\) missing 1 required positional "
                                        r"argument: shape\."):
        Tensor(A).reshape()


def test_message_parts():
    """The pieces the MindSpore system tests look for."""
    x = Tensor(np.array([1.0, 2.0], np.float32))
    with pytest.raises(TypeError) as info:
        x.add(x, 1)
    text = str(info.value)
    assert text.startswith('Failed calling add with "add(Tensor, int)".\n'
                           "The valid calling should be:\n")
    assert "    match failed because invalid types: (Tensor, int)\n" + " " * 41 + "~" * 13 \
        in text
    with pytest.raises(TypeError, match=r"argument 'shape' \(position 2\) must be tuple of int"):
        ms.jit(lambda t: t.reshape(1, 1.5))(x)
    with pytest.raises(TypeError, match=r"argument 'shape'\(position 0\) should be tuple of int, "
                                        r"but unpack failed at pos 1 \(got float\)"):
        x.reshape(1, 1.5)


def test_self_must_be_a_tensor():
    with pytest.raises(TypeError, match="descriptor 'add' for 'Tensor' objects doesn't apply "
                                        "to a 'list' object"):
        Tensor.add([1], [2])


A = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
B = np.full((2, 3), 0.5, np.float32)
VALID = [  # (method, args, kwargs, NumPy reference of x=A, y=B)
    ("clamp", (-1, 1), {}, np.clip(A, -1, 1)),
    ("clamp", (), {"max": 1.0}, np.minimum(A, 1)),
    ("clip", (-1.5,), {}, np.maximum(A, -1.5)),
    ("max", (), {}, A.max()),
    ("max", (), {"axis": 1, "keepdims": True}, A.max(1, keepdims=True)),
    ("min", (), {"axis": 0}, A.min(0)),
    ("add", ("y",), {"alpha": 2}, A + 2 * B),
    ("add", (1.5,), {}, A + 1.5),
    ("sub", ("y",), {}, A - B),
    ("mul", ("y",), {}, A * B),
    ("div", ("y",), {"rounding_mode": "floor"}, np.floor(A / B)),
    ("pow", (2,), {}, A ** 2),
    ("mean", (1, True), {}, A.mean(1, keepdims=True)),
    ("mean", (), {"axis": 0, "keep_dims": False}, A.mean(0)),
    ("sum", (), {"dim": 1, "keepdim": True}, A.sum(1, keepdims=True)),
    ("sum", ((0, 1),), {}, A.sum()),
    ("prod", (0,), {}, A.prod(0)),
    ("reshape", (3, 2), {}, A.reshape(3, 2)),
    ("reshape", ((-1,),), {}, A.reshape(-1)),
    ("view", (6,), {}, A.reshape(6)),
    ("transpose", (1, 0), {}, A.T),
    ("permute", (1, 0), {}, A.T),
    ("permute", (), {}, A.T),
    ("roll", (1,), {"dims": 1}, np.roll(A, 1, 1)),
    ("unsqueeze", (0,), {}, A[None]),
    ("argmax", (), {"dim": 1}, A.argmax(1)),
    ("abs", (), {}, np.abs(A)),
    ("exp", (), {}, np.exp(A)),
    ("all", (), {"axis": 1}, A.all(1)),
    ("any", (), {}, A.any()),
    ("less", (0.0,), {}, A < 0),
    ("maximum", ("y",), {}, np.maximum(A, B)),
    ("select", (), {"dim": 1, "index": 2}, A[:, 2]),
    ("select", (0,), {"index": 1}, A[1]),
    ("tile", (2, 1), {}, np.tile(A, (2, 1))),
    ("tile", ((1, 2),), {}, np.tile(A, (1, 2))),
    ("tile", (), {"reps": (2, 1)}, np.tile(A, (2, 1))),
    ("to", (ms.float16,), {}, A.astype(np.float16)),
    ("to", (), {"dtype": ms.int32}, A.astype(np.int32)),
    ("to", ("y",), {}, A),
    ("to", ("cpu", ms.float16), {}, A.astype(np.float16)),
    ("divide", ("y",), {"rounding_mode": "trunc"}, np.trunc(A / B)),
    ("fmod", (1.5,), {}, np.fmod(A, 1.5)),
    ("xlogy", ("y",), {}, A * np.log(B)),
    ("arctan2", ("y",), {}, np.arctan2(A, B)),
    ("absolute", (), {}, np.abs(A)),
    ("arcsinh", (), {}, np.arcsinh(A)),
    ("hardshrink", (1.0,), {}, np.where(np.abs(A) > 1.0, A, 0)),
    ("round", (), {}, np.round(A)),
    ("triu", (), {"diagonal": 1}, np.triu(A, 1)),
    ("nan_to_num", (0.0,), {"posinf": 1.0}, A),
    ("nansum", (1, True), {}, A.sum(1, keepdims=True)),
    ("nansum", (), {"axis": 0}, A.sum(0)),
    ("repeat_interleave", (2,), {"dim": 0}, np.repeat(A, 2, 0)),
    ("logaddexp", ("y",), {}, np.logaddexp(A, B)),
    ("clone", (), {}, A),
    ("isfinite", (), {}, np.isfinite(A)),
]


def _valid_call(method, args, kwargs):
    def fn(x, y):
        return getattr(x, method)(*(y if a == "y" else a for a in args), **kwargs)
    return fn


@pytest.mark.parametrize("method,args,kwargs,want", VALID,
                         ids=[f"{v[0]}{i}" for i, v in enumerate(VALID)])
def test_valid_calls_keep_their_results(method, args, kwargs, want):
    fn = _valid_call(method, args, kwargs)
    x, y = Tensor(A), Tensor(B)
    eager = fn(x, y)
    graph = ms.jit(fn)(x, y)
    np.testing.assert_allclose(eager.asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(graph.asnumpy(), want, rtol=1e-6)


@pytest.mark.parametrize("method,args,want", [
    ("add_", ("y",), A + B), ("sub_", (1.5,), A - 1.5), ("mul_", ("y",), A * B),
    ("div_", (2.0,), A / 2), ("fill_", (2.5,), np.full_like(A, 2.5)),
    ("masked_fill_", ("mask", 0.0), np.where(A > 0, 0, A))])
def test_in_place_methods_pass_the_check(method, args, want):
    """Each mode on its own Tensors: the methods write ``x``."""
    def fn(x, y):
        values = {"y": y, "mask": x > 0}
        return getattr(x, method)(*(values.get(a, a) if isinstance(a, str) else a
                                    for a in args))

    np.testing.assert_allclose(fn(Tensor(A), Tensor(B)).asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(fn)(Tensor(A), Tensor(B)).asnumpy(), want, rtol=1e-6)


def test_tensor_diag_takes_only_diagonal_zero():
    """MindSpore 2.10's ``Tensor.diag(diagonal)``: a ValueError unless 0 (its graph mode has
    no CPU kernel for the call)."""
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(x.diag(0).asnumpy(), np.diag([1.0, 2.0]))
    for fn in (lambda t: t.diag(1), ms.jit(lambda t: t.diag(-1))):
        with pytest.raises(ValueError, match="argument 'diagonal' should be '0'"):
            fn(x)


def test_bound_argument_types_skip_the_match_not_the_check():
    """A call whose argument types bound before binds at once; other types, keywords or a
    tuple (whose items decide) are still checked."""
    x, y = Tensor(A), Tensor(B)
    for _ in range(2):
        np.testing.assert_allclose(x.add(y, alpha=2).asnumpy(), A + 2 * B)
        np.testing.assert_allclose(x.sum((0, 1)).asnumpy(), A.sum(), rtol=1e-6)
        with pytest.raises(TypeError, match="incorrect keyword name: beta"):
            x.add(y, beta=2)
        with pytest.raises(TypeError, match="Failed calling add"):
            x.add(y, alpha="a")
        with pytest.raises(TypeError, match="unpack failed at pos 1"):
            x.sum((0, "a"))
    with pytest.raises(TypeError, match="keepdims"):  # a mutable int is not a bool in a graph
        ms.jit(lambda t, k: t.max(0, k, initial=None))(x, ms.mutable(1))


def test_run_time_python_value_as_an_argument():
    """``x.clamp(min, ms.Tensor(max.asnumpy()))`` in a graph: the method runs when the
    graph runs (MindSpore's fallback)."""
    @ms.jit
    def f(x, lo, hi):
        return x.clamp(lo, Tensor(hi.asnumpy())), x.max(return_indices=bool(hi.asnumpy() < 0))

    clamped, top = f(Tensor(np.array([1, 2, 3, 4, 5])), Tensor(2), Tensor(4))
    np.testing.assert_array_equal(clamped.asnumpy(), [2, 2, 3, 4, 4])
    assert top.asnumpy() == 5


def test_mutable_numbers_match_as_numbers():
    @ms.jit
    def f(x, lo):
        return x.clamp(lo, 3)

    out = f(Tensor(np.array([1.0, 5.0], np.float32)), ms.mutable(2))
    np.testing.assert_array_equal(out.asnumpy(), [2, 3])
    with pytest.raises(TypeError, match="keepdims"):
        ms.jit(lambda x, k: x.max(0, k, initial=None))(Tensor(A), ms.mutable(1))


def test_mutable_numbers_outside_a_graph_match_as_numbers():
    """``ms.mutable(1)`` run eagerly is an int subclass: it binds to ``int`` parameters."""
    x = Tensor(A)
    out = x.select(ms.mutable(1), ms.mutable(0))
    np.testing.assert_array_equal(out.asnumpy(), A[:, 0])
    values, _ = x.topk(ms.mutable(2))
    np.testing.assert_array_equal(values.asnumpy(), -np.sort(-A, axis=1)[:, :2])


def test_select_condition_by_keyword():
    cond = A > 0
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        fn = (lambda x, c: x.select(condition=c, y=Tensor(B)))
        out = (ms.jit(fn) if mode == ms.GRAPH_MODE else fn)(Tensor(A), Tensor(cond))
        np.testing.assert_array_equal(out.asnumpy(), np.where(cond, A, B))


def test_fast_match_agrees_with_the_full_check():
    """``Signature.matches`` (the fast path of every call) == ``check(...) is None``."""
    from graphkiln.ops.overload import signatures
    x, y = Tensor(A), Tensor(B)
    calls = [(m, *eval(f"(lambda *a, **k: (a, k))({args})", {"x": x}))  # noqa: S307
             for m, args in CASES.values() if m in SIGNATURES]
    calls += [(m, tuple(y if a == "y" else a for a in args), kw) for m, args, kw, _ in VALID]
    for method, args, kwargs in calls:
        for sig in signatures(method, SIGNATURES[method]):
            assert sig.matches(args, kwargs) == (sig.check(args, kwargs) is None), \
                (method, sig.text(), args, kwargs)


def test_mutable_numbers_match_their_kind_outside_a_graph():
    """``ms.mutable(True)`` passes where a bool is expected, ``ms.mutable(0)`` where an int is
    (MindSpore 2.10 PyNative: ``x.mean(1, mutable(True))`` keeps the dimension); a mutable
    int is still no bool."""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = Tensor(a)
    np.testing.assert_allclose(x.mean(1, ms.mutable(True)).asnumpy(), a.mean(1, keepdims=True))
    np.testing.assert_allclose(x.sum(ms.mutable(0), keepdim=ms.mutable(True)).asnumpy(),
                               a.sum(0, keepdims=True))
    with pytest.raises(TypeError):
        x.mean(1, ms.mutable(2))


@pytest.mark.parametrize("case", sorted(GRAPH_OTHER_ERROR))
def test_graph_mode_where_mindspore_fails_otherwise(case, calls):
    """graphkiln's graph mode gives its PyNative error (none for the LerpScalar call)."""
    assert _error(ms.jit(getattr(calls, case))) == _error(getattr(calls, case))


MINT_VALID = [  # (function, args with "x"/"y" for the inputs, kwargs, NumPy reference)
    ("add", ("x", "y"), {"alpha": 2}, A + 2 * B),
    ("sub", ("x", 1.5), {}, A - 1.5),
    ("mul", ("x", "y"), {}, A * B),
    ("div", ("x", "y"), {"rounding_mode": "floor"}, np.floor(A / B)),
    ("eq", ("x", 0.5), {}, A == 0.5),
    ("less", ("x", "y"), {}, A < B),
    ("greater_equal", ("x", 0.5), {}, A >= 0.5),
    ("floor_divide", ("x", 2.0), {}, np.floor_divide(A, 2.0)),
    ("max", ("x",), {}, A.max()),
    ("max", ("x", "y"), {}, np.maximum(A, B)),
    ("max", ("x", 0.5), {}, np.maximum(A, 0.5)),
    ("min", ("x",), {"other": "y"}, np.minimum(A, B)),
    ("clamp", ("x", -1, 1), {}, np.clip(A, -1, 1)),
    ("clamp", ("x",), {"max": "y"}, np.minimum(A, B)),
    ("where", ("c", "x", 0.0), {}, np.where(A > 0, A, 0)),
    ("remainder", ("x", 2.0), {}, np.mod(A, 2.0)),
    ("fmod", ("x", "y"), {}, np.fmod(A, B)),
    ("xlogy", ("y", "y"), {}, B * np.log(B)),
    ("lerp", ("x", "y", 0.25), {}, A + 0.25 * (B - A)),
]


@pytest.mark.parametrize("name,args,kwargs,want", MINT_VALID,
                         ids=[f"{v[0]}{i}" for i, v in enumerate(MINT_VALID)])
def test_mint_valid_calls_keep_their_results(name, args, kwargs, want):
    def fn(x, y):
        values = {"x": x, "y": y, "c": x > 0}

        def get(a):
            return values.get(a, a) if isinstance(a, str) else a
        return getattr(ms.mint, name)(*map(get, args), **{k: get(v) for k, v in kwargs.items()})

    x, y = Tensor(A), Tensor(B)
    np.testing.assert_allclose(fn(x, y).asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(fn)(x, y).asnumpy(), want, rtol=1e-6)
