"""The IR: abstract values, graphs and nodes, primitives, and the tools that read and
write graphs (printer, serializer, verifier, clone, rewrite)."""
