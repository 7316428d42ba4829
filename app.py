"""深宫 API: builds the Chalice app and registers its blueprints; nothing else happens here."""

from chalice import Chalice

from chalicelib import jobs
from chalicelib.api import (
    auth_routes,
    authorizer,
    board_routes,
    chat_routes,
    consort_routes,
    family_routes,
    game_routes,
    meta_routes,
    middleware,
    room_routes,
    stream_handler,
    ws_routes,
)

app = Chalice(app_name="shengong")
app.experimental_feature_flags.update(["WEBSOCKETS"])  # room notices (chalicelib/push)
for blueprint in (
    authorizer.bp,
    middleware.bp,
    auth_routes.bp,
    consort_routes.bp,
    game_routes.bp,
    room_routes.bp,
    family_routes.bp,
    board_routes.bp,
    chat_routes.bp,
    meta_routes.bp,
    jobs.bp,
    ws_routes.bp,
    stream_handler.bp,
):
    app.register_blueprint(blueprint)
