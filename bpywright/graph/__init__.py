"""The LangGraph generation loop: retrieve → generate → validate (lint + run) → critic → heal …; entry point `run.generate`."""
