"""``mindspore.nn.utils``: :func:`no_init_parameters`."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def no_init_parameters() -> Iterator[None]:
    """Build cells whose initializer-made Parameters a checkpoint will overwrite.

    MindSpore delays those Parameters' initialisation to save device memory and fills
    them on first use in creation order, so they get the values an eager initialisation
    with the same seed gives. graphkiln's initializers run on the host when the Parameter
    is made, which gives those same values; ``load_checkpoint`` then overwrites them as it
    does any Parameter."""
    yield


__all__ = ["no_init_parameters"]
