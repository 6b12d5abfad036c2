"""How the map's shapes look: the terrain each legend name stands for, and the styles and
patterns that draw them, in colour and in black and white.

The sea is the white paper with the grid on it; land, shallows, fog and the start zones are
patterns (hatching, dots, dashes, crosses) that read in black and white as in colour, each
side's start zone its own pattern and outline. The map sheet paints with them (`paint`),
the briefing's overview writes them as SVG.
"""

from __future__ import annotations

from typing import Any

# terrain names (the values of the map legend) and how each is drawn
TERRAIN = {
    "sea": "sea",
    "land": "land",
    "island": "land",
    "coast": "land",
    "fog": "fog",
    "shallows": "shallows",
    "shoal": "shallows",
}

# How each style of shape is drawn: "fill" a colour, "none" or "pattern:NAME" (PATTERNS),
# "stroke" and "width" (mm) and "dash" (mm) for lines. The sea is the paper.
STYLES: dict[str, dict[str, dict[str, Any]]] = {
    "colour": {
        "sea": {"fill": "none"},
        "land": {"fill": "pattern:land"},
        "fog": {"fill": "pattern:fog"},
        "shallows": {"fill": "pattern:shallows"},
        "other": {"fill": "pattern:other"},
        "landedge": {"stroke": "#6e5b32", "width": 0.45},
        "fogedge": {"stroke": "#6f7b8b", "width": 0.3, "dash": (1.2, 0.8)},
        "shallowsedge": {"stroke": "#a08638", "width": 0.3, "dash": (0.4, 0.7)},
        "otheredge": {"stroke": "#555555", "width": 0.35},
        "gridline": {"stroke": "#8ea6b4", "width": 0.25},
        "hexline": {"stroke": "#8ea6b4", "width": 0.25},
        "border": {"stroke": "#1d1b16", "width": 0.5},
        "zone0": {"fill": "pattern:zone0"},
        "zone1": {"fill": "pattern:zone1"},
        "start0": {"fill": "pattern:zone0"},
        "start1": {"fill": "pattern:zone1"},
        "zoneline0": {"stroke": "#7a2a18", "width": 0.7},
        "zoneline1": {"stroke": "#1f4e79", "width": 0.7, "dash": (2.2, 1.2)},
        "deploy0": {"fill": "pattern:zone0"},
        "deploy1": {"fill": "pattern:zone1"},
        "text": {"fill": "#1d1b16"},
        "text0": {"fill": "#7a2a18"},
        "text1": {"fill": "#1f4e79"},
        # the coordinates: faint beside the ink, yet 4.9:1 on the white paper and on their
        # white backing (WCAG asks 4.5:1 of small text)
        "coord": {"fill": "#5f7380"},
        "exit": {"stroke": "#1d1b16", "width": 0.9},
        "arrow": {"fill": "#1d1b16"},
        "cut": {"stroke": "#1d1b16", "width": 0.3},
        "fold": {"stroke": "#1d1b16", "width": 0.3, "dash": (1.5, 1.0)},
        "mark": {"stroke": "#1d1b16", "width": 0.25},
        "planline": {"stroke": "#b9cbd6", "width": 0.2},
        "rose": {"stroke": "#1d1b16", "width": 0.3},
        "arrowline": {"stroke": "#1d1b16", "width": 0.7},
    },
    "mono": {
        "sea": {"fill": "none"},
        "land": {"fill": "pattern:land"},
        "fog": {"fill": "pattern:fog"},
        "shallows": {"fill": "pattern:shallows"},
        "other": {"fill": "pattern:other"},
        "landedge": {"stroke": "#000000", "width": 0.45},
        "fogedge": {"stroke": "#000000", "width": 0.25, "dash": (1.2, 0.8)},
        "shallowsedge": {"stroke": "#000000", "width": 0.25, "dash": (0.4, 0.7)},
        "otheredge": {"stroke": "#000000", "width": 0.35},
        "gridline": {"stroke": "#000000", "width": 0.15},
        "hexline": {"stroke": "#000000", "width": 0.15},
        "border": {"stroke": "#000000", "width": 0.5},
        "zone0": {"fill": "pattern:zone0"},
        "zone1": {"fill": "pattern:zone1"},
        "start0": {"fill": "pattern:zone0"},
        "start1": {"fill": "pattern:zone1"},
        "zoneline0": {"stroke": "#000000", "width": 0.7},
        "zoneline1": {"stroke": "#000000", "width": 0.7, "dash": (2.2, 1.2)},
        "deploy0": {"fill": "pattern:zone0"},
        "deploy1": {"fill": "pattern:zone1"},
        "text": {"fill": "#000000"},
        "text0": {"fill": "#000000"},
        "text1": {"fill": "#000000"},
        # black and white has no grey: the coordinates print as hairline outlines
        "coord": {"fill": "#000000", "outline": 0.1},
        "exit": {"stroke": "#000000", "width": 0.9},
        "arrow": {"fill": "#000000"},
        "cut": {"stroke": "#000000", "width": 0.3},
        "fold": {"stroke": "#000000", "width": 0.3, "dash": (1.5, 1.0)},
        "mark": {"stroke": "#000000", "width": 0.25},
        "planline": {"stroke": "#000000", "width": 0.12, "dash": (0.4, 1.2)},
        "rose": {"stroke": "#000000", "width": 0.3},
        "arrowline": {"stroke": "#000000", "width": 0.7},
    },
}

# The patterns: a ground (None: the paper shows through) and ink drawn as `kind`:
# hatch (lines `step` mm apart, turned `angle` degrees clockwise from upright; dotted, a dot
# every `dots` mm, where it has `dots`), cross (two hatches at right angles), dots (`width`
# across, two a `step` square), dashes (rows `step`/2 apart, dashes `dash` long every 2
# `step`) or plus (crosses `arm` mm long, `step` apart).
# Land, shallows and fog each have their own; each side's start zone too, sparse, so that
# a zone reads as a zone and not as terrain: dotted upright lines (never solid ones, which
# would read as more grid lines) and crosses, never a diagonal hatch like the land's (in
# black and white, the strokes' shape and direction are all that tell them apart).
PATTERNS: dict[str, dict[str, dict[str, Any]]] = {
    "colour": {
        "land": {"ground": "#e9dcb4", "ink": "#8f7a4c", "kind": "hatch", "angle": 45,
                 "step": 1.3, "width": 0.3},
        "fog": {"ground": "#eceef1", "ink": "#6f7b8b", "kind": "dashes", "step": 1.6,
                "dash": 1.7, "width": 0.3},
        "shallows": {"ground": "#f5edcf", "ink": "#a08638", "kind": "dots", "step": 1.8,
                     "width": 0.6},
        "other": {"ground": "#ececec", "ink": "#555555", "kind": "cross", "angle": 45,
                  "step": 2.0, "width": 0.25},
        "zone0": {"ground": None, "ink": "#7a2a18", "kind": "hatch", "angle": 0,
                  "step": 3.0, "width": 0.3, "dots": 0.8},
        "zone1": {"ground": None, "ink": "#1f4e79", "kind": "plus", "step": 6.0,
                  "arm": 1.4, "width": 0.22},
    },
    "mono": {
        "land": {"ground": "#ffffff", "ink": "#000000", "kind": "hatch", "angle": 45,
                 "step": 1.3, "width": 0.25},
        "fog": {"ground": "#ffffff", "ink": "#000000", "kind": "dashes", "step": 1.6,
                "dash": 1.7, "width": 0.25},
        "shallows": {"ground": "#ffffff", "ink": "#000000", "kind": "dots", "step": 1.8,
                     "width": 0.55},
        "other": {"ground": "#ffffff", "ink": "#000000", "kind": "cross", "angle": 45,
                  "step": 2.0, "width": 0.2},
        "zone0": {"ground": None, "ink": "#000000", "kind": "hatch", "angle": 0,
                  "step": 3.0, "width": 0.3, "dots": 0.8},
        "zone1": {"ground": None, "ink": "#000000", "kind": "plus", "step": 6.0,
                  "arm": 1.4, "width": 0.18},
    },
}  # fmt: skip
