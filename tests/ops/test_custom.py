"""``ops.Custom`` (ops/defs/custom.py, ops/custom_ops.py, ops/rules/custom.py): outputs,
gradients and errors of pyfunc programs against MindSpore 2.10 CPU in both modes
(fixtures/custom.json, by fixtures/record_custom.py); custom bprops against finite
differences; PYNATIVE == GRAPH; the checks of what a pyfunc returns; no constant folding
and no compile-cache entry for graphs that call one."""
import json
import os
import shutil
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.common import dtype as mstype

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
from custom_cases import CALLS, X, Y, np_sin, outcome  # noqa: E402
from numeric_grad import numeric_grad  # noqa: E402

with open(os.path.join(FIXTURES, "custom.json")) as f:
    RECORDED = json.load(f)

MODES = ("PYNATIVE_MODE", "GRAPH_MODE")


@pytest.fixture(autouse=True, scope="module")
def _aot_build_directory(tmp_path_factory):
    """The aot cases compile their .cc kernels into a temporary directory, once."""
    before = os.environ.get("MS_COMPILER_CACHE_PATH")
    os.environ["MS_COMPILER_CACHE_PATH"] = str(tmp_path_factory.mktemp("aot"))
    yield
    if before is None:
        del os.environ["MS_COMPILER_CACHE_PATH"]
    else:
        os.environ["MS_COMPILER_CACHE_PATH"] = before


def _needs_compiler(name: str) -> None:
    if name in ("aot_source", "aot_describe", "aot_error_code") and not shutil.which("g++"):
        pytest.skip("the aot cases compile a .cc kernel with g++, which is not installed")


def _close(got, want):
    if isinstance(want, list) and want and isinstance(want[0], list) and len(
            np.shape(want[0])) != len(np.shape(want)) - 1:
        for g, w in zip(got, want):  # ragged: a value and a gradient
            _close(g, w)
        return
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_mindspore(name, mode):
    _needs_compiler(name)
    ms.set_context(mode=getattr(ms, mode))
    got, want = outcome(lambda: CALLS[name](ms, ops, nn, Tensor)), RECORDED[mode][name]
    assert got[0] == want[0], got
    if got[0] == "error":
        assert got[1] == want[1]
    elif got[0] == "grads":
        assert len(got[1]) == len(want[1])
        for g, w in zip(got[1], want[1]):
            _close(g, w)
    else:
        _close(got[1], want[1])


@pytest.mark.parametrize("name", ["single", "multi_outputs", "bprop_grad", "multi_bprop_grad",
                                  "custom_in_bprop", "ops_in_bprop", "weight_grad",
                                  "jit_function", "aot_source"])
def test_graph_equals_pynative(name):
    _needs_compiler(name)
    eager = outcome(lambda: CALLS[name](ms, ops, nn, Tensor))
    ms.set_context(mode=ms.GRAPH_MODE)
    graph = outcome(lambda: CALLS[name](ms, ops, nn, Tensor))
    assert eager == graph


# ------------------------------------------------------------------ custom bprop vs FD

def _sin_op():
    cos = ops.Custom(lambda x: np.cos(x), lambda s: s, lambda t: t)
    return ops.Custom(np_sin, lambda s: s, lambda t: t,
                      bprop=lambda x, out, dout: (cos(x) * dout,))


def _prod_op():
    return ops.Custom(lambda x, y: (x * y, x + y), lambda a, b: (a, a),
                      lambda a, b: (a, a),
                      bprop=lambda x, y, out, dout: (dout[0] * y + dout[1],
                                                     dout[0] * x + dout[1]))


@pytest.mark.parametrize("mode", MODES)
def test_bprop_matches_finite_differences(mode):
    ms.set_context(mode=getattr(ms, mode))
    sin, prod = _sin_op(), _prod_op()
    w = Tensor(np.array([[0.3, -1.2, 2.0], [0.7, 1.1, -0.4]]))
    y0 = X.astype(np.float64) * 0.5 + 1.0

    def loss(x, y):
        a, b = prod(sin(x), y)
        return (a * w).sum() + (b * b).sum()

    gx, gy = ms.grad(ms.jit(loss), grad_position=(0, 1))(Tensor(X.astype(np.float64)),
                                                         Tensor(y0))
    np.testing.assert_allclose(gx.asnumpy(), numeric_grad(
        lambda x: loss(x, Tensor(y0)), X.astype(np.float64)), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gy.asnumpy(), numeric_grad(
        lambda y: loss(Tensor(X.astype(np.float64)), y), y0), rtol=1e-6, atol=1e-8)


def test_second_derivative_through_nested_custom_bprops():
    """The bprop of sin is a Custom cos whose own bprop is -sin: grad of grad works."""
    neg_sin = ops.Custom(lambda x: -np.sin(x), lambda s: s, lambda t: t)
    cos = ops.Custom(lambda x: np.cos(x), lambda s: s, lambda t: t,
                     bprop=lambda x, out, dout: (neg_sin(x) * dout,))
    sin = ops.Custom(np_sin, lambda s: s, lambda t: t,
                     bprop=lambda x, out, dout: (cos(x) * dout,))
    x = Tensor(X.astype(np.float64))
    d2 = ms.grad(ms.grad(lambda v: sin(v).sum()))(x)
    np.testing.assert_allclose(d2.asnumpy(), -np.sin(X.astype(np.float64)), rtol=1e-12)


# ------------------------------------------------------------------ outputs and errors

def test_out_shape_and_dtype_functions_get_lists_and_tensor_types():
    seen = []

    def shape_fn(a, b):
        seen.append((a, b))
        return a

    def dtype_fn(a, b):
        seen.append((a, b))
        return ms.float32

    op = ops.Custom(lambda x, s: x * s, shape_fn, dtype_fn)
    op(Tensor(X), 2.0)
    assert seen[0] == ([2, 3], [])
    assert seen[1][0] == mstype.TensorType(ms.float32) and seen[1][1] == ms.float32


def test_scalar_outputs():
    x = Tensor(X)
    empty_list = ops.Custom(lambda v: v.sum(), [], ms.float32)(x)
    assert empty_list.shape == () and float(empty_list) == pytest.approx(X.sum())
    placeholder = ops.Custom(lambda v: 1.5, (), ms.float32)(x)  # a Python float is cast
    assert placeholder.shape == (1,) and placeholder.asnumpy().tolist() == [1.5]
    fake = ops.Custom(lambda v: None, (), ())(x)  # out_dtype (): MindSpore's placeholder
    assert fake.dtype == ms.int32 and fake.shape == (1,)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("func, words", [
    (lambda x: x.reshape(-1), ["'shape_bug'", "shape [6]", "declares [2, 3]"]),
    (lambda x: x.astype(np.float64), ["'shape_bug'", "dtype float64", "Float32"]),
    (lambda x: x.tolist(), ["'shape_bug'", "list", "NumPy arrays"]),
])
def test_returned_value_is_checked(mode, func, words):
    ms.set_context(mode=getattr(ms, mode))
    func.__name__ = "shape_bug"
    op = ops.Custom(func, lambda s: s, lambda t: t)
    with pytest.raises(RuntimeError) as e:
        ms.jit(lambda x: op(x) + 1)(Tensor(X))
    for w in words:
        assert w in str(e.value)


def test_several_outputs_count_is_checked():
    op = ops.Custom(lambda x: x, ((2, 3), (2, 3)), (ms.float32, ms.float32))
    with pytest.raises(RuntimeError, match="declare 2 outputs"):
        op(Tensor(X))


def test_bprop_must_return_a_tuple_in_graph_mode():
    op = ops.Custom(lambda x: x * 2, lambda s: s, lambda t: t,
                    bprop=lambda x, out, dout: dout * 2)
    g = ms.grad(lambda x: op(x).sum())(Tensor(X))  # PYNATIVE: a lone gradient is taken
    np.testing.assert_array_equal(g.asnumpy(), np.full((2, 3), 2.0, np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(RuntimeError, match="one gradient per input"):
        ms.grad(ms.jit(lambda x: op(x).sum()))(Tensor(X))


def test_bprop_gradient_is_fitted_to_the_input():
    op = ops.Custom(lambda x: x * 2, lambda s: s, lambda t: t,
                    bprop=lambda x, out, dout: (dout.sum(),))
    g = ms.grad(lambda x: op(x).sum())(Tensor(X))
    np.testing.assert_array_equal(g.asnumpy(), np.full((2, 3), 6.0, np.float32))
    bad = ops.Custom(lambda x: x * 2, lambda s: s, lambda t: t,
                     bprop=lambda x, out, dout: (dout.T,))
    with pytest.raises(RuntimeError, match="broadcast to expected shape"):
        ms.grad(lambda x: bad(x).sum())(Tensor(X))


# ------------------------------------------------------------------ compilation

def test_runs_every_call_and_is_not_folded_or_merged():
    calls = []

    def counted(x):
        calls.append(1)
        return x + 1

    op = ops.Custom(counted, lambda s: s, lambda t: t)
    const = Tensor(Y)

    @ms.jit
    def f(x):
        return op(const) + op(const) + x

    f(Tensor(X))
    f(Tensor(X))
    assert len(calls) == 4  # two calls a run, at run time (not while compiling)
    assert "Custom" in ms.compile_info(f).ir()


def test_unused_call_is_dropped_in_graph_mode():
    calls = []
    op = ops.Custom(lambda x: calls.append(1) or x, lambda s: s, lambda t: t)
    ms.jit(lambda x: (op(x), x * 2)[1])(Tensor(X))
    assert calls == []  # as MindSpore's GRAPH_MODE (dead code, no side effect)


def test_vmap_applies_the_function_per_example():
    op = ops.Custom(lambda x, y: (x @ y, x.sum()), lambda a, b: ([a[0], b[1]], []),
                    lambda a, b: (a, a))
    xs = np.arange(24, dtype=np.float32).reshape(4, 2, 3)
    m = Tensor(Y.T.copy())
    out, s = ms.vmap(lambda x: op(x, m))(Tensor(xs))
    np.testing.assert_allclose(out.asnumpy(), xs @ Y.T, rtol=1e-6)
    np.testing.assert_allclose(s.asnumpy(), xs.sum(axis=(1, 2)), rtol=1e-6)


def _same(s):
    return s


def test_graph_with_pyfunc_is_not_stored_in_the_compile_cache(tmp_path):
    """The function lives in this process: an entry would run the graph built for an old
    version of it in a later process; none is stored (a graph of built-in ops is)."""
    ms.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path))
    op = ops.Custom(np.sin, _same, _same)

    @ms.jit
    def with_pyfunc(x):
        return op(x) * 2

    @ms.jit
    def built_in(x):
        return ops.sin(x) * 2

    def entries():
        return [p for p in tmp_path.rglob("*.gkc")]

    with_pyfunc(Tensor(X))
    assert entries() == []
    built_in(Tensor(X))
    assert len(entries()) == 1


def test_import_paths():
    from graphkiln.ops import Custom, CustomRegOp, DataType, custom_info_register
    from graphkiln.ops.operations import custom_ops
    assert ops.Custom is Custom and custom_ops.Custom is Custom
    assert ops.operations.Custom is Custom
    info = (CustomRegOp().input(0, "x").output(0, "y")
            .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU")
            .get_op_info())
    assert info["dtype_format"] == [(("float32", "DefaultFormat"),) * 2]

    @custom_info_register(info)
    def f(x):
        return x
    op = Custom(f, lambda s: s, lambda t: t)
    assert op.reg_info == (info,) and op.get_bprop() is None
    with pytest.raises(ValueError, match="sum of input tensors and output tensors"):
        CustomRegOp().input(0, "x").output(0, "y").dtype_format(DataType.F32_Default)


def test_aot_source_that_does_not_compile(tmp_path):
    _needs_compiler("aot_source")
    bad = tmp_path / "broken.cc"
    bad.write_text("extern \"C\" int Broken( {\n")
    with pytest.raises(RuntimeError, match="Compilation error in compiling"):
        ops.Custom(f"{bad}:Broken", lambda s: s, lambda t: t, "aot")
    with pytest.raises(RuntimeError, match="nvcc"):
        ops.Custom(f"{tmp_path / 'k.cu'}:K", lambda s: s, lambda t: t, "aot")


def test_aot_kernel_needing_aot_extra_is_refused(tmp_path):
    # (it would dereference the AotExtra pointer graphkiln cannot give: a crash, not an error)
    _needs_compiler("aot_source")
    src = tmp_path / "with_init.cc"
    src.write_text('extern "C" int KInit(int *n, long **s, const char **t, void *e) '
                   '{ return 0; }\n'
                   'extern "C" int K(int n, void **p, int *d, long **s, const char **t, '
                   'void *st, void *e) { return 0; }\n')
    op = ops.Custom(f"{src}:K", lambda s: s, lambda t: t, "aot")
    with pytest.raises(RuntimeError, match="KInit.*AotExtra"):
        op(ms.Tensor(np.ones(2, np.float32)))


@pytest.mark.parametrize("func_type, words", [
    ("hybrid", ["func_type 'hybrid'", "AKG", "'pyfunc'"]),
    ("akg", ["func_type 'akg'", "AKG"]),
    ("tbe", ["Unsupported func type for Custom operator on CPU", "[tbe]", "[np_sin]"]),
])
def test_device_compiled_func_types_explain_the_failure(func_type, words):
    def kernel_like(x):
        return np_sin(x)
    kernel_like.ms_kernel_flag = True  # what MindSpore's @kernel sets
    kernel_like.__name__ = "np_sin"
    op = ops.Custom(kernel_like, lambda s: s, lambda t: t, func_type)
    with pytest.raises(RuntimeError) as e:
        op(Tensor(X))
    for w in words:
        assert w in str(e.value)


@pytest.mark.parametrize("mode", MODES)
def test_a_returned_input_is_copied(mode):
    ms.set_context(mode=getattr(ms, mode))
    op = ops.Custom(lambda v: v, lambda s: s, lambda t: t)
    net = _identity_cell(op)
    x = Tensor(X.copy())
    out = net(x)
    assert not np.shares_memory(out.asnumpy(), x.asnumpy())


def _identity_cell(op):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = op

        def construct(self, x):
            return self.op(x)
    return Net()
