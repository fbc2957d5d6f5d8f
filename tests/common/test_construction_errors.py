"""Tensor and Parameter construction refuse bad input with MindSpore 2.10's error types."""
import pytest

import graphkiln as ms


@pytest.mark.parametrize("data", [[[1, 2], [3]], [1, "a"], [None]])
def test_tensor_of_ragged_or_foreign_elements_is_a_type_error(data):
    with pytest.raises(TypeError, match="unsupported"):
        ms.Tensor(data)


@pytest.mark.parametrize("name", [3, 1.5, ("w",)])
def test_parameter_name_must_be_a_string(name):
    with pytest.raises(ValueError, match="name should be 'string' or 'None'"):
        ms.Parameter(ms.Tensor(1.0), name=name)
    assert ms.Parameter(ms.Tensor(1.0), name="w").name == "w"
