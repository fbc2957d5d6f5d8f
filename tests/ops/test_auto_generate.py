"""``mindspore.ops.auto_generate`` (and its ``gen_ops_prim``/``gen_ops_def`` modules) give
the same primitive classes and functional ops as ``mindspore.ops``."""
import numpy as np

import graphkiln as ms
from graphkiln import ops
from graphkiln.ops import auto_generate
from graphkiln.ops.auto_generate import gen_ops_def, gen_ops_prim


def test_auto_generate_names_are_the_ops():
    assert auto_generate.Add is ops.Add and gen_ops_prim.MatMul is ops.MatMul
    assert gen_ops_def.zeros is ops.zeros and auto_generate.broadcast_to is ops.broadcast_to
    x = ms.Tensor([1.0, 2.0])
    assert auto_generate.Add()(x, x).asnumpy().tolist() == [2.0, 4.0]


def test_inplace_add_ext_writes_its_input_eagerly_and_in_a_graph():
    """``InplaceAddExt()(x, y, alpha)`` is ``x += alpha * y`` returning ``x`` (MindSpore 2.10
    has no CPU kernel for it, so the oracle is NumPy); a graph writes the caller's Tensor."""
    add, sub = gen_ops_prim.InplaceAddExt(), gen_ops_prim.InplaceSubExt()
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    assert add(x, ms.Tensor(np.array([3.0, 4.0], np.float32)), 2) is x
    np.testing.assert_array_equal(x.asnumpy(), [7.0, 10.0])
    assert sub(x, ms.Tensor(np.array([1.0, 1.0], np.float32))) is x
    np.testing.assert_array_equal(x.asnumpy(), [6.0, 9.0])

    @ms.jit
    def step(a, b):
        add(a, b, alpha=3)
        return a + 1

    a = ms.Tensor(np.array([1.0, 2.0], np.float32))
    out = step(a, ms.Tensor(np.array([1.0, 1.0], np.float32)))
    np.testing.assert_array_equal(a.asnumpy(), [4.0, 5.0])
    np.testing.assert_array_equal(out.asnumpy(), [5.0, 6.0])
