"""``python -m catalogues update|check``: see :mod:`catalogues`."""

import sys

from catalogues import main

raise SystemExit(main(sys.argv[1:]))
