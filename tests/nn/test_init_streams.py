"""Seeded weights equal MindSpore 2.10's: every initializer and the common layers' default
initialisation, after the same ``set_seed`` (fixtures/record_init_streams.py records them)."""
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln.common import philox

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
import record_init_streams  # noqa: E402

EXPECTED = np.load(os.path.join(HERE, "fixtures", "init_streams.npz"))


@pytest.fixture(scope="module")
def drawn():
    out = {}
    record_init_streams.record(ms, out)
    return out


@pytest.mark.parametrize("key", sorted(EXPECTED.files))
def test_seeded_values_equal_mindspore(drawn, key):
    assert key in drawn, f"graphkiln has no {key}"
    want, got = EXPECTED[key], drawn[key]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_every_mindspore_array_is_drawn(drawn):
    assert sorted(drawn) == sorted(EXPECTED.files)


def test_streams_do_not_depend_on_the_split_into_chunks():
    # MindSpore fills large buffers in parallel chunks, each a Philox stream skipped ahead:
    # the same values as one serial stream, which is what philox_uint32 computes
    bits = philox.philox_uint32(99, 4099)
    assert bits.dtype == np.uint32 and len(set(bits[:64].tolist())) == 64
    np.testing.assert_array_equal(philox.philox_uint32(99, 10), bits[:10])
    a = philox.normal(7, (1025,), 0.0, 1.0)
    assert abs(float(a.mean())) < 0.1 and abs(float(a.std()) - 1.0) < 0.1
    t = philox.truncated_normal(7, (4000,), -0.5, 0.5, 0.0, 1.0)
    assert t.min() >= -0.5 and t.max() <= 0.5


def test_truncated_normal_rejects_a_bad_sigma():
    with pytest.raises(ValueError, match="sigma"):
        philox.truncated_normal(1, (2,), -1.0, 1.0, 0.0, 0.0)
