"""Audio transforms give MindSpore 2.10's outputs (fixtures/record_audio.py): shapes and
dtypes exactly, values to float32 rounding of the FFT."""
import os

import numpy as np
import pytest

import graphkiln.dataset.audio as audio

from .fixtures.audio_cases import run_cases

REFERENCE = np.load(os.path.join(os.path.dirname(__file__), "fixtures",
                                 "audio_reference.npz"))
RESULTS = run_cases(audio)


@pytest.mark.parametrize("name", sorted(REFERENCE.files))
def test_audio_matches_mindspore(name):
    got, want = RESULTS[name], REFERENCE[name]
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = np.abs(want).max()
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5 * scale)
