"""Shared fixtures: every test starts from the default context and a fixed init seed."""
import os
import random

import pytest

# Check every graph after every pass (closed graphs, call arities, monad inputs).
os.environ.setdefault("GRAPHKILN_VERIFY", "1")

import numpy as np

import graphkiln
from graphkiln import context
from graphkiln.common import seed
from graphkiln.dataset import config as dataset_config

_DATASET_CONFIG = dict(dataset_config._state)


@pytest.fixture(autouse=True)
def _fresh_context():
    """Every test starts from a new process's random state (weights drawn by unseeded
    layers do not depend on which tests ran before), and any ``set_context`` it made is
    undone afterwards."""
    seed._rng, seed._seed = np.random.default_rng(seed._DEFAULT_SEED), None
    np.random.seed(0)  # tests drawing from NumPy's or Python's global generator, too
    random.seed(0)
    dataset_config._state.update(_DATASET_CONFIG)  # no dataset seed or worker count leaks
    yield
    context.reset_context()


@pytest.fixture
def seeded():
    """Re-seed the weight initializers so random layers are reproducible."""
    graphkiln.set_seed(1234)
    return 1234
