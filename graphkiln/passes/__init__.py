"""Graph optimisation passes, one module each, and the ordered pipeline that runs them."""
