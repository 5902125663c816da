"""``python -m plunder.cli``: the ``plunder`` command (tests and benches start servers this way)."""

from . import main

main()
