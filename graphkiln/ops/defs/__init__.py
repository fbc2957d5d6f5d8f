"""Every primitive's definition; importing this package fills the registry."""
from . import array, effects, math, nn  # noqa: F401
