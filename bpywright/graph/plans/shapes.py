"""Shapes of everyday objects that the critic holds an answer against, and that the model is shown to adapt.

The plan library (graph/plans/library.py) holds a few broad kinds shown to the model, so that it adapts a table's legs
for a desk. The shape table holds narrower kinds (an armchair, a pizza slice, a screwdriver), written at real sizes from
what the objects are, with nothing from a benchmark's data. It is data: `data/shapes.json`, one shape per entry (its
request, its kind words, its parts in the plan's own terms: on / side / at, named colours), validated on load by
graph/plans/tables.py. shape:N is the N-th entry, so new shapes are appended.

Where a kind word of a request's first clause names one of these, graph/review/agreement.py compares the answer with it before
any library archetype, and the one of the request's kind is shown as the first plan example (Settings.plan_shapes;
BPYWRIGHT_PLAN_SHAPES=0 hides it). A plan that repeats it is asked again, a script that is it again is a copy
(graph/review/copies.py), and an answer that is it again up to scale is no agreement (agreement.REPEAT_F). Kind words are as
scene_plan.kind_words gives them (singular; no colour, generic or function word such as "orange", "pattern" or "can",
which never name a kind): tests/graph/test_shapes.py holds every one to naming its shape. The shapes are coarse on
purpose: a few primitives that carry an object's proportions and the arrangement of its main parts, which is what an
F-score over surface points, normalised for size, sees. How faithful they are as answers: docs/benchmarks/fidelity.md.
"""

from __future__ import annotations

from .library import Archetype
from .tables import shapes

SHAPES: tuple[Archetype, ...] = shapes()
