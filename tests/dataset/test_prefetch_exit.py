"""A loop left with ``break`` leaves its prefetch thread running; the interpreter's exit
stops it first (before, it went on decoding while OpenCV's thread pool was torn down,
and mindcv's data scripts aborted with "terminate called without an active exception")."""
import numpy as np

import graphkiln.dataset as ds
from graphkiln.dataset.engine import iterators


def test_running_producers_are_stopped_at_exit():
    data = ds.GeneratorDataset(lambda: ((np.array(i),) for i in range(1000)), ["x"])
    it = data.map(lambda x: x + 1, ["x"]).create_tuple_iterator(output_numpy=True)
    next(it)  # the producer runs ahead and waits on the full queue
    feed = it._feed
    assert feed._thread.is_alive()
    iterators._stop_producers()  # what the exit runs
    assert not feed._thread.is_alive()

