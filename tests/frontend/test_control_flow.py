"""Focused tests of control-flow conversion under ``@ms.jit`` (graph == eager, errors).

Every ``check(jf, *args)`` runs ``jf`` as a compiled graph and ``jf.fn`` eagerly and
requires the same results (values, dtypes, shapes) or both to raise. Compiler bugs found
here (and by the differential test) stay as regression tests with their reproducers.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gen_programs import graph_vs_eager  # noqa: E402


def check(jf, *args):
    problem = graph_vs_eager(jf, *args)
    assert problem is None, problem


def f32(*v):
    return Tensor(np.array(v, np.float32))


def i64(v):
    return Tensor(v, ms.int64)


X, NX, Y = f32(1.0, 2.0), f32(-1.0, -2.0), f32(-0.5, 3.0)


# ------------------------------------------------------------------ the spec's examples

from graphkiln.examples.spec import func, if_net, select_net  # noqa: E402


def test_if_net_gives_minus_5050_with_100_switches():
    out = if_net(ms.Tensor([0]), ms.Tensor([1]))
    assert out.asnumpy().tolist() == [-5050]
    assert ms.compile_info(if_net).count("Switch") == 100
    check(if_net, ms.Tensor([0]), ms.Tensor([1]))


def test_select_net_gives_minus_5050_without_switch():
    out = select_net(ms.Tensor([0]), ms.Tensor([1]))
    assert out.asnumpy().tolist() == [-5050]
    assert ms.compile_info(select_net).count("Switch") == 0
    check(select_net, ms.Tensor([0]), ms.Tensor([1]))


def test_func_200_iterations():
    out = func(ms.Tensor([1], ms.float32), ms.Tensor([2], ms.float32))
    assert out.dtype == ms.float32
    assert out.asnumpy().tolist() == [601.0]
    assert ms.compile_info(func).count("While") == 0  # a Python range unrolls


# ------------------------------------------------------------------ loops

@ms.jit
def while_tensor(x):
    while x.sum() < 20:
        x = x * 2 + 3  # terminates when every element is above -3
    return x


@ms.jit
def while_counter(x):
    i = 0  # a Python int carried into a tensor loop becomes a tensor
    while i < 5 and x.sum() < 20:
        i += 1
        x = x * 2
    return x * i, x


def test_while_with_tensor_condition():
    for v in (X, NX, Y, f32(30.0, 0.0)):
        check(while_tensor, v)
        check(while_counter, v)
    while_tensor(X)
    assert ms.compile_info(while_tensor).count("While") == 1


@ms.jit
def for_tensor_range(x, n):
    s = x * 0
    for i in range(n):
        s = s + x * i
    return s


@ms.jit
def for_tensor_range_start(x, n):
    for i in range(-1, n):
        x = x + i
    return x


def test_for_over_range_with_tensor_bound():
    for n in (0, 1, 3, -2):
        check(for_tensor_range, X, i64(n))
        check(for_tensor_range_start, X, i64(n))
    for_tensor_range(X, i64(2))
    assert ms.compile_info(for_tensor_range).count("While") == 1
    assert len(for_tensor_range._cache.entries) == 1  # one graph for every n


@ms.jit
def for_axis(x):
    s = x[0] * 0
    for e in x:
        s = s * 2 + e
    return s


@ms.jit
def for_axis_2d(m):
    acc = m[0] * 0
    for row in m:
        if row.sum() > 0:
            acc = acc + row
    return acc


def test_for_over_tensor_first_axis():
    check(for_axis, X)
    check(for_axis, f32(3.0, -1.0, 0.5))
    m = Tensor(np.array([[1.0, 2.0], [-3.0, 1.0], [0.5, 0.5]], np.float32))
    check(for_axis_2d, m)


@ms.jit
def break_in_tensor_while(x):
    i = x.sum() * 0
    while i < 10:
        i = i + 1
        if x.sum() > 6:
            break
        x = x + 1
    return x, i


@ms.jit
def continue_in_tensor_while(x):
    i = x.sum() * 0
    s = x * 0
    while i < 4:
        i = i + 1
        if i == 2:
            continue
        s = s + x * i
    return s


@ms.jit
def break_continue_tensor_range(x, n):
    s = x * 0
    for i in range(n):
        if s.sum() > 6:
            break
        if x.sum() * i > 4:
            continue
        s = s + x
    return s


@ms.jit
def break_in_axis_loop(x):
    s = x[0] * 0
    for e in x:
        if e > 1:
            break
        s = s + e
    return s


@ms.jit
def break_inner_python_loop(x):
    w = 0
    while w < 3 and x.sum() < 100:
        w += 1
        for _ in range(3):
            if x.sum() > 5:
                break
            x = x + 1
        x = x * 2
    return x


def test_break_and_continue_in_tensor_loops():
    for v in (X, NX, Y):
        check(break_in_tensor_while, v)
        check(continue_in_tensor_while, v)
        check(break_continue_tensor_range, v, i64(5))
        check(break_in_axis_loop, v)
        check(break_inner_python_loop, v)


# ------------------------------------------------------------------ early return

@ms.jit
def return_in_tensor_if(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


@ms.jit
def return_in_nested_ifs(x):
    if x.sum() > 0:
        if x.max() > 1.5:
            return x
        x = x * 3
    elif x.min() < -1:
        return -x
    return x * 0.5


@ms.jit
def return_in_tensor_while(x):
    w = 0
    while w < 3 and x.sum() > -100:
        w += 1
        if x.sum() > 4:
            return x * 2
        x = x + 1
    return x


@ms.jit
def return_in_python_loop(x):
    for i in range(3):
        for _ in range(2):
            if x.sum() > 4:
                return x * i
            x = x + 1
    return x * 0


@ms.jit
def return_in_tensor_range(x, n):
    for i in range(n):
        if x.sum() > i:
            x = x + 1
        else:
            return x * 2
    return x


@ms.jit
def return_in_axis_loop(x):
    for e in x:
        if e > 1:
            return e * 2
    return x.sum()


def test_early_return_in_tensor_if():
    for v in (X, NX, Y, f32(0.5, 0.5)):
        check(return_in_tensor_if, v)
        check(return_in_nested_ifs, v)


def test_early_return_inside_loops():
    for v in (X, NX, Y):
        check(return_in_tensor_while, v)
        check(return_in_python_loop, v)
        check(return_in_tensor_range, v, i64(3))
        check(return_in_axis_loop, v)


@ms.jit
def return_tuple_in_loop(x):
    for i in range(2):
        if x.sum() > i:
            return x, x * 2
        x = x - 1
    return x, x


@ms.jit
def return_tuple_in_tensor_while(x):
    w = 0
    while w < 3 and x.sum() > -100:
        w += 1
        if x.sum() > 4:
            return x, x * 2
        x = x + 1
    return x, x


def test_early_return_of_a_tuple_inside_a_loop():
    # was a compiler bug (fixed in 8f8b7b6): 'differently structured values' TypeError
    for v in (X, NX, Y):
        check(return_tuple_in_loop, v)
        check(return_tuple_in_tensor_while, v)


@ms.jit
def assigned_where_no_return(x):
    if x.sum() > 0:
        a = x
    else:
        if x.min() < -1:
            return x
        a = -x
    return a * 2


@ms.jit
def assigned_where_no_break(x):
    for e in x:
        if e > 0:
            if e > 1.5:
                break
            a = e
        else:
            a = -e
        x = x + a
    return x


@ms.jit
def assigned_where_no_continue(x):
    s = x * 0
    for i in range(3):
        if x.sum() > i:
            continue
        else:
            a = x * i
        s = s + a
    return s


# Regression (found by the differential test): the statements after a jump are guarded
# by `if not <flag>:`; a variable assigned only where no jump happened used to be
# Undefined after that tensor if. The jumped path gets a placeholder now (it never reads
# the variable), as MindSpore runs these programs.


@pytest.mark.parametrize("jf", [assigned_where_no_return, assigned_where_no_break,
                                assigned_where_no_continue], ids=["return", "break", "continue"])
def test_variable_assigned_where_no_jump_happened(jf):
    for v in (X, NX, f32(0.1, 0.2)):
        check(jf, v)


# ------------------------------------------------------------------ conditions

@ms.jit
def conditions(x, y):
    if not (x.sum() > y.sum()) and x.max() > 0:
        x = x + 1
    if x.sum() > 100 or y.min() < 0:
        y = y * 2
    if 0 < x.sum() <= 10:
        x = x * 3
    z = x if x.mean() > y.mean() else y
    k = 1 if x.sum() > 0 else 2  # Python numbers joined into a tensor
    return z * k, x, y


@ms.jit
def python_conditions(x, n):
    for i in range(n):
        if i % 2 == 0 and n > 2:
            x = x + i
        elif not i:
            x = x * 2
    return x


def test_tensor_and_python_conditions():
    for a, b in ((X, Y), (NX, Y), (Y, X), (X, X)):
        check(conditions, a, b)
    check(python_conditions, X, 4)
    check(python_conditions, X, 1)
    python_conditions(X, 4)
    assert ms.compile_info(python_conditions).count("Switch") == 0  # Python folds it


@ms.jit
def mixed_and(x, y):
    if (x.sum() > 0) and y.sum():
        return x * 2
    return x


def test_tensor_and_with_operands_of_different_types_never_silently_differs():
    """Like MindSpore, the compiler may reject ``bool_tensor and float_tensor`` (their
    values are joined); it must never give a different answer."""
    problem = graph_vs_eager(mixed_and, X, Y)
    assert problem is None or ("TypeError" in problem and "only graph raised" in problem)


# ------------------------------------------------------------------ variables and errors

@ms.jit
def defined_in_one_branch(x):
    if x.sum() > 0:
        z = x * 2
    return z


def test_variable_defined_in_one_branch_raises_name_error():
    assert defined_in_one_branch.fn(X).asnumpy().tolist() == [2.0, 4.0]
    with pytest.raises(NameError, match="'z'"):
        defined_in_one_branch(X)


@ms.jit
def one_branch_but_unused(x):
    if x.sum() > 0:
        z = x * 2
        x = z + 1
    return x


def test_variable_defined_in_one_branch_but_unused_is_fine():
    check(one_branch_but_unused, X)
    check(one_branch_but_unused, NX)


@ms.jit
def dtype_differs(x):
    if x.sum() > 0:
        z = x * 2
    else:
        z = x.astype(ms.int64)
    return z


def test_dtype_differing_between_branches_raises_type_error_naming_both_lines():
    with pytest.raises(TypeError) as info:
        dtype_differs(X)
    msg = str(info.value)
    assert "'z'" in msg
    assert "z = x * 2" in msg and "z = x.astype(ms.int64)" in msg
    lines = [i for i, s in enumerate(Path(__file__).read_text().splitlines(), 1)
             if s.strip() in ("z = x * 2", "z = x.astype(ms.int64)")]
    start = dtype_differs.fn.__code__.co_firstlineno
    mine = [n for n in lines if start < n < start + 8]
    assert len(mine) == 2 and all(f":{n}" in msg for n in mine), (mine, msg)


@ms.jit
def dtype_differs_but_dead(x):
    if x.sum() > 0:
        z = x * 2
    else:
        z = x.astype(ms.int64)  # noqa: F841 - dead on purpose
    return x + 1


# Regression: a variable nobody reads is not carried out of a converted statement, so its
# type may differ between the branches of a tensor if (MindSpore runs this too).
def test_dead_variable_with_different_branch_types_is_fine():
    check(dtype_differs_but_dead, X)


@ms.jit
def loop_changes_shape(x):
    a = x.sum()
    while a.sum() < 5:
        a = a + x
    return a


def test_loop_variable_changing_shape_raises_type_error_naming_it():
    with pytest.raises(TypeError, match="'a'"):
        loop_changes_shape(X)


# ------------------------------------------------------------------ functions

def helper_with_return(u, v):
    if u.sum() > v.sum():
        return u - v
    w = 0
    while w < 2 and u.sum() < 10:
        w += 1
        u = u * 2
    return u


@ms.jit
def calls_nested_functions(x, y):
    scale = x.max()

    def inner(u):
        if u.sum() > scale:
            return u * scale
        return u

    if x.sum() > 0:
        x = inner(x)
    else:
        x = inner(-x)
    return helper_with_return(x, y) + inner(y)


def test_nested_and_module_functions_are_converted():
    for a, b in ((X, Y), (NX, Y), (Y, X)):
        check(calls_nested_functions, a, b)
    calls_nested_functions(X, Y)
    info = ms.compile_info(calls_nested_functions)
    assert info.count("Switch") >= 3 and info.count("While") >= 1


def power_of_two(u, n):
    if n == 0:
        return u
    return power_of_two(u * 2, n - 1)


@ms.jit
def calls_recursive(x):
    return power_of_two(x, 3)


def test_recursive_helper_with_python_depth():
    # was a compiler bug: KeyError in ast_convert._bind (the converted def bound its own
    # name inside _gk_factory, so a self-reference became an unknown free variable)
    check(calls_recursive, X)


@ms.jit
def closure_sees_branch_assignment(x):
    a = x

    def g(u):
        return u + a

    if x.sum() > 0:
        a = x * 10
        x = g(x)
    return x


@ms.jit
def closure_sees_loop_assignment(x):
    a = x

    def g(u):
        return u + a

    for _ in range(2):
        a = a * 2
        x = g(x)
    return x


# Regression: converted bodies used to shadow the variable with a parameter, so a closure
# called inside read the value from before the body assigned it (silently wrong; MindSpore
# 2.10 does the same). Captured variables are now written through the shared cell.
@pytest.mark.parametrize("jf", [closure_sees_branch_assignment, closure_sees_loop_assignment],
                         ids=["if", "for"])
def test_closure_sees_assignments_made_in_converted_bodies(jf):
    check(jf, X)


# ------------------------------------------------------------------ containers

@ms.jit
def tuple_state(x, y):
    p = (x, y)
    if x.sum() > y.sum():
        p = (p[1], p[0])
    w = 0
    while w < 3 and p[0].sum() < 10:
        w += 1
        p = (p[0] + p[1], p[1])
    return p[0] - p[1]


@ms.jit
def list_item_assign(x):
    acc = [x, x]
    if x.sum() > 0:
        acc[1] = x * 2
    return acc[0] + acc[1]


def test_tuple_and_list_item_state():
    for a, b in ((X, Y), (Y, X)):
        check(tuple_state, a, b)
    check(list_item_assign, X)
    check(list_item_assign, NX)


@ms.jit
def list_append_in_tensor_if(x):
    acc = [x]
    if x.sum() > 0:
        acc.append(x * 2)
    else:
        acc.append(x)
    return acc[0] + acc[1]


@ms.jit
def list_append_in_tensor_while(x):
    acc = [x]
    w = 0
    while w < 3 and x.sum() < 100:
        w += 1
        acc.append(x)
        x = x + 1
    return x * len(acc)


# Regression: `acc.append(v)` in a converted body makes `acc` a branch/loop variable (the
# converter used to look for it after rewriting calls, and missed it). A tensor while that
# grows a list changes its structure per iteration and is rejected (as MindSpore does).


def test_list_append_in_tensor_if():
    check(list_append_in_tensor_if, X)


def test_list_append_in_tensor_while_is_right_or_raises():
    problem = graph_vs_eager(list_append_in_tensor_while, X)
    assert problem is None or problem.startswith("only graph raised"), problem


# ------------------------------------------------------------------ effects in branches

class AssignInBranch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")

    def construct(self, x):
        if x.sum() > 1:
            ops.assign(self.p, x)
        return self.p * 1


class AssignInLoopBranch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")

    def construct(self, x):
        for e in x:
            if e > 0:
                ops.assign_add(self.p, x)
        return self.p + 0


def _cell_both_modes(cls, x):
    out = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        net = cls()
        out[mode] = (net(x).asnumpy().tolist(), net.p.asnumpy().tolist())
    return out[ms.PYNATIVE_MODE], out[ms.GRAPH_MODE]


# These three were a compiler bug (fixed concurrently): a branch whose only result is the
# new U/IO state was never called (codegen dropped calls with a monad abstract).

def test_assign_in_tensor_if_branch():
    eager, graph = _cell_both_modes(AssignInBranch, f32(1.0, 0.5))
    assert eager == ([1.0, 0.5], [1.0, 0.5])
    assert graph == eager


def test_assign_in_tensor_if_inside_loop():
    eager, graph = _cell_both_modes(AssignInLoopBranch, f32(1.0, 0.5))
    assert graph == eager


@ms.jit
def print_in_branch(x):
    if x.sum() > 0:
        print("positive branch ran")
    return x * 2


def test_print_only_branch_runs(capsys):
    print_in_branch(X)
    assert "positive branch ran" in capsys.readouterr().out


# ------------------------------------------------------------------ compile cache

@ms.jit
def shapes_and_dtypes(x):
    if x.sum() > 0:
        x = x * 2
    return x


def test_recompiles_on_new_shape_or_dtype_only():
    jf = ms.jit(shapes_and_dtypes.fn)
    jf(X)
    assert len(jf._cache.entries) == 1
    jf(NX)
    jf(Y)  # same signature, other values: no recompilation
    assert len(jf._cache.entries) == 1
    jf(f32(1.0, 2.0, 3.0))  # new shape
    assert len(jf._cache.entries) == 2
    jf(Tensor(np.array([1, 2], np.int64)))  # new dtype
    assert len(jf._cache.entries) == 3
    jf(f32(4.0))  # 0-d
    assert len(jf._cache.entries) == 4
    jf(f32(5.0, 6.0, 7.0))
    jf(Tensor(np.array([3, -4], np.int64)))
    assert len(jf._cache.entries) == 4
    for v in (X, NX, f32(1.0, 2.0, 3.0), Tensor(np.array([1, 2], np.int64)), f32(-4.0)):
        check(jf, v)


def test_python_scalar_arguments_are_part_of_the_signature():
    jf = ms.jit(python_conditions.fn)
    jf(X, 2)
    jf(X, 2)
    assert len(jf._cache.entries) == 1
    jf(X, 3)
    assert len(jf._cache.entries) == 2


# ------------------------------------------------------------------ loops over iterators

def _rest_after_break(x):
    items = zip(list(enumerate([x, x, x])))
    for item in items:
        if item[0][0] == 1:
            break
    return list(items)


@pytest.mark.parametrize("capture_mode", ["ast", "bytecode"])
def test_a_loop_that_breaks_leaves_the_rest_of_an_iterator(capture_mode):
    """The item after the break is not taken from the iterator (Python's order)."""
    x = f32(1.0)
    want = _rest_after_break(x)
    got = ms.jit(_rest_after_break, capture_mode=capture_mode)(x)
    assert len(want) == len(got) == 1
    assert got[0][0][0] == 2
    np.testing.assert_array_equal(got[0][0][1].asnumpy(), x.asnumpy())


def test_jit_of_a_bound_construct_converts_its_control_flow():
    """``jit(function=net.construct)`` compiles the method (a Parameter condition)."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Parameter(f32(5.0), name="a")
            self.b = Parameter(f32(4.0), name="b")

        def construct(self, x):
            if self.a > self.b:
                return x + 1
            return x + 2

    net = Net()
    compiled = ms.jit(function=net.construct, capture_mode="ast")
    np.testing.assert_array_equal(compiled(X).asnumpy(), net(X).asnumpy())
    net.b.set_data(f32(6.0))
    np.testing.assert_array_equal(compiled(X).asnumpy(), (X + 2).asnumpy())


def test_an_axis_joined_under_a_tensor_condition_is_read_when_the_graph_runs():
    """ExpandDims of an int chosen by a weight comparison: the output's dimensions are known
    when the graph runs (MindSpore 2.10 gives (2, 1, 3), then (2, 3, 1) once b > a)."""
    a = Parameter(f32(5.0), name="a_axis")
    b = Parameter(f32(4.0), name="b_axis")

    def f(x):
        if a > b:
            axis = 1
        else:
            axis = 2
        return ops.ExpandDims()(x, axis) * 2

    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    jf = ms.jit(f)
    assert jf(x).shape == (2, 1, 3)
    check(jf, x)
    np.testing.assert_array_equal(ms.grad(jf)(x).asnumpy(), np.full((2, 3), 2, np.float32))
    b.set_data(f32(6.0))
    assert jf(x).shape == (2, 3, 1)
    check(jf, x)
    np.testing.assert_array_equal(ms.grad(jf)(x).asnumpy(), np.full((2, 3), 2, np.float32))
