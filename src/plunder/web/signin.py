"""The "Your identity" page (``/you``) and its passkey ceremonies (:mod:`.passkeys`).

``POST /you/claim/options`` then ``POST /you/claim`` claim this browser's identity with a
passkey (a newcomer is given a token first, as by a new game); ``POST /you/sign-in/options``
then ``POST /you/sign-in`` make this browser a session of the identity whose passkey answers:
it is given a *fresh* token (never one it or another site chose: the session-fixation rule of
:mod:`.security`), kept in :mod:`.identities`' sessions. What the browser held before stays
with the identity it was: its games, name and ratings are not merged into the one signed in.

The options are JSON as the ``webauthn`` package writes them; an answer is the browser's
credential as JSON; a refusal is ``{"error": words}`` with status 400 (429 when asked too often).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .games import address_of, tables_of, token_or_400
from .identities import acting_for, identity_of, open_session
from .limits import MAX_FIELD_BYTES
from .names import NameRefused, name_of, protected_names, unlike
from .passkeys import (CHALLENGE_SECONDS, PasskeyRefused, begin_sign_in, check_host, claim_options, finish_claim,
                       finish_sign_in, passkeys_of, site)
from .security import new_token, remember
from .store import token_hash
from .templating import templates

#: passkey requests an address may make at once, then :data:`PASSKEY_RATE` a second
PASSKEY_BURST = 30
PASSKEY_RATE = 0.5


def refused(message: str, status: int = 400) -> JSONResponse:
    """A ceremony's refusal, in words."""
    return JSONResponse({"error": message}, status_code=status, headers={"cache-control": "no-store"})


def origin_of(request: Request) -> str:
    """The origin of the page a ceremony runs on (this server's address as the request reached it)."""
    return f"{request.url.scheme}://{request.url.netloc}"


async def refusal(request: Request) -> Response | None:
    """The refusal of a request that may not start or finish a ceremony now (too many from its
    address, or a page at another host than the site's), or ``None``."""
    if not await request.app.state.passkey_asks.spend(address_of(request)):
        return refused("Too many passkey requests from your address; wait a minute and try again.", 429)
    try:
        check_host(request.url.hostname or "")
    except PasskeyRefused as exc:
        return refused(str(exc))
    return None


async def answer_of(request: Request) -> str:
    """The body of a ceremony's second step: the browser's credential, as JSON text."""
    body = await request.body()
    if len(body) > MAX_FIELD_BYTES:
        raise PasskeyRefused("A passkey's answer is a few hundred bytes; this one is far too long.")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise PasskeyRefused("The passkey's answer is not text.") from None


async def you_page(request: Request) -> Response:
    """``GET /you``: this browser's identity, its passkeys, and the two ceremonies' buttons."""
    tables = tables_of(request)
    identity = identity_of(request)
    name, chosen = await tables.db(name_of, tables.store, identity)
    keys = await tables.db(passkeys_of, tables.store, identity) if identity else []
    return templates.TemplateResponse(request, "you.html", {
        "name": name, "chosen": chosen, "passkeys": keys, "site": site(), "minutes": CHALLENGE_SECONDS // 60,
        "newcomer": identity is None})


async def claim_start(request: Request) -> Response:
    """``POST /you/claim/options``: the options of a claim of this browser's identity."""
    if (no := await refusal(request)) is not None:
        return no
    token, minted = token_or_400(request)
    identity = acting_for(request, token)
    tables = tables_of(request)
    name, _ = await tables.db(name_of, tables.store, identity)
    try:  # a claimed name is protected from look-alikes (:func:`.names.protected_names`): it must be one itself
        unlike(name, await tables.db(protected_names, tables.store, identity))
    except NameRefused as exc:
        return refused(f"{exc} Choose another name, then claim it.")
    options = await tables.db(claim_options, tables.store, identity, name)
    response = Response(options, media_type="application/json", headers={"cache-control": "no-store"})
    return remember(response, request, token) if minted else response


async def claim_finish(request: Request) -> Response:
    """``POST /you/claim``: keep the passkey the browser made for this identity."""
    if (no := await refusal(request)) is not None:
        return no
    identity = identity_of(request)
    if identity is None:
        return refused("This browser has no identity to claim yet: reload the page and start again.")
    tables = tables_of(request)
    try:
        await tables.db(finish_claim, tables.store, identity, await answer_of(request), origin_of(request))
    except PasskeyRefused as exc:
        return refused(str(exc))
    name, _ = await tables.db(name_of, tables.store, identity)
    return JSONResponse({"message": f"Claimed: {name} is yours. Sign in with this passkey on another browser "
                                    "to play there as the same person."}, headers={"cache-control": "no-store"})


async def sign_in_start(request: Request) -> Response:
    """``POST /you/sign-in/options``: the options of a sign-in."""
    if (no := await refusal(request)) is not None:
        return no
    tables = tables_of(request)
    options = await tables.db(begin_sign_in, tables.store)
    return Response(options, media_type="application/json", headers={"cache-control": "no-store"})


async def sign_in_finish(request: Request) -> Response:
    """``POST /you/sign-in``: on a passkey's good answer, this browser's cookie becomes a fresh
    session of the identity that claimed it."""
    if (no := await refusal(request)) is not None:
        return no
    tables = tables_of(request)
    try:
        identity = await tables.db(finish_sign_in, tables.store, await answer_of(request), origin_of(request))
    except PasskeyRefused as exc:
        return refused(str(exc))
    token = new_token()
    await tables.db(open_session, tables.store, token_hash(token), identity)
    name, _ = await tables.db(name_of, tables.store, identity)
    response = JSONResponse({"message": f"Signed in: you are {name} in this browser too.", "name": name},
                            headers={"cache-control": "no-store"})
    return remember(response, request, token)


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/you", you_page, name="you"),
    Route("/you/claim/options", claim_start, methods=["POST"], name="passkey_claim_options"),
    Route("/you/claim", claim_finish, methods=["POST"], name="passkey_claim"),
    Route("/you/sign-in/options", sign_in_start, methods=["POST"], name="passkey_sign_in_options"),
    Route("/you/sign-in", sign_in_finish, methods=["POST"], name="passkey_sign_in"),
]
