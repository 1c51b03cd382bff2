"""``python -m companion`` runs the CLI."""
import sys

from companion.cli import main

sys.exit(main())
