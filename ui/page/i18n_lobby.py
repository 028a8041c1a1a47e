"""The texts of the landing, joining and the lobby, in English and Spanish.

A part of the catalogue that ui/page/i18n.py puts together and looks texts up in
(``i18n.t``): screens never import this module. Same keys in both languages, same
``{placeholders}`` (tests/test_render_model.py); names go into text nodes, never HTML.
"""

EN = {
    "app_name": "Crisp",
    "page_title": "Crisp \u00b7 a card game of memory and bluff",
    "tagline": "A card game of memory and bluff. Keep your total low, remember your cards, "
               "and call crisp when you think you're lowest.",
    "seat_n": "Player {n}",
    # landing / join
    "your_name": "Your name",
    "name_needed": "Enter your name to play",
    "name_placeholder": "e.g. Ana",
    "with_friends": "Play with friends",
    "with_friends_hint": "Create a room and share its link: 2 to 8 players, each on their phone.",
    "create_room": "Create a room",
    "solo": "Play against bots",
    "bots": "Bots",
    "level": "Level",
    "level_easy": "Easy",
    "level_hard": "Hard",
    "play_solo": "Play solo",
    "resume_title": "Your game in progress",
    "resume_hint": "Room with {names}.",
    "resume_room": "Resume the game",
    "abandon_room": "Abandon it",
    "how_to_play": "How to play",
    "rules_1": "You have three face-down cards: left, center and right. At the start you may look "
               "at your left and right cards once. Remember them!",
    "rules_2": "On your turn draw a card, then swap it with one of yours or discard it. "
               "Aces count 1, 2\u20139 their value, 10 and face cards 10.",
    "rules_3": "Drawn specials: Jack, look at your center card; Queen, blindly exchange one of "
               "your cards with another player's; King, two extra draws.",
    "rules_4": "After your turn you may call crisp: everyone else plays one last turn. Lowest "
               "caller gets \u22125, otherwise +5. The game ends at the target score; lowest wins.",
    "invited": "You're invited to a game of Crisp",
    "join_room": "Join the room",
    "busy_joining": "Joining\u2026",
    # lobby
    "invite": "Invite your friends",
    "invite_hint": "Send them this link, or let them scan the code; they join from their own phone.",
    "copy_link": "Copy link",
    "qr_label": "QR code of the room link: scan it with a phone to join",
    "copied": "Copied!",
    "share_link": "Share\u2026",
    "players_n": "Players ({n}/{max})",
    "badge_host": "host",
    "badge_bot": "bot",
    "badge_bot_easy": "bot \u00b7 easy",
    "badge_bot_hard": "bot \u00b7 hard",
    "badge_you": "you",
    "badge_crisp": "crisp!",
    "connected": "connected",
    "disconnected": "disconnected",
    "add_bot": "Add a bot",
    "remove_bot": "Remove",
    "stand_in": "Let a bot play",
    "options": "Options",
    "opt_target": "Game ends at",
    "opt_draw_seconds": "Time per draw",
    "opt_draw_from_discard": "Allow drawing from the discard",
    "no_timer": "No limit",
    "n_seconds": "{n} s",
    "options_readonly": "The host chooses the options.",
    "start_game": "Start the game",
    "need_two": "You need at least 2 players: invite someone or add a bot.",
    "wait_host": "Waiting for {name} to start the game",
}

ES = {
    "app_name": "Crisp",
    "page_title": "Crisp \u00b7 un juego de cartas de memoria y farol",
    "tagline": "Un juego de cartas de memoria y farol. Suma poco, recuerda tus cartas "
               "y canta crisp cuando creas que tienes menos que nadie.",
    "seat_n": "Jugador {n}",
    # landing / join
    "your_name": "Tu nombre",
    "name_needed": "Escribe tu nombre para jugar",
    "name_placeholder": "p. ej. Ana",
    "with_friends": "Jugar con amigos",
    "with_friends_hint": "Crea una sala y comparte el enlace: de 2 a 8 jugadores, cada uno con su m\u00f3vil.",
    "create_room": "Crear una sala",
    "solo": "Jugar contra bots",
    "bots": "Bots",
    "level": "Nivel",
    "level_easy": "F\u00e1cil",
    "level_hard": "Dif\u00edcil",
    "play_solo": "Jugar solo",
    "resume_title": "Tu partida en curso",
    "resume_hint": "Sala con {names}.",
    "resume_room": "Seguir la partida",
    "abandon_room": "Abandonarla",
    "how_to_play": "C\u00f3mo se juega",
    "rules_1": "Tienes tres cartas boca abajo: izquierda, centro y derecha. Al empezar puedes mirar "
               "una vez la de la izquierda y la de la derecha. \u00a1Recu\u00e9rdalas!",
    "rules_2": "En tu turno robas una carta y la cambias por una de las tuyas o la descartas. "
               "El as vale 1, del 2 al 9 su valor, el 10 y las figuras 10.",
    "rules_3": "Cartas especiales robadas: la Jota te deja mirar tu carta del centro; la Reina, "
               "cambiar a ciegas una de tus cartas por una de otro jugador; el Rey, dos robos extra.",
    "rules_4": "Tras tu turno puedes cantar crisp: los dem\u00e1s juegan un \u00faltimo turno. Si "
               "tienes menos que nadie restas 5; si no, sumas 5. La partida acaba al llegar al "
               "objetivo; gana quien menos tenga.",
    "invited": "Te han invitado a una partida de Crisp",
    "join_room": "Entrar en la sala",
    "busy_joining": "Entrando\u2026",
    # lobby
    "invite": "Invita a tus amigos",
    "invite_hint": "M\u00e1ndales este enlace o que escaneen el c\u00f3digo; entran desde su propio m\u00f3vil.",
    "copy_link": "Copiar enlace",
    "qr_label": "C\u00f3digo QR del enlace de la sala: escan\u00e9alo con un m\u00f3vil para entrar",
    "copied": "\u00a1Copiado!",
    "share_link": "Compartir\u2026",
    "players_n": "Jugadores ({n}/{max})",
    "badge_host": "anfitri\u00f3n",
    "badge_bot": "bot",
    "badge_bot_easy": "bot \u00b7 f\u00e1cil",
    "badge_bot_hard": "bot \u00b7 dif\u00edcil",
    "badge_you": "t\u00fa",
    "badge_crisp": "\u00a1crisp!",
    "connected": "conectado",
    "disconnected": "desconectado",
    "add_bot": "A\u00f1adir un bot",
    "remove_bot": "Quitar",
    "stand_in": "Que juegue un bot",
    "options": "Opciones",
    "opt_target": "La partida acaba en",
    "opt_draw_seconds": "Tiempo por robo",
    "opt_draw_from_discard": "Permitir robar del descarte",
    "no_timer": "Sin l\u00edmite",
    "n_seconds": "{n} s",
    "options_readonly": "El anfitri\u00f3n elige las opciones.",
    "start_game": "Empezar la partida",
    "need_two": "Hacen falta al menos 2 jugadores: invita a alguien o a\u00f1ade un bot.",
    "wait_host": "Esperando a que {name} empiece la partida",
}
