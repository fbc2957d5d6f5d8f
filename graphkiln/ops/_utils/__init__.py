"""``mindspore.ops._utils``: helpers MindSpore's own code imports (``arg_dtype_cast``)."""
