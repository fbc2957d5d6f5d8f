"""``cell_attr_register``: a Cell ``__init__`` decorator that records the call's arguments
as ``cell_init_args`` (``"ClassName"`` + their values), MindSpore's key for cells built the
same way."""
from __future__ import annotations

import functools
import inspect


def _recorded(self, init, args: tuple, kwargs: dict, attrs):
    if attrs is None:
        bound = dict(inspect.signature(init).bind(self, *args, **kwargs).arguments)
        del bound[next(iter(bound))]  # self
        return bound.values()  # shown as MindSpore shows it: dict_values([...])
    if isinstance(attrs, str):
        return getattr(self, attrs) if hasattr(self, attrs) else []
    if not isinstance(attrs, list):
        raise ValueError(f"attrs must be list or string, but got {type(attrs).__name__}.")
    for name in attrs:
        if not isinstance(name, str):
            raise ValueError(f"attr must be a string, but got {type(name).__name__}.")
    return [getattr(self, name) for name in attrs if hasattr(self, name)]


def cell_attr_register(fn=None, attrs=None):
    """Decorate a Cell's ``__init__``: after it runs, ``self.cell_init_args`` is the class
    name and the ``__init__`` arguments (or, with ``attrs``, the values of those attributes:
    a list of names or one name)."""
    def wrap(init):
        @functools.wraps(init)
        def recording_init(self, *args, **kwargs):
            before = _recorded(self, init, args, kwargs, None) if attrs is None else None
            init(self, *args, **kwargs)
            values = before if attrs is None else _recorded(self, init, args, kwargs, attrs)
            self.cell_init_args = type(self).__name__ + str(values)
        return recording_init

    return wrap(fn) if fn is not None else wrap


__all__ = ["cell_attr_register"]
