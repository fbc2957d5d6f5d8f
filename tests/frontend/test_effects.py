"""Side effects in graphs: Assign/Print order through loops and branches equals PYNATIVE,
Depend orders unrelated ops, and passes never drop or reorder effects."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops


def t(*v):
    return Tensor(np.array(v, np.float32))


class Interleaved(nn.Cell):
    """Print and Assign on the same weight inside a Python loop, a tensor loop and
    tensor branches."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(t(1.0), name="w")

    def construct(self, x):
        i = 0
        while i < 2:  # Python loop (unrolled)
            ops.Print()("step", self.w)
            ops.assign(self.w, self.w * 2)
            if x > 0:  # tensor branch
                ops.assign(self.w, self.w + x)
                ops.Print()("pos", self.w)
            else:
                ops.Print()("neg", self.w)
            i += 1
        k = x * 0
        while k < 3:  # tensor loop
            ops.Print()("loop", k, self.w)
            ops.assign(self.w, self.w - 1)
            if self.w > 4:
                ops.assign(self.w, self.w * 0.5)
                ops.Print()("halved", self.w)
            k = k + 1
        return self.w * 1


def _as_graph_prints(text: str) -> str:
    """PyNative Print text of 1-D tensors written the graph kernel's way."""
    lines = []
    for line in text.splitlines(keepends=True):
        head, sep, value = line.partition("value= ")
        lines.append(head + "value=" + value.replace(",", "") if sep else line)
    return "".join(lines)


@pytest.mark.parametrize("x", [1.0, -1.0])
def test_print_and_assign_order_graph_equals_pynative(x, capsys):
    outs, texts = [], []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        net = Interleaved()
        out = net(t(x))
        outs.append((out.asnumpy().tolist(), net.w.asnumpy().tolist()))
        texts.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    # the same values in the same order; inside a graph MindSpore's Print writes tensors
    # without commas and with no space after "value=" (tests/compat/test_print_format.py)
    assert _as_graph_prints(texts[0]) == texts[1]
    assert texts[0].count("loop") == 3 and texts[0].startswith("step\n")


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.n = Parameter(Tensor(np.array(0, np.int32)), name="n")

    def construct(self, x):
        ops.assign_add(self.n, Tensor(np.array(1, np.int32)))
        return x + 1


def test_unused_effect_is_not_dropped():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Counter()
    for _ in range(3):
        net(t(1.0))
    assert int(net.n) == 3


def test_cse_never_merges_two_assigns():
    class Twice(nn.Cell):
        def __init__(self):
            super().__init__()
            self.n = Parameter(Tensor(np.array(0, np.int32)), name="n")

        def construct(self, x):
            ops.assign_add(self.n, Tensor(np.array(1, np.int32)))
            ops.assign_add(self.n, Tensor(np.array(1, np.int32)))
            return x

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Twice()
    net(t(1.0))
    assert int(net.n) == 2
    assert ms.compile_info(net).count("AssignAdd") == 2


def test_value_read_before_a_write_keeps_its_value():
    class ReadThenWrite(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t(1.0), name="w")

        def construct(self, x):
            before = self.w * 1
            ops.assign(self.w, x)
            return before + self.w

    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        assert ReadThenWrite()(t(5.0)).asnumpy().tolist() == [6.0]


def test_depend_orders_a_print_before_a_computation(capsys):
    @ms.jit
    def f(x):
        p = ops.Print()("first")
        y = ops.Depend()(x, p)
        return y * 2

    assert f(t(3.0)).asnumpy().tolist() == [6.0]
    assert capsys.readouterr().out == "first\n"


def test_print_in_graph_runs_at_run_time_each_call(capsys):
    @ms.jit
    def f(x):
        print("value:", x)
        return x

    f(t(1.0))
    f(t(2.0))
    out = capsys.readouterr().out
    assert out.count("value:") == 2 and "2.0" in out.split("value:")[2]


def test_assign_to_a_tensor_argument_writes_the_callers_tensor():
    """As MindSpore 2.10 (2.0 and 2.0); more in test_inplace_inputs.py."""
    @ms.jit
    def f(x):
        ops.assign(x, x + 1)
        return x

    x = t(1.0)
    assert f(x).asnumpy() == 2.0 and x.asnumpy() == 2.0


def test_assign_to_a_string_is_an_error():
    @ms.jit
    def f(x):
        ops.assign("x", x + 1)
        return x

    with pytest.raises(TypeError) as e:
        f(t(1.0))
    assert "Parameter" in str(e.value) and "ops.assign(\"x\", x + 1)" in str(e.value)


def test_for_over_a_weight_reads_each_element_after_the_writes_before_it():
    """``for e in w`` with ``w`` a weight written in the body: each element is read when its
    iteration starts (MindSpore 2.10 gives 0.61461085 in both modes, as NumPy below)."""
    w = Parameter(Tensor(np.array([0.9, 0.5], np.float32)), name="w")

    def f(x):
        u = w
        for e in u:
            ops.assign(w, ops.tanh(-e) + w * 0.0)
        return w + 0

    want = np.tanh(-np.tanh(np.float32(-0.9)))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        w.set_data(Tensor(np.array([0.9, 0.5], np.float32)))
        g = f if mode == ms.PYNATIVE_MODE else ms.jit(f)
        np.testing.assert_allclose(g(Tensor(1.0)).asnumpy(), [want, want], rtol=1e-6)
    ms.set_context(mode=ms.PYNATIVE_MODE)
