"""The MCP server: bpywright's operations as tools for coding assistants (`bpywright mcp` on stdio, `/mcp` on the service)."""
