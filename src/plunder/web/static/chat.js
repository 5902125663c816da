// Table talk on the game page (docs/web.md, "Table talk"): the players' lines and the moves
// the game tells at the table, in a compact panel beside the board (below it on a phone).
// It rides on the page's WebSocket: game.js tells every message it receives ("plunder:message"
// on the game's element) and sends what this module asks ("plunder:send"). Everything shown
// is text (textContent), never markup. A player may mute another seat with one click: that
// seat's lines are hidden, remembered per game by the server for this browser's identity (so
// they follow a passkey to another browser: /mutes/{game}) and in this browser (localStorage,
// for a visitor the server does not know yet).

const root = document.getElementById("game");
const panel = document.getElementById("talk");
//: lines kept on the page (the server sends the latest when the page connects)
const KEEP = 300;

if (root && panel) start();

function start() {
  const storeKey = `plunder-mute:${panel.dataset.gameId}`;
  const maxChars = Number(panel.dataset.maxChars) || 300;
  let state = JSON.parse(document.getElementById("first-state").textContent);
  let lines = new Map();   // id -> line, in the order received
  let muted = new Set(remembered());
  const mutesPath = `/mutes/${encodeURIComponent(panel.dataset.gameId)}`;

  const h = element("h2", "Table talk");
  const mutes = element("div");
  mutes.className = "talk-mutes";
  const list = element("ol");
  list.className = "talk-lines";
  list.id = "talk-lines";
  list.setAttribute("aria-live", "polite");
  const note = element("p");
  note.className = "talk-note";
  note.id = "talk-note";
  note.hidden = true;
  const form = element("form");
  form.className = "talk-form";
  form.id = "talk-form";
  const input = element("input");
  input.id = "talk-text";
  input.maxLength = maxChars;
  input.autocomplete = "off";
  input.placeholder = "Say something to the table";
  input.setAttribute("aria-label", "a line to the table");
  const sendButton = element("button", "Send");
  sendButton.type = "submit";
  form.append(input, sendButton);
  const watching = element("p", "You are watching: the players talk here.");
  watching.className = "talk-watching";
  panel.append(h, mutes, list, note, form, watching);

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const ask = { message: { type: "chat", text }, sent: false };
    root.dispatchEvent(new CustomEvent("plunder:send", { detail: ask }));
    if (ask.sent) { input.value = ""; tell(""); } else tell("Not connected to the server: that line was not sent.");
  });

  root.addEventListener("plunder:message", (event) => {
    const msg = event.detail;
    if (msg.type === "state") { state = msg; layout(); }
    else if (msg.type === "chat") received(msg);
    else if (msg.type === "error" && msg.about === "chat") tell(msg.message, msg.detail);
  });
  layout();
  // the server's mutes of this identity stand for it (a click made meanwhile wins: it is newer)
  let clicked = false;
  fetch(mutesPath, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : null)).then((kept) => {
    if (!kept || !kept.known || !Array.isArray(kept.muted) || clicked) return;
    muted = new Set(kept.muted.filter((s) => Number.isInteger(s)));
    remember();
    layout();
    draw();
  }).catch(() => { /* offline: this browser's own mutes stand */ });

  function remembered() {
    try { return JSON.parse(localStorage.getItem(storeKey) || "[]").filter((s) => Number.isInteger(s)); }
    catch (err) { return []; }
  }

  function remember() {
    try { localStorage.setItem(storeKey, JSON.stringify([...muted])); } catch (err) { /* private mode: this page only */ }
  }

  // shown where two or more seats are people's; a spectator reads, a player writes too
  function layout() {
    const seats = state.seats || [];
    const people = seats.filter((s) => s.kind !== "ai").length;
    panel.hidden = people < 2;
    const you = state.you || [];
    root.classList.toggle("talk-spectator", !you.length);
    form.hidden = !you.length;
    watching.hidden = !!you.length;
    mutes.replaceChildren(...seats.filter((s) => s.kind !== "ai" && !you.includes(s.seat)).map((s) => {
      const on = muted.has(s.seat);
      const b = element("button", `${on ? "Unmute" : "Mute"} ${s.name}`);
      b.type = "button";
      b.className = "mute" + (on ? " on" : "");
      b.dataset.seat = s.seat;
      b.setAttribute("aria-pressed", String(on));
      b.addEventListener("click", () => {
        if (muted.has(s.seat)) muted.delete(s.seat); else muted.add(s.seat);
        clicked = true;
        remember();
        fetch(mutesPath, { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" },
          body: JSON.stringify({ seat: s.seat, muted: muted.has(s.seat) }) }).catch(() => { /* kept here at least */ });
        layout();
        draw();
      });
      return b;
    }));
  }

  function received(msg) {
    if (msg.history) lines = new Map();
    for (const line of msg.lines || []) lines.set(line.id, line);
    while (lines.size > KEEP) lines.delete(lines.keys().next().value);
    draw();
  }

  // a muted seat's lines are hidden; the moves it makes stay (they are the game's)
  function draw() {
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.replaceChildren(...[...lines.values()].filter((l) => l.kind === "move" || !muted.has(l.seat)).map((l) => {
      const li = element("li");
      li.className = `talk-${l.kind}`;
      li.dataset.seat = l.seat;
      const who = element("span", `${l.name}:`);
      who.className = "who";
      const text = element("span", l.text);
      text.className = "text";
      // a move told at the table names its seat itself, in the game's words
      if (l.kind === "move") li.append(text); else li.append(who, " ", text);
      li.title = new Date(l.at * 1000).toLocaleTimeString();
      return li;
    }));
    if (atEnd) list.scrollTop = list.scrollHeight;
  }

  function tell(text, detail) {
    note.textContent = text || "";
    note.title = detail || "";
    note.hidden = !text;
  }
}

function element(tag, text) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  return el;
}
