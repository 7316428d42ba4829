"""Content security for every free text players write: chat lines, and (called by the lead's code)
妃子 names, nicknames and the storyteller's tells.

Deployed stages ask WeChat (`msgSecCheck` v2, `WeChatTextCheck`); the local stage uses a short
word list with the same interface (`LocalWordCheck`); configuration picks one
(`chalicelib.chat.settings`). The check runs before anything is stored, so a refused text is never
seen by anyone.

Decision on WeChat's verdicts: `risky` is always refused. `review` ("a human should look") is
refused for names and nicknames (scene 1: shown everywhere and kept), and let through for chat
lines and tells (scene 2: short-lived, said to a table); chat files such a line for the 司礼's
review list (`chalicelib.chat.service`).
"""

from __future__ import annotations

import unicodedata
from typing import Protocol

from chalicelib.core.errors import ValidationFailed
from chalicelib.domain.chat_model import Scene, Verdict
from chalicelib.observability import logger, metrics_count


class TextChecker(Protocol):
    def verdict(self, text: str, *, scene: Scene, openid: str | None) -> Verdict:
        """What the check thinks of `text` said in `scene` by the user with this openid.

        Raises:
            UpstreamError: the check could not be made (the caller refuses: fail closed).
        """
        ...


RISKY_WORDS: tuple[str, ...] = (
    "傻逼", "煞笔", "沙比", "草泥马", "操你", "你妈的", "去死吧", "赌博", "毒品", "约炮", "fuck",
)
"""The local stage's stand-in for WeChat: clear insults, gambling, drugs, sex ads."""
REVIEW_WORDS: tuple[str, ...] = ("加微信", "加我微信", "私聊我", "代练", "返利")
"""Ads and solicitations: the local stage answers `review` for these."""


def normalize(text: str) -> str:
    """Folded for matching: full-width to half-width, lower case, no spaces or punctuation ("傻 逼", "傻.逼")."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if not unicodedata.category(ch).startswith(("P", "Z", "S", "C")))


class LocalWordCheck:
    """A short word list with WeChat's interface (the local stage; never deployed)."""

    def __init__(self, risky: tuple[str, ...] = RISKY_WORDS, review: tuple[str, ...] = REVIEW_WORDS) -> None:
        self.risky = tuple(normalize(w) for w in risky)
        self.review = tuple(normalize(w) for w in review)

    def verdict(self, text: str, *, scene: Scene, openid: str | None) -> Verdict:
        plain = normalize(text)
        if any(w in plain for w in self.risky):
            return Verdict.RISKY
        if any(w in plain for w in self.review):
            return Verdict.REVIEW
        return Verdict.PASS


class SecCheckClient(Protocol):
    def msg_sec_check(self, content: str, *, scene: Scene, openid: str | None) -> Verdict: ...


class WeChatTextCheck:
    """WeChat's msgSecCheck through the server client (`chalicelib.auth.wechat_server`)."""

    def __init__(self, client: SecCheckClient) -> None:
        self.client = client

    def verdict(self, text: str, *, scene: Scene, openid: str | None) -> Verdict:
        return self.client.msg_sec_check(text, scene=scene, openid=openid)


REFUSALS = {
    Scene.PROFILE: "名字含有不宜使用的内容，请换一个",
    Scene.COMMENT: "内容含有不宜发布的信息，请修改后再发",
}


def refuse(verdict: Verdict, scene: Scene) -> None:
    """Raise for a verdict that may not be shown in this scene (see the module's decision).

    Raises:
        ValidationFailed: CONTENT_REFUSED (422).
    """
    if verdict is Verdict.RISKY or (verdict is Verdict.REVIEW and scene is Scene.PROFILE):
        metrics_count("ContentRefused")
        logger.info("content refused", extra={"verdict": verdict.value, "scene": int(scene)})
        raise ValidationFailed(REFUSALS.get(scene, REFUSALS[Scene.COMMENT]), code="CONTENT_REFUSED")


def check_with(checker: TextChecker, text: str, *, scene: Scene, openid: str | None) -> Verdict:
    """Check `text` and refuse it if it may not be shown; returns the verdict it passed with.

    Raises:
        ValidationFailed: CONTENT_REFUSED; UpstreamError: the check could not be made.
    """
    verdict = checker.verdict(text, scene=scene, openid=openid)
    refuse(verdict, scene)
    return verdict
