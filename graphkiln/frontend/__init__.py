"""The frontend: tracing user Python into graphs (builder, AST conversion, control flow,
pytrees, reusable lazy-inline graphs)."""
