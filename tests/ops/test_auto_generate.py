"""``mindspore.ops.auto_generate`` (and its ``gen_ops_prim``/``gen_ops_def`` modules) give
the same primitive classes and functional ops as ``mindspore.ops``."""
import graphkiln as ms
from graphkiln import ops
from graphkiln.ops import auto_generate
from graphkiln.ops.auto_generate import gen_ops_def, gen_ops_prim


def test_auto_generate_names_are_the_ops():
    assert auto_generate.Add is ops.Add and gen_ops_prim.MatMul is ops.MatMul
    assert gen_ops_def.zeros is ops.zeros and auto_generate.broadcast_to is ops.broadcast_to
    x = ms.Tensor([1.0, 2.0])
    assert auto_generate.Add()(x, x).asnumpy().tolist() == [2.0, 4.0]
