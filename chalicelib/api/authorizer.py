"""The Chalice built-in authorizer: verifies our token (no database read) and passes the identity on.

An invalid or expired token is not denied here: the authorizer allows the call with an `error` in
the context, and the route answers 401 in the API's own error shape. (A denial here would come back
from API Gateway as a bare 403 in another shape, and be cached per token.) A missing header never
reaches the authorizer: the gateway answers 401, with the same shape via the Gateway Responses in
infra/.
"""

from __future__ import annotations

from chalice import AuthResponse, Blueprint

from chalicelib.auth import tokens
from chalicelib.core.errors import Unauthenticated

bp = Blueprint(__name__)


@bp.authorizer(ttl_seconds=60, header="Authorization")
def token_authorizer(auth_request):  # type: ignore[no-untyped-def]
    from chalicelib.wiring import services

    svc = services()
    try:
        claims = tokens.verify(svc.settings.token_secret, auth_request.token or "", svc.clock.now_ms() // 1000)
    except Unauthenticated as e:
        return AuthResponse(routes=["*"], principal_id="anonymous", context={"error": e.code})
    caller = claims.caller
    return AuthResponse(routes=["*"], principal_id=caller.user_id,
                        context={"name": caller.name, "role": caller.role.value, "exp": str(claims.expires_s)})
