"""Property drift: renamed properties (2.80 display/instance names …), removed settings, no-op calls, 4.1 auto smooth."""

from __future__ import annotations

import difflib
import re

import libcst as cst

from ..base import DriftRule, RuleTransformer
from ..fragments import code, context_of, dotted, expr, is_object, is_scene, last_name, object_names
from ..rna import all_names, is_struct, struct_names

# Old name → new name (a dotted path when the value moved into a nested struct).
RENAMED = {
    "draw_type": "display_type",
    "show_x_ray": "show_in_front",
    "dupli_type": "instance_type",
    "dupli_group": "instance_collection",
    "dupli_faces_scale": "instance_faces_scale",
    "use_dupli_faces_scale": "use_instance_faces_scale",
    "use_dupli_vertices_rotation": "use_instance_vertices_rotation",
    "empty_draw_type": "empty_display_type",
    "empty_draw_size": "empty_display_size",
    "draw_bounds_type": "display_bounds_type",
    "draw_size": "display_size",
    "uv_textures": "uv_layers",
    "user_preferences": "preferences",
    "tessfaces": "polygons",
    "viewport_shade": "shading.type",
    "hide": "hide_viewport",
    "groups": "collections",
    "musgrave_type": "noise_type",
    "active_uv_texture": "uv_layers.active",
    "faces": "polygons",
    "horizon_color": "color",
}
# Names LLMs guess for a property (never an API's old name): tried only where a run failed with "'T' object has no
# attribute 'x'", and only when T has the guessed-at property.
ALIASES = {
    "rotation": "rotation_euler",
    "position": "location",
    "size": "scale",
    "color": "diffuse_color",
    "intensity": "energy",
    "strength": "energy",
    "power": "energy",
    "focal_length": "lens",
    "fov": "angle",
    "collection": "users_collection[0]",
    "scene": "users_scene[0]",  # obj.scene.collection.objects.active = obj (a small model's storage box, three rounds)
    "materials": "data.materials",  # obj.materials.append(mat): an object's materials live on its data
}
# Properties bpy defines in Python (bpy_types), so the RNA tables do not list them.
_PYTHON_DEFINED = {"Object": frozenset({"users_collection", "users_scene", "children_recursive"})}
_SUBSTITUTIONS = (
    ("draw_", "display_"),
    ("dupli_", "instance_"),
    ("dupli", "instance"),
    ("group", "collection"),
    ("lamp", "light"),
    ("x_ray", "in_front"),
)
# Old names that other (non-RNA) APIs still use: bmesh has faces, textures had musgrave_type.
_RUNTIME_ONLY = {"faces", "musgrave_type"}
# Names other rules own (their fix is not a plain rename).
_OWNED = {
    "select",
    "layers",
    "cursor_location",
    "update",
    "active",
    "use_auto_smooth",
    "auto_smooth_angle",
    "lamps",
    "objects",
    "link",
    "unlink",
    "modifier_add",  # object-operator-call: obj.modifiers.new(name, type)
    "constraint_add",
}
_MISSING = re.compile(r"'(\w+)' object has no attribute '(\w+)'")


def _sure_rename(attr: str, receiver: cst.BaseExpression, names: set[str], target: str) -> bool:
    """A rename is sure when the old name exists on no type any more, or the receiver's type is clear."""
    if attr == "hide":
        return is_object(receiver, names)
    if attr == "groups":
        return dotted(receiver) in ("bpy.data", "D")
    return attr not in _RUNTIME_ONLY and attr not in all_names(target)


def successor(struct: str, attr: str, target: str) -> str | None:
    """What `struct.attr` is called now: the rename table, systematic renames, or one close spelling."""
    have = struct_names(target, struct)
    if not have:
        return RENAMED.get(attr)
    have |= _PYTHON_DEFINED.get(struct, frozenset())
    candidates = [RENAMED.get(attr, ""), ALIASES.get(attr, "")] + [attr.replace(a, b) for a, b in _SUBSTITUTIONS if a in attr]
    for cand in candidates:
        if cand and cand.split(".")[0].split("[")[0] in have:
            return cand
    close = difflib.get_close_matches(attr, sorted(have), n=1, cutoff=0.8)
    return close[0] if close else None


class _Renamed(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.names = object_names(node)
        found = _MISSING.search(self.scope.error)
        self.runtime: tuple[str, str] | None = None
        if found and (is_struct(self.scope.target, found.group(1)) or found.group(1).startswith("Cycles")) and found.group(2) not in _OWNED:
            new = successor(found.group(1), found.group(2), self.scope.target)
            self.runtime = (found.group(2), new) if new else None

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        attr = original.attr.value
        new = RENAMED.get(attr)
        certain = new is not None and _sure_rename(attr, original.value, self.names, self.scope.target)
        blend_data = dotted(original.value) in ("bpy.data", "D") and not self.scope.error.startswith("AttributeError: 'BlendData'")
        if not certain and self.runtime and self.runtime[0] == attr and not blend_data:
            new = self.runtime[1]  # (bpy.data.materials on the failing line is BlendData's, not the failing object's)
        if new is None or (dotted(original.value) or "").startswith("bpy.ops"):
            return updated
        fix = f"{code(original.value)}.{new}"
        if self.report(original, f'"{attr}" is now "{new}"', fix, certain=certain):
            return expr(f"{code(updated.value)}.{new}") if not new.isidentifier() else updated.with_changes(attr=cst.Name(new))
        return updated


# Settings structs reached from a scene, by attribute name.
_SETTINGS = {
    "render": "RenderSettings",
    "eevee": "SceneEEVEE",
    "display": "SceneDisplay",
    "view_settings": "ColorManagedViewSettings",
    "display_settings": "ColorManagedDisplaySettings",
    "unit_settings": "UnitSettings",
    "world": "World",
}
_NESTED = {"image_settings": "ImageFormatSettings", "light_settings": "WorldLighting", "shading": "View3DShading"}
_DATA = {"materials": "Material", "worlds": "World", "cameras": "Camera", "meshes": "Mesh", "objects": "Object", "scenes": "Scene"}


def struct_of(node: cst.BaseExpression, names: dict[str, str]) -> str | None:
    """The RNA struct an expression surely is (scene settings, bpy.data items, names bound to them), else None."""
    chain = dotted(node)
    if chain is None:
        return None
    if chain.isidentifier():
        return names.get(chain) or ("Scene" if is_scene(chain) else None)
    if is_scene(chain) and context_of(chain) is not None:
        return "Scene"
    found = re.fullmatch(r"(?:bpy\.data|D)\.(\w+)(?:\[\]|\.new\(\)|\.get\(\))", chain)
    if found:
        return _DATA.get(found.group(1))
    if isinstance(node, cst.Attribute):
        owner = struct_of(node.value, names)
        attr = node.attr.value
        if owner == "Scene" and attr in _SETTINGS:
            return _SETTINGS[attr]
        if owner is not None and attr in _NESTED:
            return _NESTED[attr]
    return None


class _Bindings(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: dict[str, str] = {}
        self.registered: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            chain = dotted(t.target) or ""
            if chain.startswith("bpy.types.") and chain.count(".") == 3:
                self.registered.add(last_name(chain))  # a property the script registers itself
            if isinstance(t.target, cst.Name):
                kind = struct_of(node.value, self.names)
                if kind is not None:
                    self.names[t.target.value] = kind
                else:
                    self.names.pop(t.target.value, None)


class _MissingProperty(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        bindings = _Bindings()
        node.visit(bindings)
        self.names, self.registered = bindings.names, bindings.registered
        found = _MISSING.search(self.scope.error)
        known = found is not None and (is_struct(self.scope.target, found.group(1)) or found.group(1).startswith("Cycles"))
        self.runtime = found.group(2) if found and known and found.group(2) not in _OWNED else None
        self.runtime_struct = found.group(1) if found else ""
        self.failing_receivers = self._receivers_on_failing_line(node) if self.runtime else set()

    def _receivers_on_failing_line(self, module: cst.Module) -> set[str]:
        """Receivers of `.<missing name>` on the failing statement (`sun` in `sun.use_specular = False`)."""
        found: set[str] = set()
        transformer = self

        class _Find(cst.CSTVisitor):
            def visit_Attribute(self, node: cst.Attribute) -> None:
                if node.attr.value == transformer.runtime and transformer.on_failing_line(node):
                    found.add(code(node.value))

        module.visit(_Find())
        return found

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        small = original.body[0] if len(original.body) == 1 else None
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else getattr(small, "target", None)
        if not isinstance(small, cst.Assign | cst.AugAssign) or not isinstance(target, cst.Attribute):
            return updated
        attr = target.attr.value
        struct = struct_of(target.value, self.names)
        sure = struct is not None and bool(struct_names(self.scope.target, struct)) and attr not in struct_names(self.scope.target, struct)
        chain = dotted(target.value)
        if sure and chain is not None and chain.isidentifier() and chain not in self.names and attr in all_names(self.scope.target):
            sure = False  # a Scene guessed from the name alone (`scene_root.location`): another struct has the property
        # at runtime the missing name may be anywhere in the target chain: mat.raytrace_mirror.use = True
        in_chain = self.runtime is not None and f".{self.runtime}." in f"{dotted(target) or ''}."
        if attr in self.registered or attr in RENAMED or attr in _OWNED or not (sure or in_chain):
            return updated
        # the runtime proved the property gone: the same receiver elsewhere, or a name no type has, is gone too
        spread = in_chain and (code(target.value) in self.failing_receivers or (self.runtime or "") not in all_names(self.scope.target))
        struct, attr = (struct, attr) if sure else (self.runtime_struct, self.runtime or attr)
        if successor(struct or "", attr, self.scope.target):
            return updated  # a rename exists: the renamed-attribute rule fixes it
        new = moved(target, struct or "", small.value) if isinstance(small, cst.Assign) else None
        if new is not None:
            if self.report(original, f"{struct}.{attr} moved in Blender {self.scope.target}", new, certain=sure or spread):
                return updated.with_changes(body=cst.ensure_type(cst.parse_statement(new + "\n"), cst.SimpleStatementLine).body)
            return updated
        message = f'{struct} has no property "{attr}" in Blender {self.scope.target} (removed): the setting is dropped'
        if self.report(original, message, "remove the assignment", certain=sure or spread):
            return cst.RemovalSentinel.REMOVE
        return updated


# Settings that moved to another struct: (struct, name) → (attribute replacing the receiver's last one, new name).
MOVED = {
    ("SceneEEVEE", "use_motion_blur"): ("render", "use_motion_blur"),
    ("SceneEEVEE", "motion_blur_shutter"): ("render", "motion_blur_shutter"),
    ("CyclesRenderSettings", "film_transparent"): ("render", "film_transparent"),
}


def moved(target: cst.Attribute, struct: str, value: cst.BaseExpression) -> str | None:
    """The assignment's new form when the setting moved (eevee.use_motion_blur → render.use_motion_blur), else None."""
    if struct == "RenderSettings" and target.attr.value == "alpha_mode" and isinstance(value, cst.SimpleString):
        return f"{code(target.value)}.film_transparent = {value.evaluated_value == 'TRANSPARENT'}"
    where = MOVED.get((struct, target.attr.value))
    if where is None or not isinstance(target.value, cst.Attribute):
        return None
    return f"{code(target.value.value)}.{where[0]}.{where[1]} = {code(value)}"


_NOOP_CALLS = {"calc_normals", "calc_normals_split", "create_normals_split", "free_normals_split", "calc_tessface", "free_tangents_split"}


class _NoopCalls(RuleTransformer):
    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        small = original.body[0] if len(original.body) == 1 else None
        call = small.value if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) else None
        name = call.func.attr.value if call is not None and isinstance(call.func, cst.Attribute) else None
        if name in _NOOP_CALLS and name not in all_names(self.scope.target):
            if self.report(original, f"Mesh.{name}() was removed (normals are computed on demand)", "remove the call"):
                return cst.RemovalSentinel.REMOVE
        return updated


_DEFAULT_ANGLE = "0.523599"  # auto smooth's default: 30 degrees


class _AutoSmooth(RuleTransformer):
    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        small = original.body[0] if len(original.body) == 1 else None
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        if not (isinstance(small, cst.Assign) and isinstance(target, cst.Attribute)) or target.attr.value not in (
            "use_auto_smooth",
            "auto_smooth_angle",
        ):
            return updated
        mesh = code(target.value)
        if target.attr.value == "auto_smooth_angle":
            new = f"{mesh}.set_sharp_from_angle(angle={code(small.value)})"
        elif isinstance(small.value, cst.Name) and small.value.value == "False":
            new = ""
        else:
            new = f"{mesh}.set_sharp_from_angle(angle={_DEFAULT_ANGLE})"
        if not self.report(
            original,
            f"Mesh.{target.attr.value} was removed in 4.1 (sharp edges by angle replace auto smooth)",
            new or "remove the assignment",
        ):
            return updated
        if not new:
            return cst.RemovalSentinel.REMOVE
        return updated.with_changes(body=[cst.Expr(expr(new))])


RULES = (
    DriftRule(
        "renamed-attribute",
        "renamed properties (draw_type → display_type, dupli_* → instance_* …)",
        "2.80",
        "2.80",
        _Renamed,
        (r"'\w+' object has no attribute '\w+'",),
        needles=tuple(RENAMED),
        example=("lamp.data.intensity = 3", "lamp.data.energy = 3"),
    ),
    DriftRule(
        "auto-smooth",
        "use_auto_smooth/auto_smooth_angle → mesh.set_sharp_from_angle()",
        "4.1",
        "4.1",
        _AutoSmooth,
        (r"'Mesh' object has no attribute '(use_auto_smooth|auto_smooth_angle)'",),
        needles=("auto_smooth",),
        example=("me.use_auto_smooth = True\nme.auto_smooth_angle = math.radians(40)", "me.set_sharp_from_angle(angle=math.radians(40))"),
    ),
    DriftRule(
        "missing-property",
        "assignments to properties that no longer exist are dropped",
        "2.80",
        "2.80",
        _MissingProperty,
        (r"'\w+' object has no attribute '\w+'",),
        example=("stick.rotation = (0.5, 0, 0)", "(dropped)"),
        leaves_out="a setting the target Blender no longer has (Blender Internal material and world settings …): nothing replaces it",
    ),
    DriftRule(
        "removed-noop-call",
        "removed no-op calls (calc_normals, calc_normals_split, calc_tessface)",
        "2.80",
        "2.80",
        _NoopCalls,
        (r"'Mesh' object has no attribute '(calc_normals|calc_normals_split|create_normals_split|free_normals_split|calc_tessface)'",),
        needles=tuple(_NOOP_CALLS),
        example=("me.calc_normals_split()", "(dropped)"),
    ),
)
