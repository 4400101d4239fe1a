"""`python -m bpywright` runs the CLI."""

import sys

from .cli import main

sys.exit(main())
