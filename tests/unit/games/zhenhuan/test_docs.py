"""docs/rules/zhenhuan.md agrees with the engine: the night order tables, the role table, test names."""

from __future__ import annotations

import re
from pathlib import Path

from chalicelib.games.zhenhuan.enums import OwedKind
from chalicelib.games.zhenhuan.night import FIRST_NIGHT, OTHER_NIGHTS
from chalicelib.games.zhenhuan.roles import (
    ANLINGRONG,
    GUOJUNWANG,
    HUAFEI,
    HUANBI,
    HUANGHOU,
    HUANGSHANG,
    JINGFEI,
    JINXI,
    KUANGTU,
    NIANGENGYAO,
    QIFEI,
    QIGUIREN,
    ROLES,
    SANAGE,
    SUNDAYING,
    TAISHANGHUANG,
    TRAVELLER,
    WENTAIYI,
    YELANYI,
    YURAO,
    ZHENHUAN,
)
from chalicelib.games.zhenhuan.state import Owed

from .helpers import act, current, disabled, dusk, new_state, night, pass_until, visited

HERE = Path(__file__).parent
DOC = (HERE.parents[3] / "docs" / "rules" / "zhenhuan.md").read_text(encoding="utf-8")


def _table(marker: str) -> list[list[str]]:
    block = DOC.split(f"<!-- {marker} -->")[1].split(f"<!-- /{marker} -->")[0]
    rows = [line.strip().strip("|").split("|") for line in block.strip().splitlines()[2:]]
    return [[cell.strip() for cell in row] for row in rows]


def _keys(marker: str) -> tuple[str, ...]:
    return tuple(row[1].strip("`") for row in _table(marker))


def test_night_order_in_docs_matches_the_engine() -> None:
    """DECISIONS #7: write the final order into the rules document and pin it with a test."""
    assert _keys("first-night") == FIRST_NIGHT
    assert _keys("other-nights") == OTHER_NIGHTS
    numbers = [int(row[0]) for row in _table("other-nights")]
    assert numbers == list(range(1, len(OTHER_NIGHTS) + 1))


def test_engine_walks_the_first_night_in_order() -> None:
    """The order the engine runs on the first night is the documented one."""
    roles = [
        ANLINGRONG,
        HUAFEI,
        GUOJUNWANG,
        HUANGSHANG,
        QIFEI,
        YURAO,
        HUANBI,
        JINGFEI,
        JINXI,
        WENTAIYI,
        ZHENHUAN,
        NIANGENGYAO,
        SUNDAYING,
        KUANGTU,
    ]
    state = act(act(new_state(roles), type="begin"), type="set_alignment", seat=8, alignment="evil")
    walked = []
    while (now := current(state)) is not None:
        walked.append(now)
        if now == "huangshang":
            state = act(state, type="night_step", step=now, targets=[None, 4])
        else:
            state = act(state, type="night_step", step=now, skip=not disabled(state))
    assert tuple(walked) == _keys("first-night")


def test_engine_walks_other_nights_in_order() -> None:
    """The order the engine runs on other nights is the documented one."""
    roles = [
        QIGUIREN, ANLINGRONG, HUAFEI, GUOJUNWANG, HUANGHOU, HUANGSHANG, TAISHANGHUANG, ZHENHUAN, SANAGE,
        YELANYI, NIANGENGYAO, YURAO, SUNDAYING, JINGFEI, JINXI, WENTAIYI, QIFEI, KUANGTU,
    ]  # fmt: skip
    state = act(new_state(roles), type="begin")
    state = act(pass_until(state, "huangshang"), type="night_step", step="huangshang", targets=[None, 16])
    state = night(state)
    state = act(state, type="accuse", by=0, target=5, role=HUANGSHANG)
    state = dusk(act(state, type="set_role", seat=17, role="nvhuang"), execute_block=False)
    owed = (Owed(kind=OwedKind.NEW_DEMON, seat=17), Owed(kind=OwedKind.MINIONS_NEW_DEMON, seat=17),
            Owed(kind=OwedKind.CHONGFEI, seat=16), Owed(kind=OwedKind.ALIGNMENT, seat=3))  # fmt: skip
    state = state.model_copy(update={"owed": owed})  # what the rules owe after changes (see test_info_steps)
    assert tuple(visited(state)) == _keys("other-nights")


def test_role_table_in_docs_matches_the_catalogue() -> None:
    """Sex and team of each role as the seed defines it (太监 and 太医 are not female)."""
    rows = _table("roles-table")
    documented = {row[0].strip("`"): (row[2], row[3], row[4] == "yes") for row in rows}
    engine = {
        k: (r.team.value, r.sex.value, r.counts_for_jingfei) for k, r in ROLES.items() if k != TRAVELLER
    }
    assert documented == engine


def test_every_test_named_in_the_docs_exists() -> None:
    """Every decision in the rules document is pinned by a test that exists."""
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", DOC))
    defined = {
        m
        for path in [*HERE.glob("test_*.py"), *(HERE.parents[2] / "api").glob("test_zhenhuan*.py")]
        for m in re.findall(r"^def (test_\w+)", path.read_text(), re.MULTILINE)
    }
    assert named and named <= defined, sorted(named - defined)
