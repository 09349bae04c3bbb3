"""``python -m webresearch`` runs the CLI."""

from webresearch.cli.main import main

main()
