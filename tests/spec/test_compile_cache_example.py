"""Spec: the compile-cache example's ``func`` (200 iterations) gives [601.] in every mode."""
import numpy as np

import graphkiln as ms
from graphkiln import dtype, set_context
from graphkiln.examples.spec import func  # noqa: E402  (the spec's code)


def test_func_gives_601_with_cache_option_off():
    set_context(enable_compile_cache=False)
    x = ms.Tensor([1], dtype.float32)
    y = ms.Tensor([2], dtype.float32)
    out = func(x, y)
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), np.array([601.0], np.float32))
    assert str(out) == "[601.]"


def test_cse_shares_the_loop_invariant_product():
    func(ms.Tensor([1], dtype.float32), ms.Tensor([2], dtype.float32))
    info = ms.compile_info(func)
    assert info.count("Mul") == 1  # x * y computed once
    assert info.count("Add") == 201
    assert info.stage("parse").cnodes > info.cnodes
