"""GeneratorDataset pipeline: random-access source, Python transforms, shuffle/repeat/batch."""
import numpy as np
import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as transforms

ds.config.set_seed(58)


class MyAccessible:
    def __init__(self):
        rng = np.random.default_rng(0)
        self._data = rng.normal(size=(10, 3)).astype(np.float32)
        self._label = np.arange(10).astype(np.int64)

    def __getitem__(self, index):
        return self._data[index], self._label[index]

    def __len__(self):
        return len(self._data)


def generator_func(num):
    for i in range(num):
        yield (np.array([i, i * i]),)


def add_noise(data):
    return (data * 2 + 1).astype(np.float32)


class Square:
    def __call__(self, x):
        return x * x


dataset = ds.GeneratorDataset(MyAccessible(), column_names=["data", "label"], shuffle=False)
print(dataset.get_dataset_size(), dataset.get_col_names())
dataset = dataset.map(operations=[add_noise, Square()], input_columns=["data"])
dataset = dataset.map(operations=transforms.TypeCast(ms.int32), input_columns=["label"])
dataset = dataset.batch(4, drop_remainder=False).repeat(2)
print(dataset.get_dataset_size(), dataset.output_types(), dataset.output_shapes())
for data, label in dataset.create_tuple_iterator():
    print(data.shape, data.dtype, np.round(data.asnumpy().sum(), 4), label)

gen = ds.GeneratorDataset(lambda: generator_func(7), ["col"], shuffle=False)
for row in gen.batch(3).create_dict_iterator(output_numpy=True):
    print(row["col"].tolist(), row["col"].dtype)

shuffled = ds.GeneratorDataset(MyAccessible(), ["data", "label"], shuffle=True)
shuffled = shuffled.shuffle(buffer_size=4).batch(5).repeat(2)
for epoch in range(1):
    labels = [lab.tolist() for _, lab in shuffled.create_tuple_iterator(output_numpy=True)]
    print("batches", len(labels), "sorted labels", sorted(sum(labels, [])))

filtered = ds.NumpySlicesDataset([1, 2, 3, 4, 5, 6], column_names=["n"], shuffle=False)
filtered = filtered.filter(lambda n: n % 2 == 0).map(lambda n: n * 10).project(["n"])
print([int(r[0]) for r in filtered.create_tuple_iterator(output_numpy=True)])
zipped = ds.zip((ds.NumpySlicesDataset([1, 2], ["a"], shuffle=False),
                 ds.NumpySlicesDataset([3.5, 4.5], ["b"], shuffle=False)))
print([(int(a), float(b)) for a, b in zipped.create_tuple_iterator(output_numpy=True)])
