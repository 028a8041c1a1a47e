"""The expert level's policy: each decision that matters is searched (crisp_core.bot_search).

The expert remembers what the hard bot remembers (``crisp_core.bot_memory``) and decides
by determinized playouts: where to swap a drawn card in or whether to discard it (R3.2), a
Jack's look (R4.4), a Queen's exchange (R4.5, the best few and not playing it), a King's
extra draws (R4.6, each draw searched in its turn), the deck or the discard (R10.3) and
whether to call crisp (R6, R7: the +5/-5 weighed against the round's points). A decision
with one sensible choice is taken without a search.

A search runs whole (``bot.slicing`` None: ``Bot.decide``, the tournaments, the tests), or
a slice at a time (``bot.slicing`` playouts per call: the room's engine worker, which must
never be held up long, calls ``Bot.plan``/``Bot.think`` again until it is done). Either
way the same playouts are played from the same seed, drawn once from the bot's ``rng``
when the decision is first asked, so the action is the same: it depends only on the rng
state, the memory, the events and the view (never on time). The pending search
(``bot.pending``) is saved with the bot and restarts from its seed after a reload.
"""

from .bot_search import BUDGET, CRISP_BUDGET, Search, candidates

#: What ``Bot.decide`` returns while a sliced search is not done: ask again (``think``).
THINK = {"do": "think"}
#: After this many of its own turns a round is long: the hard bot's call (keener each turn)
#: decides, so that a round always ends.
LONG_ROUND = 10
#: Below this chance of being lowest (the hard bot's estimate) a call is not even searched.
CRISP_HOPELESS = 0.08
#: Playouts in one slice in the engine worker, by table size: about 20 ms there at most
#: (measured: bench/bot_bench.py; a playout is longer at a larger table).
SLICE = {2: 40, 3: 30, 4: 20, 5: 15, 6: 12, 7: 10, 8: 8}


def slice_for(players):
    """The playouts of one slice at a table of ``players`` (2..8; others: the 8's)."""
    return SLICE.get(players, SLICE[8])


def choose(bot, view, kinds):
    """The expert's action for ``view`` (its seat's), from ``kinds`` (``{do: allowed
    entry}``, crisp already dropped when too late), THINK, or None to wait."""
    n = view["players"]
    if "crisp" in kinds:
        if bot.my_turns > LONG_ROUND and bot._wants_crisp(view):
            return {"do": "crisp"}    # a long round: the hard rule, which ends it (R6)
        if bot.win_chance(view) >= CRISP_HOPELESS:
            action = _search(bot, view, candidates(bot, view, {"crisp": kinds["crisp"]}),
                             CRISP_BUDGET.get(n, 240))
            if action is not None:
                return action
        kinds = dict(kinds)
        del kinds["crisp"]
    if "draw" in kinds:
        sources = kinds["draw"].get("from") or ["deck"]
        if len(sources) < 2 or not view["discard"]:
            return {"do": "draw", "from": sources[0]}
    held = view.get("held")
    if "draw" not in kinds and (held is None or held.get("seat") != bot.seat
                                or held.get("card") is None):
        return None
    choices = candidates(bot, view, kinds)
    if len(choices) <= 1:
        return choices[0] if choices else None
    return _search(bot, view, choices, BUDGET.get(n, 320))


def _search(bot, view, choices, budget):
    """Run (or go on with) the search of this decision; its best choice, or THINK."""
    key = [bot.events_seen, view.get("allowed") or []]
    pending = bot.pending
    if pending is None or pending["key"] != key or pending["budget"] != budget:
        pending = {"key": key, "seed": bot.rng.getrandbits(32), "view": view,
                   "since": bot.asked_at, "budget": budget}
        bot.pending = pending
        bot.search = None
    if bot.search is None:
        bot.search = Search(bot, pending["view"], choices, pending["seed"], budget)
    search = bot.search
    search.step(search.worlds * len(choices) if bot.slicing is None else bot.slicing)
    if not search.done:
        return THINK
    bot.pending = None
    bot.search = None
    bot.since = pending["since"]
    return search.best()


def checked_pending(data):
    """A saved pending search (``Bot.to_dict``'s ``pending``), or None when it is not one."""
    if not isinstance(data, dict) or set(data) != {"key", "seed", "view", "since", "budget"}:
        return None
    if not isinstance(data["view"], dict) or not isinstance(data["key"], list):
        return None
    for name, low in (("seed", 0), ("budget", 1)):
        if not isinstance(data[name], int) or isinstance(data[name], bool) or data[name] < low:
            return None
    if data["since"] is not None and not isinstance(data["since"], int):
        return None
    return data
