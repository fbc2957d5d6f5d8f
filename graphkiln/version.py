"""The versions (the one place each is written; pyproject.toml reads ``__version__`` here).

``graphkiln.__version__`` is :data:`MINDSPORE_VERSION`, MindSpore's, since scripts run as
MindSpore test it (``version.parse(ms.__version__) >= version.parse("2.0")``)."""
__version__ = "0.1.0"  # graphkiln's own release
# the MindSpore release whose behaviour and files graphkiln follows (ms.__version__, MINDIR,
# dump metadata)
MINDSPORE_VERSION = "2.10.0"
