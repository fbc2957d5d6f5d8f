"""Column errors of pipeline operations: MindSpore's texts for a missing column, per
operation, and the error they raise when the pipeline is built."""
from __future__ import annotations


class ColumnError(RuntimeError):
    """A column an operation names is missing or clashes: MindSpore finds it when the
    pipeline is built (an iterator, ``get_col_names``...), not when the operation is added."""


# MindSpore's text for a missing column, per operation
MISSING_COLUMN = {
    "map": "Invalid parameter, input column name: {} doesn't exist in the dataset columns.",
    "bucket_batch_by_length": "Invalid parameter, input column name: {} doesn't exist in "
                              "the dataset columns.",
    "filter": "Invalid parameter, column name: {} does not exist in the dataset columns.",
    "project": "Invalid column, column name: {} does not exist.",
    "iterator": "Invalid column, column name: {} does not exist.",
    "rename": "Invalid column, column to be renamed does not exist.",
    "batch": "Invalid input_columns, '{}' of 'input_columns' doesn't exist.",
    "padded_batch": "Invalid pad_info, column name: {} does not exist.",
}
