"""MindSpore's C++-module names its tests import: ``_c_expression.TensorPy`` is the Tensor
class, ``security.enable_security()`` is False (MindSpore's CPU wheel is not a security
build), and ``common._pijit_context.PIJitCaptureContext`` compiles like ``jit`` and leaves
a record (test_pijit.py checks the records against MindSpore)."""
import pickle

import numpy as np

import graphkiln as ms
from graphkiln import _c_expression, compat
from graphkiln.compile.pijit_context import PIJitCaptureContext


def test_tensorpy_is_the_tensor_class_and_pickles():
    x = _c_expression.TensorPy(ms.Tensor(np.ones((2, 2), np.float32)))
    assert isinstance(x, ms.Tensor)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(x)).asnumpy(), np.ones((2, 2)))


def test_pijit_capture_context_compiles_like_jit():
    def affine(x):
        return x * 2 + 1

    compiled = PIJitCaptureContext(jit_config=None, fullgraph=True)(affine)
    x = ms.Tensor(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(compiled(x).asnumpy(), affine(x).asnumpy())
    extra = _c_expression.get_code_extra(affine)
    assert extra["break_count_"] == 0 and "phase_" in extra["code"]


def test_mindspore_names_resolve_through_the_import_hook():
    compat.install()
    try:
        from mindspore._c_expression import TensorPy
        from mindspore.common._pijit_context import PIJitCaptureContext as Context
    finally:
        compat.uninstall()
    assert TensorPy is ms.Tensor and Context is PIJitCaptureContext


def test_security_is_off():
    assert _c_expression.security.enable_security() is False


def test_function_id_is_the_function_a_method_runs():
    class Holder:
        @classmethod
        def make(cls):
            return cls

        def run(self):
            return self

    fid = _c_expression.function_id
    assert fid(list.__getitem__) == fid([].__getitem__)
    assert fid(tuple.__getitem__) == fid(().__getitem__)
    assert fid(list.__getitem__) != fid(list.__len__)
    assert fid(Holder().run) == fid(Holder.run) == id(Holder.run)
    assert fid(Holder.make) == id(Holder.__dict__["make"].__func__)
    assert fid(len) == id(len) and fid(Holder) == id(Holder)
