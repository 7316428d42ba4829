"""Demo data for the local server: a 司礼, eleven 妃子 with 宫女, and eight players who own one each.

Log in locally with `POST /v1/auth/dev {"name": "甄嬛"}` (she owns 甄嬛) or `{"name": "司礼"}` (admin).
"""

from __future__ import annotations

from chalicelib.accounts.service import user_id_for
from chalicelib.core.errors import Conflict
from chalicelib.domain.ports import Consort, User
from chalicelib.wiring import Services

ADMIN = "司礼"

# name: (容貌 looks, 才情 talent, 圣宠 favor, 权势 power), {宫女 card: level}, owned by a demo player?
CONSORTS: list[tuple[str, tuple[int, int, int, int], dict[str, int], bool]] = [
    ("甄嬛", (92, 95, 88, 60), {"xunyi": 3, "tieshen": 2, "tongxin": 1, "chushou": 2, "jinxi": 2}, True),
    ("沈眉庄", (85, 90, 70, 55), {"xiuzhen": 2, "jinyan": 2, "huayu": 1}, True),
    ("安陵容", (80, 75, 60, 40), {"hedinghong": 3, "shentang": 2, "qiaoshe": 1}, True),
    ("华妃", (95, 60, 90, 95), {"yexing": 3, "bufeng": 2, "tieshen": 1, "mizhao": 2, "jianqiu": 1}, True),
    ("皇后", (75, 85, 65, 98), {"xunyi": 2, "yinzhen": 2, "huayu": 2}, True),
    ("敬妃", (70, 70, 55, 60), {"shentang": 1, "tongxin": 2}, True),
    ("端妃", (72, 80, 50, 65), {"qiaoshe": 2, "jinyan": 1}, True),
    ("叶澜依", (88, 65, 80, 50), {"xiuzhen": 3, "yexing": 1}, True),
    ("祺贵人", (78, 55, 62, 45), {"bufeng": 1}, False),
    ("欣常在", (65, 60, 50, 40), {}, False),
    ("曹贵人", (74, 82, 58, 70), {"liuzhu": 2, "mizhao": 1}, False),
]


def load(svc: Services) -> None:
    """Idempotent: loading twice leaves the same data."""
    now = svc.clock.now_ms()
    accounts = svc.accounts
    accounts.ensure_user(User(id=user_id_for(f"dev:{ADMIN}"), name=ADMIN, role="admin", created_ms=now), f"dev:{ADMIN}")
    for i, (name, (looks, talent, favor, power), maids, owned) in enumerate(CONSORTS):
        cid = f"demo{i:02d}"
        try:
            accounts.create_consort(Consort(id=cid, name=name, looks=looks, talent=talent, favor=favor, power=power,
                                            maids=maids, created_ms=now + i))
        except Conflict:
            pass
        if owned:
            user = accounts.ensure_user(
                User(id=user_id_for(f"dev:{name}"), name=name, role="player", created_ms=now), f"dev:{name}")
            accounts.claim_consort(cid, user)
