"""``mindspore.common``'s public names (MindSpore 2.10's ``mindspore.common.__all__``): the
dtypes, seeds and helpers are the ones ``mindspore`` itself exports."""
import pytest

import graphkiln as ms
import graphkiln.common as common


def test_dtypes_and_helpers_are_mindspores():
    for name in ("float32", "float16", "bfloat16", "int64", "uint8", "bool_", "complex64",
                 "double", "half", "Type", "TensorType", "pytype_to_dtype", "dtype_to_pytype",
                 "get_py_obj_dtype", "from_numpy", "is_tensor", "get_seed", "Symbol"):
        assert getattr(common, name) is getattr(ms, name), name


def test_names_of_the_layers_above_resolve_on_access():
    for name in ("jit", "Generator", "default_generator", "manual_seed", "initial_seed",
                 "get_rng_state", "set_rng_state", "save_mindir", "load_mindir", "set_dump",
                 "set_recursion_limit"):
        assert getattr(common, name) is getattr(ms, name), name
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        common.no_such_name  # noqa: B018  (the lookup itself raises)
