"""BackupAndRestore: a backup after every ``save_freq`` epochs, restored into the train
network when the next training starts, deleted at the end unless told otherwise (the
behaviour of MindSpore 2.10's callback, train/callback/_backup_and_restore.py)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn


def _model():
    net = nn.Dense(3, 1, weight_init="zeros", bias_init="zeros")
    return net, ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))


def _dataset():
    x = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
    y = x.sum(1, keepdims=True)
    return ms.dataset.NumpySlicesDataset((x, y), ["x", "y"], shuffle=False).batch(2)


def test_backup_is_written_restored_and_deleted(tmp_path):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net, model = _model()
    keep = ms.BackupAndRestore(str(tmp_path), save_freq=1, delete_checkpoint=False)
    model.train(2, _dataset(), callbacks=[keep])
    backup = tmp_path / "backup.ckpt"
    assert backup.exists()
    trained = net.weight.asnumpy().copy()
    # a new run starts from the backup, not from the zero initialisation
    net2, model2 = _model()
    seen = []
    probe = ms.LambdaCallback(on_train_step_begin=lambda ctx: seen.append(
        net2.weight.asnumpy().copy()))
    model2.train(1, _dataset(), callbacks=[ms.BackupAndRestore(str(tmp_path)), probe])
    np.testing.assert_allclose(seen[0], trained)
    assert not backup.exists()  # delete_checkpoint=True removes it at the end


def test_save_freq_and_arguments(tmp_path):
    net, model = _model()
    model.train(1, _dataset(), callbacks=[ms.BackupAndRestore(str(tmp_path), 2, False)])
    assert not (tmp_path / "backup.ckpt").exists()  # epoch 1 is not a multiple of 2
    with pytest.raises(ValueError):
        ms.BackupAndRestore(str(tmp_path), save_freq=0)
    with pytest.raises(TypeError):
        ms.BackupAndRestore(str(tmp_path), delete_checkpoint="no")
    assert ms.BackupAndRestore is ms.train.callback.BackupAndRestore
