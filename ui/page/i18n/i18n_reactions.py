"""The words of quick reactions (docs/protocol.md "Quick reactions"): the set phrases a player
may send (ui/shared/reactions.py PHRASES, `react_<key>`), the picker and the menu's switch
(EN, then ES; looked up through ui/page/i18n/i18n.py)."""

EN = {
    "react_thumb": "Thumbs up",
    "react_laugh": "Laughing",
    "react_wow": "Wow",
    "react_grimace": "Oops",
    "react_nice": "Nice!",
    "react_hurry": "Hurry up!",
    "react_crisp": "Crisp?!",
    "react_gg": "Good game!",
    "react_open": "Send a reaction",
    "react_close": "Close the reactions",
    "reactions_on": "Reactions on",
    "reactions_off": "Reactions off",
    "err_too_many_reactions": "Easy there: one reaction a second.",
}

ES = {
    "react_thumb": "Pulgar arriba",
    "react_laugh": "Risa",
    "react_wow": "Hala",
    "react_grimace": "Uy",
    "react_nice": "\u00a1Bien!",
    "react_hurry": "\u00a1Date prisa!",
    "react_crisp": "\u00bfCrisp?!",
    "react_gg": "\u00a1Buena partida!",
    "react_open": "Enviar una reacci\u00f3n",
    "react_close": "Cerrar las reacciones",
    "reactions_on": "Reacciones activadas",
    "reactions_off": "Reacciones desactivadas",
    "err_too_many_reactions": "Con calma: una reacci\u00f3n por segundo.",
}
