"""A per-thread count of open blocks: ``with FLAG.block():`` marks the code inside, nested
or not, and ``FLAG.active()`` tells code deeper down whether it runs inside one."""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator


class Nesting(threading.local):
    """How many blocks marked with this flag are open on the calling thread."""

    depth = 0

    @contextlib.contextmanager
    def block(self) -> Iterator[None]:
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def active(self) -> bool:
        return self.depth > 0


__all__ = ["Nesting"]
