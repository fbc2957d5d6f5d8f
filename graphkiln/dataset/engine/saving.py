"""``Dataset.save``: a pipeline's rows written as MindRecord, typed as MindSpore types them
(narrow integers and bools to int32, uint32/uint64 to int64, float16 to float32; arrays keep
their shape after a variable first dimension)."""
from __future__ import annotations

import numpy as np

from ...mindrecord import FileWriter

_RECORD_TYPES = {"b": "int32", "i": "int32", "u": "int32", "f": "float32"}
_WIDE = {np.dtype(np.int64): "int64", np.dtype(np.uint32): "int64",
         np.dtype(np.uint64): "int64", np.dtype(np.float64): "float64"}


def _field(name: str, value: np.ndarray) -> dict:
    """The MindRecord schema entry of a column whose first value is ``value``."""
    if value.dtype.kind in "US":
        if value.ndim > 0:
            raise RuntimeError(f"Invalid data, mindrecord can not support multi-dimensional "
                               f"string or bytes: column {name!r} has shape "
                               f"{list(value.shape)}.")
        return {"type": "string" if value.dtype.kind == "U" else "bytes"}
    if value.dtype.kind not in "biuf":
        raise RuntimeError(f"Invalid data, column {name!r} of type {value.dtype} can not be "
                           f"saved as mindrecord.")
    field = {"type": _WIDE.get(value.dtype, _RECORD_TYPES[value.dtype.kind])}
    if value.ndim > 0:
        field["shape"] = [-1, *value.shape[1:]]
    return field


def _record_value(value: np.ndarray, field: dict):
    if field["type"] in ("string", "bytes"):
        return value.item()
    typed = value.astype(field["type"], copy=False)
    return typed if "shape" in field else typed.item()


def save(dataset, file_name: str, num_files: int = 1, file_type: str = "mindrecord") -> None:
    """Write every row of one pass over ``dataset`` to ``num_files`` MindRecord files
    (``file_name``, or ``file_name0``... for several), with an index on the scalar fields."""
    if file_type != "mindrecord":
        raise ValueError(f"{file_type} dataset format is not supported.")
    if isinstance(num_files, bool) or not isinstance(num_files, int) or \
            not 1 <= num_files <= 1000:
        raise ValueError("num_files should between 0 and 1000.")
    names = dataset.get_col_names()
    writer = FileWriter(file_name, num_files)
    fields = None
    rows = []
    for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
        if fields is None:
            fields = {n: _field(n, np.asarray(v)) for n, v in zip(names, row)}
            writer.add_schema(fields, "mindrecord")
            scalars = [n for n, f in fields.items() if "shape" not in f and f["type"] != "bytes"]
            if scalars:
                writer.add_index(scalars)
        rows.append({n: _record_value(np.asarray(v), fields[n]) for n, v in zip(names, row)})
    if fields is None:
        raise RuntimeError("Invalid data, the dataset is empty: there is no row to save.")
    writer.write_raw_data(rows)
    writer.commit()
