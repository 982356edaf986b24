"""The property tests' one profile: the same examples on every run (CI stability), no deadline
(a 2-core CI machine may be slow), no example database, and enough matches per example.

Set ``ENGINE_PROPERTY_SCALE=10`` (say) to play ten times as many matches locally.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

SCALE = max(1, int(os.environ.get("ENGINE_PROPERTY_SCALE", "1")))
PROFILE = settings(
    max_examples=3 * SCALE,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
