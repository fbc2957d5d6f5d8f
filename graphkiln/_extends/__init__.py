"""``mindspore._extends``: the paths under it that user code imports."""
from .cell_attr_register import cell_attr_register

__all__ = ["cell_attr_register"]
