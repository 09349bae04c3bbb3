"""``python -m webresearch`` runs the CLI."""

from webresearch.cli.entry import main

main()
