"""The "Your identity" page (``/you``) and its passkey ceremonies (:mod:`.passkeys`).

``POST /you/claim/options`` then ``POST /you/claim`` claim this browser's identity with a
passkey (a newcomer is given a token first, as by a new game); ``POST /you/sign-in/options``
then ``POST /you/sign-in`` make this browser a session of the identity whose passkey answers:
it is given a *fresh* token (never one it or another site chose: the session-fixation rule of
:mod:`.security`), kept in :mod:`.identities`' sessions. What the browser held before stays
with the identity it was: its games, name and ratings are not merged into the one signed in.

The options are JSON as the ``webauthn`` package writes them; an answer is the browser's
credential as JSON; a refusal is ``{"error": words}`` with status 400 (429 when asked too often).

Two plain forms of the page: ``POST /you/sign-out`` ends this browser's session in the store
(every process refuses its token from then on) and forgets the cookie; ``POST
/you/passkeys/remove`` (field ``credential``) removes one of the identity's passkeys. A
refusal is the page again with why, status 400.
"""

from __future__ import annotations

import functools
import time

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from .games import address_of, tables_of, token_or_400
from .identities import SESSION_IDLE_SECONDS, acting_for, identity_of, open_session, sign_out, signed_in
from .limits import MAX_FIELD_BYTES
from .lobby import ago
from .names import NameRefused, hold_name, name_of, protected_names, unlike
from .passkeys import (CHALLENGE_SECONDS, PasskeyRefused, begin_sign_in, check_host, claim_options, claimed,
                       finish_claim, finish_sign_in, passkeys_of, remove, site)
from .security import COOKIE, new_token, remember, token_of
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


#: what the page says after a form of its own did it (``?done=``): fixed words, nothing of the address shown
DONE = {
    "signed-out": "Signed out: this browser no longer plays as you. Sign in with a passkey to come back.",
    "removed": "Passkey removed: it can no longer sign in here.",
    "unclaimed": "Passkey removed. It was your last: your name is kept in this browser only again, and the "
                 "browsers that had signed in with a passkey are signed out.",
}


def when(seconds: float) -> str:
    """``just now``, ``5 min ago``, ``2 days ago``."""
    said = ago(seconds)
    return said if said == "just now" else f"{said} ago"


async def you(request: Request, error: str = "", status: int = 200) -> Response:
    """The page of this browser's identity, with what a form of its did (``error``: why not)."""
    tables = tables_of(request)
    identity = identity_of(request)
    name, chosen = await tables.db(name_of, tables.store, identity)
    now = time.time()
    keys = [{"credential": k["credential"], "made": when(now - k["created"]),
             "used": "never used to sign in" if k["used"] is None else f"last signed in {when(now - k['used'])}"}
            for k in (await tables.db(passkeys_of, tables.store, identity) if identity else [])]
    return templates.TemplateResponse(request, "you.html", {
        "name": name, "chosen": chosen, "passkeys": keys, "site": site(), "minutes": CHALLENGE_SECONDS // 60,
        "newcomer": identity is None, "signed_in": signed_in(request), "idle_days": SESSION_IDLE_SECONDS // 86400,
        "error": error, "done": "" if error else DONE.get(request.query_params.get("done", ""), "")},
        status_code=status)


async def you_page(request: Request) -> Response:
    """``GET /you``: this browser's identity, its passkeys, and the ceremonies' buttons."""
    return await you(request)


async def sign_out_route(request: Request) -> Response:
    """``POST /you/sign-out``: end this browser's session in the store and forget its cookie;
    refused for an identity kept in this browser only (it would be lost for good)."""
    identity, token = identity_of(request), token_of(request)
    if identity is None or token is None:
        return await you(request, "This browser is not signed in: there is nothing to sign out of.", 400)
    tables = tables_of(request)
    if not signed_in(request) and not await tables.db(claimed, tables.store, identity):
        name, _ = await tables.db(name_of, tables.store, identity)
        return await you(request, f"{name} is kept in this browser only: signing out would lose {name}, its games "
                                  "and ratings for good. Claim it with a passkey first; then you can sign out and "
                                  "sign in again with the passkey.", 400)
    await tables.db(sign_out, tables.store, token_hash(token), identity, tables.time())
    await tables.signed_out(token_hash(token))
    response = RedirectResponse(request.url_for("you").path + "?done=signed-out", status_code=303)
    response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=request.url.scheme == "https")
    return response


async def remove_route(request: Request) -> Response:
    """``POST /you/passkeys/remove`` (field ``credential``): remove one of this identity's passkeys
    (:func:`.passkeys.remove` says when not)."""
    form = await request.form(max_files=0, max_fields=2, max_part_size=MAX_FIELD_BYTES)
    identity = identity_of(request)
    if identity is None:
        return await you(request, "This browser has no identity yet, so no passkeys to remove.", 400)
    tables = tables_of(request)
    try:
        removed = await tables.db(remove, tables.store, identity, str(form.get("credential") or ""),
                                  signed_in(request))
    except PasskeyRefused as exc:
        return await you(request, str(exc), 400)
    for token in removed.ended:  # the browsers signed in with it: their connections, on every process
        await tables.signed_out(token)
    done = "removed" if removed.left else "unclaimed"
    return RedirectResponse(request.url_for("you").path + f"?done={done}", status_code=303)


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
    try:  # the name held as claimed in the passkey's transaction: of two look-alikes claimed at once, one is
        await tables.db(finish_claim, tables.store, identity, await answer_of(request), origin_of(request),
                        functools.partial(hold_name, identity=identity))
    except PasskeyRefused as exc:
        return refused(str(exc))
    except NameRefused as exc:
        return refused(f"{exc} Choose another name, then claim it.")
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
    await tables.db(open_session, tables.store, token_hash(token), identity, tables.time())
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
    Route("/you/sign-out", sign_out_route, methods=["POST"], name="sign_out"),
    Route("/you/passkeys/remove", remove_route, methods=["POST"], name="passkey_remove"),
]
