"""Resuming a pipeline at a global step (``Dataset.set_init_step``), as MindSpore's reset.

Step ``s`` of a pipeline of ``n`` rows (or batches) per epoch is row ``s % n`` of epoch
``s // n``. The resumed iterator gives what an uninterrupted one gives from there on: the
earlier epochs run and are dropped, so samplers, shuffle buffers and every other random
stream stand where they would. With ``config.get_fast_recovery()`` (the default) the random
``map`` operations restart their streams and the rows skipped inside the epoch are dropped
below the maps, as MindSpore's fast recovery does; without it they run through the maps.

With fast recovery the earlier epochs cost no reading when the pipeline allows it
(``Dataset._skips_cheaply``): sources read by index only draw each pass's sampler order
(and drop the resumed epoch's skipped rows by index, unread),
shuffle buffers draw one number per row they would have sent, and maps and batches are not
run (their streams restart anyway). A Python generator, a sync point, a cache, an endless
repeat, or a shuffle whose pass length is unknown (or only partly read, under ``zip`` or an
unseeded ``take``) makes the epochs run as before.
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from ..config import get_fast_recovery
from .run import Run

_RESET = "Cannot reset the pipeline, "


def resume_point(dataset, step: int, num_epochs: int) -> tuple[int, int]:
    """(epochs done, rows of the next epoch done) at ``step``; MindSpore's RuntimeError for a
    step outside ``[0, dataset size * num_epochs)``."""
    size = dataset.get_dataset_size()
    if size <= 0:
        raise RuntimeError(_RESET + "dataset size is undefined")
    if step < 0:
        raise RuntimeError(_RESET + f"reset step must be >= 0. step: {step}")
    if num_epochs == -1 or step >= size * num_epochs:
        raise RuntimeError(_RESET + "reset step must be less than dataset_size * num_epochs. "
                           f"step: {step}, dataset_size: {size}, num_epochs: {num_epochs}")
    return divmod(step, size)


def resumed_rows(dataset, run: Run, epochs: int, rows: int) -> Iterator:
    """Epoch ``epochs``'s rows from row ``rows`` on, after running the steps before them."""
    cheap = get_fast_recovery() and dataset._skips_cheaply()
    for epoch in range(epochs):
        if cheap:  # the streams move on as the epoch would move them; nothing is read
            dataset._skip_pass(run.scoped(epoch))
            continue
        for _ in dataset._guarded_rows(run.scoped(epoch)):
            pass
    if get_fast_recovery():
        run.restart_map_streams()
        rows = dataset._skip_below_maps(run, rows)
    stream = dataset._guarded_rows(run.scoped(epochs))
    try:
        for _ in islice(stream, rows):
            pass
        yield from stream
    finally:
        stream.close()
