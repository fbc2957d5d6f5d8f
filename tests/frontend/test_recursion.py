"""Recursion with a tensor stopping condition: a recursive graph call (MindSpore-recorded
values are in ``fixtures/ms_programs.py``, programs ``recursion_*``); here the graph
itself, finite-difference gradients, the compile cache and the errors."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops
from graphkiln.backend.codegen import generate
from graphkiln.ir import serialize
from graphkiln.ir.anf import all_graphs, subgraphs_of

REPO = Path(__file__).resolve().parents[2]


def f64(v):
    return Tensor(np.array(v, np.float64))


def scaled(x, n):
    if n > 0:
        return scaled(x * 0.5, n - 1) + x
    return x * x


@ms.jit
def scaled_jit(x, n):
    return scaled(x, n)


def scaled_reference(x, n):
    return scaled_reference(x * 0.5, n - 1) + x if n > 0 else x * x


def _cycles(graph) -> list:
    """The graphs of the family that reach themselves again through what they call."""
    return [g for g in all_graphs(graph) if any(g in all_graphs(s) for s in subgraphs_of(g))]


def test_tensor_condition_compiles_one_recursive_graph_for_every_depth():
    ms.set_context(mode=ms.GRAPH_MODE)
    # a shape no other test calls with: compile_info reports the last compile, and a
    # signature compiled by an earlier test would not compile here
    x = f64([3.0, -1.0, 0.25, 7.0, -2.5])
    for n in (0, 1, 4, 9):
        np.testing.assert_allclose(scaled_jit(x, Tensor(n, ms.int32)).asnumpy(),
                                   scaled_reference(x.asnumpy(), n))
    info = ms.compile_info(scaled_jit)
    recursive = [g for g in all_graphs(info.graph) if g.flags.get("recursive")]
    assert len(recursive) == 1 and recursive[0].name == "scaled"
    assert recursive[0] in _cycles(info.graph)
    assert "@scaled(" in info.ir()


def test_python_int_condition_still_unrolls():
    ms.set_context(mode=ms.GRAPH_MODE)
    out = scaled_jit(f64([2.0]), 3)
    np.testing.assert_allclose(out.asnumpy(), scaled_reference(np.array([2.0]), 3))
    assert not _cycles(ms.compile_info(scaled_jit).graph)


def test_pynative_equals_graph():
    x = f64([0.7, -2.0])
    results = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        results[mode] = [scaled_jit(x, Tensor(n, ms.int32)).asnumpy() for n in (0, 2, 5)] + \
            [ops.grad(scaled)(x, Tensor(3, ms.int32)).asnumpy()]
    for a, b in zip(results[ms.PYNATIVE_MODE], results[ms.GRAPH_MODE]):
        np.testing.assert_allclose(a, b)


def _finite_difference(fn, x: np.ndarray, eps=1e-6) -> np.ndarray:
    grad = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d.flat[i] = eps
        grad.flat[i] = (fn(x + d).sum() - fn(x - d).sum()) / (2 * eps)
    return grad


def odd_step(x, n):
    if n > 0:
        return even_step(ops.sin(x) * x, n - 1)
    return x


def even_step(x, n):
    if n > 0:
        return odd_step(x * x + 1, n - 1) * 0.5
    return ops.exp(x)


@pytest.mark.parametrize("fn", [scaled, odd_step], ids=["self", "mutual"])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_gradient_matches_finite_differences(fn, n):
    ms.set_context(mode=ms.GRAPH_MODE)
    x = np.array([0.3, -0.8, 1.1])
    grad = ms.jit(ops.grad(fn))(f64(x), Tensor(n, ms.int32)).asnumpy()
    forward = ms.jit(fn)
    fd = _finite_difference(lambda v: forward(f64(v), Tensor(n, ms.int32)).asnumpy(), x)
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-8)


class Unrolled(nn.Cell):
    """A weight applied by a method that calls itself (MindSpore 2.10 refuses a method
    recursing through ``self`` with its call depth error; graphkiln compiles it)."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([0.5, -1.5])), name="w")

    def apply(self, x, n):
        if n > 0:
            return self.apply(ops.tanh(x * self.w), n - 1) + 1
        return x

    def construct(self, x, n):
        return self.apply(x, n)


def test_cell_method_recursion_reads_weights_and_differentiates_them():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Unrolled()
    x, w = np.array([0.4, 0.9]), net.w.asnumpy().copy()

    def reference(w_, n=3):
        v = x
        for _ in range(n):
            v = np.tanh(v * w_)
        return v + n

    np.testing.assert_allclose(net(f64(x), Tensor(3, ms.int32)).asnumpy(), reference(w))
    grads = ms.jit(ops.GradOperation(get_by_list=True)(net, net.trainable_params()))(
        f64(x), Tensor(3, ms.int32))
    np.testing.assert_allclose(grads[0].asnumpy(), _finite_difference(reference, w), rtol=1e-6)


def test_serialized_graph_round_trips_with_its_cycle():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = f64([1.5, 2.0])
    f = ms.jit(scaled)
    expected = f(x, Tensor(6, ms.int32)).asnumpy()
    graph = serialize.loads(serialize.dumps(ms.compile_info(f).graph))
    assert [g.name for g in _cycles(graph) if g.flags.get("recursive")] == ["scaled"]
    fn, _ = generate(graph)
    np.testing.assert_allclose(fn(x.asnumpy(), np.array(6, np.int32)), expected)


CACHED = textwrap.dedent('''
    import sys
    import numpy as np
    import graphkiln as ms

    def walk(x, n):
        if n > 0:
            return walk(x * 3, n - 1) - 1
        return x

    ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True,
                   compile_cache_path=sys.argv[1])
    f = ms.jit(walk)
    out = f(ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(4, ms.int32))
    print("RESULT", out, ms.compile_info(f).from_cache)
''')


def test_compile_cache_stores_and_loads_a_recursive_graph(tmp_path):
    script = tmp_path / "walk.py"
    script.write_text(CACHED)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    outs = [subprocess.run([sys.executable, str(script), str(tmp_path / "cache")],
                           capture_output=True, text=True, env=env, timeout=120)
            for _ in range(2)]
    assert all(p.returncode == 0 for p in outs), outs[-1].stderr
    assert "RESULT [ 77. 158.] False" in outs[0].stdout
    assert "RESULT [ 77. 158.] True" in outs[1].stdout


def test_deep_recursion_at_run_time_restores_the_frame_limit():
    ms.set_context(mode=ms.GRAPH_MODE)
    before = sys.getrecursionlimit()
    assert scaled_jit(f64([0.0]), Tensor(3000, ms.int32)).asnumpy() == [0.0]
    assert sys.getrecursionlimit() == before


@ms.jit
def every_path_recurses(x):
    if x > 0:
        return every_path_recurses(x - 1)
    return every_path_recurses(x + 2)


def test_endless_recursion_names_the_function_and_line():
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(RuntimeError, match="There isn't any branch that can be evaluated") \
            as e:
        every_path_recurses(Tensor([1], ms.int32))
    line = every_path_recurses.fn.__code__.co_firstlineno
    assert f"{__file__}:{line}" in str(e.value)
    assert "infinite recursion or loop" in str(e.value)


def grow(x, k):
    if k < 10 ** 9:
        return grow(x + 1, k + 1)
    return x


def test_python_recursion_past_the_limit_is_the_call_depth_error():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_recursion_limit(40)
    with pytest.raises(RuntimeError, match="Exceed function call depth limit 40") as e:
        ms.jit(grow)(f64(0.0), 0)
    assert f"{__file__}:{grow.__code__.co_firstlineno}" in str(e.value)
    ms.set_context(max_call_depth=30)  # MindSpore: set_recursion_limit, once set, wins
    with pytest.raises(RuntimeError, match="Exceed function call depth limit 40"):
        ms.jit(grow)(f64(1.0), 0)


def test_max_call_depth_bounds_unrolling():
    ms.set_context(mode=ms.GRAPH_MODE, max_call_depth=25)
    with pytest.raises(RuntimeError, match="Exceed function call depth limit 25"):
        ms.jit(grow)(f64(0.0), 0)


@pytest.mark.parametrize("bad, error, phrase", [
    (0, ValueError, "must > 0, but got '0'"), (-3, ValueError, "must > 0"),
    (2.5, TypeError, "must be int, but got 'float'"), ("9", TypeError, "'str'")])
def test_set_recursion_limit_checks_its_input(bad, error, phrase):
    with pytest.raises(error, match=phrase):
        ms.set_recursion_limit(bad)


class PrintsEachLevel(nn.Cell):
    def construct(self, x, n):
        if n > 0:
            print("level", n)
            return self.construct(x + 1, n - 1)
        return x


def test_print_in_a_recursive_function_runs_at_each_level(capfd):
    ms.set_context(mode=ms.GRAPH_MODE)
    out = PrintsEachLevel()(f64([1.0]), Tensor(2, ms.int32))
    assert out.asnumpy() == [3.0]
    # MindSpore 2.10 prints the same lines, in this order
    assert capfd.readouterr().out.split() == ["level", "2", "level", "1"]


def inside_loop(x, n):
    i = Tensor(0, ms.int32)
    while i < n:
        x = inside_loop(x * 0.5, n - 1) + x
        i = i + 1
    return x


def test_recursive_call_inside_a_tensor_while():
    # (MindSpore 2.10 never finishes compiling this one)
    def reference(x, n):
        for _ in range(n):
            x = reference(x * 0.5, n - 1) + x
        return x

    ms.set_context(mode=ms.GRAPH_MODE)
    f = ms.jit(inside_loop)
    x = f64([1.0, -2.0])
    for n in range(4):
        np.testing.assert_allclose(f(x, Tensor(n, ms.int32)).asnumpy(),
                                   reference(x.asnumpy(), n))
