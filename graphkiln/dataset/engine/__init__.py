"""The pipeline engine: nodes, samplers, sources, workers and iterators."""
