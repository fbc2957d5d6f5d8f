"""Dataset pipeline features: GeneratorDataset, NumpySlicesDataset, map with Python and
vision ops, batch with per_batch_map, shuffle with seed, zip, concat, take/skip, repeat,
project, rename, dict iterators, get_dataset_size, output shapes/types."""
import numpy as np
import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.vision as vision
import mindspore.dataset.transforms as transforms

ds.config.set_seed(7)


class Source:
    def __init__(self):
        rng = np.random.RandomState(3)
        self.images = rng.randint(0, 256, (10, 12, 12, 3)).astype(np.uint8)
        self.labels = np.arange(10).astype(np.int64) % 3

    def __getitem__(self, i):
        return self.images[i], self.labels[i]

    def __len__(self):
        return 10


data = ds.GeneratorDataset(Source(), ["image", "label"], shuffle=False)
print("size", data.get_dataset_size())
data = data.map([vision.Resize((8, 8)), vision.Rescale(1 / 255.0, 0.0),
                 vision.Normalize([0.5, 0.5, 0.5], [0.25, 0.25, 0.25]), vision.HWC2CHW()],
                input_columns="image")
data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
data = data.map(lambda x: x + x, input_columns="label")
print("types", data.output_types(), "shapes", data.output_shapes())
batched = data.batch(4, drop_remainder=False)
print("batches", batched.get_dataset_size())
for i, item in enumerate(batched.create_dict_iterator(output_numpy=True)):
    print(i, item["image"].shape, item["image"].dtype, item["label"].tolist(),
          float(np.round(item["image"].mean(), 4)))

def nums():
    return ds.NumpySlicesDataset({"a": np.arange(6), "b": np.arange(6) * 10}, shuffle=False)


print("project", [d["b"].item() for d in nums().project(["b"]).create_dict_iterator(output_numpy=True)])
ren = nums().rename(["a", "b"], ["x", "y"])
print("rename", ren.get_col_names())
print("take/skip", [t[0].item() for t in nums().skip(2).take(3).create_tuple_iterator(output_numpy=True)])
print("repeat", nums().repeat(2).get_dataset_size())
try:
    shared = nums()
    first, second = shared.batch(2), shared.repeat(2)
    second.get_dataset_size()
except ValueError as e:
    print("ValueError:", e)
left = ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False)
right = ds.NumpySlicesDataset({"c": np.arange(3) + 100}, shuffle=False)
print("zip", [(d["a"].item(), d["c"].item()) for d in ds.zip((left, right)).create_dict_iterator(output_numpy=True)])
other = ds.NumpySlicesDataset({"a": np.arange(2) + 50}, shuffle=False)
print("concat", [d["a"].item() for d in (ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False) + other).create_dict_iterator(output_numpy=True)])


def pad_batch(col, batch_info):
    return ([c + batch_info.get_batch_num() for c in col],)


per = ds.NumpySlicesDataset({"v": np.arange(6, dtype=np.int32)}, shuffle=False)
per = per.batch(2, per_batch_map=pad_batch, input_columns=["v"])
print("per_batch_map", [d["v"].tolist() for d in per.create_dict_iterator(output_numpy=True)])
shuf = ds.NumpySlicesDataset({"v": np.arange(8)}, shuffle=False).shuffle(4)
print("shuffled", [d["v"].item() for d in shuf.create_dict_iterator(output_numpy=True)])
it = ds.NumpySlicesDataset(([1, 2, 3],), column_names=["n"], shuffle=False).create_tuple_iterator()
first = next(it)
print("tensor item", type(first[0]).__name__, first[0].dtype, first[0])
