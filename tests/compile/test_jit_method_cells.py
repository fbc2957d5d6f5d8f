"""Cells without ``construct`` whose steps are ``@jit`` methods (reinforcement-learning
trainers): called inside a graph, or differentiated, such a cell runs the ``@jit`` method its
last call from Python ran, as MindSpore parses it. Expected values are MindSpore 2.10's
(tests/st/rl/test_cell_list_getattr.py's pattern) or derivatives worked by hand."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, jit, nn, ops
from graphkiln.ops import composite as C


class Actor(nn.Cell):
    def act(self, x, y):
        return x + y


@ms.jit_class
class PlainActor:
    def act(self, x, y):
        return x + y


class Trainer(nn.Cell):
    def __init__(self, agents):
        super().__init__()
        self.agents = agents

    @jit
    def test(self, x, y):
        n, out = 0, 0
        while n < 3:
            out += self.agents[n].act(x, y)
            n += 1
        return out


class GradNet(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.network = network
        self.grad = C.GradOperation()

    def construct(self, *inputs):
        return self.grad(self.network)(*inputs)


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("agents", [lambda: [Actor() for _ in range(3)],
                                    lambda: nn.CellList([Actor() for _ in range(3)]),
                                    lambda: [PlainActor() for _ in range(3)]])
def test_a_trainer_is_differentiated_through_its_jit_method(agents):
    trainer = Trainer(agents())
    x, y = Tensor([2], ms.int32), Tensor([3], ms.int32)
    assert trainer.test(x, y).asnumpy().tolist() == [15]  # MindSpore: [15]
    assert GradNet(trainer)(x, y).asnumpy().tolist() == [3]  # MindSpore: [3]


class TwoSteps(nn.Cell):
    @jit
    def double(self, x):
        return x * 2

    @jit
    def square(self, x):
        return x * x * 5


def test_the_last_method_run_is_the_one_differentiated():
    cell = TwoSteps()
    grad = GradNet(cell)
    x = Tensor([3.0], ms.float32)
    cell.double(x)
    assert grad(x).asnumpy().tolist() == [2.0]
    assert ops.grad(cell)(x).asnumpy().tolist() == [2.0]
    cell.square(x)
    # d(5x^2)/dx = 30 at 3: the graph of `grad` compiles again (MindSpore 2.10 keeps
    # running the graph it built for `double` and returns [2.])
    assert grad(x).asnumpy().tolist() == [30.0]
    cell.double(x)
    assert grad(x).asnumpy().tolist() == [2.0]


def test_a_cell_without_construct_still_refuses_a_direct_call():
    cell = TwoSteps()
    cell.double(Tensor([1.0], ms.float32))
    with pytest.raises(AttributeError, match="'construct' is not defined"):
        cell(Tensor([1.0], ms.float32))


class WithConstruct(nn.Cell):
    def construct(self, x):
        return x * 3

    @jit
    def other(self, x):
        return x - 100


class Outer(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def construct(self, x):
        return self.inner(x)


def test_a_cell_with_construct_runs_construct_in_a_graph_after_a_jit_method():
    inner = WithConstruct()
    x = Tensor(np.array([2.0], np.float32))
    assert inner.other(x).asnumpy().tolist() == [-98.0]
    # MindSpore 2.10 runs `other` here ([-98.]) until the cell itself is called again
    assert Outer(inner)(x).asnumpy().tolist() == [6.0]
    assert "__parse_method__" not in vars(inner)
