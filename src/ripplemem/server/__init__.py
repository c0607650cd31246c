"""The service: a REST API (``/v1``) and an MCP server (``/mcp``) over one store, with API keys
bound to namespaces. ``ripplemem serve`` runs it; ``ripplemem mcp`` serves MCP over stdio."""
