"""The export tests run in both modes where it matters."""
import pytest

import graphkiln as ms


@pytest.fixture(params=["GRAPH_MODE", "PYNATIVE_MODE"])
def mode(request):
    ms.set_context(mode=getattr(ms, request.param))
    return request.param
