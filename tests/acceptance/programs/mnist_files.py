"""Writes a small MNIST in the idx format (what the MindSpore quick start downloads)."""
import os
import struct

import numpy as np


def _write_idx(path, array, magic):
    with open(path, "wb") as f:
        f.write(struct.pack(">I", magic))
        for size in array.shape:
            f.write(struct.pack(">I", size))
        f.write(array.astype(np.uint8).tobytes())


def write_mnist(root, n_train=256, n_test=128, seed=0):
    """Ten classes, each a fixed stroke pattern shifted by a pixel, as uint8 28x28 images."""
    rng = np.random.default_rng(seed)
    templates = (rng.random((10, 28, 28)) > 0.75) * 200
    for split, n in (("train", n_train), ("test", n_test)):
        os.makedirs(os.path.join(root, split), exist_ok=True)
        labels = rng.integers(0, 10, n)
        images = np.stack([np.roll(templates[k], tuple(rng.integers(-1, 2, 2)), axis=(0, 1))
                           for k in labels])
        images = np.clip(images + rng.integers(0, 50, images.shape), 0, 255)
        prefix = "train" if split == "train" else "t10k"
        _write_idx(os.path.join(root, split, f"{prefix}-images-idx3-ubyte"), images, 2051)
        _write_idx(os.path.join(root, split, f"{prefix}-labels-idx1-ubyte"), labels, 2049)
