"""玩法C ⑤ 进攻牌（提升下毒/暗杀/诬告的命中与伤害）… 通用牌（…送膳所得好感加成等）: a card acts only with
the move it serves. Her hand says, card by card, which actions of the mode it may not go with
(`CardView.refused`), in the very words 落子 would be refused with (CARD_NO_EFFECT) — so the app can
grey it while she composes instead of at 落子 (decision, docs/rules/shengong.md §9)."""

from typing import Any

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Viewer
from chalicelib.games.shengong.actions import action_adapter
from chalicelib.games.shengong.cards import CATALOGUE, Rarity
from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.game import GAME_C, GAME_D
from chalicelib.games.shengong.terms import ModeKey

from .abc.helpers import board, seat
from .d.helpers import new_game, profile, shape

R_CARDS = tuple(sorted(cid for cid, c in CATALOGUE.items() if c.rarity is Rarity.R))


def _c_state():
    deck = Deck(hand=tuple(f"{cid}#1" for cid in R_CARDS), pile=tuple(f"{cid}#2" for cid in R_CARDS))
    return board(seat(0, "承乾宫", maids=dict.fromkeys(R_CARDS, 1), deck=deck), seat(1, "景仁宫"), mode=ModeKey.C)


def _d_state():
    s = new_game(1, profile("甄嬛", maids=[(cid, 1) for cid in R_CARDS]))
    return shape(s, hands=(tuple(f"{cid}#1" for cid in R_CARDS), (), ()))


def _body(option: Any) -> dict[str, Any]:
    """A move the server takes for this option (its first target or place), before cards."""
    body: dict[str, Any] = {"type": option.type.value}
    if option.targets:
        body["target"] = option.targets[0]
    if option.places:
        body["place"] = option.places[0].value
    return body


def _refusal(game: Any, state: Any, body: dict[str, Any]) -> str | None:
    try:
        game.check(state, Viewer.player(0), action_adapter.validate_python(body))
    except IllegalAction as e:
        assert e.code == "CARD_NO_EFFECT", e
        return e.message
    return None


@pytest.mark.parametrize(("game", "make"), [(GAME_C, _c_state), (GAME_D, _d_state)], ids=["C", "D"])
def test_a_cards_refused_actions_are_those_luozi_refuses_it_with(game, make):
    """Every card of her hand × every open action of the mode: `refused` names the action, with
    CARD_NO_EFFECT's message word for word, exactly when 落子 with that card in its slot is refused."""
    state = make()
    view = game.view(state, Viewer.player(0))
    you = view.you
    assert you is not None and you.hand is not None
    open_options = [o for o in you.options if o.allowed]
    assert {o.type.value for o in open_options} >= {"poison", "assassinate", "frame", "idle"}
    checked = 0
    for card in you.hand.hand:
        said = {r.type: r.reason for r in card.refused}
        assert set(said) <= set(view.actions)
        for option in open_options:
            body = _body(option) | {"cards": {card.slot.value: card.copy_id}}
            assert said.get(option.type) == _refusal(game, state, body), (card.copy_id, option.type)
            checked += 1
    assert checked >= len(R_CARDS) * 4


def test_xunyi_is_refused_with_every_action_but_poison_in_c():
    """「寻医问药」(下毒命中) in C: greyed for every action but 下毒, with 「只对下毒生效（可以弃掉）」;
    a defence card goes with any move."""
    you = GAME_C.view(_c_state(), Viewer.player(0)).you
    assert you is not None and you.hand is not None
    cards = {c.card: c for c in you.hand.hand}
    refused = {r.type.value: r.reason for r in cards["xunyi"].refused}
    assert set(refused) == {a.value for a in GAME_C.view(_c_state(), Viewer.player(0)).actions} - {"poison"}
    assert refused["frame"] == "「寻医问药」只对下毒生效（可以弃掉）"
    assert cards["tieshen"].refused == ()


def test_a_voided_seats_cards_are_refused_with_every_action():
    """DECISIONS 深宫杀 #12 (seed: 暗杀 … 并令其下回合行动作废): her voided turn is 待机 with no card played,
    so every card is greyed with the voided reason — the words 落子 would be refused with (ACTION_VOIDED)."""
    deck = Deck(hand=("tieshen#1", "xunyi#1"), pile=())
    state = board(seat(0, "承乾宫", maids={"tieshen": 1, "xunyi": 1}, deck=deck, voided=True), seat(1, "景仁宫"),
                  mode=ModeKey.C)
    you = GAME_C.view(state, Viewer.player(0)).you
    assert you is not None and you.hand is not None
    for card in you.hand.hand:
        assert {r.type.value for r in card.refused} >= {"idle", "poison"}
        assert {r.reason for r in card.refused} == {you.voided_reason}
    with pytest.raises(IllegalAction) as e:
        GAME_C.check(state, Viewer.player(0), action_adapter.validate_python(
            {"type": "idle", "cards": {"defence": "tieshen#1"}}))
    assert e.value.code == "ACTION_VOIDED" and e.value.message == you.voided_reason
