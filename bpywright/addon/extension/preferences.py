"""Add-on preferences: the service URL and token, kept in Blender's user preferences (never in a .blend)."""

from __future__ import annotations

import urllib.parse

import bpy

from .client import FIX_SETTINGS, ServiceClient, ServiceError, is_loopback

ADDON = __package__ or "bpywright"  # bl_ext.<repo>.bpywright when installed as an extension


class BPYWRIGHT_AP_preferences(bpy.types.AddonPreferences):
    """Where the bpywright service runs and the token it wants."""

    bl_idname = ADDON

    url: bpy.props.StringProperty(  # type: ignore[valid-type]
        name="Service URL", description="Where `bpywright serve` listens", default="http://127.0.0.1:8000"
    )
    token: bpy.props.StringProperty(  # type: ignore[valid-type]
        name="Token",
        description="The service's BPYWRIGHT_API_TOKEN (empty when it has none); stored in Blender's preferences, never in a .blend",
        subtype="PASSWORD",
        default="",
    )

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        layout.prop(self, "url")
        layout.prop(self, "token")
        layout.label(text="Start the service with `bpywright serve`; Check/Generate send scripts to it, never to anyone else.")


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
    return ServiceClient(prefs.url, prefs.token)


def this_version() -> str:
    """This Blender's MAJOR.MINOR, the version every check is asked for."""
    return f"{bpy.app.version[0]}.{bpy.app.version[1]}"
