"""Adapters: tool specs and results in OpenAI and Anthropic message formats (pure functions)."""
