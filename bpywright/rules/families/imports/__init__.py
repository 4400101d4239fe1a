"""Family imports: names a script uses and never defines (missing imports, misspelt names, renamed helpers, keywords
of its own functions)."""
