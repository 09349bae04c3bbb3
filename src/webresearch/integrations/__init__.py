"""Framework integrations: the webresearch tools as native tools of agent frameworks.

* :mod:`webresearch.integrations.langchain` — LangChain ``StructuredTool`` objects
  (``pip install -e '.[langchain]'`` in the webresearch checkout);
* :mod:`webresearch.integrations.llm_plugin` — a plugin for Simon Willison's ``llm``
  (``pip install -e '.[llm]'`` in the webresearch checkout, then ``llm -T web_fetch …``).

LlamaIndex, pydantic-ai and the OpenAI Agents SDK use the MCP server (``webresearch mcp``);
README "Use it from …" shows the wiring. Each module imports its framework lazily, so the
frameworks stay optional; like the other faces, these use only the public facade.
"""
