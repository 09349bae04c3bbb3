"""Turning downloaded bytes into text for a model: charset, HTML → markdown, PDF, pass-through."""
