"""The generation path, one room per job: `loop/` (state, nodes, wiring, routing; entry point `loop.run.generate`),
`model/` (the model client and its prompts), `plans/` (part plans and the builder), `reading/` (what a request asks
for), `review/` (checks of an attempt against its request), `repair/` (deterministic repairs of a script); the data
files all of them read are in `data/`. `command.py` is the `bpywright generate` command."""
