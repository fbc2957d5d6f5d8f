"""``mindspore.hal``'s device queries and ``mindspore.device_context`` against MindSpore
CPU's answers (fixtures/record_device.py)."""
import json
from pathlib import Path

import pytest

import graphkiln as ms
from graphkiln import hal

REC = json.loads((Path(__file__).parent / "fixtures" / "device.json").read_text())
CALLS = [
    ("is_initialized", ("CPU",)), ("is_initialized", ("GPU",)),
    ("is_initialized", ("NPU",)), ("is_available", ("CPU",)), ("is_available", ("Ascend",)),
    ("device_count", ()), ("device_count", ("GPU",)), ("device_count", (1,)),
    ("get_device_capability", (0,)), ("get_device_properties", (0,)),
    ("get_device_name", (0,)), ("get_device_name", (1,)), ("get_device_name", (-1,)),
    ("get_device_name", ("0",)), ("get_arch_list", ()),
]


def outcome(fn, *args):
    try:
        return [fn(*args)]
    except (TypeError, ValueError, RuntimeError) as e:
        return [type(e).__name__, str(e)]


@pytest.mark.parametrize("name, args", CALLS)
def test_hal_device_query_recorded(name, args):
    assert outcome(getattr(hal, name), *args) == REC[f"{name}{args}"]


def test_device_context_recorded():
    dc = ms.device_context
    got = [dc.cpu.is_available(), dc.cpu.device_count(), dc.gpu.is_available(),
           dc.ascend.is_available(), outcome(dc.ascend.device_count),
           outcome(dc.gpu.device_count)]
    assert got == REC["device_context"]
