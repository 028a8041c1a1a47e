"""A page away and back (ui/page/screens/away.py): only cues true of the table now, a turn's cue once
it can be played (R10.1's start delay over), the "while you were away" summary, the nudge of
a turn that waits, the table's idle seat."""

from ui.page.i18n import i18n
from ui.page.screens import away, cues
from ui.page.screens.viewmodel import Ctx

DRAW = [{"do": "draw", "from": "deck"}]


def view(turn, phase="play", allowed=None, **more):
    v = {"phase": phase, "turn": turn, "allowed": allowed or [], "round": 1}
    v.update(more)
    return v


def test_a_turn_cue_waits_for_the_start_delay_and_the_draw_it_opens():
    b = away.Backlog()
    log = [{"type": "play", "turn": 0}, {"type": "swap", "seat": 0, "pos": "left"}]
    b.take(log, 1, view(0), 0)
    log.append({"type": "turn", "seat": 1})
    # the turn is Ana's (seat 1) but the deck answers only after the start delay
    fresh, cue, summary = b.take(log, 1, view(1), 100, start_left=1900)
    assert fresh == [log[-1]] and cue is None and summary is None
    assert b.take(log, 1, view(1), 1200, start_left=800)[1] is None
    # the delay shown over, but the room's view offering the draw not in yet: still nothing
    assert b.take(log, 1, view(1), 2000, start_left=0)[1] is None
    _, cue, _ = b.take(log, 1, view(1, allowed=DRAW), 2100)
    assert cue["kind"] == "your_turn" and not cue.get("quiet")
    assert b.take(log, 1, view(1, allowed=DRAW), 2400)[1] is None      # once


def turn_begun(seat):
    """A Backlog that saw a deal at 0 ms and then `seat`'s turn start: (backlog, log)."""
    b = away.Backlog()
    log = [{"type": "deal"}]
    b.take(log, seat, view(None, "peek"), 0)
    log.append({"type": "play", "turn": seat})
    return b, log


def test_a_turn_with_no_delay_is_cued_at_once_and_a_last_turn_says_so():
    b, log = turn_begun(2)
    assert b.take(log, 2, view(2, allowed=DRAW), 10)[1]["kind"] == "your_turn"
    assert cues.turn_cue(view(2, "last_turns", DRAW, last_turns_left=1), 2)["kind"] \
        == "last_turn"
    assert cues.turn_cue(view(2, allowed=DRAW), None) is None       # a spectator


def test_a_page_that_did_not_run_plays_no_turn_gone_by_and_sums_up_what_it_missed():
    b = away.Backlog()
    log = [{"type": "play", "turn": 0}]
    b.take(log, 1, view(0), 0)
    b.ran(250)
    # 60 s frozen: the room timed out Ana's turns twice, Bea called crisp
    log += [{"type": "turn", "seat": 1},
            {"type": "timeout", "seat": 1, "card": "Qh", "forced": True, "away": True},
            {"type": "turn", "seat": 2}, {"type": "discard", "seat": 2, "card": "9c"},
            {"type": "turn", "seat": 0}, {"type": "swap", "seat": 0, "pos": "left"},
            {"type": "crisp", "seat": 0}, {"type": "turn", "seat": 1},
            {"type": "timeout", "seat": 1, "card": "Kd", "forced": True, "away": True},
            {"type": "turn", "seat": 2}]
    now = 60_250
    b.ran(now)
    fresh, cue, summary = b.take(log, 1, view(2, "last_turns", caller=0), now)
    assert len(fresh) == 10
    # not "Your turn!": it is Bea's (last) turn; Hana's call is still what the table plays
    assert cue["kind"] == "crisp" and cue["seat"] == 0 and cue["mine"] is False
    assert summary == {"skipped": 2, "played": 0, "discarded": ["Qh", "Kd"], "crisp": 0,
                       "round_over": False, "game_over": False}
    # what comes in the burst right after still counts; later it is news again
    log += [{"type": "round_over"}]
    _, cue, summary = b.take(log, 1, view(None, "round_over"), now + 500)
    assert cue["kind"] == "round_over" and summary["round_over"] is True
    log += [{"type": "play", "turn": 1}]
    _, cue, summary = b.take(log, 1, view(1, allowed=DRAW), now + 5000)
    assert summary is None and cue["kind"] == "your_turn"


def test_a_call_or_an_end_no_longer_true_is_not_cued():
    assert cues.cue([{"type": "crisp", "seat": 2}], 1, view(None, "round_over")) is None
    assert cues.cue([{"type": "round_over"}], 1, view(0, allowed=DRAW)) is None
    assert cues.cue([{"type": "turn", "seat": 1}], 1, view(2)) is None


def test_a_hidden_page_cues_its_turn_once_and_shows_it_again_quietly_on_return():
    b = away.Backlog()
    log = [{"type": "play", "turn": 0}]
    b.take(log, 1, view(0), 0)
    log += [{"type": "turn", "seat": 1}]
    _, cue, summary = b.take(log, 1, view(1, allowed=DRAW), 300, hidden=True)
    assert cue["kind"] == "your_turn" and summary is None         # heard in the background
    _, cue, summary = b.take(log, 1, view(1, allowed=DRAW), 4000)
    assert cue["kind"] == "your_turn" and cue["quiet"] is True     # shown, not played again
    assert summary is None                                          # nothing missed


def test_a_played_turn_by_a_stand_in_is_told():
    events = [{"type": "turn", "seat": 1}, {"type": "draw", "seat": 1, "from": "deck"},
              {"type": "discard", "seat": 1, "card": "9c"}, {"type": "turn", "seat": 2}]
    assert away.away_summary(events, 1)["played"] == 1
    assert away.away_summary(events, 2) is None
    assert away.away_summary([None, "x", {"type": "timeout"}], 1) is None


def test_a_replayed_log_goes_on_from_what_was_seen():
    old = [{"type": "turn", "seat": 0}, {"type": "draw", "seat": 0, "from": "deck"},
           {"type": "discard", "seat": 0, "card": "5c"}, {"type": "turn", "seat": 1}]
    new = [dict(e) for e in old] + [{"type": "timeout", "seat": 1, "card": "Qd"}]
    assert away.replayed(new, old[-3:]) == [new[-1]]
    assert away.replayed(new, [{"type": "turn", "seat": 7}]) == []
    assert away.replayed([], old) == [] and away.replayed(new, []) == []
    b = away.Backlog()
    b.take(old, 1, view(1), 0)
    b.ran(10_000)                             # did not run: then a rejoin's replay
    fresh, cue, summary = b.take(new, 1, view(2), 10_000)
    assert fresh == [] and cue is None        # old news neither flies nor sounds
    assert summary["skipped"] == 1 and summary["discarded"] == ["Qd"]


def test_a_turn_that_waits_is_nudged_once():
    b, log = turn_begun(1)
    assert b.take(log, 1, view(1, allowed=DRAW), 1000)[1]["kind"] == "your_turn"
    assert b.wake() == 1000 + away.NUDGE_MS
    for t in range(1000, 1000 + away.NUDGE_MS, 250):
        b.ran(t)                               # the page's ticks
    assert b.take(log, 1, view(1, allowed=DRAW), 1000 + away.NUDGE_MS - 1)[1] is None
    _, cue, _ = b.take(log, 1, view(1, allowed=DRAW), 1000 + away.NUDGE_MS)
    assert cue["nudge"] is True and b.nudging() and b.wake() is None
    assert b.take(log, 1, view(1, allowed=DRAW), 1000 + away.NUDGE_MS + 250)[1] is None
    log.append({"type": "turn", "seat": 2})
    b.take(log, 1, view(2), 1000 + away.NUDGE_MS + 500)
    assert not b.nudging()


def test_the_table_sees_how_long_a_turn_has_waited_for_a_move():
    b = away.Backlog()
    log = [{"type": "play", "turn": 2}]
    b.take(log, 0, view(2), 1000)
    assert b.idle_for(31_000) == (2, 30_000)
    log.append({"type": "draw", "seat": 2, "from": "deck"})
    b.take(log, 0, view(2), 31_000)
    assert b.idle_for(32_000) == (2, 1000)
    b.take(log, 0, view(None, "round_over"), 33_000)
    assert b.idle_for(40_000) == (None, 0)


def test_the_summary_in_words_in_both_languages():
    s = {"skipped": 3, "played": 1, "discarded": ["Qh", "Kd"], "crisp": 2,
         "round_over": True, "game_over": False}
    for lang in ("es", "en"):
        lines = away.summary_lines(s, 1, lambda seat: "Bea", Ctx(lang), str)
        text = " ".join(lines)
        assert len(lines) == 5 and "Bea" in text and "Qh, Kd" in text and "3" in text, lines
        for key in ("away_skipped_one", "away_played_other", "away_crisp_you", "away_game_over",
                    "title_your_turn", "notify_offer", "coming_back", "nudge_you"):
            assert i18n.has(lang, key)
    assert away.summary_lines(None, 1, str, Ctx("en"), str) == []


def test_the_tab_title_says_whose_turn_while_hidden():
    def title(screen, v, me, lobby_n=None, lang="en"):
        return away.tab_title(screen, v, me, lobby_n, lambda s: "\u2068Bea\u2069", Ctx(lang))
    assert title("table", view(1, allowed=DRAW), 1) == "(!) Your turn \u00b7 Crisp"
    assert title("table", view(1, allowed=DRAW), 1, lang="es") == "(!) Tu turno \u00b7 Crisp"
    assert title("table", view(1, "last_turns"), 1).startswith("(!) Your last turn")
    assert title("table", view(2), 1) == "Bea's turn \u00b7 Crisp"
    assert title("table", view(None, "peek", ready=[True, False]), 1).startswith("(!) Look")
    assert title("table", view(None, "peek", ready=[True, True]), 1) is None
    assert title("table", view(None, "round_over"), 1) == "Round over \u00b7 Crisp"
    assert title("lobby", None, 1, 3, "es") == "3 jugadores en la sala \u00b7 Crisp"
    assert title("landing", None, None) is None
    assert title("table", {"phase": "play", "turn": True}, 1) is None


# ---- the screens: the summary and its OK, the offer, the nudge, a reload coming back ----

from test_render_model import FakeClient, find, show, table_model, tap, text_of  # noqa: E402
from ui.page.screens.viewmodel import new_ui  # noqa: E402


def test_the_table_shows_the_summary_until_ok_and_the_offer_asks_once():
    m = table_model(3, seat=1, turn=2)
    ui = new_ui("en")
    ui["away"] = {"skipped": 2, "played": 0, "discarded": ["Qh"], "crisp": 2,
                  "round_over": False, "game_over": False, "at": 1000}
    ui["notify_offer"] = True
    tree, ctx = show(m, ui, now=2000)
    said = text_of(find(tree, "away-summary"))
    assert "While you were away" in said and "2 turns of yours were skipped" in said, said
    assert "discarded for you: Q" in said and "called crisp" in said, said
    assert tap(tree, ctx, "away-ok", ui, m) == [] and ui["away"] is None
    assert tap(tree, ctx, "notify-yes", ui, m) == [("notify", True)]
    tree, ctx = show(m, ui, now=2000)
    assert find(tree, "away-summary") is None and find(tree, "notify-offer") is None
    ui["away"] = {"skipped": 1, "at": 0}
    assert find(show(m, ui, now=away.SUMMARY_MS + 1)[0], "away-summary") is None   # gone
    ui["nudge"] = True
    assert "Still your turn" in text_of(find(show(m, ui, "en")[0], "nudge"))


def test_a_reload_taking_its_seat_back_shows_coming_back_and_no_form_or_alarm():
    for status in ("connecting", "reconnecting", "looking"):
        m = FakeClient(screen="join", status=status, token="ab" * 16)
        tree, ctx = show(m, new_ui("es", "Bea"), "es")
        assert text_of(find(tree, "coming-back")) == "Volviendo a la mesa\u2026"
        assert find(tree, "join-room") is None and find(tree, "player-name") is None
        # looking for where the room went is news, not an alarm: it is said (e2e test_no_room)
        assert (find(tree, "connection") is None) == (status != "looking"), status
    # a room that is gone is still said
    m = FakeClient(screen="join", status="no_room", token="ab" * 16)
    assert find(show(m, new_ui("es"), "es")[0], "connection") is not None
