"""A ``namedtuple`` returned from or passed to a compiled function keeps its class and
carries its Tensors through the graph: MindSpore 2.10 gives ``Point(x=[2, 4, 6], y=[1, 1,
1])`` and ``([4, 6], Point(x=[1, 2], y=[3, 4]))`` for these two programs."""
from collections import namedtuple

import numpy as np

from graphkiln import Tensor, jit

Point = namedtuple("Point", "x, y")


def test_namedtuple_output_holds_the_computed_tensors():
    @jit
    def make(x, y):
        return Point(x * 2, y), x

    p, x = make(Tensor(np.array([1, 2, 3])), Tensor(np.ones(3, np.float32)))
    assert type(p) is Point
    np.testing.assert_array_equal(p.x.asnumpy(), [2, 4, 6])
    np.testing.assert_array_equal(p.y.asnumpy(), [1, 1, 1])
    np.testing.assert_array_equal(x.asnumpy(), [1, 2, 3])


def test_namedtuple_input_is_a_container_of_graph_inputs():
    @jit
    def take(p):
        return p.x + p.y, p

    infos = []
    for a in ([1.0, 2.0], [5.0, 7.0]):  # new values, one compile: they are graph inputs
        s, p = take(Point(Tensor(np.array(a, np.float32)), Tensor(np.array([3.0, 4.0],
                                                                            np.float32))))
        np.testing.assert_array_equal(s.asnumpy(), np.add(a, [3.0, 4.0]))
        assert type(p) is Point and p.x.asnumpy().tolist() == a
        infos.append(take.compile_info)
    assert infos[0] is infos[1]
