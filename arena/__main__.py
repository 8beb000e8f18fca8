"""`python -m arena ...` is the `arena` command, for environments without the console script."""

from arena.command import main

main()
