"""Benchmarks and tournaments beside the product: they print figures, the last line JSON.

Not shipped in the wheel or the Docker image; run from a checkout with the `bench` extra.
"""
