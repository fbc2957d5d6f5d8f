"""``load_mindir``/``save_mindir`` (deprecated in MindSpore 2.5, still exported): read a
``.mindir`` file into its ``ModelProto`` message and write one back, for code that edits
exported models (``ms.export`` writes them; ``ms.load`` runs them)."""
from __future__ import annotations

import os
import re
import stat

from .mindir_schema import ModelProto

_FILE_NAME = re.compile(r"^[0-9a-zA-Z@\-_./:\\()\[\] ]+$")


def _check_file_name(file_name) -> str:
    if not isinstance(file_name, str):
        raise TypeError(f"The type of 'file_name' must be str, but got {type(file_name)}.")
    if not _FILE_NAME.match(file_name):
        raise ValueError(f"'file_name' {file_name} is illegal: it must contain only letters, "
                         f"digits and '@-_./:\\()[] '.")
    return os.path.realpath(file_name)


def load_mindir(file_name: str) -> ModelProto:
    """The ``ModelProto`` message of the MindIR file ``file_name``."""
    path = _check_file_name(file_name)
    model = ModelProto()
    try:
        with open(path, "rb") as f:
            model.ParseFromString(f.read())
    except Exception as e:
        raise ValueError(str(e)) from e
    return model


def save_mindir(model: ModelProto, file_name: str) -> None:
    """Write ``model`` to ``file_name`` (``.mindir`` appended when missing), read-only."""
    path = _check_file_name(file_name)
    if not path.endswith(".mindir"):
        path += ".mindir"
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    if os.path.exists(path):
        os.chmod(path, stat.S_IWUSR)
    if not isinstance(model, ModelProto):
        raise TypeError(f"For 'save_mindir', the argument 'model' must be ModelProto, but got "
                        f"{type(model)}.")
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
            f.write(model.SerializeToString())
    except Exception as e:
        raise ValueError(str(e)) from e
    finally:
        if os.path.exists(path):
            os.chmod(path, stat.S_IRUSR)
