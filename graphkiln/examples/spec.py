"""One function per technique of the spec, each returning a short result text and raising
``AssertionError`` when graphkiln's result differs from the spec's."""
from __future__ import annotations

import numpy as np

import graphkiln as ms
from graphkiln import Parameter, Tensor, context, nn, ops
from graphkiln.ops import composite as C
from graphkiln.ops import functional as F


@ms.jit
def func(input_x, input_y):
    output = input_x
    for _ in range(200):
        output = input_x + input_x * input_y + output
    return output


def compile_func() -> str:
    out = func(ms.Tensor([1], ms.float32), ms.Tensor([2], ms.float32))
    assert str(out) == "[601.]", out
    info = ms.compile_info(func)
    return (f"out {out}; {info.stage('parse').cnodes} -> {info.cnodes} cnodes; "
            f"compile {info.total_seconds * 1e3:.1f} ms")


@ms.jit
def if_net(x, y):
    out = 0
    for _ in range(100):
        if x < y:
            x = x - y
        else:
            x = x + y
        out = out + x
    return out


@ms.jit
def select_net(x, y):
    out = x
    for _ in range(100):
        cond = x < y
        x = ops.select(cond, x - y, x + y)
        out = out + x
    return out


def if_vs_select() -> str:
    a = if_net(ms.Tensor([0]), ms.Tensor([1]))
    b = select_net(ms.Tensor([0]), ms.Tensor([1]))
    assert a.asnumpy().tolist() == b.asnumpy().tolist() == [-5050], (a, b)
    ia, ib = ms.compile_info(if_net), ms.compile_info(select_net)
    return (f"both {a}; if: {ia.count('Switch')} Switch, {ia.subgraphs} graphs, "
            f"{ia.total_seconds * 1e3:.0f} ms; select: {ib.subgraphs} graph, "
            f"{ib.total_seconds * 1e3:.0f} ms")


add = ops.MultitypeFuncGraph("add")


@add.register("Tensor", "Tensor")
def add_tensor(x, y):
    return ops.add(x, y)


add_map = ops.HyperMap(add)
list1 = [Tensor(i) for i in range(200)]
list2 = [Tensor(i) for i in range(200)]


@ms.jit
def hyper_map_net():
    output = add_map(list1, list2)
    return output


@ms.jit
def for_loop_net():
    out = []
    for i in range(200):
        out.append(ops.add(list1[i], list2[i]))
    return out


def hypermap() -> str:
    a, b = hyper_map_net(), for_loop_net()
    assert [int(x) for x in a] == [int(y) for y in b] == [2 * i for i in range(200)]
    ha, hb = ms.compile_info(hyper_map_net), ms.compile_info(for_loop_net)
    return (f"same 200 values; nodes {ha.nodes} (HyperMap) vs {hb.nodes} (loop); "
            f"{ha.total_seconds * 1e3:.1f} vs {hb.total_seconds * 1e3:.1f} ms")


@ms.jit_class
class InnerNet:
    def __init__(self, val):
        self.number = val

    def act(self, x, y):
        return self.number * (x + y)

    def __call__(self, x, y):
        return self.number * (x + y)


class JitClassNet(nn.Cell):
    def __init__(self):
        super(JitClassNet, self).__init__()
        self.inner_net = InnerNet(2)

    def construct(self, x, y):
        return self.inner_net.number + self.inner_net.act(x, y) + InnerNet(2)(x, y)


def jit_class() -> str:
    context.set_context(mode=context.GRAPH_MODE)
    x = ms.Tensor(2, dtype=ms.int32)
    y = ms.Tensor(3, dtype=ms.int32)
    out = JitClassNet()(x, y)
    assert int(out) == 22, out
    try:
        @ms.jit_class
        class Net(nn.Cell):
            pass
    except TypeError as e:
        err = str(e)
    assert err.endswith(".<locals>.Net'>."), err  # MindSpore 2.10 writes the class repr
    return f"12 + 10 = {out}; jit_class on a Cell: TypeError"


class StatusNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.alloc_status = ops.NPUAllocFloatStatus()
        self.get_status = ops.NPUGetFloatStatus()
        self.clear_status = ops.NPUClearFloatStatus()

    def construct(self, x):
        init = self.alloc_status()
        clear_status = self.clear_status(init)
        x = ops.Depend()(x, clear_status)
        res = ops.sub(x, ops.neg(x))
        init = ops.Depend()(init, res)
        get_status = self.get_status(init)
        res = ops.Depend()(res, get_status)
        return res


def depend_float_status() -> str:
    context.set_context(mode=context.GRAPH_MODE)
    x = Tensor(np.full((2, 3), 5, dtype=np.float16))
    res = StatusNet()(x)
    assert str(res) == "[[10. 10. 10.]\n [10. 10. 10.]]", res
    return "2x3 matrix of 10s (Float16), status ops ordered by 3 Depend"


class ForwardNet(nn.Cell):
    def __init__(self):
        super(ForwardNet, self).__init__()
        self.weight = Parameter(Tensor(np.array(0), ms.int32), name="param")

    def construct(self, x):
        out = 0
        i = 0
        while i < 3:
            F.assign(self.weight, i)
            out = x * self.weight + out
            i = i + 1
        return out


class BackwardNet(nn.Cell):
    def __init__(self, net):
        super(BackwardNet, self).__init__(auto_prefix=False)
        self.forward_net = net
        self.grad = C.GradOperation(get_all=True)

    def construct(self, *inputs):
        grads = self.grad(self.forward_net)(*inputs)
        return grads


def load_elim() -> str:
    import os
    context.set_context(mode=context.GRAPH_MODE)
    seen = []
    old = os.environ.get("MS_DEV_SIDE_EFFECT_LOAD_ELIM")
    try:
        for level in ("0", "1", "2", "3"):
            os.environ["MS_DEV_SIDE_EFFECT_LOAD_ELIM"] = level
            net = BackwardNet(ForwardNet())
            g = net(Tensor(np.array(1), ms.int32))
            seen.append(f"L{level}: {int(g[0])} ({ms.compile_info(net).count('TensorMove')} TM)")
    finally:
        if old is None:
            os.environ.pop("MS_DEV_SIDE_EFFECT_LOAD_ELIM", None)
        else:
            os.environ["MS_DEV_SIDE_EFFECT_LOAD_ELIM"] = old
    assert seen[1].startswith("L1: 3 (3 TM)") and seen[3].startswith("L3: 6 (0 TM)"), seen
    return "; ".join(seen)


class PrintAssignNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0], np.float32)), name="w")

    def construct(self, x):
        k = x * 0
        while k < 3:
            ops.assign(self.w, self.w * 2)
            if self.w > 3:
                ops.assign(self.w, self.w - x)
            k = k + 1
        return self.w * 1


def print_assign_order() -> str:
    results = []
    for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
        context.set_context(mode=mode)
        net = PrintAssignNet()
        results.append(float(net(Tensor(np.array([1.0], np.float32)))[0]))
    assert results[0] == results[1] == 5.0, results
    return f"weight after tensor loop + branches: PyNative {results[0]}, Graph {results[1]}"


class Config:
    def __init__(self, hidden=16, num_layers=24):
        self.hidden = hidden
        self.num_layers = num_layers


class Block(nn.Cell):
    @ms.lazy_inline
    def __init__(self, config):
        super().__init__()
        self.norm = nn.LayerNorm((config.hidden,))
        self.fc1 = nn.Dense(config.hidden, 4 * config.hidden)
        self.fc2 = nn.Dense(4 * config.hidden, config.hidden)
        self.act = nn.GELU()

    def construct(self, x):
        return x + self.fc2(self.act(self.fc1(self.norm(x))))


class GPT_Model(nn.Cell):
    def __init__(self, config):
        super().__init__()
        self.blocks = nn.CellList()
        for _ in range(config.num_layers):
            self.blocks.append(Block(config))
        self.num_layers = config.num_layers

    def construct(self, x):
        for i in range(self.num_layers):
            x = self.blocks[i](x)
        return x


def lazy_inline() -> str:
    context.set_context(mode=context.GRAPH_MODE)
    ms.set_seed(0)
    model = GPT_Model(Config())
    x = Tensor(np.linspace(-1, 1, 32, dtype=np.float32).reshape(2, 16))
    out = model(x)
    info = ms.compile_info(model)
    calls = info.ir().count("= @Block_construct_reusable(")
    context.set_context(mode=context.PYNATIVE_MODE)
    assert np.allclose(out.asnumpy(), model(x).asnumpy(), rtol=1e-5), "graph != pynative"
    assert calls == 24 and info.subgraphs == 2, (calls, info.subgraphs)
    return (f"24 Block instances -> 1 reusable graph + {calls} calls; {info.nodes} nodes; "
            f"compile {info.total_seconds * 1e3:.0f} ms")


def compile_cache() -> str:
    import shutil
    import tempfile
    import time
    path = tempfile.mkdtemp(prefix="graphkiln-tour-cache-")
    try:
        context.set_context(enable_compile_cache=True, compile_cache_path=path)
        x, y = ms.Tensor([1], ms.float32), ms.Tensor([2], ms.float32)
        times = []
        for _ in range(2):  # a fresh jit wrapper has an empty memory cache, like a new process
            fresh = ms.jit(func.fn)
            t0 = time.perf_counter()
            out = fresh(x, y)
            times.append(time.perf_counter() - t0)
            assert str(out) == "[601.]", out
        assert ms.compile_info(fresh).from_cache
    finally:
        shutil.rmtree(path, ignore_errors=True)
    return f"cold {times[0] * 1e3:.1f} ms, warm {times[1] * 1e3:.2f} ms " \
           f"({times[0] / times[1]:.0f}x faster; spec: ~7x)"


def hswish_func(x):
    return ops.HSwish()(x)


@ms.jit
def manually_batched(xs):
    output = []
    for i in range(xs.shape[0]):
        output.append(hswish_func(xs[i]))
    return ops.stack(output)


def vmap() -> str:
    import time
    shape = (100, 2)
    prop = 100
    x_np = (np.random.default_rng(0).standard_normal(shape) * prop).astype(np.float32)
    x = ms.Tensor(x_np)
    x = ops.sub(x, 0)
    t0 = time.perf_counter()
    output_vmap = ms.vmap(hswish_func, in_axes=(0,))(x)
    t1 = time.perf_counter()
    output_manually = manually_batched(x)
    t2 = time.perf_counter()
    assert np.array_equal(output_vmap.asnumpy(), output_manually.asnumpy())
    return (f"vmap equals the loop; first call {1e3 * (t1 - t0):.1f} ms vs "
            f"{1e3 * (t2 - t1):.1f} ms ({(t2 - t1) / (t1 - t0):.1f}x)")
