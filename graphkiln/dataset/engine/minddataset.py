"""``MindDataset``: rows of MindRecord files (written by MindSpore or ``FileWriter``)."""
from __future__ import annotations

import os

from ...mindrecord.shard_format import ShardReader
from .datasets import as_list
from .process_files import ProcessFiles
from .samplers import MindRecordSampler, RandomSampler
from .sources import RandomAccessDataset


def _shard_files(dataset_files) -> list[str]:
    """A single file stands for its whole shard set; a list is read as given."""
    if isinstance(dataset_files, (str, os.PathLike)):
        first = ShardReader(os.fspath(dataset_files))
        base = os.path.dirname(os.path.abspath(dataset_files))
        return [os.path.join(base, a) for a in first.header["shard_addresses"]]
    if isinstance(dataset_files, (list, tuple)) and dataset_files:
        return [os.fspath(f) for f in dataset_files]
    raise TypeError("dataset_files should be a str or a non-empty list of str.")


class MindDataset(RandomAccessDataset):
    """MindRecord rows: one column per schema field (in name order, or ``columns_list``)."""

    cheap_reads = True  # one pread and a small decode: threads cost more than they save

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None,
                 shuffle=None, num_shards=None, shard_id=None, sampler=None,
                 padded_sample=None, num_padded=None, num_samples=None, cache=None):
        super().__init__(num_parallel_workers, shuffle, sampler, num_samples, num_shards,
                         shard_id, cache=cache)
        if type(self.sampler) is RandomSampler:  # MindSpore shuffles MindRecord its own way
            self.sampler = MindRecordSampler(self.sampler.replacement, self.sampler.num_samples)
        self.shards = [ShardReader(f) for f in _shard_files(dataset_files)]
        fields = list(self.shards[0].schema.fields)
        self.names = as_list(columns_list, "columns_list") or fields
        unknown = [c for c in self.names if c not in fields]
        if unknown:
            raise RuntimeError(f"Invalid data, column {unknown[0]!r} is not in the MindRecord "
                               f"schema {fields}.")
        self.locations = [(s, i) for s in range(len(self.shards))
                          for i in range(len(self.shards[s]))]
        if padded_sample is not None or num_padded:
            if padded_sample is None or num_padded is None or num_shards is None:
                raise RuntimeError("padded_sample and num_padded need num_shards.")
            self.locations += [(-1, 0)] * num_padded
        self.padded_sample = padded_sample
        self._files = ProcessFiles([s.path for s in self.shards])

    def _columns(self):
        return list(self.names)

    def _length(self):
        return len(self.locations)

    def _read(self, index):
        shard, i = self.locations[index]
        if shard < 0:
            row = self.padded_sample
        else:
            row = self.shards[shard].read(self._files.descriptors()[shard], i)
        return tuple(row[c] for c in self.names)

    def __del__(self):
        if hasattr(self, "_files"):
            self._files.close()
