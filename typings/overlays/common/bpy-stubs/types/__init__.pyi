# Hand-written overlay for bpy.types (all Blender versions); format: typings/README.md.
import typing

class _ContextHoveredButton:
    """Holds Context.property: a member named `property` in Context's own body would shadow the
    builtin `@property` decorator there for pyright, turning every Context property into a method."""

    property: AnyType | None
    """ Get the property associated with a hovered button.
Returns a tuple of the data-block, data path to the property, and array index."""

class Context(_ContextHoveredButton, bpy_struct):
    # overlay: remove property
    # Always set while a script runs, in background mode too (None only in restricted contexts such as register()).
    @property
    def blend_data(self) -> BlendData: ...
    @property
    def collection(self) -> Collection: ...
    @property
    def layer_collection(self) -> LayerCollection: ...
    @property
    def preferences(self) -> Preferences: ...
    @property
    def scene(self) -> Scene: ...
    @property
    def tool_settings(self) -> ToolSettings: ...
    @property
    def view_layer(self) -> ViewLayer: ...
    @property
    def window_manager(self) -> WindowManager: ...

class bpy_prop_collection[_GenericType1]:
    @typing.overload
    def get(self, key: str | tuple[str, str | None]) -> _GenericType1 | None:
        """Returns the value of the item assigned to key or default when not found
        (matches Pythons dictionary function of the same name).
        """

    @typing.overload
    def get[_GenericType2](self, key: str | tuple[str, str | None], default: _GenericType2) -> _GenericType1 | _GenericType2: ...
    def values(self) -> list[_GenericType1]: ...

class NodeSocket:
    default_value: typing.Any
    """ Value of an unlinked input; its type depends on the socket type (float, vector, color, shader...)"""

class bpy_struct:
    # data_path may be passed by keyword (obj.keyframe_insert(data_path="location", frame=1) works).
    def keyframe_insert(
        self,
        data_path: str,
        *,
        index: int = -1,
        frame: float = ...,
        group: str = "",
        options: set[str] = ...,
        keytype: str = "KEYFRAME",
    ) -> bool:
        """Insert a keyframe on the property given, adding fcurves and animation data when necessary."""

    def keyframe_delete(self, data_path: str, *, index: int = -1, frame: float = ..., group: str = "") -> bool:
        """Remove a keyframe from this properties fcurve."""

    # With an index a single FCurve; without one a list for array properties, one FCurve otherwise.
    @typing.overload
    def driver_add(self, path: str, index: int, /) -> FCurve: ...
    @typing.overload
    def driver_add(self, path: str, /) -> typing.Any:
        """Adds driver(s) to the given property: a list of drivers for an array property, else one."""

class Image:
    # A dynamic-size float array (width * height * channels); the stubs declare a single float.
    pixels: bpy_prop_array[float]
    """ Image buffer pixels in floating-point values"""

# Enums whose items depend on the file or context (RNA reports a placeholder item to the stub generator).
class CompositorNodeCryptomatteV2:
    layer: str
    view: str

class CompositorNodeImage:
    layer: str
    view: str

class CompositorNodeRLayers:
    layer: str

class DynamicPaintSurface:
    surface_type: typing.Literal["PAINT", "DISPLACE", "WEIGHT", "WAVE"]
