"""The LangGraph generation loop (retrieve, generate, lint, run, critic, heal): see the issues that build it."""
