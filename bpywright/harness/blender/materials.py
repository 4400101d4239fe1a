"""Materials and the world as they render: the Principled BSDF's values, an Emission or Glass BSDF on the output, the sky.

Socket names differ by version ("Transmission" became "Transmission Weight" and "Emission" became "Emission Color"
in 4.0), so each value is looked up under every name it has had, newest first.
"""

from .animation import MAX_FCURVES, fcurves_of
from .readings import cut, first, number, safe, socket_value, vector

MAX_MATERIALS = 64
MAX_LISTED = 64  # node types and linked inputs named per material
MAX_NODES = 1000  # nodes read per tree
MAX_MATERIAL_FCURVES = 256  # over all materials, the world and the scene
MAX_SURFACE_NODES = 16  # nodes followed back from the output's Surface
PASS_THROUGH = {"MIX_SHADER", "ADD_SHADER", "REROUTE"}  # nodes whose inputs still feed the output's Surface
PRINCIPLED_INPUTS = {  # report field -> (socket names, newest first; vector size or None for a float)
    "base_color": (("Base Color",), 4),
    "metallic": (("Metallic",), None),
    "roughness": (("Roughness",), None),
    "transmission": (("Transmission Weight", "Transmission"), None),
    "emission_color": (("Emission Color", "Emission"), 4),
    "emission_strength": (("Emission Strength",), None),
    "alpha": (("Alpha",), None),
    "ior": (("IOR",), None),
}


def scene_materials(objects):
    """(MaterialSummary dicts, the materials) of every material in the objects' slots, at most MAX_MATERIALS."""
    users, materials = {}, []
    for obj in objects:
        for slot in safe(lambda o=obj: list(o.material_slots), []):
            material = safe(lambda s=slot: s.material)
            key = safe(lambda m=material: m.as_pointer()) if material is not None else None
            if key is None or (key not in users and len(materials) >= MAX_MATERIALS):
                continue
            if key not in users:
                users[key] = 0
                materials.append(material)
            users[key] += 1
    summaries = [safe(lambda m=m: material_summary(m, users[m.as_pointer()])) for m in materials]
    return [s for s in summaries if s is not None], materials


def material_summary(material, users):
    """One material's MaterialSummary dict."""
    use_nodes = bool(safe(lambda: material.use_nodes, True))
    tree = safe(lambda: material.node_tree) if use_nodes else None
    nodes = first(safe(lambda: tree.nodes, ()), MAX_NODES) if tree is not None else []
    surface = _surface_nodes(nodes, "OUTPUT_MATERIAL")
    principled = _first_of_type(surface, "BSDF_PRINCIPLED") or _first_of_type(nodes, "BSDF_PRINCIPLED")
    summary = {"name": cut(material.name), "use_nodes": use_nodes, "users": users}
    for field, (names, size) in PRINCIPLED_INPUTS.items():
        summary[field] = socket_value(principled, names, size)
    if principled is None:
        summary["base_color"] = vector(safe(lambda: material.diffuse_color), 4)
        summary["metallic"] = number(safe(lambda: material.metallic))
        summary["roughness"] = number(safe(lambda: material.roughness))
    for node in surface:
        kind = safe(lambda n=node: n.type)
        if kind == "EMISSION":
            strength = socket_value(node, ("Strength",))
            if summary["emission_strength"] is None or (strength or 0.0) > summary["emission_strength"]:
                summary["emission_strength"] = strength
                summary["emission_color"] = socket_value(node, ("Color",), 4)
        elif kind == "BSDF_GLASS":
            summary["transmission"] = 1.0
            if summary["ior"] is None:
                summary["ior"] = socket_value(node, ("IOR",))
    inputs = safe(lambda: list(principled.inputs), []) if principled is not None else []
    summary["linked"] = [cut(s.name) for s in inputs if safe(lambda s=s: s.is_linked, False)][:MAX_LISTED]
    summary["node_types"] = _node_types(nodes)
    return summary


def _node_types(nodes):
    """The distinct node types of a tree (a custom node by its bl_idname), sorted, at most MAX_LISTED."""
    types = set()
    for node in nodes:
        kind = safe(lambda n=node: n.type)
        kind = safe(lambda n=node: n.bl_idname) if kind in (None, "CUSTOM") else kind
        if kind is not None:
            types.add(cut(kind))
    return sorted(types)[:MAX_LISTED]


def _first_of_type(nodes, kind):
    """The first node of the given type, or None."""
    return next((n for n in nodes if safe(lambda n=n: n.type) == kind), None)


def _surface_nodes(nodes, output_type):
    """The nodes that feed the active output's Surface, directly or through mix/add shaders and reroutes."""
    outputs = [n for n in nodes if safe(lambda n=n: n.type) == output_type]
    output = next((n for n in outputs if safe(lambda n=n: n.is_active_output, False)), outputs[0] if outputs else None)
    surface = safe(lambda: output.inputs.get("Surface")) if output is not None else None
    found, sockets = [], [surface] if surface is not None else []
    while sockets and len(found) < MAX_SURFACE_NODES:
        socket = sockets.pop(0)
        for link in safe(lambda s=socket: list(s.links), []):
            node = safe(lambda lk=link: lk.from_node)
            if node is None or any(node == seen for seen in found):
                continue
            found.append(node)
            if safe(lambda n=node: n.type) in PASS_THROUGH:
                sockets += [s for s in safe(lambda n=node: list(n.inputs), []) if safe(lambda s=s: s.is_linked, False)]
    return found


def world_facts(scene):
    """(colour, strength) of the world's background: the Background node on the World Output, else world.color."""
    world = safe(lambda: scene.world)
    if world is None:
        return None, None
    tree = safe(lambda: world.node_tree) if safe(lambda: world.use_nodes, True) else None
    nodes = first(safe(lambda: tree.nodes, ()), MAX_NODES) if tree is not None else []
    background = _first_of_type(_surface_nodes(nodes, "OUTPUT_WORLD"), "BACKGROUND") or _first_of_type(nodes, "BACKGROUND")
    if background is None:
        return vector(safe(lambda: world.color), 3), None
    return socket_value(background, ("Color",), 3), socket_value(background, ("Strength",))


def material_fcurves(materials, scene):
    """F-curves on the materials and their node trees, then on the world and the scene (MAX_MATERIAL_FCURVES in all)."""
    world = safe(lambda: scene.world)
    groups = []
    for material in materials:
        owner = cut("material:" + str(safe(lambda m=material: m.name, "")))
        groups.append([(owner, material), (owner, safe(lambda m=material: m.node_tree))])
    groups.append([("world", world), ("world", safe(lambda: world.node_tree) if world is not None else None)])
    groups.append([("scene", scene)])
    found = []
    for owners in groups:
        found += fcurves_of(owners, min(MAX_FCURVES, MAX_MATERIAL_FCURVES - len(found)))
    return found
