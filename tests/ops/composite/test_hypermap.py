"""MultitypeFuncGraph dispatch, HyperMap/Map semantics and the compact graph form."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, ParameterTuple, Tensor, nn, ops
from graphkiln.ops import HyperMap, Map, MultitypeFuncGraph
from graphkiln.ops.composite import partial

add = MultitypeFuncGraph("add")


@add.register("Tensor", "Tensor")
def _add_tt(x, y):
    return ops.add(x, y)


@add.register("Number", "Number")
def _add_nn(x, y):
    return x + y


@add.register("Tensor", "Number")
def _add_tn(x, y):
    return ops.mul(x, y)


kind = MultitypeFuncGraph("kind")


@kind.register("Number")
def _kind_number(x):
    return "number"


@kind.register("Bool")
def _kind_bool(x):
    return "bool"


def t(*v):
    return Tensor(np.array(v, np.float32))


def test_dispatch_picks_the_matching_registration():
    assert add(1, 2) == 3
    assert add(t(2.0), 3).asnumpy().tolist() == [6.0]
    assert add(t(2.0), t(3.0)).asnumpy().tolist() == [5.0]


def test_most_specific_registration_wins():
    assert kind(True) == "bool"
    assert kind(3) == "number"


def test_no_match_lists_signatures_and_given_types():
    """MindSpore 2.10 raises ValueError, eagerly and inside a graph (record_realprog_cases)."""
    @ms.jit
    def traced(x):
        return add("a", x)

    for call in (lambda: add("a", t(1.0)), lambda: traced(t(1.0))):
        with pytest.raises(ValueError, match="'MultitypeFuncGraph', cannot find fn match") as e:
            call()
        msg = str(e.value)
        assert "(dtype, args): (String, Tensor[Float32])" in msg
        assert "((Tensor, Tensor), <function _add_tt" in msg


def test_unknown_type_name_in_register():
    with pytest.raises(RuntimeError, match="Unsupported type name: Tensr!"):
        add.register("Tensr", "Tensor")


def test_hypermap_nested_tuples_and_mixed_types():
    hm = HyperMap(add)
    out = hm((t(1.0), (2, t(3.0))), (t(4.0), (5, 6)))
    assert out[0].asnumpy().tolist() == [5.0]
    assert out[1][0] == 7
    assert out[1][1].asnumpy().tolist() == [18.0]


def test_map_is_not_recursive():
    with pytest.raises(ValueError):
        Map(add)(((1,), (2,)), ((3,), (4,)))  # tuples reach add: no registration
    assert Map(add)((1, 2), (3, 4)) == (4, 6)


def test_hypermap_with_function_at_call_time_and_partial():
    hm = HyperMap()
    scale = partial(add, t(2.0))
    out = hm(scale, (t(1.0), t(2.0)))
    assert [o.asnumpy().tolist() for o in out] == [[3.0], [4.0]]


def test_lengths_must_match():
    with pytest.raises(RuntimeError, match="same length"):
        HyperMap(add)((t(1.0), t(2.0)), (t(1.0),))


def _add_lists(a, b):
    return HyperMap(add)(a, b)


def test_graph_form_is_one_node_and_matches_eager():
    xs = tuple(t(float(i)) for i in range(50))
    ys = tuple(t(float(2 * i)) for i in range(50))
    jf = ms.jit(_add_lists)
    out = jf(xs, ys)
    ref = _add_lists(xs, ys)
    assert [o.asnumpy().tolist() for o in out] == [r.asnumpy().tolist() for r in ref]
    info = ms.compile_info(jf)
    assert info.count("HyperMap") == 1 and info.count("Add") == 1
    assert info.subgraphs == 2


def test_graph_form_traces_one_body_per_signature():
    xs = (t(1.0), Tensor(np.ones((2, 2), np.float32)), t(3.0))
    jf = ms.jit(_add_lists)
    out = jf(xs, xs)
    assert out[1].asnumpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert ms.compile_info(jf).subgraphs == 3  # two element signatures


def test_spec_example_hypermap_vs_loop():
    list1 = [Tensor(i) for i in range(200)]
    list2 = [Tensor(i) for i in range(200)]
    add_map = HyperMap(add)

    @ms.jit
    def hyper_map_net():
        return add_map(list1, list2)

    @ms.jit
    def for_loop_net():
        out = []
        for i in range(200):
            out.append(ops.add(list1[i], list2[i]))
        return out

    a, b = hyper_map_net(), for_loop_net()
    assert [x.asnumpy().item() for x in a] == [y.asnumpy().item() for y in b]
    assert [x.asnumpy().item() for x in a] == [2 * i for i in range(200)]
    hm, loop = ms.compile_info(hyper_map_net), ms.compile_info(for_loop_net)
    assert hm.stage("parse").nodes * 5 <= loop.stage("parse").nodes
    assert hm.nodes * 5 <= loop.nodes


apply_decay = MultitypeFuncGraph("apply_decay")


@apply_decay.register("Number", "Tensor", "Tensor")
def _apply_decay(lr, param, grad):
    return ops.assign(param, param - lr * grad)


class SGD(nn.Cell):
    def __init__(self, params):
        super().__init__()
        self.params = ParameterTuple(params)
        self.hyper_map = HyperMap()

    def construct(self, grads):
        return self.hyper_map(partial(apply_decay, 0.5), self.params, grads)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_optimizer_update_over_parameter_tuple(mode):
    ms.set_context(mode=mode)
    ps = [Parameter(t(1.0, 2.0), name="a"), Parameter(t(3.0), name="b")]
    SGD(ps)((t(2.0, 2.0), t(4.0)))
    assert ps[0].asnumpy().tolist() == [0.0, 1.0]
    assert ps[1].asnumpy().tolist() == [1.0]


def test_gradient_clipping_style_use_in_graph():
    clip = MultitypeFuncGraph("clip")

    @clip.register("Number", "Tensor")
    def _clip(limit, g):
        return ops.select(g > limit, g * 0 + limit, g)

    @ms.jit
    def clip_all(grads):
        return HyperMap()(partial(clip, 1.0), grads)

    out = clip_all((t(0.5, 3.0), t(2.0)))
    assert out[0].asnumpy().tolist() == [0.5, 1.0] and out[1].asnumpy().tolist() == [1.0]


pick = MultitypeFuncGraph("pick")


@pick.register("Tensor", "Tuple")
def _pick_first(x, y):
    return y[0] * x


@pick.register("Tensor", "Tensor")
def _pick_mul(x, y):
    return x * y + 100


def test_hypermap_calls_an_overload_taking_the_tuple_instead_of_going_deeper():
    """MindSpore 2.10 gives (10, 9) in both modes: the ("Tensor", "Tuple") overload takes
    each inner tuple whole; without it HyperMap would map (Tensor, Tensor) pairs."""
    hm = HyperMap(pick)
    a, b, c = Tensor(np.float32(2)), Tensor(np.float32(3)), Tensor(np.float32(5))

    @ms.jit
    def f(a, b, c):
        return hm((a, b), ((c, a), (b, c)))

    for out in (hm((a, b), ((c, a), (b, c))), f(a, b, c)):
        assert [float(t.asnumpy()) for t in out] == [10.0, 9.0]
