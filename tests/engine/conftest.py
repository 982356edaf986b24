"""Lets the engine tests import their shared builders (``engine_kit``) under any pytest
import mode, not only the default one that puts this folder on ``sys.path``."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
