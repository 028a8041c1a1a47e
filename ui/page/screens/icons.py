"""The page's icons, drawn as inline SVG (vdom `svg` nodes), never as emoji or symbol
characters: a phone or a desktop without an emoji or symbol font showed those as empty boxes.

Each icon is a 24 x 24 drawing in the text's colour (`currentColor`) and 1em square (CSS
`.icon`), hidden from screen readers: the control or badge that holds it carries the name
(aria-label, title or its own words). Shapes use presentation attributes only (fill, stroke,
d): the page's CSP allows no style attribute. Pure: runs on MicroPython, Pyodide and CPython.
"""

from ui.page.dom.vdom import svg

# name -> [(tag, attrs)]: filled shapes unless they say stroke
_LINE = {"fill": "none", "stroke": "currentColor", "stroke-width": "2.2",
         "stroke-linecap": "round", "stroke-linejoin": "round"}


def _line(d, width=None):
    a = dict(_LINE)
    a["d"] = d
    if width:
        a["stroke-width"] = width
    return ("path", a)


def _fill(d, evenodd=False):
    a = {"d": d}
    if evenodd:
        a["fill-rule"] = "evenodd"
    return ("path", a)


SPEAKER = "M3 9.5h4l5.5-4.5v14L7 14.5H3z"


def _outline(tag, attrs):
    """A shape `tag` drawn as a line (`_LINE`) with its own `attrs`."""
    a = dict(_LINE)
    a.update(attrs)
    return (tag, a)


FACE = _outline("circle", {"cx": "12", "cy": "12", "r": "9.6", "stroke-width": "2"})
EYES = _fill("M7.4 9.5a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0zM13.6 9.5a1.5 1.5 0 1 0 3 0"
             "a1.5 1.5 0 1 0-3 0z")

SHAPES = {
    # the game's mark in the top bar
    "spade": [_fill("M12 2.5C9.5 6.5 4 9.5 4 13.6 4 16 5.8 17.8 8 17.8c1.3 0 2.4-.5 3.1-1.4"
                    "L10 21.5h4l-1.1-5.1c.7.9 1.8 1.4 3.1 1.4 2.2 0 4-1.8 4-4.2 "
                    "0-4.1-5.5-7.1-8-11.1z")],
    "menu": [_fill("M3 5h18v2.6H3zM3 10.7h18v2.6H3zM3 16.4h18V19H3z")],
    "sound-on": [_fill(SPEAKER), _line("M15.5 9a4.5 4.5 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11")],
    "sound-off": [_fill(SPEAKER), _line("M16 9.5l5 5M21 9.5l-5 5")],
    # a card's back: the dealer
    "dealer": [("rect", {"x": "5.5", "y": "2.5", "width": "13", "height": "19", "rx": "2",
                         "fill": "none", "stroke": "currentColor", "stroke-width": "2"}),
               ("rect", {"x": "8.5", "y": "5.5", "width": "7", "height": "13", "rx": "1"})],
    # a robot's head: a bot
    "bot": [_fill("M11 1.5h2v4.5h-2zM5 6h14a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8"
                  "a2 2 0 0 1 2-2zM7.5 10h3v3h-3zM13.5 10h3v3h-3zM8.5 15.5h7V17h-7z", True)],
    # a megaphone: the seat that called crisp
    "caller": [_fill("M2.5 9.5v5h3.5l10.5 5.5V4L6 9.5zM6.5 15.5l1.6 5h3.1l-1.5-4.2z"
                     "M18.5 9h2.5v6h-2.5z")],
    "check": [_line("M4.5 12.5l5 5L19.5 7", "3")],
    "warning": [_fill("M12 2.5L1.5 21h21zM11 9h2v6.5h-2zM11 17h2v2h-2z", True)],
    "chevron-down": [_line("M6 9l6 6 6-6", "2.6")],
    "chevron-up": [_line("M6 15l6-6 6 6", "2.6")],
    "star": [_fill("M12 2.5l2.9 6.2 6.6.8-4.9 4.6 1.3 6.6-5.9-3.3-5.9 3.3 1.3-6.6-4.9-4.6 "
                   "6.6-.8z")],
    # a crown: the room's host
    "host": [_fill("M3 7.5l4.8 4.3L12 4.5l4.2 7.3L21 7.5l-2 10H5zM5 19h14v2H5z")],
    # quick reactions (ui/shared/reactions.py ICONS): a thumb up, and three faces
    "react-thumb": [_fill("M2.5 10h4v10.5h-4zM8 10.5l4.2-7.6c1.6 0 2.7 1.3 2.3 2.9L13.7 9h5.6"
                          "a2 2 0 0 1 2 2.4l-1.4 7.4a2 2 0 0 1-2 1.7H8z")],
    "react-laugh": [FACE, _line("M6.8 10.2l1.9-1.8 1.9 1.8M13.4 10.2l1.9-1.8 1.9 1.8"),
                    _fill("M6.8 13.2h10.4a5.2 5.2 0 0 1-10.4 0z")],
    "react-wow": [FACE, EYES, ("circle", {"cx": "12", "cy": "16", "r": "2.6"})],
    "react-grimace": [FACE, EYES, _outline("rect", {"x": "6.8", "y": "13.2", "width": "10.4",
                                                    "height": "4.8", "rx": "1.6"}),
                      _line("M10.3 13.2v4.8M13.7 13.2v4.8M6.8 15.6h10.4", "1.6")],
    # an arrow coming round: the last move
    "last-move": [_line("M19.5 12a7.5 7.5 0 1 1-2.2-5.3"), _fill("M21 3.5v7h-7z")],
}


def icon(name, cls=None):
    """The icon `name` (a key of SHAPES) as an <svg> node, aria-hidden, with the classes
    "icon icon-<name>" and `cls`. Raises KeyError for an unknown name (a bug, not input)."""
    kids = [svg(tag, dict(attrs)) for tag, attrs in SHAPES[name]]
    return svg("svg", {"class": "icon icon-" + name + (" " + cls if cls else ""),
                       "viewBox": "0 0 24 24", "fill": "currentColor", "aria-hidden": "true",
                       "focusable": "false"}, kids)


def medal(rank):
    """A podium's medal for place 1, 2 or 3: a ribbon and a disc with the place's digit
    (digits are in every font); coloured by CSS (.medal-1 gold, .medal-2 silver, .medal-3
    bronze). aria-hidden: the podium step says the place."""
    return svg("svg", {"class": "icon medal medal-" + str(rank), "viewBox": "0 0 24 24",
                       "aria-hidden": "true", "focusable": "false"},
               svg("path", {"class": "ribbon", "d": "M6 1.5h4.5l2.5 7h-4.5zM13.5 1.5H18l-2.5 7"
                                                     "h-4.5z"}),
               svg("circle", {"class": "disc", "cx": "12", "cy": "15", "r": "7"}),
               svg("text", {"class": "digit", "x": "12", "y": "18.6", "text-anchor": "middle",
                            "font-size": "10", "font-weight": "700"}, str(rank)))
