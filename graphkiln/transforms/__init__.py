"""Trace-time transformations of traced programs: reverse-mode autodiff and vmap."""
