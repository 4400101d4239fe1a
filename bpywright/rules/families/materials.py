"""Blender Internal texture slots, which Blender 2.80 removed with Blender Internal: `slot = mat.texture_slots.add()`,
`slot.texture = tex`, `slot.texture_coords = 'UV'`, `slot.use_map_color_diffuse = True` … raise AttributeError on 2.80+.

The texture itself still exists (`bpy.data.textures.new(name, 'CLOUDS')` and its settings are there for brushes and
the Displace modifier); only the material no longer reads it. So the slot and the settings the script gives it become
one call of a helper written into the script, `texture_slot_nodes(mat, tex, texture_coords='UV', …)`, which builds the
same thing in the material's node tree: the texture as the nearest shader texture node (an image → Image Texture;
Clouds, Distorted Noise, Stucci, Musgrave → Noise; Noise → White Noise; Voronoi → Voronoi; Wood, Marble → Wave; Blend
→ Gradient; Magic → Magic), mixed over the material's colour into the Base Color as the slot mixed it into the diffuse
colour, into the Normal through a Bump node when the slot mapped normals, into the Alpha when it mapped alpha. The
helper is plain bpy a person can read and change; a slot setting with no node counterpart is printed when it runs,
never dropped without a word.

The settings folded into the call are the `slot.X = value` statements in the same block after the slot is made, until
the slot's name is bound again; the call takes the place of the last of them, so the texture they name is made first.
"""

from __future__ import annotations

import libcst as cst

from ..base import DriftRule, RuleTransformer
from ..fragments import code, lone_value, with_helper

HELPER_NAME = "texture_slot_nodes"
HELPER = '''
def texture_slot_nodes(material, texture=None, texture_coords="ORCO", use_map_color_diffuse=True, diffuse_color_factor=1.0,
                       color=(1.0, 0.0, 1.0), blend_type="MIX", use_map_normal=False, normal_factor=1.0,
                       use_map_alpha=False, mapping="FLAT", scale=(1.0, 1.0, 1.0), offset=(0.0, 0.0, 0.0), **left_out):
    """A Blender Internal texture slot (removed in Blender 2.80) built as shader nodes in the material's node tree.

    The texture becomes the nearest shader texture node, mixed over the material's colour into the Base Color (as the
    slot mixed it into the diffuse colour), into the Normal through a Bump node (use_map_normal) and into the Alpha
    (use_map_alpha). Returns the texture node. Slot settings with no node counterpart are printed, not applied.
    """
    material.use_nodes = True
    nodes, links = material.node_tree.nodes, material.node_tree.links
    shader = next((n for n in nodes if n.type in {"BSDF_PRINCIPLED", "BACKGROUND"}), None)
    if shader is None:
        shader = nodes.new("ShaderNodeBsdfPrincipled")
        output = next((n for n in nodes if n.type == "OUTPUT_MATERIAL"), None) or nodes.new("ShaderNodeOutputMaterial")
        links.new(shader.outputs["BSDF"], output.inputs["Surface"])
    kind = texture.type if texture is not None else "NONE"
    shader_textures = {
        "IMAGE": "ShaderNodeTexImage", "CLOUDS": "ShaderNodeTexNoise", "DISTORTED_NOISE": "ShaderNodeTexNoise",
        "STUCCI": "ShaderNodeTexNoise", "MUSGRAVE": "ShaderNodeTexNoise", "NOISE": "ShaderNodeTexWhiteNoise",
        "VORONOI": "ShaderNodeTexVoronoi", "WOOD": "ShaderNodeTexWave", "MARBLE": "ShaderNodeTexWave",
        "MAGIC": "ShaderNodeTexMagic", "BLEND": "ShaderNodeTexGradient",
    }
    if kind not in shader_textures:
        print(f"texture slot of {material.name}: a {kind} texture has no shader node; a Noise Texture node stands in")
    node = nodes.new(shader_textures.get(kind, "ShaderNodeTexNoise"))
    node.label = texture.name if texture is not None else "texture slot"
    if kind == "IMAGE":
        node.image = texture.image
        node.projection = {"CUBE": "BOX", "TUBE": "TUBE", "SPHERE": "SPHERE"}.get(mapping, "FLAT")
    elif kind == "BLEND":
        node.gradient_type = texture.progression
    elif kind in {"WOOD", "MARBLE"}:
        node.wave_type = "RINGS" if "RINGS" in getattr(texture, "wood_type", "") else "BANDS"
    if "Scale" in node.inputs and hasattr(texture, "noise_scale"):
        node.inputs["Scale"].default_value = 1.0 / max(texture.noise_scale, 0.001)
    coordinates = nodes.new("ShaderNodeTexCoord")
    outputs = {"UV": "UV", "OBJECT": "Object", "NORMAL": "Normal", "WINDOW": "Window", "REFLECTION": "Reflection"}
    vector = coordinates.outputs[outputs.get(texture_coords, "Generated")]
    if tuple(scale) != (1.0, 1.0, 1.0) or tuple(offset) != (0.0, 0.0, 0.0):
        placement = nodes.new("ShaderNodeMapping")
        placement.inputs["Location"].default_value = offset
        placement.inputs["Scale"].default_value = scale
        links.new(vector, placement.inputs["Vector"])
        vector = placement.outputs["Vector"]
    links.new(vector, node.inputs["Vector"])
    value = node.outputs["Alpha" if kind == "IMAGE" else "Value" if kind == "NOISE" else "Distance" if kind == "VORONOI" else "Fac"]
    if use_map_color_diffuse:
        mix = nodes.new("ShaderNodeMix")
        mix.data_type, mix.blend_type = "RGBA", blend_type
        inputs = {s.identifier: s for s in mix.inputs}
        own = getattr(material, "diffuse_color", None) or (*material.color, 1.0)
        inputs["A_Color"].default_value = own
        if kind == "IMAGE":  # an image gives its colours
            links.new(node.outputs["Color"], inputs["B_Color"])
            inputs["Factor_Float"].default_value = diffuse_color_factor
        else:  # a procedural texture gives an intensity: the slot's colour, where the texture is
            inputs["B_Color"].default_value = (*color[:3], 1.0)
            amount = nodes.new("ShaderNodeMath")
            amount.operation = "MULTIPLY"
            amount.inputs[1].default_value = diffuse_color_factor
            links.new(value, amount.inputs[0])
            links.new(amount.outputs["Value"], inputs["Factor_Float"])
        result = next(s for s in mix.outputs if s.identifier == "Result_Color")
        links.new(result, shader.inputs["Base Color" if shader.type == "BSDF_PRINCIPLED" else "Color"])
    if use_map_normal and "Normal" in shader.inputs:
        bump = nodes.new("ShaderNodeBump")
        bump.inputs["Strength"].default_value = min(abs(normal_factor), 1.0)
        bump.invert = normal_factor < 0
        links.new(value, bump.inputs["Height"])
        links.new(bump.outputs["Normal"], shader.inputs["Normal"])
    if use_map_alpha and "Alpha" in shader.inputs:
        links.new(value, shader.inputs["Alpha"])
    if left_out:
        print(f"texture slot of {material.name}: no shader node counterpart for {', '.join(sorted(left_out))}")
    return node
'''
_MAKERS = ("add", "create")
Statement = cst.SimpleStatementLine | cst.BaseCompoundStatement


def _slot_made(line: Statement) -> tuple[str, str] | None:
    """(slot name, material source) for `SLOT = MAT.texture_slots.add()` / `.create(i)`."""
    if not isinstance(line, cst.SimpleStatementLine):
        return None
    found = lone_value(line)
    if found is None or found[1] is None:
        return None
    value, name = found
    if not (isinstance(value, cst.Call) and isinstance(func := value.func, cst.Attribute) and func.attr.value in _MAKERS):
        return None
    if name is None or not (isinstance(func.value, cst.Attribute) and func.value.attr.value == "texture_slots"):
        return None
    return name, code(func.value.value)


def _slot_setting(line: Statement, slot: str) -> tuple[str, cst.BaseExpression] | None:
    """(setting, value) for `SLOT.setting = value`."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(small := line.body[0], cst.Assign)):
        return None
    if len(small.targets) != 1:
        return None
    target = small.targets[0].target
    if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == slot:
        return target.attr.value, small.value
    return None


class _Binds(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.binds = False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if isinstance(node.target, cst.Name) and node.target.value == self.name:
            self.binds = True

    def visit_For(self, node: cst.For) -> None:
        if isinstance(node.target, cst.Name) and node.target.value == self.name:
            self.binds = True


def _call(slot: str, material: str, settings: dict[str, cst.BaseExpression]) -> str:
    """`SLOT = texture_slot_nodes(MAT, TEX, setting=value, …)`, one keyword a line when it would be long."""
    texture = settings.pop("texture", None)
    args = [material, code(texture) if texture is not None else "None", *(f"{k}={code(v)}" for k, v in settings.items())]
    one_line = f"{slot} = {HELPER_NAME}({', '.join(args)})"
    if len(one_line) <= 100:
        return one_line + "\n"
    return f"{slot} = {HELPER_NAME}(\n" + "".join(f"    {a},\n" for a in args) + ")\n"


class _TextureSlots(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.changed = False
        self.defines_helper = any(isinstance(s, cst.FunctionDef) and s.name.value == HELPER_NAME for s in node.body)

    def _block(self, original: list[Statement], updated: list[Statement]) -> list[Statement] | None:
        """The block's statements with each texture slot and its settings turned into one helper call (None: none found)."""
        replace: dict[int, str] = {}
        drop: set[int] = set()
        for i, line in enumerate(original):
            made = _slot_made(line)
            if made is None or i in drop:
                continue
            slot, material = made
            settings: dict[str, cst.BaseExpression] = {}
            last = i
            for j in range(i + 1, len(original)):
                setting = _slot_setting(original[j], slot)
                if setting is not None:
                    settings[setting[0]] = setting[1]
                    drop.add(j)
                    last = j
                    continue
                binds = _Binds(slot)
                original[j].visit(binds)
                if binds.binds:
                    break
            left = ", ".join(k for k in settings if k != "texture") or "no settings"
            fix = f"{slot} = {HELPER_NAME}({material}, …): the texture as shader nodes ({left})"
            if not self.report(line, "Blender 2.80 removed texture slots (Blender Internal): the texture goes in the node tree", fix):
                drop -= set(range(i + 1, last + 1))
                continue
            drop.add(i)
            drop.discard(last)
            replace[last] = _call(slot, material, settings)
        if not replace:
            return None
        self.changed = True
        body: list[Statement] = []
        for i, line in enumerate(updated):
            if i in replace:
                new = cst.parse_module(replace[i]).body[0]
                comment = cst.EmptyLine(comment=cst.Comment("# a texture slot (Blender Internal, removed in 2.80) as shader nodes"))
                body.append(new.with_changes(leading_lines=[*line.leading_lines, comment]))
            elif i not in drop:
                body.append(line)
        return body

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        statements = [s for s in original.body if isinstance(s, Statement)]
        if len(statements) != len(original.body):
            return updated
        body = self._block(statements, [s for s in updated.body if isinstance(s, Statement)])
        return updated if body is None else updated.with_changes(body=body)

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = self._block(list(original.body), list(updated.body))
        new = list(updated.body) if body is None else body
        if not self.changed or self.defines_helper:
            return updated.with_changes(body=new)
        return with_helper(updated.with_changes(body=new), HELPER)


RULES = (
    DriftRule(
        "texture-slots",
        "Blender Internal texture slots (mat.texture_slots.add(), slot.texture = tex …) → the texture as shader nodes",
        "2.80",
        "2.80",
        _TextureSlots,
        (r"'(Material|World)' object has no attribute 'texture_slots'",),
        needles=("texture_slots",),
        example=(
            "slot = mat.texture_slots.add()\nslot.texture = bpy.data.textures.new('Clouds', 'CLOUDS')\nslot.texture_coords = 'UV'",
            "slot = texture_slot_nodes(mat, bpy.data.textures.new('Clouds', 'CLOUDS'), texture_coords='UV')",
        ),
        leaves_out="texture slot settings with no shader node counterpart (use_map_specular, use_map_emit, warp, "
        "stencil …; printed when the script runs); procedural textures become the nearest shader texture, not the same "
        "pattern",
    ),
)
