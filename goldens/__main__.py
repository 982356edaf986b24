"""``python -m goldens``: see :mod:`goldens.golden`."""

import sys

from goldens.golden import main

sys.exit(main())
