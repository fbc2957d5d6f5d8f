"""``mindspore.mindrecord``: write MindRecord files (read them with ``dataset.MindDataset``)."""
from .filewriter import FileWriter

__all__ = ["FileWriter"]
