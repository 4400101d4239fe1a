# bpywright: measure the scene the script above built (points on its visible surfaces, part count, colours, silhouettes)
# for the fidelity comparison; written to a fixed file in the working directory, read back by the host with limits.
def _bpywright_measure_scene(path, seed, samples, size):
    import json
    import math
    import random

    import bpy

    def visible(obj):
        try:
            return not obj.hide_render and obj.visible_get()
        except Exception:
            return not obj.hide_render

    def base_colour(material):
        if material is None:
            return (0.8, 0.8, 0.8)
        try:
            if material.use_nodes and material.node_tree is not None:
                for node in material.node_tree.nodes:
                    socket = node.inputs.get("Base Color") or node.inputs.get("Color")
                    if node.type in {"BSDF_PRINCIPLED", "BSDF_DIFFUSE", "EMISSION"} and socket is not None:
                        return tuple(float(c) for c in socket.default_value[:3])
        except Exception:
            pass
        return tuple(float(c) for c in material.diffuse_color[:3])

    def srgb(c):
        c = min(max(c, 0.0), 1.0)
        return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055

    depsgraph = bpy.context.evaluated_depsgraph_get()
    shapes = []  # per visible object: its triangles, their areas and colours
    for obj in bpy.context.scene.objects:
        if obj.type not in {"MESH", "CURVE", "SURFACE", "META", "FONT"} or not visible(obj):
            continue
        evaluated = obj.evaluated_get(depsgraph)
        try:
            mesh = evaluated.to_mesh()
        except Exception:
            continue
        if mesh is None:
            continue
        try:
            matrix = evaluated.matrix_world.copy()
            points = [matrix @ v.co for v in mesh.vertices]
            mesh.calc_loop_triangles()
            slots = [slot.material for slot in evaluated.material_slots]
            own = ([], [], [])
            for tri in mesh.loop_triangles:
                a, b, c = (points[i] for i in tri.vertices)
                area = (b - a).cross(c - a).length / 2
                if not math.isfinite(area) or area <= 0:
                    continue
                index = tri.material_index
                colour = base_colour(slots[index] if 0 <= index < len(slots) else None)
                own[0].append((tuple(a), tuple(b), tuple(c)))
                own[1].append(area)
                own[2].append(tuple(round(srgb(x), 2) for x in colour))
            if own[0]:
                shapes.append(own)
        finally:
            evaluated.to_mesh_clear()

    def box(shape):
        corners = [p for tri in shape[0] for p in tri]
        return [min(p[i] for p in corners) for i in range(3)], [max(p[i] for p in corners) for i in range(3)]

    # A backdrop floor (a flat object under the rest, at least twice its footprint: "a ball on a floor plane") is the
    # stage, not the object: left out, as the staging the harness adds is, where anything else was built.
    boxes = [box(shape) for shape in shapes]
    whole = max(max(b[1][i] for b in boxes) - min(b[0][i] for b in boxes) for i in range(3)) if boxes else 0.0
    floors = set()
    for k, (low, high) in enumerate(boxes):
        rest = [b for j, b in enumerate(boxes) if j != k]
        if not rest or high[2] - low[2] > 0.02 * whole:  # only a flat object can be a floor (the rest's extent is less)
            continue
        r_low = [min(b[0][i] for b in rest) for i in range(3)]
        r_high = [max(b[1][i] for b in rest) for i in range(3)]
        extent = max(r_high[i] - r_low[i] for i in range(3)) or 1.0
        footprint = (high[0] - low[0]) * (high[1] - low[1])
        r_footprint = max((r_high[0] - r_low[0]) * (r_high[1] - r_low[1]), 1e-12)
        if high[2] - low[2] <= 0.02 * extent and high[2] <= r_low[2] + 0.02 * extent and footprint >= 2 * r_footprint:
            floors.add(k)
    kept = [shape for k, shape in enumerate(shapes) if k not in floors] or shapes
    triangles = [t for shape in kept for t in shape[0]]
    areas = [a for shape in kept for a in shape[1]]
    colours = [c for shape in kept for c in shape[2]]
    parts = len(kept)
    # Blender hands a mesh's loop triangles over in an order that can change from run to run (the same set, filled by
    # threads): sample them in a canonical order, by their corners, so a scene measured twice gives the same points
    order = sorted(range(len(triangles)), key=lambda i: sorted(triangles[i]))
    triangles = [triangles[i] for i in order]
    areas = [areas[i] for i in order]
    colours = [colours[i] for i in order]
    result = {"parts": parts, "triangles": len(triangles), "points": [], "bbox": None, "colours": [], "masks": {}}
    if triangles:
        corners = [p for tri in triangles for p in tri]
        low = [min(p[i] for p in corners) for i in range(3)]
        high = [max(p[i] for p in corners) for i in range(3)]
        result["bbox"] = [low, high]
        rng = random.Random(seed)
        chosen = rng.choices(range(len(triangles)), weights=areas, k=samples)
        for k in chosen:
            a, b, c = triangles[k]
            u, v = rng.random(), rng.random()
            if u + v > 1:
                u, v = 1 - u, 1 - v
            result["points"].append([round(a[i] + u * (b[i] - a[i]) + v * (c[i] - a[i]), 5) for i in range(3)])
        by_colour = {}
        for colour, area in zip(colours, areas):
            by_colour[colour] = by_colour.get(colour, 0.0) + area
        total = sum(by_colour.values())
        ranked = sorted(by_colour.items(), key=lambda item: -item[1])[:8]
        result["colours"] = [[list(colour), weight / total] for colour, weight in ranked]
        centre = [(low[i] + high[i]) / 2 for i in range(3)]
        diagonal = math.sqrt(sum((high[i] - low[i]) ** 2 for i in range(3))) or 1.0
        s2, s6 = math.sqrt(2), math.sqrt(6)
        views = {  # (right, up) axes of an orthographic view, in world space
            "front": ((1, 0, 0), (0, 0, 1)),
            "side": ((0, 1, 0), (0, 0, 1)),
            "top": ((1, 0, 0), (0, 1, 0)),
            "iso": ((1 / s2, -1 / s2, 0), (1 / s6, 1 / s6, 2 / s6)),
        }
        for name, (right, up) in views.items():
            grid = bytearray(size * size)

            def pixel(p, right=right, up=up):
                q = [(p[i] - centre[i]) / diagonal for i in range(3)]
                x = sum(q[i] * right[i] for i in range(3))
                y = sum(q[i] * up[i] for i in range(3))
                return (x + 0.5) * size, (0.5 - y) * size

            for tri in triangles:
                (ax, ay), (bx, by), (cx, cy) = (pixel(p) for p in tri)
                x0, x1 = max(int(min(ax, bx, cx)), 0), min(int(max(ax, bx, cx)), size - 1)
                y0, y1 = max(int(min(ay, by, cy)), 0), min(int(max(ay, by, cy)), size - 1)
                if x0 > x1 or y0 > y1:
                    continue
                if x0 == x1 and y0 == y1:  # smaller than a pixel: the pixel it lies in
                    grid[y0 * size + x0] = 1
                    continue
                det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                if abs(det) < 1e-12:  # seen edge-on: mark the pixels its edges cross
                    for t in range(9):
                        f = t / 8
                        for (px, py), (qx, qy) in (((ax, ay), (bx, by)), ((bx, by), (cx, cy))):
                            gx, gy = int(px + f * (qx - px)), int(py + f * (qy - py))
                            if 0 <= gx < size and 0 <= gy < size:
                                grid[gy * size + gx] = 1
                    continue
                hit = False
                for gy in range(y0, y1 + 1):
                    py = gy + 0.5
                    for gx in range(x0, x1 + 1):
                        px = gx + 0.5
                        w0 = ((bx - px) * (cy - py) - (by - py) * (cx - px)) / det
                        w1 = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) / det
                        if w0 >= 0 and w1 >= 0 and w0 + w1 <= 1:
                            grid[gy * size + gx] = 1
                            hit = True
                if not hit:  # thinner than a pixel centre: the pixel of its centroid
                    gx, gy = int((ax + bx + cx) / 3), int((ay + by + cy) / 3)
                    if 0 <= gx < size and 0 <= gy < size:
                        grid[gy * size + gx] = 1
            bits = "".join("1" if g else "0" for g in grid)
            result["masks"][name] = format(int(bits, 2), f"0{size * size // 4}x")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(result, fh)
