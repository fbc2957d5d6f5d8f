"""Shared fixtures of the frontend tests."""
import pytest

import graphkiln as ms


@pytest.fixture
def mode(request):
    """The execution mode named by an indirect parametrisation (``"GRAPH_MODE"`` or
    ``"PYNATIVE_MODE"``), restored afterwards."""
    before = ms.get_context("mode")
    ms.set_context(mode=getattr(ms, request.param))
    yield request.param
    ms.set_context(mode=before)
