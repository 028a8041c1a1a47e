"""The words of the guided first round: the landing's offer and one hint per step
(ui/page/guided.py STEPS: "guide_" + step). EN, then ES; looked up through ui/page/i18n/i18n.py.
"""

EN = {
    "guided_title": "New to Crisp?",
    "guided_offer": "Play a first round against two bots, with a tip at every step. "
                    "About three minutes.",
    "guided_play": "Play a guided round",
    "guided_no": "No thanks",
    "guided_name": "You",
    "guide_label": "Tip",
    "guide_skip": "Skip the tips",
    "guide_done": "Got it",
    "guide_peek": "Lowest total wins. Look at your left and right cards and remember them: "
                  "they will be hidden again. Your center card stays unseen: only a Jack shows it.",
    "guide_wait": "The others are playing. Watch what they throw away: "
                  "it tells you what they had.",
    "guide_soon": "Your turn comes in a moment: the one before may still call crisp. "
                  "When the deck lights up, draw a card.",
    "guide_draw": "Your turn! Every turn starts by drawing a card from the deck. "
                  "Only you see it.",
    "guide_extra_draw": "The King gives you more draws: draw again and keep or throw away "
                        "each card.",
    "guide_swap": "Low cards are good: an Ace is 1, a 10 is 10. Swap this card for one of "
                  "yours that is higher (it goes face up onto the discard pile), or "
                  "discard it if it is high.",
    "guide_jack": "A Jack! Use it to look once at your center card, the one nobody has seen.",
    "guide_queen": "A Queen! Use it to exchange one of your cards with another player's "
                   "card, face down. Give away a high card.",
    "guide_queen_own": "First tap the card of yours to give away: the one you know is high "
                       "is a good choice.",
    "guide_queen_target": "Now tap a card of another player: you take it. If it lands on "
                          "your left or right you see it once.",
    "guide_king": "A King! Use it: you get two extra draws this turn.",
    "guide_crisp": "Your turn is over. Call crisp? Do it if you think your total is the "
                   "lowest: if it is, 5 points off; if not, 5 more. The others wait for you. "
                   "Not yet? Tap Play on.",
    "guide_read": "Play on",
    "guide_missed": "The crisp window has closed: nobody called, so the round goes on. "
                    "Watch what the others throw away; after your next turn you may call "
                    "again.",
    "guide_called": "You called crisp! The others each play one last turn, then every "
                    "card is shown.",
    "guide_last_turns": "Someone called crisp: this is the last turn of the round. "
                        "Then every card is shown.",
    "guide_reveal": "All cards are shown. Each player scores the total of their cards. Whoever "
                    "called crisp gets 5 points off if they have the lowest total, 5 more "
                    "if not. Lowest score at the end of the game wins. You know how to play!",
}

ES = {
    "guided_title": "\u00bfEs tu primera vez?",
    "guided_offer": "Juega una primera ronda contra dos bots, con un consejo en cada paso. "
                    "Unos tres minutos.",
    "guided_play": "Jugar una ronda guiada",
    "guided_no": "No, gracias",
    "guided_name": "T\u00fa",
    "guide_label": "Consejo",
    "guide_skip": "Saltar los consejos",
    "guide_done": "Entendido",
    "guide_peek": "Gana quien menos sume. Mira tus cartas de la izquierda y la derecha y "
                  "recu\u00e9rdalas: se van a tapar otra vez. Tu carta del centro no la ves: "
                  "solo una Jota te la ense\u00f1a.",
    "guide_wait": "Ahora juegan los dem\u00e1s. F\u00edjate en lo que tiran: te dice lo "
                  "que ten\u00edan.",
    "guide_soon": "Te toca en un momento: quien acaba de jugar a\u00fan puede cantar "
                  "crisp. Cuando el mazo se ilumine, roba una carta.",
    "guide_draw": "\u00a1Te toca! Cada turno empieza robando una carta del mazo. "
                  "Solo la ves t\u00fa.",
    "guide_extra_draw": "El Rey te da m\u00e1s robos: roba otra vez y qu\u00e9date o tira "
                        "cada carta.",
    "guide_swap": "Las cartas bajas son buenas: el As vale 1, el 10 vale 10. Cambia esta "
                  "carta por una tuya m\u00e1s alta (esa va boca arriba al descarte), o "
                  "desc\u00e1rtala si es alta.",
    "guide_jack": "\u00a1Una Jota! \u00dasala para mirar una vez tu carta del centro, la que "
                  "nadie ha visto.",
    "guide_queen": "\u00a1Una Reina! \u00dasala para cambiar una de tus cartas por una de "
                   "otro jugador, boca abajo. Dale una carta alta.",
    "guide_queen_own": "Primero toca la carta tuya que vas a dar: la que sabes que es alta "
                       "es buena idea.",
    "guide_queen_target": "Ahora toca una carta de otro jugador: te la llevas. Si queda a tu "
                          "izquierda o a tu derecha, la ves una vez.",
    "guide_king": "\u00a1Un Rey! \u00dasalo: este turno robas dos veces m\u00e1s.",
    "guide_crisp": "Tu turno ha terminado. \u00bfCantas crisp? Hazlo si crees que sumas "
                   "menos que nadie: si es as\u00ed, restas 5 puntos; si no, sumas 5. Los "
                   "dem\u00e1s te esperan. \u00bfA\u00fan no? Pulsa Seguir.",
    "guide_read": "Seguir",
    "guide_missed": "Se ha cerrado el momento de cantar crisp: nadie ha cantado y la ronda "
                    "sigue. F\u00edjate en lo que tiran los dem\u00e1s; al acabar tu "
                    "pr\u00f3ximo turno podr\u00e1s cantar otra vez.",
    "guide_called": "\u00a1Has cantado crisp! Los dem\u00e1s juegan un \u00faltimo turno y "
                    "luego se ven todas las cartas.",
    "guide_last_turns": "Alguien ha cantado crisp: es el \u00faltimo turno de la ronda. "
                        "Luego se ven todas las cartas.",
    "guide_reveal": "Se ven todas las cartas. Cada uno suma sus cartas. Quien ha "
                    "cantado crisp resta 5 si tiene la suma m\u00e1s baja, y suma 5 si no. Al final "
                    "de la partida gana quien tenga menos puntos. \u00a1Ya sabes jugar!",
}
