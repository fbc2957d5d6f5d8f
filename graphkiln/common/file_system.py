"""``mindspore.common.file_system``: how checkpoints are written and read. MindSpore may
register MindIO (a memory file system) as the backend; graphkiln always has the basic one,
Python's ``open``."""
from __future__ import annotations


class FileSystem:
    """The file operations checkpoint code uses: ``create(path, *create_args)`` opens a
    file to append to, ``open(path, *open_args)`` one to read."""

    def __init__(self):
        self.create = open
        self.create_args = ("ab",)
        self.open = open
        self.open_args = ("rb",)
        self.backend = "basic"
