"""Python dicts as dataset columns (through map, batch, per_batch_map and both kinds of
iterator) and the arrays MindSpore hands out (int64 arrays print ``dtype=int64``)."""
import mindspore as ms
import mindspore.dataset as ds
import numpy as np


def records():
    for i in range(4):
        pixels = np.full((2,), i * 1.5, np.float32)
        yield {"id": i, "pixels": pixels, "meta": {"even": i % 2 == 0}}, i * 10


def describe(rec):
    assert isinstance(rec, dict)
    return {"id": rec["id"], "total": rec["pixels"].sum(), "even": rec["meta"]["even"]}


data = ds.GeneratorDataset(records, column_names=["rec", "score"], shuffle=False)
data = data.map(describe, input_columns=["rec"])
for row in data.create_dict_iterator(num_epochs=1, output_numpy=True):
    print(row)
for row in data.create_tuple_iterator(num_epochs=1):
    print(row)
print(data.batch(2).create_dict_iterator(num_epochs=1, output_numpy=True).__next__())


def pair_up(values, info):
    return ({"first": values[0], "count": np.array(len(values))},)


batched = ds.GeneratorDataset(records, column_names=["rec", "score"], shuffle=False)
batched = batched.batch(2, per_batch_map=pair_up, input_columns=["score"])
for row in batched.create_dict_iterator(num_epochs=1, output_numpy=True):
    print(row)

print(repr(ms.Tensor([1, 2]).asnumpy()), repr(ms.Tensor(np.array([3], np.int32)).asnumpy()))
print(next(ds.NumpySlicesDataset([[1, 2], [3, 4]], shuffle=False).create_tuple_iterator(
    output_numpy=True)))
