"""``ProcessFiles``: read-only descriptors of a source's files, opened anew in each process
(descriptors are per process, and a forked worker must not share its parent's)."""
from __future__ import annotations

import os


class ProcessFiles:
    """Descriptors of ``paths`` for ``os.pread``, opened on first use in each process."""

    def __init__(self, paths: list[str]):
        self.paths = list(paths)
        self._fds: dict[int, list[int]] = {}

    def descriptors(self) -> list[int]:
        pid = os.getpid()
        if pid not in self._fds:
            self.close()
            self._fds = {pid: [os.open(p, os.O_RDONLY) for p in self.paths]}
        return self._fds[pid]

    def close(self) -> None:
        for fds in self._fds.values():
            for fd in fds:
                try:
                    os.close(fd)
                except OSError:  # a forked child's copy of a descriptor already closed
                    pass
        self._fds = {}
