"""A software passkey for the server's tests: an EC P-256 key that answers the server's WebAuthn
options as a platform authenticator would (attestation ``none``; signed assertions with a
counter), built byte by byte from the WebAuthn spec so the server's checks meet real answers."""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.encode_cbor import encode_cbor

#: the authenticator data flags: user present, user verified, attested credential data follows
UP, UV, AT = 0x01, 0x04, 0x40


class SoftKey:
    """One passkey of the site ``rp_id``, used from pages at ``origin``."""

    def __init__(self, rp_id: str, origin: str) -> None:
        self.rp_id = rp_id
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential = secrets.token_bytes(32)
        #: the user handle the server gave at registration
        self.handle = b""
        self.sign_count = 0

    def _client_data(self, kind: str, options: dict[str, Any]) -> bytes:
        return json.dumps({"type": kind, "challenge": options["challenge"], "origin": self.origin,
                           "crossOrigin": False}).encode()

    def _auth_data(self, flags: int, extra: bytes = b"") -> bytes:
        return hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", self.sign_count) + extra

    def register(self, options_json: str) -> dict[str, Any]:
        """The credential (JSON form) of a new passkey for the registration ``options_json``."""
        options = json.loads(options_json)
        self.handle = base64url_to_bytes(options["user"]["id"])
        numbers = self.key.public_key().public_numbers()
        cose = encode_cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        attested = bytes(16) + struct.pack(">H", len(self.credential)) + self.credential + cose
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": self._auth_data(UP | UV | AT, attested)})
        return {"id": bytes_to_base64url(self.credential), "rawId": bytes_to_base64url(self.credential),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": bytes_to_base64url(self._client_data("webauthn.create", options)),
                             "attestationObject": bytes_to_base64url(attestation), "transports": ["internal"]}}

    def sign(self, options_json: str) -> dict[str, Any]:
        """The assertion (JSON form) answering the authentication ``options_json``, the counter
        moved on by one first."""
        options = json.loads(options_json)
        self.sign_count += 1
        auth_data = self._auth_data(UP | UV)
        client_data = self._client_data("webauthn.get", options)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": bytes_to_base64url(self.credential), "rawId": bytes_to_base64url(self.credential),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": bytes_to_base64url(client_data),
                             "authenticatorData": bytes_to_base64url(auth_data),
                             "signature": bytes_to_base64url(signature),
                             "userHandle": bytes_to_base64url(self.handle)}}
