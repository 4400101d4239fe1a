"""A camera's data given where its object belongs: `scene.camera = cam_data` (what `bpy.data.cameras.new()` returns) raises
TypeError "Scene.camera expected a Object type, not Camera". Small models write this often (seen in the generation
benchmark: three heal rounds spent on it).

Only at the statement a run failed on with that error: when the script made an object from that camera data before
(`cam = bpy.data.objects.new("Camera", cam_data)`, also through a helper such as `link(...)`) the object is assigned;
otherwise an object is made from the data and linked to the scene first."""

from __future__ import annotations

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import code, dotted, in_place_of


def _object_made_from(value: cst.BaseExpression) -> str | None:
    """The data name in `bpy.data.objects.new(NAME, DATA)` (also inside a call around it, e.g. `link(...)`)."""
    for node in _calls(value):
        chain = dotted(node.func) if isinstance(node.func, cst.Attribute) else None
        if chain is not None and chain.endswith("objects.new") and len(node.args) >= 2 and isinstance(node.args[1].value, cst.Name):
            return node.args[1].value.value
    return None


def _calls(value: cst.BaseExpression) -> list[cst.Call]:
    out: list[cst.Call] = []
    stack: list[cst.CSTNode] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            out.append(node)
        stack.extend(node.children)
    return out


class _CameraData(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.objects: dict[str, tuple[str, int]] = {}  # camera data name -> (object name, line it is made on)

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return
        data = _object_made_from(node.value)
        if data is not None and data not in self.objects:
            self.objects[data] = (node.targets[0].target.value, self.span(node).start.line)

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if len(updated.body) != 1 or not isinstance(assign := updated.body[0], cst.Assign):
            return updated
        if len(assign.targets) > 1 or _made_camera(assign.value):
            return self._made_here(original, updated, assign)
        target = assign.targets[0].target
        if not (isinstance(target, cst.Attribute) and target.attr.value == "camera" and isinstance(assign.value, cst.Name)):
            return updated
        data = assign.value.value
        made = self.objects.get(data)
        if made is not None and made[1] < self.span(original).start.line:
            if not self.report(original, f"{data} is camera data; the object made from it is {made[0]}", f"= {made[0]}", certain=False):
                return updated
            return updated.with_changes(body=[assign.with_changes(value=cst.Name(made[0]))])
        obj = f"{data}_object"
        if not self.report(original, f"{data} is camera data, not an object", f"make {obj} from it, link it, assign it", certain=False):
            return updated
        return in_place_of(updated, *_object_linked_and_assigned(data, code(target)))

    def _made_here(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine, assign: cst.Assign
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        """`cam = scene.camera = bpy.data.cameras.new(…)` (a small model's star, three rounds) or `scene.camera =
        bpy.data.cameras.new(…)`: the data keeps its names, an object made from it is linked and assigned."""
        cameras = [t.target for t in assign.targets if isinstance(t.target, cst.Attribute) and t.target.attr.value == "camera"]
        names = [t.target.value for t in assign.targets if isinstance(t.target, cst.Name)]
        if len(cameras) != 1 or len(names) + 1 != len(assign.targets) or not _made_camera(assign.value):
            return updated
        data = names[0] if names else "camera_data"
        obj = f"{data}_object"
        fix = f"{data} = …; {obj} = bpy.data.objects.new({data}.name, {data}); link it; {code(cameras[0])} = {obj}"
        if not self.report(original, "bpy.data.cameras.new() makes camera data, not the object a scene's camera is", fix, certain=False):
            return updated
        made = f"{' = '.join(names or [data])} = {code(assign.value)}\n"
        return in_place_of(updated, made, *_object_linked_and_assigned(data, code(cameras[0])))


def _object_linked_and_assigned(data: str, target: str) -> list[str]:
    """Statements that make DATA_object from camera data, link it to the scene and assign it to target."""
    obj = f"{data}_object"
    return [
        f"{obj} = bpy.data.objects.new({data}.name, {data})\n",
        f"bpy.context.scene.collection.objects.link({obj})\n",
        f"{target} = {obj}\n",
    ]


def _made_camera(value: cst.BaseExpression) -> bool:
    """`bpy.data.cameras.new(…)` (also `data.cameras.new`, `D.cameras.new`)."""
    return isinstance(value, cst.Call) and (dotted(value.func) or "").endswith("cameras.new")


RULES = (
    DriftRule(
        "camera-data-as-object",
        "a camera's data assigned to scene.camera → the object made from it (made and linked when there is none)",
        "2.80",
        "2.80",
        _CameraData,
        (r"\.camera expected a Object type, not Camera",),
        runtime_only=True,
        example=("scene.camera = cam_data", "scene.camera = cam"),
    ),
)
