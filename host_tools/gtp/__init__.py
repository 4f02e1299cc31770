"""GTP (Go Text Protocol v2): the rules core as an arbiter (arbiter.py), run by ``python -m host_tools.gtp``."""
