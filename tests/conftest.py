"""Shared fixtures: every test starts from the default context and a fixed init seed."""
import os
import tempfile

import pytest

# Check every graph after every pass (closed graphs, call arities, monad inputs).
os.environ.setdefault("GRAPHKILN_VERIFY", "1")
# The compile cache's per-user key lives in a directory of this test session (inherited by
# the processes tests start), never in the real ~/.config.
os.environ.setdefault("GRAPHKILN_CACHE_KEY_FILE",
                      os.path.join(tempfile.mkdtemp(prefix="gk_key_"), "cache.key"))

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
