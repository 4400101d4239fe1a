"""Family values: wrong values and data a script builds (matrix products, colours, enums, division, meshes, slots,
datablocks, parenting, made-up modifiers)."""
