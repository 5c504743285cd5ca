"""``python -m atout``: the same as the ``atout`` command."""

import sys

from atout.cli import main

sys.exit(main())
