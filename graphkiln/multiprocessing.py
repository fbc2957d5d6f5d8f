"""``mindspore.multiprocessing``: Python's ``multiprocessing``. MindSpore wraps ``Process``
and ``Pool`` to run its C++ runtime's fork handlers (stop and restart its threads around a
fork); graphkiln's runtime is Python and NumPy, so a forked child runs graphkiln as it is
and Python's classes serve unchanged. Tensors cross processes by pickling."""
from __future__ import annotations

import multiprocessing as _mp

globals().update({name: getattr(_mp, name) for name in _mp.__all__})

__all__ = list(_mp.__all__)
