"""Samplers and source options users combine: shuffle with seeds, RandomSampler,
SequentialSampler, SubsetRandomSampler, DistributedSampler (num_shards/shard_id),
WeightedRandomSampler, num_samples, seeded augmentation."""
import os
import numpy as np
import mindspore.dataset as ds
import mindspore.dataset.vision as vision

ds.config.set_seed(17)
src = {"v": np.arange(10)}


def vals(sampler):
    return [int(r["v"]) for r in ds.NumpySlicesDataset(src, sampler=sampler).create_dict_iterator(output_numpy=True)]


print("random", vals(ds.RandomSampler()))
print("random replacement", vals(ds.RandomSampler(replacement=True, num_samples=6)))
print("sequential", vals(ds.SequentialSampler(start_index=3, num_samples=4)))
print("subset random", vals(ds.SubsetRandomSampler([1, 3, 5, 7])))
print("subset", vals(ds.SubsetSampler([9, 0, 4])))
print("distributed", vals(ds.DistributedSampler(num_shards=4, shard_id=2, shuffle=False)))
print("distributed shuffled", vals(ds.DistributedSampler(num_shards=2, shard_id=1, shuffle=True)))
print("weighted", vals(ds.WeightedRandomSampler([0.1] * 5 + [1.0] * 5, 6)))
images = np.random.RandomState(2).randint(0, 256, (4, 32, 32, 3)).astype(np.uint8)
aug = ds.NumpySlicesDataset({"image": images}, shuffle=False).map(
    [vision.RandomCrop(28, padding=2), vision.RandomRotation(10), vision.RandomColorAdjust(0.2, 0.2)],
    input_columns="image")
print("augmented", [int(r["image"].sum()) for r in aug.create_dict_iterator(output_numpy=True)])
