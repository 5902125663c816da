"""``python -m plunder``: the ``plunder`` command, for where its script is not on the PATH."""

from .cli import main

main()
