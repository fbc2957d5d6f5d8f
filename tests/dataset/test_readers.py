"""File readers: options beyond the recorded MindSpore cases."""
import numpy as np
import pytest

import graphkiln.dataset as ds

from .fixtures.make_files import CIFAR_TEST_RECORDS, image, write_all


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return write_all(str(tmp_path_factory.mktemp("files")))


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))


def test_mnist_columns_and_sharding(files):
    data = ds.MnistDataset(files["mnist"], usage="train", shuffle=False)
    img, label = _rows(data)[0]
    assert img.shape == (28, 28, 1) and img.dtype == np.uint8 and label.dtype == np.uint32
    shards = [ds.MnistDataset(files["mnist"], "train", num_shards=2, shard_id=k)
              for k in range(2)]
    assert sum(s.get_dataset_size() for s in shards) == 20
    assert ds.MnistDataset(files["mnist"], num_samples=5).get_dataset_size() == 5
    with pytest.raises(ValueError, match="usage"):
        ds.MnistDataset(files["mnist"], usage="val")


def test_cifar_train_files(files):
    train = ds.Cifar10Dataset(files["cifar10"], usage="train", shuffle=False)
    assert train.get_dataset_size() == 15
    assert ds.Cifar10Dataset(files["cifar10"]).get_dataset_size() == 15 + CIFAR_TEST_RECORDS
    c100 = ds.Cifar100Dataset(files["cifar100"], usage="train", shuffle=False)
    assert c100.get_col_names() == ["image", "coarse_label", "fine_label"]
    raw = np.fromfile(f"{files['cifar100']}/train.bin", np.uint8).reshape(-1, 3074)
    img, coarse, fine = _rows(c100)[1]
    assert (int(coarse), int(fine)) == (raw[1, 0], raw[1, 1])
    np.testing.assert_array_equal(img, raw[1, 2:].reshape(3, 32, 32).transpose(1, 2, 0))


def test_cifar_folder_files_found_by_name(tmp_path):
    """As MindSpore 2.10 (checked on it with these folders, of files of 10,000 records, as
    it reads them): every ``.bin`` file whose name holds ``data_batch`` is a train file,
    whichever of the five are there; a folder without ``.bin`` files or without files of
    the usage is refused."""
    for name in ("data_batch_1.bin", "x_data_batch.bin", "notes.txt"):
        np.zeros((4, 3073), np.uint8).tofile(tmp_path / name)
    assert ds.Cifar10Dataset(str(tmp_path), usage="train").get_dataset_size() == 8
    with pytest.raises(RuntimeError, match="no data found"):
        ds.Cifar10Dataset(str(tmp_path), usage="test").get_dataset_size()
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "data_batch_1").write_bytes(b"")
    with pytest.raises(RuntimeError, match=r"cifar\(\.bin\) files are missing"):
        ds.Cifar10Dataset(str(empty)).get_dataset_size()


def test_image_folder_options(files):
    data = ds.ImageFolderDataset(files["folder"], shuffle=False, decode=True,
                                 class_indexing={"dog": 5, "emu": 0})
    rows = _rows(data)
    assert [int(r[1]) for r in rows] == [5] * 3 + [0] * 4
    np.testing.assert_array_equal(rows[0][0], image(8, 11, seed=10))
    assert data.num_classes() == 2 and data.get_class_indexing() == {"dog": 5, "emu": 0}
    assert ds.ImageFolderDataset(files["folder"], extensions=[".jpg"]).get_dataset_size() == 0
    both = ds.ImageFolderDataset(files["folder"], num_shards=2, shard_id=1, shuffle=False)
    assert both.get_dataset_size() == 5


def test_text_and_csv(files):
    assert [str(r[0]) for r in _rows(ds.TextFileDataset(files["text"], shuffle=False))] == [
        "hello world", "second line", "third"]
    shuffled = ds.TextFileDataset([files["text"], files["text"]], shuffle=ds.Shuffle.GLOBAL)
    assert shuffled.get_dataset_size() == 6
    named = ds.CSVDataset(files["csv"], column_names=["a", "b", "c"], shuffle=False)
    assert named.get_col_names() == ["a", "b", "c"]
    assert [str(r[0]) for r in _rows(named)][0] == "id"
