"""Add-on preferences: the service URL and where the token file is. The token itself is never a preference: Blender
saves preferences into userpref.blend, a file others may read or that travels with a copied config folder."""

from __future__ import annotations

import urllib.parse

import bpy

from .client import FIX_SETTINGS, ServiceClient, ServiceError, is_loopback
from .secret import SecretError, default_path, read_token

ADDON = __package__ or "bpywright"  # bl_ext.<repo>.bpywright when installed as an extension


class BPYWRIGHT_AP_preferences(bpy.types.AddonPreferences):
    """Where the bpywright service runs and the token it wants."""

    bl_idname = ADDON

    url: bpy.props.StringProperty(  # type: ignore[valid-type]
        name="Service URL", description="Where `bpywright serve` listens", default="http://127.0.0.1:8000"
    )
    token_file: bpy.props.StringProperty(  # type: ignore[valid-type]
        name="Token file",
        description="The private file holding the service token (empty: ~/.config/bpywright/token, which "
        "`bpywright addon token` creates and `bpywright serve` reads); it must be yours and mode 0600",
        subtype="FILE_PATH",
        default="",
    )

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        layout.prop(self, "url")
        layout.prop(self, "token_file", text=f"Token file (empty: {default_path()})")
        layout.label(text="Run `bpywright addon token` once, then `bpywright serve`: the service proves it holds the token")
        layout.label(text="before the add-on sends it or any script; the token is never stored in Blender's preferences.")


def forget_stored_token(context: bpy.types.Context) -> None:
    """Remove a token an earlier version kept in the preferences (saved into userpref.blend with them)."""
    try:
        prefs = preferences(context)
        if "token" in prefs:
            del prefs["token"]
    except (KeyError, TypeError, AttributeError):
        pass


def preferences(context: bpy.types.Context) -> BPYWRIGHT_AP_preferences:
    """This add-on's preferences."""
    return context.preferences.addons[ADDON].preferences


def client_for(context: bpy.types.Context) -> ServiceClient:
    """A client for the configured service, or ServiceError when Blender may not go online to reach it."""
    prefs = preferences(context)
    host = (urllib.parse.urlparse(prefs.url.strip()).hostname or "").lower()
    if not getattr(bpy.app, "online_access", True) and not is_loopback(host):
        raise ServiceError(
            f"Blender's online access is off and {host or prefs.url!r} is not this machine: allow it in "
            f"Preferences > System > Network, or point {FIX_SETTINGS} at a service on 127.0.0.1"
        )
    try:
        token = read_token(prefs.token_file)
    except SecretError as exc:
        raise ServiceError(f"{exc} (or set Token file in {FIX_SETTINGS})") from None
    return ServiceClient(prefs.url, token)


def this_version() -> str:
    """This Blender's MAJOR.MINOR, the version every check is asked for."""
    return f"{bpy.app.version[0]}.{bpy.app.version[1]}"
