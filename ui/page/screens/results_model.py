"""The end of a round as plain data: each seat's hand, points and standing, and the round's
fair-deal check. ui/page/screens/results.py draws it. Pure: runs on MicroPython, Pyodide and CPython
(tests).
"""

from ui.page.screens import cards
from ui.page.screens.viewmodel import read, seat_name


def fair_info(model, view):
    """The check of this round's committed shuffle (the client's `verdict`) once the round is
    over, or None (a solo game, a stacked test deck, or the proof not here yet)."""
    verdict = read(model, "verdict")
    if not isinstance(verdict, dict) or verdict.get("round") != view.get("round"):
        return None
    return verdict


def fair_alarm(model, view):
    """What of this round's check is said at once, during play (ui/page/client/fairplay.py): "again"
    (the host dealt it again), "uncommitted" (no commitment), "unproven" (no proof or round
    start), "alone" (no guest's number used): not checked; or None."""
    verdict = fair_info(model, view)
    what = verdict.get("what") if verdict is not None else None
    return what if what in ("again", "uncommitted", "unproven", "alone") else None


def results_info(view, players, ctx):
    """The end of a round, per seat in seat order: the hand and its total (R7.1), the round's
    points, the caller's bonus and why (R7.2: strictly the lowest, -5; R7.3: otherwise +5,
    "tie" or "not"), the running total (R7.4), the place in the standings (`rank`: 1 + the
    number of lower totals, so ties share a place; lowest wins, R8.2), and how far the total
    is from the target (`progress` in % of it, capped at 100; `left`: points to go), and
    `bot`: the seat's bot level (its players entry's), or None for a person."""
    hands = view.get("hands") or []
    pts = view.get("round_points") or []
    scores = view.get("scores") or []
    caller = view.get("caller")
    winners = view.get("winners") or []
    target = (view.get("options") or {}).get("target") or 0
    totals = []
    for s in range(len(hands)):
        total = 0
        for c in hands[s] or []:
            if cards.is_card(c):
                total += cards.value(c)
        totals.append(total)
    rows = []
    for s in range(len(hands)):
        total = totals[s]
        p = pts[s] if s < len(pts) else None
        score = scores[s] if s < len(scores) else 0
        bonus = (p - total) if (p is not None and s == caller) else 0
        reason = None
        if s == caller and p is not None:
            others = [totals[o] for o in range(len(totals)) if o != s]
            if bonus < 0:
                reason = "lowest"
            elif others and min(others) == total:
                reason = "tie"
            else:
                reason = "not"
        rank = 1 + len([x for x in scores if x < score])
        rows.append({"seat": s, "name": seat_name(players, s, ctx),
                     "bot": (players.get(s) or {}).get("bot"), "hand": hands[s] or [],
                     "hand_total": total, "points": p, "bonus": bonus, "reason": reason,
                     "caller": s == caller, "score": score, "winner": s in winners,
                     "rank": rank, "target": target,
                     "progress": min(100, score * 100 // target) if target > 0 else 0,
                     "left": max(0, target - score) if target > 0 else None})
    return rows


def standings(rows):
    """The result rows ranked: lowest total first (R8.2), seat order among equals."""
    return sorted(rows, key=lambda r: (r["score"], r["seat"]))
