"""Write MNIST_Data/{train,test} idx files (digits drawn as learnable blobs) into a folder."""
import os
import sys

import numpy as np


def write(root: str, n_train: int = 256, n_test: int = 64) -> None:
    rng = np.random.default_rng(0)
    for part, prefix, n in (("train", "train", n_train), ("test", "t10k", n_test)):
        folder = os.path.join(root, "MNIST_Data", part)
        os.makedirs(folder, exist_ok=True)
        labels = rng.integers(0, 10, n).astype(np.uint8)
        imgs = rng.integers(0, 60, (n, 28, 28)).astype(np.uint8)
        for i, lbl in enumerate(labels):  # each class lights its own rows
            imgs[i, 2 * lbl + 3:2 * lbl + 6, 4:24] = 250
        with open(os.path.join(folder, f"{prefix}-images-idx3-ubyte"), "wb") as f:
            f.write(np.array([2051, n, 28, 28], ">u4").tobytes() + imgs.tobytes())
        with open(os.path.join(folder, f"{prefix}-labels-idx1-ubyte"), "wb") as f:
            f.write(np.array([2049, n], ">u4").tobytes() + labels.tobytes())


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else ".")
