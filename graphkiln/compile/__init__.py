"""From a user call to a compiled graph: ``@jit``, GRAPH_MODE cells, the call cache,
the persistent compile cache and ``Executable``."""
