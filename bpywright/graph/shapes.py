"""Shapes of everyday objects that the critic holds an answer against and the model is never shown.

The plan library (graph/plan_library.py) is shown to the model, ten broad kinds, so that it adapts a table's legs for a
desk; an answer that agrees with a shown archetype may owe it to the showing (an armchair drawn as the park bench agreed
with the bench). These are narrower kinds, written here at real sizes from what the objects are, with nothing from a
benchmark's data, and kept out of every prompt: an answer that agrees with one was not led to it. Where a kind word of a
request's first clause names one of these, graph/agreement.py compares the answer with it before any shown archetype.

Each is a part plan in the model's own terms (plan_parts: on / side / at, named colours), built by the plan builder and
measured in Blender like any answer. Kind words are as scene_plan.kind_words gives them (singular; no colour,
generic or function word such as "orange", "pattern" or "can", which never name a kind): tests/graph/test_shapes.py
holds every one to naming its shape. They are coarse on purpose: a few primitives that carry an object's proportions
and the arrangement of its main parts, which is what an F-score over surface points, normalised for size, sees.
"""

from __future__ import annotations

from .plan_library import Archetype, kinds_of, part, plan_of

SHAPES: tuple[Archetype, ...] = (
    # furnishing
    Archetype(
        "an upholstered armchair with a backrest and two armrests",
        kinds_of("armchair recliner"),
        plan_of(
            "armchair",
            part("base", "box", [0.75, 0.75, 0.42], "ground", "top", "center", "blue"),
            part("backrest", "box", [0.75, 0.16, 0.45], "base", "top", "back", "blue"),
            part("armrest_left", "box", [0.14, 0.59, 0.22], "base", "top", "front_left", "blue"),
            part("armrest_right", "box", [0.14, 0.59, 0.22], "base", "top", "front_right", "blue"),
        ),
    ),
    Archetype(
        "a three-seat sofa with a backrest, two armrests and seat cushions",
        kinds_of("sofa couch settee loveseat"),
        plan_of(
            "sofa",
            part("base", "box", [2.0, 0.9, 0.4], "ground", "top", "center", "grey"),
            part("backrest", "box", [2.0, 0.2, 0.45], "base", "top", "back", "grey"),
            part("armrest_left", "box", [0.2, 0.7, 0.25], "base", "top", "front_left", "grey"),
            part("armrest_right", "box", [0.2, 0.7, 0.25], "base", "top", "front_right", "grey"),
            part("cushion", "box", [1.6, 0.7, 0.12], "base", "top", "front", "light_grey"),
        ),
    ),
    Archetype(
        "a dining chair with four legs and a backrest",
        kinds_of("chair"),
        plan_of(
            "chair",
            part("seat", "box", [0.45, 0.45, 0.05], "ground", "top", "center", "brown"),
            part("leg_front_left", "box", [0.04, 0.04, 0.43], "seat", "bottom", "front_left", "brown"),
            part("leg_front_right", "box", [0.04, 0.04, 0.43], "seat", "bottom", "front_right", "brown"),
            part("leg_back_left", "box", [0.04, 0.04, 0.43], "seat", "bottom", "back_left", "brown"),
            part("leg_back_right", "box", [0.04, 0.04, 0.43], "seat", "bottom", "back_right", "brown"),
            part("backrest", "box", [0.45, 0.04, 0.5], "seat", "top", "back", "brown"),
        ),
    ),
    Archetype(
        "a bar stool with a round seat and four legs",
        kinds_of("stool barstool"),
        plan_of(
            "stool",
            part("seat", "cylinder", [0.38, 0.38, 0.05], "ground", "top", "center", "light_wood"),
            part("leg_front_left", "cylinder", [0.04, 0.04, 0.65], "seat", "bottom", "front_left", "dark_grey"),
            part("leg_front_right", "cylinder", [0.04, 0.04, 0.65], "seat", "bottom", "front_right", "dark_grey"),
            part("leg_back_left", "cylinder", [0.04, 0.04, 0.65], "seat", "bottom", "back_left", "dark_grey"),
            part("leg_back_right", "cylinder", [0.04, 0.04, 0.65], "seat", "bottom", "back_right", "dark_grey"),
        ),
    ),
    Archetype(
        "an ottoman with a padded top",
        kinds_of("ottoman pouf footstool footrest"),
        plan_of(
            "ottoman",
            part("body", "box", [0.6, 0.6, 0.36], "ground", "top", "center", "beige"),
            part("cushion", "box", [0.6, 0.6, 0.07], "body", "top", "center", "cream"),
        ),
    ),
    Archetype(
        "a double bed with a mattress, a headboard and two pillows",
        kinds_of("bed"),
        plan_of(
            "bed",
            part("frame", "box", [1.6, 2.05, 0.3], "ground", "top", "center", "brown"),
            part("mattress", "box", [1.5, 1.95, 0.22], "frame", "top", "front", "white"),
            part("headboard", "box", [1.6, 0.08, 0.7], "frame", "top", "back", "brown"),
            part("pillow_left", "box", [0.6, 0.35, 0.12], "mattress", "top", "back_left", "white"),
            part("pillow_right", "box", [0.6, 0.35, 0.12], "mattress", "top", "back_right", "white"),
        ),
    ),
    Archetype(
        "an open bookshelf with two sides, a back panel and four shelves",
        kinds_of("bookshelf bookcase shelf"),
        plan_of(
            "bookshelf",
            part("bottom_shelf", "box", [0.8, 0.3, 0.03], "ground", "top", "center", "light_wood"),
            part("side_left", "box", [0.03, 0.3, 1.8], "bottom_shelf", "top", "left", "light_wood"),
            part("side_right", "box", [0.03, 0.3, 1.8], "bottom_shelf", "top", "right", "light_wood"),
            part("back_panel", "box", [0.74, 0.01, 1.8], "bottom_shelf", "top", "back", "light_wood"),
            part("shelf_middle", "box", [0.74, 0.29, 0.03], "side_left", "right", "center", "light_wood"),
            part("shelf_top", "box", [0.74, 0.29, 0.03], "side_left", "right", "top", "light_wood"),
            part("shelf_low", "box", [0.74, 0.29, 0.03], "side_left", "right", "bottom", "light_wood"),
        ),
    ),
    Archetype(
        "an office desk with four legs and a drawer unit",
        kinds_of("desk workstation"),
        plan_of(
            "desk",
            part("desktop", "box", [1.4, 0.7, 0.03], "ground", "top", "center", "light_wood"),
            part("leg_front_left", "box", [0.05, 0.05, 0.72], "desktop", "bottom", "front_left", "dark_grey"),
            part("leg_front_right", "box", [0.05, 0.05, 0.72], "desktop", "bottom", "front_right", "dark_grey"),
            part("leg_back_left", "box", [0.05, 0.05, 0.72], "desktop", "bottom", "back_left", "dark_grey"),
            part("leg_back_right", "box", [0.05, 0.05, 0.72], "desktop", "bottom", "back_right", "dark_grey"),
            part("drawer_unit", "box", [0.4, 0.6, 0.15], "desktop", "bottom", "right", "light_wood"),
        ),
    ),
    Archetype(
        "a tall wardrobe with two doors and handles",
        kinds_of("wardrobe closet armoire"),
        plan_of(
            "wardrobe",
            part("body", "box", [1.0, 0.6, 2.0], "ground", "top", "center", "light_wood"),
            part("door_left", "box", [0.49, 0.02, 1.9], "body", "front", "left", "light_wood"),
            part("door_right", "box", [0.49, 0.02, 1.9], "body", "front", "right", "light_wood"),
            part("handle_left", "cylinder", [0.02, 0.02, 0.2], "door_left", "front", "right", "silver"),
            part("handle_right", "cylinder", [0.02, 0.02, 0.2], "door_right", "front", "left", "silver"),
        ),
    ),
    # foodstuffs
    Archetype(
        "a round fruit with a short stem and a leaf",
        kinds_of("apple peach plum tomato lemon lime grapefruit tangerine mandarin nectarine apricot cherry"),
        plan_of(
            "fruit",
            part("body", "sphere", [0.08, 0.08, 0.075], "ground", "top", "center", "red"),
            part("stem", "cylinder", [0.006, 0.006, 0.02], "body", "top", "center", "brown"),
            part("leaf", "box", [0.03, 0.012, 0.002], "stem", "right", "top", "green"),
        ),
    ),
    Archetype(
        "a pizza with a crust, tomato sauce, cheese and pepperoni",
        kinds_of("pizza flatbread quiche tart"),
        plan_of(
            "pizza",
            part("crust", "cylinder", [0.32, 0.32, 0.015], "ground", "top", "center", "tan"),
            part("sauce", "cylinder", [0.29, 0.29, 0.003], "crust", "top", "center", "red"),
            part("cheese", "cylinder", [0.27, 0.27, 0.003], "sauce", "top", "center", "yellow"),
            part("pepperoni_1", "cylinder", [0.04, 0.04, 0.004], "cheese", "top", "front_left", "dark_red"),
            part("pepperoni_2", "cylinder", [0.04, 0.04, 0.004], "cheese", "top", "back_right", "dark_red"),
            part("pepperoni_3", "cylinder", [0.04, 0.04, 0.004], "cheese", "top", "center", "dark_red"),
        ),
    ),
    Archetype(
        "a glazed donut",
        kinds_of("donut doughnut bagel"),
        plan_of(
            "donut",
            part("dough", "torus", [0.09, 0.09, 0.03], "ground", "top", "center", "tan"),
            part("glaze", "torus", [0.088, 0.088, 0.012], "dough", "top", "center", "pink"),
        ),
    ),
    Archetype(
        "a two-tier round cake with a candle",
        kinds_of("cake cheesecake"),
        plan_of(
            "cake",
            part("tier_bottom", "cylinder", [0.26, 0.26, 0.1], "ground", "top", "center", "cream"),
            part("tier_top", "cylinder", [0.18, 0.18, 0.08], "tier_bottom", "top", "center", "pink"),
            part("candle", "cylinder", [0.01, 0.01, 0.06], "tier_top", "top", "center", "white"),
        ),
    ),
    Archetype(
        "a cupcake with a paper liner and frosting",
        kinds_of("cupcake muffin"),
        plan_of(
            "cupcake",
            part("liner", "cylinder", [0.06, 0.06, 0.045], "ground", "top", "center", "light_blue"),
            part("frosting", "sphere", [0.066, 0.066, 0.045], "liner", "top", "center", "pink"),
            part("cherry", "sphere", [0.015, 0.015, 0.015], "frosting", "top", "center", "red"),
        ),
    ),
    Archetype(
        "a loaf of bread",
        kinds_of("bread loaf baguette"),
        plan_of(
            "bread",
            part("loaf", "box", [0.26, 0.12, 0.08], "ground", "top", "center", "tan"),
            part("crust_top", "cylinder", [0.12, 0.06, 0.26], "loaf", "top", "center", "brown", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a round cookie with chocolate chips",
        kinds_of("cookie biscuit cracker pancake waffle"),
        plan_of(
            "cookie",
            part("dough", "cylinder", [0.075, 0.075, 0.01], "ground", "top", "center", "tan"),
            part("chip_1", "sphere", [0.008, 0.008, 0.005], "dough", "top", "front_left", "dark_brown"),
            part("chip_2", "sphere", [0.008, 0.008, 0.005], "dough", "top", "back_right", "dark_brown"),
            part("chip_3", "sphere", [0.008, 0.008, 0.005], "dough", "top", "center", "dark_brown"),
        ),
    ),
    Archetype(
        "an egg",
        kinds_of("egg"),
        plan_of("egg", part("shell", "sphere", [0.045, 0.045, 0.06], "ground", "top", "center", "cream")),
    ),
    # electricity
    Archetype(
        "a cylindrical battery with a terminal",
        kinds_of("battery"),
        plan_of(
            "battery",
            part("body", "cylinder", [0.014, 0.014, 0.05], "ground", "top", "center", "dark_grey"),
            part("terminal", "cylinder", [0.005, 0.005, 0.002], "body", "top", "center", "silver"),
        ),
    ),
    Archetype(
        "a light bulb with a screw base",
        kinds_of("bulb lightbulb"),
        plan_of(
            "light bulb",
            part("base", "cylinder", [0.027, 0.027, 0.025], "ground", "top", "center", "silver"),
            part("neck", "cone", [0.04, 0.04, 0.02], "base", "top", "center", "white", [180, 0, 0]),
            part("glass", "sphere", [0.06, 0.06, 0.06], "neck", "top", "center", "white"),
        ),
    ),
    Archetype(
        "a power strip with a row of sockets and a cable",
        kinds_of("strip outlet socket extension surge"),
        plan_of(
            "power strip",
            part("body", "box", [0.3, 0.06, 0.04], "ground", "top", "center", "white"),
            part("socket_1", "cylinder", [0.035, 0.035, 0.004], "body", "top", "left", "light_grey"),
            part("socket_2", "cylinder", [0.035, 0.035, 0.004], "body", "top", "center", "light_grey"),
            part("socket_3", "cylinder", [0.035, 0.035, 0.004], "body", "top", "right", "light_grey"),
            part("cable", "cylinder", [0.008, 0.008, 0.3], "body", "right", "bottom", "white", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a power transformer with a tank, cooling fins and three bushings",
        kinds_of("transformer substation"),
        plan_of(
            "transformer",
            part("tank", "box", [0.8, 0.5, 0.9], "ground", "top", "center", "grey"),
            part("fins_left", "box", [0.08, 0.4, 0.7], "tank", "left", "center", "grey"),
            part("fins_right", "box", [0.08, 0.4, 0.7], "tank", "right", "center", "grey"),
            part("bushing_1", "cylinder", [0.07, 0.07, 0.3], "tank", "top", "left", "white"),
            part("bushing_2", "cylinder", [0.07, 0.07, 0.3], "tank", "top", "center", "white"),
            part("bushing_3", "cylinder", [0.07, 0.07, 0.3], "tank", "top", "right", "white"),
        ),
    ),
    Archetype(
        "a solar panel tilted on a post",
        kinds_of("solar"),
        plan_of(
            "solar panel",
            part("base", "box", [0.3, 0.3, 0.05], "ground", "top", "center", "grey"),
            part("post", "cylinder", [0.05, 0.05, 0.8], "base", "top", "center", "silver"),
            part("panel", "box", [1.0, 0.6, 0.04], "post", "top", "center", "navy", [30, 0, 0]),
        ),
    ),
    Archetype(
        "a suspension insulator: a stack of ceramic discs on a rod",
        kinds_of("insulator"),
        plan_of(
            "insulator",
            part("disc_1", "cylinder", [0.25, 0.25, 0.03], "ground", "top", "center", "brown"),
            part("neck_1", "cylinder", [0.06, 0.06, 0.06], "disc_1", "top", "center", "brown"),
            part("disc_2", "cylinder", [0.25, 0.25, 0.03], "neck_1", "top", "center", "brown"),
            part("neck_2", "cylinder", [0.06, 0.06, 0.06], "disc_2", "top", "center", "brown"),
            part("disc_3", "cylinder", [0.25, 0.25, 0.03], "neck_2", "top", "center", "brown"),
            part("cap", "cylinder", [0.06, 0.06, 0.08], "disc_3", "top", "center", "silver"),
        ),
    ),
    Archetype(
        "a wall plug adapter with two prongs",
        kinds_of("plug adapter charger"),
        plan_of(
            "plug",
            part("body", "box", [0.045, 0.03, 0.055], "ground", "top", "center", "white"),
            part("prong_left", "box", [0.004, 0.002, 0.018], "body", "top", "left", "silver"),
            part("prong_right", "box", [0.004, 0.002, 0.018], "body", "top", "right", "silver"),
        ),
    ),
    # musical instruments
    Archetype(
        "an acoustic guitar standing upright: a body of two bouts, a neck and a headstock",
        kinds_of("guitar ukulele violin viola cello mandolin banjo"),
        plan_of(
            "guitar",
            part("lower_bout", "cylinder", [0.38, 0.38, 0.1], "ground", "top", "center", "light_wood", [90, 0, 0]),
            part("upper_bout", "cylinder", [0.28, 0.28, 0.1], "lower_bout", "top", "center", "light_wood", [90, 0, 0]),
            part("neck", "box", [0.05, 0.025, 0.45], "upper_bout", "top", "center", "brown"),
            part("headstock", "box", [0.08, 0.02, 0.18], "neck", "top", "center", "dark_brown"),
            part("sound_hole", "cylinder", [0.09, 0.09, 0.002], "lower_bout", "front", "top", "black", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a drum with a shell, a head and two rims",
        kinds_of("drum bongo conga snare tom timpani"),
        plan_of(
            "drum",
            part("shell", "cylinder", [0.36, 0.36, 0.26], "ground", "top", "center", "red"),
            part("head", "cylinder", [0.35, 0.35, 0.004], "shell", "top", "center", "white"),
            part("rim_top", "torus", [0.38, 0.38, 0.02], "shell", "top", "center", "silver"),
            part("rim_bottom", "torus", [0.38, 0.38, 0.02], "shell", "bottom", "center", "silver"),
        ),
    ),
    Archetype(
        "an upright piano with a keyboard",
        kinds_of("piano"),
        plan_of(
            "piano",
            part("body", "box", [1.5, 0.6, 1.2], "ground", "top", "center", "black"),
            part("keybed", "box", [1.4, 0.28, 0.1], "body", "front", "center", "black"),
            part("keys", "box", [1.3, 0.16, 0.02], "keybed", "top", "front", "white"),
        ),
    ),
    Archetype(
        "a flute lying along its length, with finger holes",
        kinds_of("flute recorder clarinet piccolo fife oboe"),
        plan_of(
            "flute",
            part("tube", "cylinder", [0.02, 0.02, 0.65], "ground", "top", "center", "silver", [0, 90, 0]),
            part("mouthpiece", "cylinder", [0.012, 0.012, 0.004], "tube", "top", "left", "dark_grey"),
            part("hole_1", "cylinder", [0.008, 0.008, 0.003], "tube", "top", "center", "dark_grey"),
            part("hole_2", "cylinder", [0.008, 0.008, 0.003], "tube", "top", "right", "dark_grey"),
        ),
    ),
    Archetype(
        "a xylophone: wooden bars of falling length on a frame",
        kinds_of("xylophone marimba glockenspiel"),
        plan_of(
            "xylophone",
            part("frame", "box", [0.6, 0.3, 0.06], "ground", "top", "center", "dark_brown"),
            part("bar_1", "box", [0.05, 0.28, 0.02], "frame", "top", "center", "red"),
            part("bar_2", "box", [0.05, 0.26, 0.02], "frame", "top", "center", "orange"),
            part("bar_3", "box", [0.05, 0.24, 0.02], "frame", "top", "center", "yellow"),
            part("bar_4", "box", [0.05, 0.22, 0.02], "frame", "top", "center", "green"),
            part("bar_5", "box", [0.05, 0.2, 0.02], "frame", "top", "center", "blue"),
            part("bar_6", "box", [0.05, 0.18, 0.02], "frame", "top", "center", "purple"),
        ),
    ),
    Archetype(
        "a pair of drumsticks lying side by side",
        kinds_of("drumstick chopstick"),
        plan_of(
            "drumsticks",
            part("stick_left", "cylinder", [0.015, 0.015, 0.4], "ground", "top", "center", "light_wood", [90, 0, 0]),
            part("stick_right", "cylinder", [0.015, 0.015, 0.4], "stick_left", "right", "center", "light_wood", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a maraca: a round head on a handle",
        kinds_of("maraca rattle"),
        plan_of(
            "maraca",
            part("handle", "cylinder", [0.025, 0.025, 0.12], "ground", "top", "center", "light_wood"),
            part("head", "sphere", [0.08, 0.08, 0.1], "handle", "top", "center", "red"),
        ),
    ),
    # graphic symbols and patterns
    Archetype(
        "a flat square tile with a pattern of shapes on it",
        kinds_of("logo icon emblem symbol wallpaper tile badge sticker coaster"),
        plan_of(
            "pattern",
            part("tile", "box", [1.0, 1.0, 0.01], "ground", "top", "center", "white"),
            part("shape_1", "cylinder", [0.3, 0.3, 0.005], "tile", "top", "front_left", "blue"),
            part("shape_2", "box", [0.3, 0.3, 0.005], "tile", "top", "back_right", "red"),
            part("shape_3", "cylinder", [0.3, 0.3, 0.005], "tile", "top", "center", "yellow"),
        ),
    ),
    Archetype(
        "a chessboard with a border",
        kinds_of("chessboard checkerboard"),
        plan_of(
            "chessboard",
            part("board", "box", [0.45, 0.45, 0.02], "ground", "top", "center", "dark_brown"),
            part("squares", "box", [0.4, 0.4, 0.002], "board", "top", "center", "cream"),
        ),
    ),
    # stationery
    Archetype(
        "a pencil lying down, with a point and an eraser",
        kinds_of("pencil pen crayon marker highlighter"),
        plan_of(
            "pencil",
            part("body", "cylinder", [0.008, 0.008, 0.16], "ground", "top", "center", "yellow", [0, 90, 0]),
            part("point", "cone", [0.008, 0.008, 0.02], "body", "right", "center", "tan", [0, 90, 0]),
            part("eraser", "cylinder", [0.008, 0.008, 0.012], "body", "left", "center", "pink", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a closed notebook lying flat",
        kinds_of("notebook book diary journal notepad planner"),
        plan_of(
            "notebook",
            part("pages", "box", [0.148, 0.21, 0.012], "ground", "top", "center", "white"),
            part("cover", "box", [0.152, 0.214, 0.002], "pages", "top", "center", "navy"),
        ),
    ),
    Archetype(
        "a stapler with a base and a top arm",
        kinds_of("stapler"),
        plan_of(
            "stapler",
            part("base", "box", [0.16, 0.04, 0.015], "ground", "top", "center", "black"),
            part("arm", "box", [0.15, 0.035, 0.03], "base", "top", "center", "red"),
        ),
    ),
    Archetype(
        "a calculator lying flat with a display and a grid of buttons",
        kinds_of("calculator"),
        plan_of(
            "calculator",
            part("body", "box", [0.08, 0.15, 0.015], "ground", "top", "center", "dark_grey"),
            part("display", "box", [0.065, 0.035, 0.002], "body", "top", "back", "light_green"),
            part("keypad", "box", [0.065, 0.09, 0.004], "body", "top", "front", "light_grey"),
        ),
    ),
    Archetype(
        "a desk organizer: a tray with pen cups and a compartment",
        kinds_of("organizer organiser holder caddy"),
        plan_of(
            "desk organizer",
            part("tray", "box", [0.25, 0.12, 0.02], "ground", "top", "center", "black"),
            part("cup_left", "cylinder", [0.07, 0.07, 0.1], "tray", "top", "left", "black"),
            part("cup_middle", "cylinder", [0.07, 0.07, 0.08], "tray", "top", "center", "black"),
            part("compartment", "box", [0.08, 0.1, 0.05], "tray", "top", "right", "black"),
        ),
    ),
    Archetype(
        "a ruler",
        kinds_of("ruler"),
        plan_of("ruler", part("strip", "box", [0.3, 0.03, 0.003], "ground", "top", "center", "light_wood")),
    ),
    # animals
    Archetype(
        "a pet bowl: a wide, low bowl with a rim",
        kinds_of("bowl dish trough"),
        plan_of(
            "bowl",
            part("body", "cylinder", [0.2, 0.2, 0.06], "ground", "top", "center", "blue"),
            part("rim", "torus", [0.21, 0.21, 0.02], "body", "top", "center", "blue"),
            part("food", "cylinder", [0.16, 0.16, 0.005], "body", "top", "center", "brown"),
        ),
    ),
    Archetype(
        "a birdhouse with a pitched roof and a perch",
        kinds_of("birdhouse nestbox"),
        plan_of(
            "birdhouse",
            part("house", "box", [0.15, 0.15, 0.2], "ground", "top", "center", "light_wood"),
            part("roof_left", "box", [0.12, 0.2, 0.015], "house", "top", "left", "dark_brown", [0, -35, 0]),
            part("roof_right", "box", [0.12, 0.2, 0.015], "house", "top", "right", "dark_brown", [0, 35, 0]),
            part("hole", "cylinder", [0.04, 0.04, 0.003], "house", "front", "center", "black", [90, 0, 0]),
            part("perch", "cylinder", [0.008, 0.008, 0.05], "house", "front", "bottom", "brown", [90, 0, 0]),
        ),
    ),
    Archetype(
        "an aquarium: a glass tank on a base with a lid",
        kinds_of("aquarium terrarium vivarium"),
        plan_of(
            "aquarium",
            part("base", "box", [0.62, 0.32, 0.04], "ground", "top", "center", "black"),
            part("tank", "box", [0.6, 0.3, 0.35], "base", "top", "center", "light_blue"),
            part("lid", "box", [0.62, 0.32, 0.03], "tank", "top", "center", "black"),
        ),
    ),
    Archetype(
        "a round birdcage with a domed top",
        kinds_of("cage birdcage"),
        plan_of(
            "birdcage",
            part("base", "cylinder", [0.32, 0.32, 0.04], "ground", "top", "center", "gold"),
            part("bars", "cylinder", [0.3, 0.3, 0.4], "base", "top", "center", "gold"),
            part("dome", "sphere", [0.3, 0.3, 0.2], "bars", "top", "center", "gold"),
            part("ring", "torus", [0.06, 0.06, 0.01], "dome", "top", "center", "gold", [90, 0, 0]),
        ),
    ),
    # clothing
    Archetype(
        "a brimmed hat",
        kinds_of("hat fedora bowler sunhat"),
        plan_of(
            "hat",
            part("brim", "cylinder", [0.36, 0.36, 0.01], "ground", "top", "center", "black"),
            part("crown", "cylinder", [0.2, 0.2, 0.12], "brim", "top", "center", "black"),
            part("band", "cylinder", [0.205, 0.205, 0.025], "brim", "top", "center", "red"),
        ),
    ),
    Archetype(
        "a sneaker with a sole, an upper and laces",
        kinds_of("shoe sneaker boot slipper sandal trainer"),
        plan_of(
            "shoe",
            part("sole", "box", [0.28, 0.1, 0.03], "ground", "top", "center", "white"),
            part("upper", "box", [0.2, 0.09, 0.08], "sole", "top", "back", "blue"),
            part("toe", "sphere", [0.1, 0.09, 0.06], "sole", "top", "front", "blue"),
            part("laces", "box", [0.08, 0.05, 0.005], "upper", "top", "front", "white"),
        ),
    ),
    Archetype(
        "a round button with four holes",
        kinds_of("button"),
        plan_of(
            "button",
            part("disc", "cylinder", [0.02, 0.02, 0.004], "ground", "top", "center", "dark_brown"),
            part("rim", "torus", [0.02, 0.02, 0.002], "disc", "top", "center", "dark_brown"),
        ),
    ),
    # household goods
    Archetype(
        "a trash can with a lid",
        kinds_of("trash garbage bin wastebasket dustbin"),
        plan_of(
            "trash can",
            part("body", "cylinder", [0.3, 0.3, 0.45], "ground", "top", "center", "silver"),
            part("lid", "cylinder", [0.31, 0.31, 0.03], "body", "top", "center", "dark_grey"),
            part("handle", "box", [0.08, 0.02, 0.02], "lid", "top", "center", "dark_grey"),
        ),
    ),
    Archetype(
        "a candle with a wick and a flame",
        kinds_of("candle"),
        plan_of(
            "candle",
            part("wax", "cylinder", [0.06, 0.06, 0.13], "ground", "top", "center", "cream"),
            part("wick", "cylinder", [0.003, 0.003, 0.012], "wax", "top", "center", "black"),
            part("flame", "cone", [0.012, 0.012, 0.025], "wick", "top", "center", "orange"),
        ),
    ),
    Archetype(
        "a broom with a long handle and a bristle head",
        kinds_of("broom mop"),
        plan_of(
            "broom",
            part("head", "box", [0.3, 0.06, 0.06], "ground", "top", "center", "red"),
            part("bristles", "box", [0.3, 0.05, 0.1], "head", "bottom", "center", "yellow"),
            part("handle", "cylinder", [0.025, 0.025, 1.2], "head", "top", "center", "light_wood"),
        ),
    ),
    Archetype(
        "a round wall clock with hands",
        kinds_of("clock"),
        plan_of(
            "clock",
            part("face", "cylinder", [0.3, 0.3, 0.04], "ground", "top", "center", "white", [90, 0, 0]),
            part("rim", "torus", [0.31, 0.31, 0.03], "face", "front", "center", "black", [90, 0, 0]),
            part("hour_hand", "box", [0.01, 0.003, 0.07], "face", "front", "center", "black"),
            part("minute_hand", "box", [0.1, 0.003, 0.008], "face", "front", "center", "black"),
        ),
    ),
    Archetype(
        "a round basket with a handle",
        kinds_of("basket hamper"),
        plan_of(
            "basket",
            part("body", "cylinder", [0.35, 0.35, 0.2], "ground", "top", "center", "tan"),
            part("rim", "torus", [0.36, 0.36, 0.02], "body", "top", "center", "brown"),
            part("handle", "torus", [0.3, 0.3, 0.02], "body", "top", "center", "brown", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a toothbrush lying down",
        kinds_of("toothbrush"),
        plan_of(
            "toothbrush",
            part("handle", "box", [0.19, 0.014, 0.012], "ground", "top", "center", "blue"),
            part("bristles", "box", [0.025, 0.012, 0.012], "handle", "top", "right", "white"),
        ),
    ),
    Archetype(
        "an open umbrella: a canopy on a pole with a curved handle",
        kinds_of("umbrella parasol"),
        plan_of(
            "umbrella",
            part("handle", "torus", [0.08, 0.08, 0.015], "ground", "top", "center", "black", [90, 0, 0]),
            part("pole", "cylinder", [0.02, 0.02, 0.8], "handle", "top", "center", "silver"),
            part("canopy", "cone", [1.0, 1.0, 0.3], "pole", "top", "center", "navy"),
        ),
    ),
    # medical and laboratory
    Archetype(
        "a test tube with a rounded bottom",
        kinds_of("tube vial"),
        plan_of(
            "test tube",
            part("bottom", "sphere", [0.016, 0.016, 0.016], "ground", "top", "center", "light_blue"),
            part("tube", "cylinder", [0.016, 0.016, 0.14], "bottom", "top", "center", "light_blue"),
            part("rim", "torus", [0.018, 0.018, 0.002], "tube", "top", "center", "light_blue"),
        ),
    ),
    Archetype(
        "a syringe with a barrel, a plunger and a needle",
        kinds_of("syringe"),
        plan_of(
            "syringe",
            part("barrel", "cylinder", [0.015, 0.015, 0.08], "ground", "top", "center", "white", [0, 90, 0]),
            part("plunger", "cylinder", [0.01, 0.01, 0.05], "barrel", "left", "center", "white", [0, 90, 0]),
            part("thumb_rest", "cylinder", [0.02, 0.02, 0.003], "plunger", "left", "center", "white", [0, 90, 0]),
            part("needle", "cylinder", [0.001, 0.001, 0.03], "barrel", "right", "center", "silver", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a microscope with a base, an arm, a stage and an eyepiece tube",
        kinds_of("microscope"),
        plan_of(
            "microscope",
            part("base", "box", [0.18, 0.24, 0.03], "ground", "top", "center", "dark_grey"),
            part("arm", "box", [0.04, 0.05, 0.25], "base", "top", "back", "dark_grey"),
            part("stage", "box", [0.12, 0.12, 0.01], "arm", "front", "center", "black"),
            part("tube", "cylinder", [0.035, 0.035, 0.14], "arm", "front", "top", "white", [20, 0, 0]),
            part("eyepiece", "cylinder", [0.025, 0.025, 0.04], "tube", "top", "center", "black"),
        ),
    ),
    Archetype(
        "a conical laboratory flask with a narrow neck",
        kinds_of("flask beaker"),
        plan_of(
            "flask",
            part("body", "cone", [0.12, 0.12, 0.13], "ground", "top", "center", "light_blue"),
            part("neck", "cylinder", [0.03, 0.03, 0.06], "body", "top", "center", "light_blue"),
        ),
    ),
    Archetype(
        "a thermometer: a thin rod with a bulb",
        kinds_of("thermometer"),
        plan_of(
            "thermometer",
            part("rod", "cylinder", [0.008, 0.008, 0.13], "ground", "top", "center", "white", [0, 90, 0]),
            part("bulb", "sphere", [0.01, 0.01, 0.01], "rod", "right", "center", "red"),
        ),
    ),
    Archetype(
        "a petri dish with a lid",
        kinds_of("petri"),
        plan_of(
            "petri dish",
            part("dish", "cylinder", [0.09, 0.09, 0.012], "ground", "top", "center", "light_blue"),
            part("lid", "cylinder", [0.094, 0.094, 0.004], "dish", "top", "center", "light_blue"),
        ),
    ),
    # machines for food and drink
    Archetype(
        "a kitchen blender: a motor base and a jar with a lid",
        kinds_of("blender mixer"),
        plan_of(
            "blender",
            part("base", "box", [0.18, 0.18, 0.12], "ground", "top", "center", "black"),
            part("jar", "cylinder", [0.14, 0.14, 0.22], "base", "top", "center", "light_blue"),
            part("lid", "cylinder", [0.145, 0.145, 0.02], "jar", "top", "center", "black"),
            part("knob", "cylinder", [0.03, 0.03, 0.01], "base", "front", "center", "silver", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a two-slot toaster with a lever",
        kinds_of("toaster"),
        plan_of(
            "toaster",
            part("body", "box", [0.28, 0.18, 0.2], "ground", "top", "center", "silver"),
            part("slot_left", "box", [0.2, 0.03, 0.002], "body", "top", "front", "black"),
            part("slot_right", "box", [0.2, 0.03, 0.002], "body", "top", "back", "black"),
            part("lever", "box", [0.02, 0.03, 0.015], "body", "right", "top", "black"),
        ),
    ),
    Archetype(
        "a drip coffee maker with a water tower and a glass pot",
        kinds_of("maker espresso brewer percolator"),
        plan_of(
            "coffee maker",
            part("base", "box", [0.22, 0.26, 0.04], "ground", "top", "center", "black"),
            part("tower", "box", [0.22, 0.1, 0.3], "base", "top", "back", "black"),
            part("pot", "cylinder", [0.14, 0.14, 0.14], "base", "top", "front", "light_blue"),
            part("head", "box", [0.22, 0.16, 0.06], "tower", "front", "top", "black"),
        ),
    ),
    Archetype(
        "a citrus juicer: a base, a jug and a ribbed cone",
        kinds_of("juicer squeezer reamer"),
        plan_of(
            "juicer",
            part("base", "cylinder", [0.18, 0.18, 0.1], "ground", "top", "center", "white"),
            part("jug", "cylinder", [0.16, 0.16, 0.08], "base", "top", "center", "light_blue"),
            part("cone", "cone", [0.08, 0.08, 0.06], "jug", "top", "center", "white"),
        ),
    ),
    Archetype(
        "a microwave oven with a door window and a control panel",
        kinds_of("microwave oven"),
        plan_of(
            "microwave",
            part("body", "box", [0.5, 0.38, 0.3], "ground", "top", "center", "white"),
            part("window", "box", [0.32, 0.01, 0.2], "body", "front", "left", "black"),
            part("panel", "box", [0.1, 0.01, 0.24], "body", "front", "right", "dark_grey"),
        ),
    ),
    # travel goods
    Archetype(
        "a wheeled suitcase with a handle",
        kinds_of("suitcase luggage"),
        plan_of(
            "suitcase",
            part("body", "box", [0.42, 0.25, 0.62], "ground", "top", "center", "navy"),
            part("handle", "box", [0.15, 0.03, 0.03], "body", "top", "center", "black"),
            part("wheel_left", "cylinder", [0.05, 0.05, 0.03], "body", "bottom", "back_left", "black", [0, 90, 0]),
            part("wheel_right", "cylinder", [0.05, 0.05, 0.03], "body", "bottom", "back_right", "black", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a backpack with a front pocket and two straps",
        kinds_of("backpack rucksack knapsack schoolbag"),
        plan_of(
            "backpack",
            part("body", "box", [0.3, 0.16, 0.45], "ground", "top", "center", "red"),
            part("top", "cylinder", [0.16, 0.3, 0.1], "body", "top", "center", "red", [0, 90, 0]),
            part("pocket", "box", [0.24, 0.06, 0.2], "body", "front", "bottom", "dark_red"),
            part("strap_left", "box", [0.05, 0.02, 0.4], "body", "back", "left", "black"),
            part("strap_right", "box", [0.05, 0.02, 0.4], "body", "back", "right", "black"),
        ),
    ),
    Archetype(
        "a folded wallet",
        kinds_of("wallet purse cardholder billfold"),
        plan_of(
            "wallet",
            part("body", "box", [0.11, 0.09, 0.015], "ground", "top", "center", "brown"),
            part("flap", "box", [0.11, 0.04, 0.003], "body", "top", "front", "dark_brown"),
        ),
    ),
    Archetype(
        "a pair of glasses: two round lenses, a bridge and two arms",
        kinds_of("eyeglass sunglass spectacle goggle"),
        plan_of(
            "glasses",
            part("bridge", "box", [0.02, 0.004, 0.004], "ground", "top", "center", "black"),
            part("lens_left", "torus", [0.05, 0.05, 0.004], "bridge", "left", "center", "black", [90, 0, 0]),
            part("lens_right", "torus", [0.05, 0.05, 0.004], "bridge", "right", "center", "black", [90, 0, 0]),
            part("arm_left", "box", [0.004, 0.14, 0.004], "lens_left", "back", "left", "black"),
            part("arm_right", "box", [0.004, 0.14, 0.004], "lens_right", "back", "right", "black"),
        ),
    ),
    Archetype(
        "a handbag with a handle",
        kinds_of("handbag tote"),
        plan_of(
            "handbag",
            part("body", "box", [0.32, 0.12, 0.24], "ground", "top", "center", "tan"),
            part("handle", "torus", [0.2, 0.2, 0.015], "body", "top", "center", "brown", [90, 0, 0]),
        ),
    ),
    # games, toys and sports
    Archetype(
        "a ball",
        kinds_of("ball football basketball volleyball globe marble"),
        plan_of("ball", part("ball", "sphere", [0.22, 0.22, 0.22], "ground", "top", "center", "orange")),
    ),
    Archetype(
        "a round tent with a pole",
        kinds_of("tent teepee tipi"),
        plan_of(
            "tent",
            part("canvas", "cone", [2.0, 2.0, 1.6], "ground", "top", "center", "green"),
            part("door", "box", [0.5, 0.01, 0.8], "canvas", "front", "bottom", "dark_green", [-30, 0, 0]),
            part("pole_tip", "cylinder", [0.03, 0.03, 0.2], "canvas", "top", "center", "brown"),
        ),
    ),
    Archetype(
        "a chess pawn: a base, a body and a round head",
        kinds_of("pawn chess rook bishop knight king queen"),
        plan_of(
            "chess piece",
            part("base", "cylinder", [0.035, 0.035, 0.01], "ground", "top", "center", "white"),
            part("body", "cone", [0.025, 0.025, 0.03], "base", "top", "center", "white"),
            part("collar", "cylinder", [0.02, 0.02, 0.004], "body", "top", "center", "white"),
            part("head", "sphere", [0.018, 0.018, 0.018], "collar", "top", "center", "white"),
        ),
    ),
    Archetype(
        "a skateboard with four wheels",
        kinds_of("skateboard longboard"),
        plan_of(
            "skateboard",
            part("deck", "box", [0.8, 0.2, 0.015], "ground", "top", "center", "light_wood"),
            part("wheel_front_left", "cylinder", [0.055, 0.055, 0.035], "deck", "bottom", "front_left", "white", [90, 0, 0]),
            part("wheel_front_right", "cylinder", [0.055, 0.055, 0.035], "deck", "bottom", "front_right", "white", [90, 0, 0]),
            part("wheel_back_left", "cylinder", [0.055, 0.055, 0.035], "deck", "bottom", "back_left", "white", [90, 0, 0]),
            part("wheel_back_right", "cylinder", [0.055, 0.055, 0.035], "deck", "bottom", "back_right", "white", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a diamond kite with a tail",
        kinds_of("kite"),
        plan_of(
            "kite",
            part("sail", "box", [0.5, 0.01, 0.5], "ground", "top", "center", "red", [0, 45, 0]),
            part("tail", "box", [0.01, 0.005, 0.6], "sail", "bottom", "center", "yellow"),
        ),
    ),
    Archetype(
        "a dumbbell: a bar with a weight at each end",
        kinds_of("dumbbell barbell kettlebell"),
        plan_of(
            "dumbbell",
            part("bar", "cylinder", [0.03, 0.03, 0.3], "ground", "top", "center", "silver", [0, 90, 0]),
            part("weight_left", "cylinder", [0.12, 0.12, 0.05], "bar", "left", "center", "black", [0, 90, 0]),
            part("weight_right", "cylinder", [0.12, 0.12, 0.05], "bar", "right", "center", "black", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a tennis racket standing on its handle",
        kinds_of("racket racquet"),
        plan_of(
            "racket",
            part("handle", "cylinder", [0.03, 0.03, 0.3], "ground", "top", "center", "black"),
            part("head", "torus", [0.27, 0.27, 0.02], "handle", "top", "center", "red", [90, 0, 0]),
            part("strings", "cylinder", [0.24, 0.24, 0.002], "head", "back", "center", "white", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a yo-yo",
        kinds_of("yoyo"),
        plan_of(
            "yo-yo",
            part("half_left", "cylinder", [0.055, 0.055, 0.015], "ground", "top", "center", "red", [0, 90, 0]),
            part("axle", "cylinder", [0.01, 0.01, 0.006], "half_left", "right", "center", "silver", [0, 90, 0]),
            part("half_right", "cylinder", [0.055, 0.055, 0.015], "axle", "right", "center", "red", [0, 90, 0]),
        ),
    ),
    # transport
    Archetype(
        "a bicycle with two wheels, a frame, a seat and handlebars",
        kinds_of("bicycle bike"),
        plan_of(
            "bicycle",
            part("frame", "box", [1.05, 0.04, 0.04], "ground", "top", "center", "red"),
            part("wheel_front", "torus", [0.66, 0.66, 0.04], "frame", "bottom", "right", "black", [90, 0, 0]),
            part("wheel_back", "torus", [0.66, 0.66, 0.04], "frame", "bottom", "left", "black", [90, 0, 0]),
            part("seat_post", "cylinder", [0.03, 0.03, 0.25], "frame", "top", "left", "silver"),
            part("seat", "box", [0.25, 0.12, 0.05], "seat_post", "top", "center", "black"),
            part("stem", "cylinder", [0.03, 0.03, 0.3], "frame", "top", "right", "silver"),
            part("handlebar", "cylinder", [0.03, 0.03, 0.5], "stem", "top", "center", "black", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a small boat with a hull, a cabin and a mast",
        kinds_of("boat ship yacht sailboat ferry"),
        plan_of(
            "boat",
            part("hull", "box", [3.0, 1.0, 0.6], "ground", "top", "center", "white"),
            part("deck", "box", [3.0, 1.0, 0.05], "hull", "top", "center", "light_wood"),
            part("cabin", "box", [1.0, 0.8, 0.6], "deck", "top", "back", "white"),
            part("mast", "cylinder", [0.08, 0.08, 2.5], "deck", "top", "center", "light_wood"),
        ),
    ),
    Archetype(
        "an airplane with a fuselage, a wing and a tail fin",
        kinds_of("airplane aeroplane jet aircraft airliner"),
        plan_of(
            "airplane",
            part("fuselage", "cylinder", [0.4, 0.4, 4.0], "ground", "top", "center", "white", [0, 90, 0]),
            part("wings", "box", [0.8, 4.0, 0.06], "fuselage", "bottom", "center", "light_grey"),
            part("tail_fin", "box", [0.5, 0.05, 0.6], "fuselage", "top", "left", "red"),
            part("tailplane", "box", [0.4, 1.4, 0.04], "fuselage", "top", "left", "light_grey"),
        ),
    ),
    Archetype(
        "a rocket with a nose cone and three fins",
        kinds_of("rocket spaceship missile spacecraft"),
        plan_of(
            "rocket",
            part("body", "cylinder", [0.3, 0.3, 1.6], "ground", "top", "center", "white"),
            part("nose", "cone", [0.3, 0.3, 0.5], "body", "top", "center", "red"),
            part("fin_left", "box", [0.2, 0.02, 0.35], "body", "left", "bottom", "red"),
            part("fin_right", "box", [0.2, 0.02, 0.35], "body", "right", "bottom", "red"),
            part("fin_back", "box", [0.02, 0.2, 0.35], "body", "back", "bottom", "red"),
        ),
    ),
    Archetype(
        "a kick scooter: a deck on two wheels, a stem and a handlebar",
        kinds_of("scooter"),
        plan_of(
            "scooter",
            part("deck", "box", [0.6, 0.14, 0.03], "ground", "top", "center", "black"),
            part("wheel_front", "cylinder", [0.12, 0.12, 0.03], "deck", "bottom", "right", "dark_grey", [90, 0, 0]),
            part("wheel_back", "cylinder", [0.12, 0.12, 0.03], "deck", "bottom", "left", "dark_grey", [90, 0, 0]),
            part("stem", "cylinder", [0.035, 0.035, 0.8], "deck", "top", "right", "silver"),
            part("handlebar", "cylinder", [0.03, 0.03, 0.45], "stem", "top", "center", "black", [90, 0, 0]),
        ),
    ),
    # tools and hardware
    Archetype(
        "a hammer standing on its handle",
        kinds_of("hammer mallet"),
        plan_of(
            "hammer",
            part("handle", "cylinder", [0.03, 0.03, 0.3], "ground", "top", "center", "light_wood"),
            part("head", "box", [0.12, 0.03, 0.03], "handle", "top", "center", "dark_grey"),
        ),
    ),
    Archetype(
        "a screwdriver with a handle and a shaft",
        kinds_of("screwdriver"),
        plan_of(
            "screwdriver",
            part("handle", "cylinder", [0.03, 0.03, 0.1], "ground", "top", "center", "red"),
            part("shaft", "cylinder", [0.006, 0.006, 0.12], "handle", "top", "center", "silver"),
            part("tip", "box", [0.006, 0.002, 0.01], "shaft", "top", "center", "silver"),
        ),
    ),
    Archetype(
        "a wrench lying flat with an open end and a ring end",
        kinds_of("wrench spanner"),
        plan_of(
            "wrench",
            part("shank", "box", [0.18, 0.02, 0.006], "ground", "top", "center", "silver"),
            part("open_end", "cylinder", [0.04, 0.04, 0.006], "shank", "right", "center", "silver"),
            part("ring_end", "torus", [0.035, 0.035, 0.008], "shank", "left", "center", "silver"),
        ),
    ),
    Archetype(
        "a shovel with a handle and a blade",
        kinds_of("shovel spade trowel"),
        plan_of(
            "shovel",
            part("blade", "box", [0.22, 0.02, 0.28], "ground", "top", "center", "dark_grey"),
            part("shaft", "cylinder", [0.035, 0.035, 0.9], "blade", "top", "center", "light_wood"),
            part("grip", "box", [0.14, 0.03, 0.03], "shaft", "top", "center", "black"),
        ),
    ),
    Archetype(
        "a ladder with two rails and rungs",
        kinds_of("ladder stepladder"),
        plan_of(
            "ladder",
            part("rung_bottom", "cylinder", [0.03, 0.03, 0.4], "ground", "top", "center", "light_wood", [0, 90, 0]),
            part("rail_left", "box", [0.05, 0.05, 2.0], "rung_bottom", "left", "bottom", "light_wood"),
            part("rail_right", "box", [0.05, 0.05, 2.0], "rung_bottom", "right", "bottom", "light_wood"),
            part("rung_middle", "cylinder", [0.03, 0.03, 0.4], "rail_left", "right", "center", "light_wood", [0, 90, 0]),
            part("rung_top", "cylinder", [0.03, 0.03, 0.4], "rail_left", "right", "top", "light_wood", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a toolbox with a handle",
        kinds_of("toolbox toolkit"),
        plan_of(
            "toolbox",
            part("body", "box", [0.45, 0.22, 0.22], "ground", "top", "center", "red"),
            part("lid", "box", [0.46, 0.23, 0.04], "body", "top", "center", "red"),
            part("handle", "box", [0.2, 0.03, 0.04], "lid", "top", "center", "black"),
        ),
    ),
    Archetype(
        "a hand saw: a flat blade and a handle",
        kinds_of("saw handsaw hacksaw"),
        plan_of(
            "saw",
            part("blade", "box", [0.5, 0.002, 0.12], "ground", "top", "center", "silver"),
            part("handle", "box", [0.14, 0.03, 0.13], "blade", "left", "top", "light_wood"),
        ),
    ),
    # recording, telecommunication and data processing
    Archetype(
        "an open laptop: a base with a keyboard and a screen",
        kinds_of("laptop netbook chromebook"),
        plan_of(
            "laptop",
            part("base", "box", [0.33, 0.23, 0.02], "ground", "top", "center", "silver"),
            part("keyboard", "box", [0.28, 0.11, 0.002], "base", "top", "back", "black"),
            part("screen", "box", [0.33, 0.01, 0.22], "base", "top", "back", "black", [-15, 0, 0]),
        ),
    ),
    Archetype(
        "a computer keyboard with rows of keys",
        kinds_of("keyboard keypad"),
        plan_of(
            "keyboard",
            part("base", "box", [0.44, 0.14, 0.02], "ground", "top", "center", "dark_grey"),
            part("keys_row_1", "box", [0.42, 0.03, 0.01], "base", "top", "front", "black"),
            part("keys_row_2", "box", [0.42, 0.03, 0.01], "base", "top", "center", "black"),
            part("keys_row_3", "box", [0.42, 0.03, 0.01], "base", "top", "back", "black"),
        ),
    ),
    Archetype(
        "a computer mouse with a scroll wheel",
        kinds_of("mouse trackball"),
        plan_of(
            "mouse",
            part("body", "sphere", [0.065, 0.11, 0.035], "ground", "top", "center", "dark_grey"),
            part("wheel", "cylinder", [0.01, 0.01, 0.006], "body", "top", "back", "black", [0, 90, 0]),
        ),
    ),
    Archetype(
        "over-ear headphones: a headband and two ear cups",
        kinds_of("headphone headset earmuff"),
        plan_of(
            "headphones",
            part("headband", "torus", [0.18, 0.18, 0.025], "ground", "top", "center", "black", [90, 0, 0]),
            part("cup_left", "cylinder", [0.08, 0.08, 0.04], "headband", "left", "bottom", "black", [0, 90, 0]),
            part("cup_right", "cylinder", [0.08, 0.08, 0.04], "headband", "right", "bottom", "black", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a camera with a lens, a shutter button and a viewfinder",
        kinds_of("camera camcorder webcam"),
        plan_of(
            "camera",
            part("body", "box", [0.13, 0.07, 0.09], "ground", "top", "center", "black"),
            part("lens", "cylinder", [0.06, 0.06, 0.06], "body", "front", "center", "dark_grey", [90, 0, 0]),
            part("shutter", "cylinder", [0.012, 0.012, 0.008], "body", "top", "right", "silver"),
            part("viewfinder", "box", [0.04, 0.04, 0.025], "body", "top", "center", "black"),
        ),
    ),
    Archetype(
        "a loudspeaker cabinet with a woofer and a tweeter",
        kinds_of("speaker loudspeaker subwoofer soundbar"),
        plan_of(
            "speaker",
            part("cabinet", "box", [0.22, 0.24, 0.36], "ground", "top", "center", "black"),
            part("woofer", "cylinder", [0.16, 0.16, 0.02], "cabinet", "front", "bottom", "dark_grey", [90, 0, 0]),
            part("tweeter", "cylinder", [0.05, 0.05, 0.02], "cabinet", "front", "top", "dark_grey", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a microphone on a desk stand",
        kinds_of("microphone mic"),
        plan_of(
            "microphone",
            part("base", "cylinder", [0.12, 0.12, 0.02], "ground", "top", "center", "black"),
            part("stand", "cylinder", [0.015, 0.015, 0.2], "base", "top", "center", "silver"),
            part("handle", "cylinder", [0.035, 0.035, 0.12], "stand", "top", "center", "black"),
            part("head", "sphere", [0.055, 0.055, 0.055], "handle", "top", "center", "silver"),
        ),
    ),
    Archetype(
        "a wireless router with antennas",
        kinds_of("router modem hub"),
        plan_of(
            "router",
            part("body", "box", [0.25, 0.16, 0.04], "ground", "top", "center", "black"),
            part("antenna_left", "cylinder", [0.012, 0.012, 0.16], "body", "top", "back_left", "black"),
            part("antenna_right", "cylinder", [0.012, 0.012, 0.16], "body", "top", "back_right", "black"),
        ),
    ),
    Archetype(
        "a desktop computer: a tower beside a monitor on a stand, and a keyboard",
        kinds_of("desktop"),
        plan_of(
            "desktop computer",
            part("desk_surface", "box", [1.0, 0.5, 0.01], "ground", "top", "center", "light_grey"),
            part("tower", "box", [0.2, 0.45, 0.45], "desk_surface", "top", "right", "black"),
            part("stand", "box", [0.2, 0.15, 0.12], "desk_surface", "top", "back", "dark_grey"),
            part("monitor", "box", [0.55, 0.03, 0.33], "stand", "top", "center", "black"),
            part("keyboard", "box", [0.44, 0.14, 0.02], "desk_surface", "top", "front", "dark_grey"),
        ),
    ),
    Archetype(
        "a remote control with buttons",
        kinds_of("remote controller"),
        plan_of(
            "remote control",
            part("body", "box", [0.05, 0.18, 0.02], "ground", "top", "center", "black"),
            part("buttons", "box", [0.035, 0.12, 0.004], "body", "top", "center", "grey"),
        ),
    ),
    # kitchen and table
    Archetype(
        "a cooking pot with a lid and two handles",
        kinds_of("pot saucepan stockpot casserole cauldron"),
        plan_of(
            "cooking pot",
            part("body", "cylinder", [0.26, 0.26, 0.16], "ground", "top", "center", "silver"),
            part("lid", "cylinder", [0.27, 0.27, 0.01], "body", "top", "center", "silver"),
            part("knob", "sphere", [0.03, 0.03, 0.025], "lid", "top", "center", "black"),
            part("handle_left", "box", [0.05, 0.03, 0.02], "body", "left", "top", "black"),
            part("handle_right", "box", [0.05, 0.03, 0.02], "body", "right", "top", "black"),
        ),
    ),
    Archetype(
        "a frying pan with a long handle",
        kinds_of("pan skillet wok griddle"),
        plan_of(
            "frying pan",
            part("pan", "cylinder", [0.28, 0.28, 0.05], "ground", "top", "center", "dark_grey"),
            part("handle", "box", [0.2, 0.03, 0.02], "pan", "right", "top", "black"),
        ),
    ),
    Archetype(
        "a teapot with a round body, a lid, a spout and a handle",
        kinds_of("teapot kettle"),
        plan_of(
            "teapot",
            part("body", "sphere", [0.18, 0.18, 0.15], "ground", "top", "center", "white"),
            part("lid", "cylinder", [0.08, 0.08, 0.02], "body", "top", "center", "white"),
            part("knob", "sphere", [0.025, 0.025, 0.025], "lid", "top", "center", "white"),
            part("spout", "cylinder", [0.025, 0.025, 0.12], "body", "right", "center", "white", [0, 45, 0]),
            part("handle", "torus", [0.1, 0.1, 0.02], "body", "left", "center", "white", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a dinner plate with a raised rim",
        kinds_of("plate platter saucer"),
        plan_of(
            "plate",
            part("plate", "cylinder", [0.27, 0.27, 0.015], "ground", "top", "center", "white"),
            part("rim", "torus", [0.27, 0.27, 0.015], "plate", "top", "center", "white"),
        ),
    ),
    Archetype(
        "a wine glass with a round foot, a thin stem and a bowl",
        kinds_of("wineglass goblet chalice"),
        plan_of(
            "wine glass",
            part("foot", "cylinder", [0.07, 0.07, 0.005], "ground", "top", "center", "light_blue"),
            part("stem", "cylinder", [0.01, 0.01, 0.09], "foot", "top", "center", "light_blue"),
            part("bowl", "sphere", [0.08, 0.08, 0.09], "stem", "top", "center", "light_blue"),
        ),
    ),
    Archetype(
        "a bottle with a shoulder, a narrow neck and a cap",
        kinds_of("bottle"),
        plan_of(
            "bottle",
            part("body", "cylinder", [0.075, 0.075, 0.2], "ground", "top", "center", "green"),
            part("shoulder", "cone", [0.075, 0.075, 0.05], "body", "top", "center", "green"),
            part("neck", "cylinder", [0.028, 0.028, 0.06], "shoulder", "top", "center", "green"),
            part("cap", "cylinder", [0.032, 0.032, 0.02], "neck", "top", "center", "red"),
        ),
    ),
    Archetype(
        "a vase with a round body, a narrow neck and a lip",
        kinds_of("vase urn amphora"),
        plan_of(
            "vase",
            part("body", "sphere", [0.18, 0.18, 0.22], "ground", "top", "center", "blue"),
            part("neck", "cylinder", [0.08, 0.08, 0.12], "body", "top", "center", "blue"),
            part("lip", "torus", [0.1, 0.1, 0.02], "neck", "top", "center", "blue"),
        ),
    ),
    Archetype(
        "a spoon: an oval bowl on a long handle",
        kinds_of("spoon ladle"),
        plan_of(
            "spoon",
            part("bowl", "sphere", [0.04, 0.06, 0.012], "ground", "top", "center", "silver"),
            part("handle", "box", [0.012, 0.14, 0.004], "bowl", "back", "center", "silver"),
        ),
    ),
    Archetype(
        "a fork with a handle and three tines",
        kinds_of("fork"),
        plan_of(
            "fork",
            part("handle", "box", [0.012, 0.13, 0.004], "ground", "top", "center", "silver"),
            part("head", "box", [0.025, 0.03, 0.004], "handle", "front", "center", "silver"),
            part("tine_left", "box", [0.004, 0.04, 0.003], "head", "front", "left", "silver"),
            part("tine_center", "box", [0.004, 0.04, 0.003], "head", "front", "center", "silver"),
            part("tine_right", "box", [0.004, 0.04, 0.003], "head", "front", "right", "silver"),
        ),
    ),
    Archetype(
        "a kitchen knife with a handle and a blade",
        kinds_of("knife cleaver dagger"),
        plan_of(
            "knife",
            part("handle", "box", [0.02, 0.11, 0.015], "ground", "top", "center", "black"),
            part("blade", "box", [0.03, 0.18, 0.002], "handle", "front", "center", "silver"),
        ),
    ),
    Archetype(
        "a wooden barrel with a bulging middle",
        kinds_of("barrel keg cask"),
        plan_of(
            "barrel",
            part("bottom", "cylinder", [0.52, 0.52, 0.25], "ground", "top", "center", "brown"),
            part("middle", "cylinder", [0.6, 0.6, 0.4], "bottom", "top", "center", "brown"),
            part("top", "cylinder", [0.52, 0.52, 0.25], "middle", "top", "center", "brown"),
        ),
    ),
    # devices and appliances
    Archetype(
        "a smartphone lying flat, with a screen and a camera",
        kinds_of("smartphone phone cellphone iphone"),
        plan_of(
            "smartphone",
            part("body", "box", [0.072, 0.15, 0.008], "ground", "top", "center", "black"),
            part("screen", "box", [0.066, 0.14, 0.001], "body", "top", "center", "dark_grey"),
            part("camera", "cylinder", [0.01, 0.01, 0.002], "body", "bottom", "back_left", "grey"),
        ),
    ),
    Archetype(
        "a tablet computer lying flat, with a screen",
        kinds_of("tablet ipad"),
        plan_of(
            "tablet",
            part("body", "box", [0.25, 0.17, 0.007], "ground", "top", "center", "silver"),
            part("screen", "box", [0.23, 0.15, 0.001], "body", "top", "center", "black"),
        ),
    ),
    Archetype(
        "a flat television on a stand",
        kinds_of("television"),
        plan_of(
            "television",
            part("stand", "box", [0.3, 0.2, 0.02], "ground", "top", "center", "black"),
            part("neck", "box", [0.06, 0.04, 0.08], "stand", "top", "center", "black"),
            part("screen", "box", [1.0, 0.06, 0.58], "neck", "top", "center", "black"),
        ),
    ),
    Archetype(
        "a desk fan: a round base, a pole, a motor and a round guard",
        kinds_of("fan"),
        plan_of(
            "desk fan",
            part("base", "cylinder", [0.2, 0.2, 0.03], "ground", "top", "center", "white"),
            part("pole", "cylinder", [0.025, 0.025, 0.3], "base", "top", "center", "white"),
            part("motor", "cylinder", [0.09, 0.09, 0.1], "pole", "top", "center", "white", [90, 0, 0]),
            part("guard", "torus", [0.35, 0.35, 0.02], "motor", "front", "center", "grey", [90, 0, 0]),
            part("hub", "cylinder", [0.05, 0.05, 0.02], "motor", "front", "center", "grey", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a refrigerator with two doors and handles",
        kinds_of("refrigerator fridge freezer"),
        plan_of(
            "refrigerator",
            part("body", "box", [0.7, 0.7, 1.8], "ground", "top", "center", "white"),
            part("freezer_door", "box", [0.7, 0.03, 0.55], "body", "front", "top", "white"),
            part("fridge_door", "box", [0.7, 0.03, 1.23], "body", "front", "bottom", "white"),
            part("handle_top", "box", [0.03, 0.03, 0.3], "freezer_door", "front", "right", "silver"),
            part("handle_bottom", "box", [0.03, 0.03, 0.5], "fridge_door", "front", "right", "silver"),
        ),
    ),
    Archetype(
        "a front-loading washing machine with a round door",
        kinds_of("washer dryer"),
        plan_of(
            "washing machine",
            part("body", "box", [0.6, 0.6, 0.85], "ground", "top", "center", "white"),
            part("door", "torus", [0.34, 0.34, 0.05], "body", "front", "center", "grey", [90, 0, 0]),
            part("glass", "cylinder", [0.28, 0.28, 0.02], "body", "front", "center", "dark_grey", [90, 0, 0]),
            part("panel", "box", [0.6, 0.02, 0.1], "body", "front", "top", "light_grey"),
        ),
    ),
    Archetype(
        "a wristwatch lying flat: a round face and two straps",
        kinds_of("watch wristwatch smartwatch"),
        plan_of(
            "wristwatch",
            part("face", "cylinder", [0.04, 0.04, 0.01], "ground", "top", "center", "silver"),
            part("strap_top", "box", [0.02, 0.08, 0.003], "face", "back", "bottom", "black"),
            part("strap_bottom", "box", [0.02, 0.08, 0.003], "face", "front", "bottom", "black"),
        ),
    ),
    # house and garden
    Archetype(
        "a standing coat rack: a round base, a tall pole and hooks",
        kinds_of("coatrack hatstand"),
        plan_of(
            "coat rack",
            part("base", "cylinder", [0.4, 0.4, 0.03], "ground", "top", "center", "dark_brown"),
            part("pole", "cylinder", [0.04, 0.04, 1.7], "base", "top", "center", "dark_brown"),
            part("hook_left", "cylinder", [0.02, 0.02, 0.15], "pole", "left", "top", "dark_brown", [0, 90, 0]),
            part("hook_right", "cylinder", [0.02, 0.02, 0.15], "pole", "right", "top", "dark_brown", [0, 90, 0]),
            part("hook_front", "cylinder", [0.02, 0.02, 0.15], "pole", "front", "top", "dark_brown", [90, 0, 0]),
            part("hook_back", "cylinder", [0.02, 0.02, 0.15], "pole", "back", "top", "dark_brown", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a standing mirror in a frame",
        kinds_of("mirror"),
        plan_of(
            "mirror",
            part("frame", "box", [0.5, 0.04, 0.8], "ground", "top", "center", "brown"),
            part("glass", "box", [0.44, 0.005, 0.74], "frame", "front", "center", "light_blue"),
        ),
    ),
    Archetype(
        "a door with a knob",
        kinds_of("door"),
        plan_of(
            "door",
            part("slab", "box", [0.9, 0.05, 2.0], "ground", "top", "center", "brown"),
            part("knob", "sphere", [0.06, 0.06, 0.06], "slab", "front", "right", "silver"),
        ),
    ),
    Archetype(
        "a garden fence: three posts and two rails",
        kinds_of("fence railing"),
        plan_of(
            "fence",
            part("rail_bottom", "box", [2.0, 0.04, 0.1], "ground", "top", "center", "light_wood"),
            part("post_left", "box", [0.08, 0.08, 1.0], "rail_bottom", "top", "left", "light_wood"),
            part("post_center", "box", [0.08, 0.08, 1.0], "rail_bottom", "top", "center", "light_wood"),
            part("post_right", "box", [0.08, 0.08, 1.0], "rail_bottom", "top", "right", "light_wood"),
            part("rail_top", "box", [2.0, 0.04, 0.1], "post_center", "top", "center", "light_wood"),
        ),
    ),
    Archetype(
        "a pillow: a soft flat cushion",
        kinds_of("pillow cushion"),
        plan_of(
            "pillow",
            part("pillow", "box", [0.5, 0.35, 0.12], "ground", "top", "center", "white"),
        ),
    ),
    Archetype(
        "a toilet with a bowl, a seat and a tank",
        kinds_of("toilet"),
        plan_of(
            "toilet",
            part("base", "cylinder", [0.25, 0.35, 0.3], "ground", "top", "center", "white"),
            part("bowl", "cylinder", [0.38, 0.5, 0.1], "base", "top", "center", "white"),
            part("seat", "torus", [0.38, 0.48, 0.03], "bowl", "top", "center", "white"),
            part("tank", "box", [0.4, 0.18, 0.35], "bowl", "top", "back", "white"),
        ),
    ),
    # vehicles and other things
    Archetype(
        "a car: a body, a cabin and four wheels",
        kinds_of("car sedan automobile taxi"),
        plan_of(
            "car",
            part("body", "box", [4.2, 1.8, 0.7], "ground", "top", "center", "red"),
            part("cabin", "box", [2.2, 1.6, 0.55], "body", "top", "center", "light_blue"),
            part("wheel_front_left", "cylinder", [0.65, 0.65, 0.22], "body", "bottom", "front_left", "black", [0, 90, 0]),
            part("wheel_front_right", "cylinder", [0.65, 0.65, 0.22], "body", "bottom", "front_right", "black", [0, 90, 0]),
            part("wheel_back_left", "cylinder", [0.65, 0.65, 0.22], "body", "bottom", "back_left", "black", [0, 90, 0]),
            part("wheel_back_right", "cylinder", [0.65, 0.65, 0.22], "body", "bottom", "back_right", "black", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a truck: a cab, a cargo box and four wheels",
        kinds_of("truck lorry pickup"),
        plan_of(
            "truck",
            part("chassis", "box", [2.4, 6.0, 0.4], "ground", "top", "center", "dark_grey"),
            part("cab", "box", [2.4, 1.8, 1.6], "chassis", "top", "front", "red"),
            part("cargo", "box", [2.4, 4.0, 2.2], "chassis", "top", "back", "white"),
            part("wheel_front_left", "cylinder", [1.0, 1.0, 0.3], "chassis", "bottom", "front_left", "black", [0, 90, 0]),
            part("wheel_front_right", "cylinder", [1.0, 1.0, 0.3], "chassis", "bottom", "front_right", "black", [0, 90, 0]),
            part("wheel_back_left", "cylinder", [1.0, 1.0, 0.3], "chassis", "bottom", "back_left", "black", [0, 90, 0]),
            part("wheel_back_right", "cylinder", [1.0, 1.0, 0.3], "chassis", "bottom", "back_right", "black", [0, 90, 0]),
        ),
    ),
    Archetype(
        "a sword: a blade, a cross guard, a grip and a pommel",
        kinds_of("sword sabre saber katana"),
        plan_of(
            "sword",
            part("pommel", "sphere", [0.04, 0.04, 0.04], "ground", "top", "center", "gold"),
            part("grip", "cylinder", [0.03, 0.03, 0.15], "pommel", "top", "center", "dark_brown"),
            part("guard", "box", [0.2, 0.03, 0.03], "grip", "top", "center", "gold"),
            part("blade", "box", [0.05, 0.01, 0.8], "guard", "top", "center", "silver"),
        ),
    ),
    Archetype(
        "a crown: a band with four points",
        kinds_of("crown tiara diadem"),
        plan_of(
            "crown",
            part("band", "cylinder", [0.2, 0.2, 0.06], "ground", "top", "center", "gold"),
            part("point_front", "cone", [0.04, 0.04, 0.06], "band", "top", "front", "gold"),
            part("point_back", "cone", [0.04, 0.04, 0.06], "band", "top", "back", "gold"),
            part("point_left", "cone", [0.04, 0.04, 0.06], "band", "top", "left", "gold"),
            part("point_right", "cone", [0.04, 0.04, 0.06], "band", "top", "right", "gold"),
        ),
    ),
    Archetype(
        "a sandwich: square slices of bread with fillings between",
        kinds_of("sandwich panini toastie"),
        plan_of(
            "sandwich",
            part("bread_bottom", "box", [0.12, 0.12, 0.015], "ground", "top", "center", "tan"),
            part("lettuce", "box", [0.125, 0.125, 0.006], "bread_bottom", "top", "center", "light_green"),
            part("ham", "box", [0.115, 0.115, 0.008], "lettuce", "top", "center", "pink"),
            part("cheese", "box", [0.12, 0.12, 0.004], "ham", "top", "center", "yellow"),
            part("bread_top", "box", [0.12, 0.12, 0.015], "cheese", "top", "center", "tan"),
        ),
    ),
)
