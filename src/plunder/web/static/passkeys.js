// The "Your identity" page's passkey buttons (you.html): claim this browser's identity with a
// passkey, or sign in with one. Each asks the server for options, hands them to the browser's
// own WebAuthn API (navigator.credentials), sends the answer back and says the outcome in
// words; the server checks everything (web/passkeys.py).
"use strict";
(function () {
  const box = document.getElementById("identity");
  if (!box) return;
  const said = document.getElementById("passkey-said");
  const buttons = [document.getElementById("passkey-claim"), document.getElementById("passkey-sign-in")];

  function say(text, error) {
    said.textContent = text;
    said.classList.toggle("error", Boolean(error));
  }

  if (!window.PublicKeyCredential || !window.isSecureContext || !navigator.credentials) {
    buttons.forEach((b) => { b.disabled = true; });
    say(`This browser cannot use passkeys on this page: they need a secure page (https, or http://localhost) ` +
        `at the site ${box.dataset.site}.`, true);
    return;
  }

  // base64url (what the server's JSON holds) <-> the bytes the WebAuthn API takes and gives
  function bytes(text) {
    const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    return Uint8Array.from(plain, (c) => c.charCodeAt(0)).buffer;
  }
  function text(buffer) {
    let plain = "";
    new Uint8Array(buffer).forEach((b) => { plain += String.fromCharCode(b); });
    return btoa(plain).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  async function post(url, body) {
    const answer = await fetch(url, { method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json" }, body: body === undefined ? "" : JSON.stringify(body) });
    let data = {};
    try { data = await answer.json(); } catch (e) { /* not JSON: said below */ }
    if (!answer.ok) throw new Error(data.error || `The server refused (${answer.status}).`);
    return data;
  }

  // what the browser said when the ceremony did not happen, in words
  function why(err) {
    if (err && err.name === "NotAllowedError") return "Cancelled, or no passkey answered in time: nothing changed.";
    if (err && err.name === "InvalidStateError") return "This device already holds a passkey for this name.";
    if (err && err.name === "SecurityError") return `The browser refused a passkey on this address: open the site ${box.dataset.site}.`;
    return (err && err.message) || "The passkey request failed.";
  }

  async function claim() {
    const options = await post(box.dataset.claimOptions);
    options.challenge = bytes(options.challenge);
    options.user.id = bytes(options.user.id);
    options.excludeCredentials = (options.excludeCredentials || []).map((c) => ({ ...c, id: bytes(c.id) }));
    const made = await navigator.credentials.create({ publicKey: options });
    const r = made.response;
    return post(box.dataset.claim, {
      id: made.id, rawId: text(made.rawId), type: made.type,
      authenticatorAttachment: made.authenticatorAttachment || undefined,
      response: { clientDataJSON: text(r.clientDataJSON), attestationObject: text(r.attestationObject),
        transports: r.getTransports ? r.getTransports() : [] },
      clientExtensionResults: made.getClientExtensionResults(),
    });
  }

  async function signIn() {
    const options = await post(box.dataset.signInOptions);
    options.challenge = bytes(options.challenge);
    options.allowCredentials = (options.allowCredentials || []).map((c) => ({ ...c, id: bytes(c.id) }));
    const used = await navigator.credentials.get({ publicKey: options });
    const r = used.response;
    return post(box.dataset.signIn, {
      id: used.id, rawId: text(used.rawId), type: used.type,
      authenticatorAttachment: used.authenticatorAttachment || undefined,
      response: { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData),
        signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : undefined },
      clientExtensionResults: used.getClientExtensionResults(),
    });
  }

  function run(button, ceremony) {
    button.addEventListener("click", async () => {
      buttons.forEach((b) => { b.disabled = true; });
      say("Waiting for your passkey…");
      try {
        const done = await ceremony();
        say(done.message || "Done.");
        // the page again, to show who this browser is now (the header's name too)
        setTimeout(() => location.reload(), 1200);
      } catch (err) {
        say(why(err), true);
        buttons.forEach((b) => { b.disabled = false; });
      }
    });
  }
  run(buttons[0], claim);
  run(buttons[1], signIn);
})();
