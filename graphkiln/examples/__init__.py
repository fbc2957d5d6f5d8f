"""The spec's examples, written as a user writes them (``import graphkiln as ms``).

graphkiln treats this package as user code (it converts and traces it like a script), so
``python -m graphkiln tour`` runs the examples exactly as a user's program would run.
"""
