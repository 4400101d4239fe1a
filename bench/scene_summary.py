"""Cost of the scene summary's technique facts: the full summary vs the same walk with the facts' readers left out.

    .venv/bin/python bench/scene_summary.py [--objects 200] [--repeat 21]

Builds a scene in the bpy wheel (cubes, each with a bevel, one of 50 Principled materials and a keyframed bounce on
three channels), then times, interleaved in one process, the summary as the harness runs it (with `fit_summary`) and
the baseline: the same summary with object facts, F-curves, materials, world and instance counting stubbed out
(what the summary held before: types, counts, materials' names, modifiers' types, boxes). Prints the ratio of
CPU times (this process's, so that other work on a shared machine does not count), best of --repeat.
"""

from __future__ import annotations

import argparse
import json
import runpy
import statistics
import time
from pathlib import Path

ENTRY = Path(__file__).resolve().parent.parent / "bpywright" / "harness" / "blender" / "entry.py"


def build(objects: int) -> None:
    """The scene: `objects` cubes with a bevel, a material each (50 in all) and a bounce keyframed on x, y, z."""
    import bpy

    materials = []
    for i in range(50):
        material = bpy.data.materials.new(f"Mat{i}")
        material.use_nodes = True
        material.node_tree.nodes["Principled BSDF"].inputs["Metallic"].default_value = i / 50
        materials.append(material)
    for i in range(objects):
        bpy.ops.mesh.primitive_cube_add(location=(i % 20 * 3, i // 20 * 3, 0))
        obj = bpy.context.object
        obj.data.materials.append(materials[i % 50])
        obj.modifiers.new("Bevel", "BEVEL").width = 0.1
        for frame, z in ((1, 0.0), (24, 2.0), (48, 0.0)):
            obj.location.z = z
            obj.keyframe_insert("location", frame=frame)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    import bpy

    summary = runpy.run_path(str(ENTRY), run_name="entry")["load"]("summary")
    build(args.objects)
    facts = {
        name: getattr(summary, name) for name in ("object_facts", "object_fcurves", "scene_materials", "world_facts", "count_instances")
    }
    stubs = {
        "object_facts": lambda obj: {},
        "object_fcurves": lambda obj: [],
        "scene_materials": lambda objects: ([], []),
        "world_facts": lambda scene: (None, None),
        "count_instances": lambda depsgraph: (0, {}),
    }

    def timed(readers: dict) -> tuple[float, int]:
        for name, reader in readers.items():
            setattr(summary, name, reader)
        start = time.process_time()
        result = summary.scene_summary()
        summary.fit_summary(result)
        return time.process_time() - start, len(json.dumps(result))

    timed(facts), timed(stubs)  # warm both
    full, base = [], []
    for _ in range(args.repeat):
        base.append(timed(stubs))
        full.append(timed(facts))
    b, f = min(t for t, _ in base), min(t for t, _ in full)
    print(f"bpy {bpy.app.version_string}: {len(bpy.context.scene.objects)} objects, 50 materials, {3 * args.objects} F-curves")
    print(f"geometry-only summary  {b * 1000:7.1f} ms (median {statistics.median(t for t, _ in base) * 1000:.1f})  {base[0][1]:>9,} bytes")
    print(f"with technique facts   {f * 1000:7.1f} ms (median {statistics.median(t for t, _ in full) * 1000:.1f})  {full[0][1]:>9,} bytes")
    print(f"ratio {f / b:.2f}x (CPU time, best of {args.repeat}, interleaved)")


if __name__ == "__main__":
    main()
