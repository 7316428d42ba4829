"""Content security as other parts call it (`check_text` for names, nicknames, tells), the local
word list, WeChat's verdicts per scene, and the per-stage settings that choose between them."""

from __future__ import annotations

import json

import pytest

from chalicelib.auth.wechat_server import WeChatServerClient
from chalicelib.chat.build import ChatServices, chat_services
from chalicelib.chat.moderation import LocalWordCheck, normalize, refuse
from chalicelib.chat.notices import Outcome
from chalicelib.chat.settings import ChatSettings, NoticeKind, load_chat_settings
from chalicelib.config import ConfigurationError
from chalicelib.core.errors import DomainError, ValidationFailed
from chalicelib.core.game import PendingKind
from chalicelib.domain.chat_model import Scene, Verdict
from chalicelib.domain.model import PendingInfo, Room, RoomStatus, SeatEntry
from chalicelib.store.memory_chat import MemoryChatStore
from tests.chat.wechat_fake import APPID, SECRET


def test_the_local_word_list_sees_through_spacing_punctuation_and_full_width():
    check = LocalWordCheck()
    for text in ("傻逼", "你 这 个 傻 . 逼", "ＦＵＣＫ you", "草-泥-马"):
        assert check.verdict(text, scene=Scene.COMMENT, openid=None) is Verdict.RISKY, text
    assert check.verdict("有事加 我 微信", scene=Scene.COMMENT, openid=None) is Verdict.REVIEW
    assert check.verdict("贱人就是矫情", scene=Scene.COMMENT, openid=None) is Verdict.PASS  # 甄嬛传 is quoted freely
    assert normalize("Ａ，Ｂ　c") == "abc"


def test_risky_is_always_refused_and_review_only_for_names():
    for scene in Scene:
        with pytest.raises(ValidationFailed) as e:
            refuse(Verdict.RISKY, scene)
        assert (e.value.status, e.value.code) == (422, "CONTENT_REFUSED")
    with pytest.raises(ValidationFailed) as e:
        refuse(Verdict.REVIEW, Scene.PROFILE)
    assert e.value.message == "名字含有不宜使用的内容，请换一个"
    refuse(Verdict.REVIEW, Scene.COMMENT)
    refuse(Verdict.PASS, Scene.PROFILE)


def test_check_text_is_the_stages_check_for_any_caller(svc):
    check_name = svc.account_deps().check_name  # what accounts call for names and nicknames
    check_name("碎玉轩甄嬛", None)
    with pytest.raises(DomainError) as e:
        check_name("傻逼皇后", "dev:甄嬛")
    assert (e.value.status, e.value.code) == (422, "CONTENT_REFUSED")
    chat = chat_services(svc)
    assert chat_services(svc) is chat  # built once per Services, on first use
    with pytest.raises(DomainError):
        chat.check_user_text("去死吧", scene=Scene.COMMENT, user="u-storyteller")
    assert chat.settings.content_check == "local"


def test_deployed_stages_ask_wechat(wechat, atomic_ddb, clock, svc):
    from chalicelib.store.chat import DynamoChatStore
    from tests.conftest import TABLE

    store = DynamoChatStore(atomic_ddb, TABLE)
    chat = ChatServices(settings=ChatSettings(content_check="wechat"), store=store, room_deps=svc.room_deps(),
                        clock=clock, wechat_factory=lambda: WeChatServerClient(lambda: (APPID, SECRET), wechat.url,
                                                                               store, clock))
    chat.check_text("加我微信聊聊", scene=Scene.COMMENT, openid="oPlayer1")  # review: a chat line may pass
    for text, scene in [("加我微信聊聊", Scene.PROFILE), ("这碗里有毒药", Scene.COMMENT)]:
        with pytest.raises(ValidationFailed) as e:
            chat.check_text(text, scene=scene, openid="oPlayer1")
        assert e.value.code == "CONTENT_REFUSED"
    assert [c["body"]["scene"] for c in wechat.calls if c["path"] == "/wxa/msg_sec_check"] == [2, 1, 2]


def test_a_local_stage_sends_no_notices(svc):
    old = Room(id="r1", game="relay", title="Relay", status=RoomStatus.ACTIVE, version=1, creator="u0",
               creator_name="甲", max_seats=2, min_seats=2, created_ms=1, updated_ms=1, active_ms=1,
               seats=(SeatEntry(seat=0, user="u0", name="甲"), SeatEntry(seat=1, user="u1", name="乙")),
               pending=PendingInfo(kind=PendingKind.TURN, seats=(0,)))
    new = old.model_copy(update={"version": 2, "pending": PendingInfo(kind=PendingKind.TURN, seats=(1,))})
    assert [o for _, o in chat_services(svc).send_notices(old, new)] == [Outcome.DISABLED]


# -- settings -------------------------------------------------------------------------------------

def test_the_local_stage_checks_locally_and_deployed_stages_ask_wechat():
    local = load_chat_settings({}, local=True)
    assert (local.content_check, local.notices_enabled, local.miniprogram_state) == ("local", False, "developer")
    deployed = load_chat_settings({}, local=False, in_lambda=True)
    assert (deployed.content_check, deployed.miniprogram_state) == ("wechat", "formal")
    with pytest.raises(ConfigurationError):
        load_chat_settings({"CHAT_CONTENT_CHECK": "local"}, local=False, in_lambda=True)
    with pytest.raises(ConfigurationError):
        load_chat_settings({"CHAT_CONTENT_CHECK": "none"}, local=True)


def test_the_default_notice_page_is_a_page_the_app_has():
    """A "your turn" notice opens the game's room page: the default names one the app declares for every
    game family (a stage left on the default must not send players to a page that does not exist)."""
    import re
    from pathlib import Path

    from chalicelib.games import game_keys, get_game

    declared = set(re.findall(r"'(pages/[^']+)'", (Path(__file__).resolve().parents[2] / "client" / "src" /
                                                    "app.config.ts").read_text(encoding="utf-8")))
    page = load_chat_settings({}, local=False).notice_page
    for family in {get_game(k).family for k in game_keys()}:
        opened = page.format(room_id="r1", game="g", family=family)
        assert opened.split("?")[0] in declared and opened.endswith("?id=r1"), opened


def test_notice_templates_and_pages_come_from_the_environment():
    env = {"WECHAT_NOTICES": json.dumps({
        "turn": {"template_id": "TPL-TURN"},
        "game_end": {"template_id": "TPL-END", "fields": {"thing1": "game", "time2": "time"}}}),
        "WECHAT_NOTICE_PAGE": "pages/game/index?room={room_id}", "WECHAT_MINIPROGRAM_STATE": "trial"}
    s = load_chat_settings(env, local=False)
    assert s.notices_enabled and s.template_ids() == {"TPL-TURN", "TPL-END"}
    assert dict(s.notices[NoticeKind.TURN].fields) == {"thing1": "game", "thing2": "tip"}
    assert dict(s.notices[NoticeKind.GAME_END].fields) == {"thing1": "game", "time2": "time"}
    assert (s.notice_page, s.miniprogram_state) == ("pages/game/index?room={room_id}", "trial")
    for bad in ("[1]", "{not json", json.dumps({"turn": {}}), json.dumps({"naptime": {"template_id": "x"}}),
                json.dumps({"turn": {"template_id": "x", "fields": {"thing1": "password"}}})):
        with pytest.raises(ConfigurationError):
            load_chat_settings({"WECHAT_NOTICES": bad}, local=False)
    with pytest.raises(ConfigurationError):
        load_chat_settings({"WECHAT_MINIPROGRAM_STATE": "beta"}, local=False)
    for page in ("pages/room?id={id}", "pages/room?id={room_id"):
        with pytest.raises(ConfigurationError):
            load_chat_settings({"WECHAT_NOTICE_PAGE": page}, local=False)


def test_the_memory_twin_knows_openids_it_is_told():
    store = MemoryChatStore()
    store.openids["u1"] = "oPlayer1"
    assert (store.openid_of("u1"), store.openid_of("u2")) == ("oPlayer1", None)
