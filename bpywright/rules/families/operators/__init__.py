"""Family operators: operator names, keywords and results (renamed operators, their arguments, what they return)."""
