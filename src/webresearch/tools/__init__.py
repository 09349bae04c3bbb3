"""Composition: tool specs, tool implementations and the Toolkit that gates and journals them."""
