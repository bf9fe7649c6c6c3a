"""``python -m unclutter`` runs the CLI."""

from .cli import main

main()
