"""Passkeys (WebAuthn): an identity claimed with one, so that it follows its person to another
browser; no password exists anywhere.

Two ceremonies, each in two steps: the server hands out options holding a random challenge,
the browser's authenticator answers, the server checks the answer with the ``webauthn``
package. The challenge is kept in the store (:data:`challenges`), so any server process may
finish a ceremony another began; it is single-use (taken out of the store in the transaction
that reads it) and expires after :data:`CHALLENGE_SECONDS`.

- **Claim** (registration): the identity asking gets a random *user handle* (never its token
  nor its hash: :data:`users`) and a new passkey whose credential id, public key and signature
  counter are stored under it (:data:`passkeys`).
- **Sign in** (authentication): the passkey signs the challenge; a known credential whose
  signature holds and whose counter moved forward names the identity that claimed it
  (the routes then give the browser a fresh session of it: :mod:`.identities`).

The relying party id is the site's host name: :data:`SITE_VARIABLE` in the environment, else
:data:`DEFAULT_SITE`. A ceremony is refused from a page whose host is not that name or one of
its subdomains. Every refusal is a :class:`PasskeyRefused` saying what was wrong.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import time
from typing import Any, Callable, NamedTuple

from sqlalchemy import BigInteger, Column, Float, String, Table, Text, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from webauthn import (generate_authentication_options, generate_registration_options, options_to_json,
                      verify_authentication_response, verify_registration_response)
from webauthn.helpers import (base64url_to_bytes, bytes_to_base64url, parse_authentication_credential_json,
                              parse_authenticator_data, parse_client_data_json,
                              parse_registration_credential_json)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (AuthenticatorSelectionCriteria, ClientDataType,
                                      PublicKeyCredentialDescriptor, ResidentKeyRequirement,
                                      UserVerificationRequirement)

from .identities import sign_out_everywhere
from .store import Store, metadata

#: seconds a ceremony's challenge may be answered in (also the browser's timeout)
CHALLENGE_SECONDS = 300
#: the environment variable naming the site's host, the passkeys' relying party id
SITE_VARIABLE = "PLUNDER_SITE"
#: the relying party id when :data:`SITE_VARIABLE` is not set (a server on this machine)
DEFAULT_SITE = "localhost"
#: what the browser shows as the relying party's name
RP_NAME = "Plunder"
#: the two ceremonies' names in :data:`challenges`
CLAIM, SIGN_IN = "claim", "sign-in"
#: most characters of a passkey's answer the server reads (a few hundred bytes in practice)
MAX_ANSWER_CHARS = 16_000

users = Table(
    "passkey_users", metadata,
    # the identity (hash of its first token: :mod:`.identities`) that claimed itself
    Column("identity", String(64), primary_key=True),
    # the WebAuthn user handle given to its passkeys: random, base64url
    Column("handle", String(64), nullable=False, unique=True),
    Column("created", Float, nullable=False),
)

passkeys = Table(
    "passkeys", metadata,
    # base64url of the credential id (at most 1023 bytes)
    Column("credential", String(1400), primary_key=True),
    Column("identity", String(64), nullable=False, index=True),
    # the COSE public key, base64url
    Column("public_key", Text, nullable=False),
    # the authenticator's signature counter last seen (0: it keeps none)
    Column("sign_count", BigInteger, nullable=False),
    Column("created", Float, nullable=False),
    Column("used", Float),
)

claimed_names = Table(
    "claimed_names", metadata,
    # an identity claimed with a passkey (:data:`users`)
    Column("identity", String(64), primary_key=True),
    # what its name looks like (:func:`.lookalike.likeness`): unique, so that of two look-alike
    # names claimed at the same moment (on two processes), the database lets one through
    Column("likeness", String(800), nullable=False, unique=True),
)

challenges = Table(
    "passkey_challenges", metadata,
    # base64url of the random challenge
    Column("challenge", String(128), primary_key=True),
    Column("purpose", String(16), nullable=False),
    # the identity a claim is for (none for a sign-in: the passkey says who)
    Column("identity", String(64)),
    Column("expires", Float, nullable=False),
)


class PasskeyRefused(ValueError):
    """A ceremony refused: the message says what was wrong, in words a player reads."""


def site() -> str:
    """The relying party id: :data:`SITE_VARIABLE`'s host name, else :data:`DEFAULT_SITE`."""
    return (os.environ.get(SITE_VARIABLE) or DEFAULT_SITE).strip().lower()


def check_host(host: str) -> None:
    """Refuse a ceremony on a page whose host name is not the site's (or a subdomain of it), or
    for a site that is an IP address: the browser would refuse it too, with less clear words."""
    rp_id = site()
    try:
        ipaddress.ip_address(rp_id.strip("[]"))
    except ValueError:
        pass
    else:  # browsers refuse passkeys for an address (Chromium: a SecurityError)
        raise PasskeyRefused(f"Passkeys need the site's host name, not an address ({rp_id}): set {SITE_VARIABLE} to "
                             f"the site's name ({DEFAULT_SITE} on this machine).")
    if host.lower() != rp_id and not host.lower().endswith("." + rp_id):
        raise PasskeyRefused(f"Passkeys on this server are for the site {rp_id!r}, and this page is at {host!r}: "
                             f"open it at {rp_id} to use a passkey.")


def claimed(store: Store, identity: str | None) -> bool:
    """Whether the identity ``identity`` (a token hash) has claimed itself with a passkey."""
    if identity is None:
        return False
    with store.engine.connect() as db:
        return db.execute(select(passkeys.c.credential).where(passkeys.c.identity == identity).limit(1)).first() is not None


def passkeys_of(store: Store, identity: str) -> list[dict[str, Any]]:
    """The passkeys of ``identity``, oldest first: each one's credential id, when it was made
    and when last used to sign in."""
    with store.engine.connect() as db:
        rows = db.execute(select(passkeys.c.credential, passkeys.c.created, passkeys.c.used)
                          .where(passkeys.c.identity == identity).order_by(passkeys.c.created)).mappings().all()
        return [dict(r) for r in rows]


class Removed(NamedTuple):
    """What :func:`remove` did: how many passkeys the identity has ``left``, and the token hashes
    of the sessions ``ended`` with its last (their connections are to be closed)."""

    left: int
    ended: list[str]


def remove(store: Store, identity: str, credential: str, signed_in: bool) -> Removed:
    """Remove the passkey ``credential`` of ``identity``. Refused (in
    words) when it holds no such passkey, or when it is its last and the browser asking is
    ``signed_in`` with one (a session: without a passkey it could never come back after signing
    out). Removing the last from the browser that claimed the identity (which keeps it in its
    cookie) unclaims it: its name is no longer held (:data:`claimed_names`) and every browser
    signed in to it is signed out, in the same transaction."""
    with store.engine.begin() as db:
        # two removals at once must not both see a passkey left: a write to the identity's row
        # first makes the second wait for the first to end (PostgreSQL's row lock; SQLite's
        # one writer, taken before this transaction reads anything)
        db.execute(update(users).where(users.c.identity == identity).values(handle=users.c.handle))
        gone = db.execute(delete(passkeys).where(passkeys.c.identity == identity,
                                                 passkeys.c.credential == credential)).rowcount
        if gone != 1:
            raise PasskeyRefused("You have no such passkey (removed already?): reload the page to see yours.")
        left = len(db.execute(select(passkeys.c.credential).where(passkeys.c.identity == identity)).all())
        if left == 0 and signed_in:  # raised out of the transaction: the passkey stays
            raise PasskeyRefused("This is your only passkey, and this browser is signed in with it: without it "
                                 "you could not sign in again after signing out, here or anywhere. Add another "
                                 "passkey first, then remove this one.")
        ended = sign_out_everywhere(db, identity) if left == 0 else []
        if left == 0:
            db.execute(delete(claimed_names).where(claimed_names.c.identity == identity))
        return Removed(left, ended)


def _handle(db: Connection, identity: str) -> str:
    """The user handle of ``identity``, made now if it has none."""
    found = db.execute(select(users.c.handle).where(users.c.identity == identity)).scalar()
    if found is not None:
        return str(found)
    handle = bytes_to_base64url(secrets.token_bytes(32))
    try:
        with db.begin_nested():
            db.execute(insert(users).values(identity=identity, handle=handle, created=time.time()))
    except IntegrityError:  # made at the same moment by another request
        return str(db.execute(select(users.c.handle).where(users.c.identity == identity)).scalar_one())
    return handle


def _new_challenge(db: Connection, purpose: str, identity: str | None, now: float) -> bytes:
    """A fresh challenge kept for :data:`CHALLENGE_SECONDS` (the expired ones are dropped)."""
    db.execute(delete(challenges).where(challenges.c.expires < now))
    challenge = secrets.token_bytes(32)
    db.execute(insert(challenges).values(challenge=bytes_to_base64url(challenge), purpose=purpose,
                                         identity=identity, expires=now + CHALLENGE_SECONDS))
    return challenge


def _take_challenge(store: Store, challenge: bytes, purpose: str) -> str | None:
    """Take the challenge out of the store (it works once, even when the answer is refused
    then) and say whom it was for; refused when it was never given, is used already, belongs
    to the other ceremony or expired."""
    key = bytes_to_base64url(challenge)
    with store.engine.begin() as db:
        row = db.execute(select(challenges).where(challenges.c.challenge == key)).mappings().first()
        # two processes finishing one ceremony at once: only one deletes the row
        taken = row is not None and db.execute(delete(challenges).where(challenges.c.challenge == key)).rowcount == 1
    if row is None or not taken:
        raise PasskeyRefused("This passkey request is unknown or was already answered (each works once): "
                             "start again.")
    if row["purpose"] != purpose:
        raise PasskeyRefused("This answer belongs to another passkey request: start again.")
    if row["expires"] < time.time():
        raise PasskeyRefused(f"This passkey request expired (it is good for {CHALLENGE_SECONDS // 60} minutes): "
                             "start again.")
    return None if row["identity"] is None else str(row["identity"])


def _client_data(response: Any, kind: ClientDataType, origin: str) -> bytes:
    """The challenge of an answer's client data, after checking its ceremony and its origin."""
    try:
        client = parse_client_data_json(response.client_data_json)
    except (WebAuthnException, ValueError, TypeError):
        raise PasskeyRefused("The passkey's answer is not readable (its client data is malformed).") from None
    if client.type != kind:
        raise PasskeyRefused(f"The passkey answered a {client.type} request where {kind.value} was asked.")
    if client.origin != origin:
        raise PasskeyRefused(f"The passkey answered for the site {client.origin[:80]!r}, not this one ({origin}).")
    return client.challenge


def _read(answer: str, parse: Any) -> Any:
    """A browser's answer, parsed, or refused in words."""
    if len(answer) > MAX_ANSWER_CHARS:
        raise PasskeyRefused(f"A passkey's answer is at most {MAX_ANSWER_CHARS} characters.")
    try:
        return parse(answer)
    except (WebAuthnException, ValueError, TypeError, KeyError, AttributeError):
        raise PasskeyRefused("The passkey's answer is not readable (not a WebAuthn credential).") from None


def claim_options(store: Store, identity: str, name: str) -> str:
    """The options (JSON) of a claim of ``identity`` (shown as ``name``): its user handle, a
    fresh challenge, and its passkeys already made (the browser will not make a second one on
    the same authenticator)."""
    now = time.time()
    with store.engine.begin() as db:
        handle = _handle(db, identity)
        have = db.execute(select(passkeys.c.credential).where(passkeys.c.identity == identity)).scalars().all()
        challenge = _new_challenge(db, CLAIM, identity, now)
    options = generate_registration_options(
        rp_id=site(), rp_name=RP_NAME, user_id=base64url_to_bytes(handle), user_name=name, user_display_name=name,
        challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in have])
    return options_to_json(options)


def finish_claim(store: Store, identity: str, answer: str, origin: str,
                 hold: Callable[[Connection], None] | None = None) -> None:
    """Keep the passkey of a claim's ``answer`` (the browser's credential, JSON) for ``identity``,
    the page being at ``origin``; :class:`PasskeyRefused` says why not. ``hold`` writes, in the
    same transaction, that the identity's name is claimed (:func:`.names.hold_name`: what it
    raises refuses the claim, and no passkey is kept)."""
    credential = _read(answer, parse_registration_credential_json)
    challenge = _client_data(credential.response, ClientDataType.WEBAUTHN_CREATE, origin)
    owner = _take_challenge(store, challenge, CLAIM)
    if owner != identity:
        raise PasskeyRefused("This passkey request was started by another browser identity: start again here.")
    try:
        verified = verify_registration_response(credential=credential, expected_challenge=challenge,
                                                expected_rp_id=site(), expected_origin=origin)
    except WebAuthnException as exc:
        raise PasskeyRefused(f"The passkey's answer does not hold: {str(exc)[:200]}") from None
    try:
        with store.engine.begin() as db:
            db.execute(insert(passkeys).values(
                credential=bytes_to_base64url(verified.credential_id), identity=identity,
                public_key=bytes_to_base64url(verified.credential_public_key), sign_count=verified.sign_count,
                created=time.time(), used=None))
            if hold is not None:
                hold(db)
    except IntegrityError:
        raise PasskeyRefused("This passkey is already in use here.") from None


def begin_sign_in(store: Store) -> str:
    """The options (JSON) of a sign-in, its challenge kept in the store: any passkey of this
    site may answer (they are discoverable: the browser offers the ones it holds)."""
    with store.engine.begin() as db:
        challenge = _new_challenge(db, SIGN_IN, None, time.time())
    return options_to_json(generate_authentication_options(
        rp_id=site(), challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
        user_verification=UserVerificationRequirement.PREFERRED))


def finish_sign_in(store: Store, answer: str, origin: str) -> str:
    """The identity whose passkey signed a sign-in's ``answer`` (JSON), the page being at
    ``origin``; its counter is moved on. :class:`PasskeyRefused` says why not."""
    credential = _read(answer, parse_authentication_credential_json)
    challenge = _client_data(credential.response, ClientDataType.WEBAUTHN_GET, origin)
    _take_challenge(store, challenge, SIGN_IN)
    key = bytes_to_base64url(credential.raw_id)
    with store.engine.connect() as db:
        row = db.execute(select(passkeys.c.identity, passkeys.c.public_key, passkeys.c.sign_count, users.c.handle)
                         .join(users, users.c.identity == passkeys.c.identity)
                         .where(passkeys.c.credential == key)).mappings().first()
    if row is None:
        raise PasskeyRefused("This passkey is not known here: it never claimed a name on this server "
                             "(claim one first, from a browser that has it).")
    handle = credential.response.user_handle
    if handle is not None and bytes_to_base64url(handle) != row["handle"]:
        raise PasskeyRefused("This passkey names another identity than the one it claimed.")
    stored = int(row["sign_count"])
    try:
        count = parse_authenticator_data(credential.response.authenticator_data).sign_count
    except (WebAuthnException, ValueError, TypeError, IndexError):
        raise PasskeyRefused("The passkey's answer is not readable (its authenticator data is malformed).") from None
    if (count > 0 or stored > 0) and count <= stored:
        raise PasskeyRefused(f"This passkey's signature counter went back ({count}, after {stored}): it may have "
                             "been copied, so it cannot sign in.")
    try:
        verify_authentication_response(credential=credential, expected_challenge=challenge, expected_rp_id=site(),
                                       expected_origin=origin, credential_public_key=base64url_to_bytes(
                                           row["public_key"]), credential_current_sign_count=stored)
    except WebAuthnException as exc:
        raise PasskeyRefused(f"The passkey's answer does not hold: {str(exc)[:200]}") from None
    with store.engine.begin() as db:
        moved = db.execute(update(passkeys).where(passkeys.c.credential == key, passkeys.c.sign_count == stored)
                           .values(sign_count=count, used=time.time())).rowcount
    if moved != 1:
        raise PasskeyRefused("This passkey was used at the same moment elsewhere: try again.")
    return str(row["identity"])

