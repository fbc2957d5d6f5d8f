"""SummaryRecord and the summary operators against a file real MindSpore 2.10 wrote for the
same program (fixtures/summary_ms.bin, recorded by fixtures/record_summary.py): the same
records, framing and CRCs, tags, steps and values, in GRAPH and PYNATIVE mode."""
import io
import os
import struct
import sys

import numpy as np
import pytest
from PIL import Image

import graphkiln as ms
from graphkiln import nn, ops
from graphkiln.common import summary_data
from graphkiln.train.summary.event_file import frame
from graphkiln.train.summary_pb2 import Event

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
from summary_program import run  # noqa: E402


def records(path):
    """The serialized events of a summary file, checking each record's length framing."""
    raw = open(path, "rb").read()
    out, pos = [], 0
    while pos < len(raw):
        (n,) = struct.unpack("<Q", raw[pos:pos + 8])
        out.append((raw[pos:pos + 16 + n], raw[pos + 12:pos + 12 + n]))
        pos += 16 + n
    assert pos == len(raw)
    return out


MS_RECORDS = records(os.path.join(HERE, "fixtures", "summary_ms.bin"))


def test_framing_and_crcs_match_mindspore():
    for whole, message in MS_RECORDS:
        assert frame(message) == whole


def _comparable(event):
    """An event without its wall time, images decoded to pixels."""
    e = Event()
    e.CopyFrom(event)
    e.ClearField("wall_time")
    pixels = []
    for v in e.summary.value:
        if v.WhichOneof("value") == "image":
            pixels.append(np.asarray(Image.open(io.BytesIO(v.image.encoded_image))))
            v.image.encoded_image = b""
    return e, pixels


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_summary_file_matches_mindspore(tmp_path, mode):
    ms.set_context(mode=mode)
    summary_data.take()  # values other tests' summary operators left behind
    path = run(ms, nn, ops, str(tmp_path))
    name = os.path.basename(path)
    assert name.startswith("events.out.events.summary.") and name.endswith("_MS")
    ours = records(path)
    assert len(ours) == len(MS_RECORDS)
    for (_, mine), (_, theirs) in zip(ours, MS_RECORDS):
        (e1, p1), (e2, p2) = (_comparable(Event.FromString(m)) for m in (mine, theirs))
        assert str(e1) == str(e2)
        for a, b in zip(p1, p2):
            np.testing.assert_array_equal(a, b)


def test_record_arguments_are_checked(tmp_path):
    with ms.SummaryRecord(str(tmp_path)) as record:
        with pytest.raises(TypeError, match="'step' should be 'int'"):
            record.record(1.0)
        with pytest.raises(ValueError, match="no such \"plugin\""):
            record.add_value("graph", "g", ms.Tensor(np.ones(2, np.float32)))
        with pytest.raises(TypeError, match="expect to be Tensor"):
            record.add_value("scalar", "s", 1.0)
        with pytest.raises(ValueError, match="not a recognized mode"):
            record.set_mode("test")
    assert record.record(1) is False  # closed


def test_summary_op_name_must_be_a_non_empty_string():
    x = ms.Tensor(np.ones(2, np.float32))
    with pytest.raises(ValueError, match="the name must be valid string"):
        ops.ScalarSummary()("", x)
    with pytest.raises(TypeError, match="'value' must be a Tensor"):
        ops.TensorSummary()("t", 1.0)
