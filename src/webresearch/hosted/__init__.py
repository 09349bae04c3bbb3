"""Operator-configured HTTP services (search APIs, hosted page readers, screenshot services):
the one endpoint every service client uses, and the options of services that serve several
tools (Firecrawl)."""
