"""The rules of Crisp in player words (EN, then ES): the landing's "How to play" and the
menu's, in the order ui/page/screens/rules.py shows them. Each text restates docs/rules.md (the rule
numbers beside it); part of the catalogue that ui/page/i18n/i18n.py joins.
"""

EN = {
    "rules_goal_h": "The aim",
    # R1.1, R8.2
    "rules_goal": "Keep your total low. You have three face-down cards: left, center and right. "
                  "When the game ends, the lowest total wins.",
    "rules_values_h": "What the cards are worth",
    # R1.3, R1.4
    "rules_values": "Ace 1; 2 to 9 their number; 10, Jack, Queen and King 10 each (a Jack, Queen "
                    "or King in your hand came from the deal or a Queen).",
    "rules_deal_h": "The deal and your one look",
    # R2.1, R2.2, R2.4, R2.5
    "rules_deal": "Each round everyone gets three cards. Before play you see your left and right "
                  "cards once: remember them, they turn face down when you tap Ready. Your center "
                  "card stays unseen: only a Jack lets you look at it. The player on the "
                  "dealer\u2019s left starts; the dealer moves one seat each round.",
    "rules_turn_h": "Your turn",
    # R3.1, R3.2, R4.1, R4.2, R4.3
    "rules_turn": "Draw the top card of the deck: only you see it. Swap it for one of your "
                  "cards (the one you give up goes face up on the discard pile), or discard it. "
                  "A Jack, Queen or King you draw never goes into your hand: a Jack or a Queen "
                  "you may use or discard; a King you must use.",
    "rules_specials_h": "Jack, Queen and King",
    # R4.4
    "rules_jack": "Jack: look once at your own center card.",
    # R4.5, R4.5.1, R4.5.2, R4.5.3, R4.5.4
    "rules_queen": "Queen: swap one of your cards for any card of another player (the caller's "
                   "too), unseen; each lands where the other was. On your left or right you see "
                   "it once; in your center you don\u2019t. The other player sees the card they "
                   "get once too, unless it lands in their center.",
    # R4.6
    "rules_king": "King: two extra draws, each one played like a normal draw. A King drawn on an "
                  "extra draw adds two more.",
    # R9.1, R9.2
    "rules_memory": "Once means once: a card you looked at turns face down again, so remember "
                    "it. The discard pile is face up for everyone.",
    # R5.1
    "rules_deck": "When the deck runs out, the discard pile is turned over, without shuffling, as "
                  "the new deck.",
    "rules_crisp_h": "Calling crisp",
    # R6.1, R6.2, R6.3, R10.1
    "rules_crisp": "Think your total is the lowest? When your turn ends you have 3 seconds to "
                   "tap Crisp!, even if the next player has started. Everyone else then plays "
                   "one last turn and all hands are shown. One call per round.",
    "rules_score_h": "Points",
    # R7.1, R7.2, R7.3, R7.4
    "rules_score": "Each player scores their three cards. A caller with the lowest total, "
                   "nobody tying it, takes 5 points off (even below zero); otherwise, a tie "
                   "included, the caller gets 5 points more. Points add up round to round.",
    # R8.1, R8.2
    "rules_end": "The game ends after the round in which someone reaches or passes the target "
                 "(100, or 50 or 150 if the host chose so). The lowest total wins; ties share "
                 "the win.",
    "rules_options_h": "If the host turns them on",
    "rules_pic_h": "Your three cards",
    "rules_pic_left": "Left: seen once",
    "rules_pic_center": "Center: unseen (a Jack shows it)",
    "rules_pic_right": "Right: seen once",
    "rules_legend_h": "Beside a name at the table:",
    # R10.2
    "rules_timer": "Time per draw (30, 45 or 60 s): when it runs out your turn ends, the card "
                   "you hold (or one drawn for you) is discarded, and you cannot call crisp.",
    # R10.3
    "rules_discard": "Drawing from the discard: take the top card of the discard pile instead of "
                     "the deck\u2019s. You must swap it into your hand, and a Jack, Queen or King "
                     "taken this way is a plain 10.",
}

ES = {
    "rules_goal_h": "El objetivo",
    "rules_goal": "Sumar lo menos posible. Tienes tres cartas boca abajo: izquierda, centro y "
                  "derecha. Al acabar la partida gana quien menos puntos tenga.",
    "rules_values_h": "Lo que vale cada carta",
    "rules_values": "El as vale 1; del 2 al 9, su n\u00famero; el 10, la Jota, la Reina y el Rey, "
                    "10 cada uno (una Jota, Reina o Rey en tu mano vino del reparto o de una "
                    "Reina).",
    "rules_deal_h": "El reparto y tu \u00fanico vistazo",
    "rules_deal": "En cada ronda cada jugador recibe tres cartas. Antes de jugar ves una vez tus "
                  "cartas de la izquierda y la derecha: recu\u00e9rdalas, se tapan al pulsar "
                  "Listo. Tu carta del centro no la ves: solo una Jota te deja mirarla. Empieza "
                  "quien est\u00e1 a la izquierda de quien reparte, que cambia cada ronda al "
                  "siguiente sitio.",
    "rules_turn_h": "Tu turno",
    "rules_turn": "Roba la carta de arriba del mazo: solo la ves t\u00fa. C\u00e1mbiala por una "
                  "de tus cartas (la que sueltas va boca arriba al descarte) o desc\u00e1rtala. "
                  "Una Jota, una Reina o un Rey robados nunca entran en tu mano: la Jota y la "
                  "Reina puedes usarlas o descartarlas; el Rey hay que usarlo.",
    "rules_specials_h": "Jota, Reina y Rey",
    "rules_jack": "Jota: miras una vez tu carta del centro.",
    "rules_queen": "Reina: cambias una de tus cartas por cualquier carta de otro jugador "
                   "(tambi\u00e9n de quien cant\u00f3 crisp), sin verlas; cada una queda en el "
                   "sitio de la otra. Si la tuya nueva queda a la izquierda o a la derecha, la "
                   "ves una vez; en el centro, no. La otra persona tambi\u00e9n ve una vez la que "
                   "recibe, salvo que le quede en el centro.",
    "rules_king": "Rey: dos robos extra, cada uno como un robo normal. Un Rey robado en un robo "
                  "extra suma otros dos.",
    "rules_memory": "Una vez es una vez: la carta que has mirado se vuelve a tapar: "
                    "recu\u00e9rdala. El descarte est\u00e1 boca arriba para todos.",
    "rules_deck": "Si se acaba el mazo, el descarte se vuelve boca abajo, sin barajar, y es el "
                  "mazo nuevo.",
    "rules_crisp_h": "Cantar crisp",
    "rules_crisp": "\u00bfCrees que sumas menos que nadie? Al acabar tu turno tienes 3 "
                   "segundos para pulsar \u00a1Crisp!, aunque el siguiente ya haya empezado. "
                   "Los dem\u00e1s juegan un \u00faltimo turno y se ense\u00f1an todas las "
                   "manos. Se canta una vez por ronda.",
    "rules_score_h": "Los puntos",
    "rules_score": "Cada jugador suma el valor de sus tres cartas. Si quien canta tiene menos que "
                   "nadie y sin empate, resta 5 puntos (aunque quede por debajo de cero). Si no, "
                   "tambi\u00e9n con empate, suma 5. Los puntos se acumulan de ronda en ronda.",
    "rules_end": "La partida acaba al terminar la ronda en la que alguien llega al objetivo o lo pasa (100, "
                 "o 50 o 150 si quien organiza lo elige). Gana quien menos tenga; si hay "
                 "empate, comparten la victoria.",
    "rules_options_h": "Si quien organiza las activa",
    "rules_pic_h": "Tus tres cartas",
    "rules_pic_left": "Izquierda: la ves una vez",
    "rules_pic_center": "Centro: no la ves (una Jota te la ense\u00f1a)",
    "rules_pic_right": "Derecha: la ves una vez",
    "rules_legend_h": "Junto a un nombre en la mesa:",
    "rules_timer": "Tiempo por robo (30, 45 o 60 s): si se te acaba, se acaba tu turno, se "
                   "descarta la carta que tienes (o una robada por ti) y no puedes cantar crisp.",
    "rules_discard": "Robar del descarte: coges la carta de arriba del descarte en vez de la del "
                     "mazo. Tienes que cambiarla por una de tus cartas, y una Jota, una Reina o un "
                     "Rey cogidos as\u00ed valen 10 sin m\u00e1s.",
}
