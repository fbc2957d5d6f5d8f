"""``mindspore.dataset``: sources, pipeline operations, iterators and transforms."""
from . import config, transforms, vision
from .engine.batching import BatchInfo
from .engine.datasets import Dataset
from .engine.datasets import zip_datasets as zip  # noqa: A001 - MindSpore's name
from .engine.iterators import DictIterator, TupleIterator
from .engine.minddataset import MindDataset
from .engine.readers import (
    Cifar10Dataset,
    Cifar100Dataset,
    CSVDataset,
    ImageFolderDataset,
    MnistDataset,
    Shuffle,
    TextFileDataset,
)
from .engine.samplers import (
    DistributedSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
    WeightedRandomSampler,
)
from .engine.sources import GeneratorDataset, NumpySlicesDataset, Schema
from .vision.utils import Border, Inter

__all__ = [
    "config", "transforms", "vision", "Dataset", "zip", "BatchInfo", "TupleIterator",
    "DictIterator", "GeneratorDataset", "NumpySlicesDataset", "Schema", "MnistDataset",
    "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "CSVDataset", "TextFileDataset",
    "MindDataset", "Shuffle", "Sampler", "SequentialSampler", "RandomSampler", "SubsetSampler",
    "SubsetRandomSampler", "WeightedRandomSampler", "DistributedSampler", "Inter", "Border",
]
