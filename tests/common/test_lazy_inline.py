"""@lazy_inline: one reusable graph per distinct block, calls per use, same results."""
import warnings

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.common import lazy_inline


class Config:
    def __init__(self, hidden=8, layers=6):
        self.hidden = hidden
        self.num_layers = layers


class Block(nn.Cell):
    @lazy_inline
    def __init__(self, config, scale=1.0):
        super().__init__()
        self.fc = nn.Dense(config.hidden, config.hidden)
        self.norm = nn.LayerNorm((config.hidden,))
        self.scale = scale
        self.mode = 0

    def construct(self, x):
        h = self.norm(self.fc(x))
        if self.mode == 0:
            return x + h * self.scale
        return x - h * self.scale


class Inlined(Block):
    def __init__(self, config, scale=1.0):  # same block without the decorator
        nn.Cell.__init__(self)
        self.fc = nn.Dense(config.hidden, config.hidden)
        self.norm = nn.LayerNorm((config.hidden,))
        self.scale = scale
        self.mode = 0


class Model(nn.Cell):
    def __init__(self, config, block=Block):
        super().__init__()
        self.blocks = nn.CellList([block(config) for _ in range(config.num_layers)])
        self.num_layers = config.num_layers

    def construct(self, x):
        for i in range(self.num_layers):
            x = self.blocks[i](x)
        return x


def _x():
    return ms.Tensor(np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32))


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


def test_cell_init_args_is_recorded():
    b = Block(Config(), scale=2.0)
    assert b.cell_init_args.startswith("Block(") and "scale=2.0" in b.cell_init_args


def test_blocks_share_one_graph_and_give_the_inlined_result():
    ms.set_seed(1)
    lazy = Model(Config())
    ms.set_seed(1)
    plain = Model(Config(), Inlined)
    x = _x()
    np.testing.assert_allclose(lazy(x).asnumpy(), plain(x).asnumpy(), rtol=1e-6)
    li, pi = ms.compile_info(lazy), ms.compile_info(plain)
    assert li.subgraphs == 2 and pi.subgraphs == 1
    calls = [line for line in li.ir().splitlines() if "= @Block_construct_reusable(" in line]
    assert len(calls) == 6
    assert li.nodes < pi.nodes


def test_pynative_ignores_reuse_and_matches():
    ms.set_seed(1)
    model = Model(Config())
    x = _x()
    graph = model(x).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(model(x).asnumpy(), graph, rtol=1e-6)


def test_micro_batch_loop_calls_the_same_instance():
    class Pipeline(nn.Cell):
        def __init__(self, network, micro_size):
            super().__init__()
            self.network = network
            self.micro_size = micro_size

        def construct(self, x):
            out = x * 0
            for _ in range(self.micro_size):
                out = out + self.network(x)
            return out

    ms.set_seed(2)
    pipe = Pipeline(Block(Config()), 4)
    x = _x()
    out = pipe(x)
    assert ms.compile_info(pipe).ir().count("= @Block_construct_reusable(") == 4
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), pipe(x).asnumpy(), rtol=1e-6)


def test_changed_attribute_gets_its_own_graph_with_a_warning():
    ms.set_seed(3)
    model = Model(Config(layers=3))
    model.blocks[0].mode = 1
    x = _x()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = model(x)
    assert any("mode" in str(w.message) for w in caught)
    assert ms.compile_info(model).subgraphs == 3  # one for mode=1, one shared
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), model(x).asnumpy(), rtol=1e-6)


def test_gradients_through_reused_blocks():
    ms.set_seed(4)
    lazy = Model(Config(layers=3))
    ms.set_seed(4)
    plain = Model(Config(layers=3), Inlined)
    x = _x()

    def loss(net):
        return lambda x: net(x).sum()

    gl = ms.grad(loss(lazy), grad_position=None, weights=lazy.trainable_params())(x)
    gp = ms.grad(loss(plain), grad_position=None, weights=plain.trainable_params())(x)
    for a, b in zip(gl, gp):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)


class Inner(nn.Cell):
    @lazy_inline
    def __init__(self, hidden):
        super().__init__()
        self.fc = nn.Dense(hidden, hidden)

    def construct(self, x):
        return ms.ops.tanh(self.fc(x))


class Outer(nn.Cell):
    @lazy_inline
    def __init__(self, hidden):
        super().__init__()
        self.inner = nn.CellList([Inner(hidden) for _ in range(3)])

    def construct(self, x):
        for i in range(3):
            x = self.inner[i](x)
        return x


def test_nested_lazy_cells_are_reused_at_every_level():
    class Top(nn.Cell):
        def __init__(self):
            super().__init__()
            self.outer = nn.CellList([Outer(8) for _ in range(4)])

        def construct(self, x):
            for i in range(4):
                x = self.outer[i](x)
            return x

    ms.set_seed(5)
    net = Top()
    x = _x()
    out = net(x)
    ir = ms.compile_info(net).ir()
    assert ms.compile_info(net).subgraphs == 3  # Top, Outer (shared), Inner (shared)
    assert ir.count("= @Outer_construct_reusable(") == 4
    assert ir.count("= @Inner_construct_reusable(") == 3
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), net(x).asnumpy(), rtol=1e-6)


class _SumLoss(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.network = network

    def construct(self, x):
        return self.network(x).sum()


def _train_step_info(layers: int):
    model = Model(Config(layers=layers))
    step = nn.TrainOneStepCell(_SumLoss(model), nn.SGD(model.trainable_params(), 0.1))
    step(_x())
    return ms.compile_info(step)


def test_train_step_calls_the_block_and_its_backward_once_per_block():
    """The node cut of lazy_inline in training: each block's forward and backward stay
    calls of two shared graphs, so the block body's ops do not grow with the depth (they
    would, N-fold, if any pass inlined the reusable graphs)."""
    small, deep = _train_step_info(2), _train_step_info(6)
    assert small.subgraphs == deep.subgraphs == 3
    for info, layers in ((small, 2), (deep, 6)):
        text = info.ir()
        assert text.count("= @Block_construct_reusable(") == layers
        assert text.count("= @bprop_Block_construct_reusable(") == layers
    for prim in ("MatMul", "LayerNorm"):
        assert deep.count(prim) == small.count(prim) > 0


def test_train_step_grows_per_block_by_the_calls_and_each_weights_update_only():
    """What an extra lazy block adds to a training step: its two calls and, for each of
    its 4 weights, the update (the weight, its two SGD states, the SGD node, its
    UpdateState, the gradient's TupleGetItem and index: 7 nodes). The optimizer's reads of
    the learning rate and momentum between the updates are one Load each, whatever the
    depth (they were 2 Loads and an UpdateState per weight: 46 nodes a block)."""
    small, deep = _train_step_info(2), _train_step_info(6)
    assert deep.count("Load") == small.count("Load")
    per_block = (deep.nodes - small.nodes) / 4
    assert per_block <= 7 * 4 + 8, per_block


def test_blocks_run_from_python_first_still_share_one_graph():
    """A block's first call from Python (PyNative, or a block tried out on its own) marks
    its parameter names checked: bookkeeping, not an attribute the graph depends on, so
    the blocks still share one graph, without a warning."""
    model = Model(Config())
    x = _x()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    want = model(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(model(x).asnumpy(), want, rtol=1e-6)
    calls = [line for line in ms.compile_info(model).ir().splitlines()
             if "= @Block_construct_reusable(" in line]
    assert len(calls) == 6
