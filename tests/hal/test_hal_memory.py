"""``mindspore.hal``'s memory statistics are ``mindspore.runtime``'s functions (as in
MindSpore 2.10, where the hal ones are the older names of the same counters)."""
import pytest

import graphkiln.hal as hal
import graphkiln.runtime as runtime

NAMES = ["empty_cache", "max_memory_allocated", "max_memory_reserved", "memory_allocated",
         "memory_reserved", "memory_stats", "memory_summary", "reset_max_memory_allocated",
         "reset_max_memory_reserved", "reset_peak_memory_stats", "synchronize"]


@pytest.mark.parametrize("name", NAMES)
def test_same_function_as_runtime(name):
    assert getattr(hal, name) is getattr(runtime, name)


def test_counters_are_numbers():
    assert isinstance(hal.max_memory_allocated(), int)
    assert isinstance(hal.memory_stats(), dict)
