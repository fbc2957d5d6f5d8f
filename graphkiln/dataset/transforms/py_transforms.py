"""The pre-2.0 path of the Python composition transforms (``transforms.py_transforms``)."""
from .transforms import Compose, OneHot, RandomApply, RandomChoice  # noqa: F401
