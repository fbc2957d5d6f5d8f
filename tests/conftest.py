"""Shared fixtures: every test starts from the default context and a fixed init seed."""
import os

import pytest

# Check every graph after every pass (closed graphs, call arities, monad inputs).
os.environ.setdefault("GRAPHKILN_VERIFY", "1")

import graphkiln
from graphkiln import context


@pytest.fixture(autouse=True)
def _fresh_context():
    """Undo any ``set_context`` a test made, so no mode or option leaks into the next."""
    yield
    context.reset_context()


@pytest.fixture
def seeded():
    """Re-seed the weight initializers so random layers are reproducible."""
    graphkiln.set_seed(1234)
    return 1234
