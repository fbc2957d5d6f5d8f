"""The pipeline engine: nodes, samplers, sources, workers and iterators
(``mindspore.dataset.engine`` re-exports the dataset classes, as here)."""
from .cache import DatasetCache
from .datasets import Dataset
from .iterators import DictIterator, TupleIterator
from .minddataset import MindDataset
from .readers import (
    Cifar10Dataset,
    Cifar100Dataset,
    CSVDataset,
    FashionMnistDataset,
    ImageFolderDataset,
    KMnistDataset,
    MnistDataset,
    Shuffle,
    TextFileDataset,
)
from .samplers import (
    DistributedSampler,
    PKSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
    WeightedRandomSampler,
)
from .sources import GeneratorDataset, NumpySlicesDataset, PaddedDataset, Schema
from .tfrecord import TFRecordDataset

__all__ = [
    "Dataset", "DatasetCache", "DictIterator", "TupleIterator", "MindDataset", "Cifar10Dataset",
    "Cifar100Dataset", "CSVDataset", "ImageFolderDataset", "MnistDataset", "Shuffle",
    "TextFileDataset", "DistributedSampler", "RandomSampler", "Sampler", "SequentialSampler",
    "SubsetRandomSampler", "SubsetSampler", "WeightedRandomSampler", "PKSampler",
    "GeneratorDataset",
    "NumpySlicesDataset", "PaddedDataset", "Schema", "TFRecordDataset", "FashionMnistDataset",
    "KMnistDataset",
]
