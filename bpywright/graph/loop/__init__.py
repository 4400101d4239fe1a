"""The generation loop: its state, the context nodes share, the nodes, the wiring (build), the routing between nodes, and run.generate, the entry point."""
