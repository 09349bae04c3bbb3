"""The `webresearch` command line."""
