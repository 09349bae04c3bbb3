"""web_search providers: protocol, registry, normalisation, one module per provider."""
