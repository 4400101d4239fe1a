"""The named colours a request and a plan speak of, with the RGB the builder gives each: the words data file's colour
words (vocabulary.py) and a plan's part colours (plans/parts.py) are checked against this one table."""

from __future__ import annotations

# Named colours, not RGB: one or two tokens each where three numbers take about twelve, and a small model knows names.
PALETTE: dict[str, tuple[float, float, float]] = {
    "white": (0.9, 0.9, 0.9),
    "light_grey": (0.7, 0.7, 0.7),
    "grey": (0.45, 0.45, 0.45),
    "dark_grey": (0.2, 0.2, 0.2),
    "black": (0.03, 0.03, 0.03),
    "silver": (0.75, 0.75, 0.78),
    "gold": (0.83, 0.65, 0.2),
    "red": (0.8, 0.08, 0.06),
    "dark_red": (0.45, 0.05, 0.05),
    "pink": (0.95, 0.55, 0.65),
    "orange": (0.95, 0.45, 0.05),
    "yellow": (0.95, 0.82, 0.15),
    "cream": (0.95, 0.88, 0.7),
    "beige": (0.82, 0.7, 0.52),
    "tan": (0.72, 0.52, 0.3),
    "light_wood": (0.7, 0.5, 0.3),
    "brown": (0.45, 0.27, 0.12),
    "dark_brown": (0.22, 0.12, 0.06),
    "green": (0.15, 0.6, 0.15),
    "light_green": (0.5, 0.85, 0.35),
    "dark_green": (0.05, 0.3, 0.08),
    "blue": (0.1, 0.3, 0.85),
    "light_blue": (0.5, 0.75, 0.95),
    "navy": (0.05, 0.08, 0.3),
    "teal": (0.05, 0.5, 0.5),
    "purple": (0.45, 0.15, 0.6),
}
