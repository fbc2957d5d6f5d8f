"""MindSpore's private names that model code (mindnlp) imports:
``ops._primitive_cache._get_cache_prim`` (one instance per class and arguments),
``common._stub_tensor.StubTensor`` (MindSpore 2.10's empty placeholder, which no operation
returns), ``common.seed._get_graph_seed`` and ``_c_expression``'s seeded weight fillers
(values recorded from MindSpore 2.10)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import ops
from graphkiln._c_expression import _random_normal, _random_uniform
from graphkiln.common._stub_tensor import StubTensor
from graphkiln.common.seed import _get_graph_seed, graph_seed
from graphkiln.ops._primitive_cache import _get_cache_prim


def test_one_instance_per_arguments():
    a = _get_cache_prim(ops.ReduceSum)(True)
    assert _get_cache_prim(ops.ReduceSum)(True) is a
    assert _get_cache_prim(ops.ReduceSum)(keep_dims=True) is not a
    assert _get_cache_prim(ops.ReduceSum)(False) is not a
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(a(x, 1).asnumpy(), [[3.0], [12.0]])


def test_stub_tensor_is_not_what_ops_return():
    x = ms.Tensor(np.ones(2, np.float32))
    assert not isinstance(ops.add(x, x), StubTensor)


def test_seeded_fillers_match_mindspore():
    data = np.empty((2, 3), np.float32)
    _random_normal(5, data, 0.0, 1.0)
    np.testing.assert_allclose(data, [[1.1987393, -1.5148976, -0.56773245],
                                      [0.14529076, 1.9129629, -0.6005816]], rtol=1e-6)
    _random_uniform(5, data, -1.0, 2.0)
    np.testing.assert_allclose(data, [[0.348563, 0.96205, 1.5303255],
                                      [-0.43480396, 1.1804725, 0.07784131]], rtol=1e-6)
    assert _get_graph_seed is graph_seed


def test_dtype_groups_and_check_subclass():
    from graphkiln import _checkparam as validator
    from graphkiln.common import dtype as mstype
    assert mstype.number_type == mstype.int_type + mstype.uint_type + mstype.float_type + \
        mstype.complex_type
    assert mstype.all_types[0] is mstype.bool_ and mstype.float32 in mstype.signed_type
    assert mstype.uint8 not in mstype.signed_type
    assert validator.check_subclass("dtype", mstype.float32, mstype.number_type, "X") \
        is mstype.float32
    with pytest.raises(TypeError, match=r"For 'Emb', the element of 'dtype' must be one of "
                                        r"Int8, .*, but got Bool\."):
        validator.check_subclass("dtype", mstype.bool_, mstype.number_type, "Emb")


def test_inited_param_is_none_after_init_data():
    from graphkiln.common.initializer import initializer
    p = ms.Parameter(initializer("normal", (2, 3)), name="p")
    assert p.inited_param is None
    assert p.init_data() is p and p.inited_param is None
