"""rewrite_cases.py is written against ``mindspore``: alias it to graphkiln."""
import sys
from pathlib import Path

import pytest

from graphkiln import compat

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True, scope="module")
def _mindspore_is_graphkiln():
    compat.install()
    yield
    compat.uninstall()
