"""``mindspore.dataset``: sources, pipeline operations, iterators and transforms."""
from . import audio, config, text, transforms, vision
from .engine import (
    Cifar10Dataset,
    Cifar100Dataset,
    CSVDataset,
    Dataset,
    DatasetCache,
    DictIterator,
    DistributedSampler,
    FashionMnistDataset,
    GeneratorDataset,
    ImageFolderDataset,
    KMnistDataset,
    MindDataset,
    MnistDataset,
    NumpySlicesDataset,
    PaddedDataset,
    PKSampler,
    RandomSampler,
    Sampler,
    Schema,
    SequentialSampler,
    Shuffle,
    SubsetRandomSampler,
    SubsetSampler,
    TextFileDataset,
    TFRecordDataset,
    TupleIterator,
    WeightedRandomSampler,
)
from .engine.batching import BatchInfo
from .engine.datasets import zip_datasets as zip  # noqa: A001 - MindSpore's name
from .vision.utils import Border, Inter

__all__ = [
    "audio", "config", "text", "transforms", "vision", "Dataset", "DatasetCache", "zip",
    "BatchInfo", "TupleIterator",
    "DictIterator", "GeneratorDataset", "NumpySlicesDataset", "PaddedDataset", "Schema",
    "MnistDataset",
    "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "CSVDataset", "TextFileDataset",
    "TFRecordDataset",
    "MindDataset", "Shuffle", "Sampler", "SequentialSampler", "RandomSampler", "SubsetSampler",
    "SubsetRandomSampler", "WeightedRandomSampler", "PKSampler", "DistributedSampler", "Inter",
    "Border",
    "FashionMnistDataset", "KMnistDataset",
]
