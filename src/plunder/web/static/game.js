// The game page: shows the position the server sends over the WebSocket and sends back the
// action texts the player clicks. There are no rules here: the picture's elements carry
// their actions (data-action), the server checks every action and says plainly why one is
// refused, and the move list only arranges the legal texts the server sent. A game with
// controls of its own (Client.module: a lattice to click, a panel of choices) has them in
// its own ES module, imported before the page connects and handed the small API below
// (docs/web.md, "A game's own module").
"use strict";
(function () {
  const root = document.getElementById("game");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const colours = (root.dataset.seatColours || "").split(",");

  let state = JSON.parse($("first-state").textContent);
  let log = [];              // the log entries held: a window of the game's log ...
  let logFirst = 0;          // ... starting at this entry (older ones are asked for)
  let socket = null;
  let retry = 0;
  let waiting = false;       // an action is on its way: one click, one action
  let plugin = {};           // the game's own module's hooks (none: {})
  let resultSeen = false;    // the result screen was closed: do not open it again
  let pending = null;        // a move clicked while the connection was down: {action, ply}
  let downSaid = "";         // the message shown about the connection being down, if any
  let clockAt = performance.now();  // when the clock figures of the state shown arrived
  let turnAt = null;         // when the turn being played reached this page (the move says how long it thought)

  // --- the connection -------------------------------------------------------------------
  function connect() {
    const url = new URL(root.dataset.ws, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(url);
    socket.onopen = () => {
      link("live");
      if (downSaid && $("message").textContent === downSaid) say("");
      downSaid = "";
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      // the back-off ends with a position, not an open channel: a channel refused for
      // opening too often (an error, then closed) keeps backing off
      if (message.type === "state") retry = 0;
      receive(message);
    };
    socket.onclose = () => {
      link("reconnecting");
      waiting = false;
      // back off to at most 10 s; the server sends the whole position on reconnecting
      setTimeout(connect, Math.min(10000, 500 * 2 ** retry++));
    };
  }

  function link(how) {
    root.classList.toggle("offline", how !== "live");  // the "Your turn" badge is off while down
    const el = $("link");
    el.className = "link " + how;
    el.textContent = how === "live" ? "● live" : "○ reconnecting…";
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      down(message.type === "act"
        ? `Not connected to the server: your move ${message.action} is sent once the connection is back.`
        : "Not connected to the server: that was not sent; try again once the connection is back.");
      if (message.type === "act") pending = { action: message.action, ply: message.ply };
      return false;
    }
    socket.send(JSON.stringify(message));
    return true;
  }

  function down(text) {
    downSaid = text;
    say(text);
  }

  // the first position after a reconnect: the move clicked while down is sent if it still
  // applies to it, else the player is told it was not
  function resend(msg) {
    const move = pending;
    pending = null;
    if (msg.ply === move.ply && msg.your_turn) act(move.action);
    else say(`Your move ${move.action} was not sent: the game moved on while the connection was down.`);
  }

  // another module of the page sends over this connection: {message}, told whether it went
  root.addEventListener("plunder:send", (event) => { event.detail.sent = send(event.detail.message); });

  function act(text) {
    if (waiting || !state.your_turn) return;
    // the seconds from the turn reaching the page to the move leaving it: the server credits the
    // rest of what the clock ran as the network's lag, within a quota (docs/web.md, "Time controls")
    const thought = turnAt === null ? undefined : Math.max(0, (performance.now() - turnAt) / 1000);
    if (send({ type: "act", action: text, ply: state.ply, thought })) {
      waiting = true;
      root.classList.add("waiting");
      say("");
    }
  }

  function receive(msg) {
    // every message is told to the page's other modules too (the table talk: chat.js)
    root.dispatchEvent(new CustomEvent("plunder:message", { detail: msg }));
    switch (msg.type) {
      case "state": show(msg); break;
      case "log": older(msg.log || [], msg.from); break;
      case "error": if (msg.about !== "chat") { done(); say(msg.message, msg.detail); } break;
      case "notice": say(msg.message, msg.detail); break;
      case "hint": hint(msg.lines || []); break;
      default: break;
    }
  }

  function done() {
    waiting = false;
    root.classList.remove("waiting");
  }

  // --- showing a position ---------------------------------------------------------------
  function show(msg) {
    mergeLog(msg.log || [], msg.log_from);
    const moved = msg.ply !== state.ply;
    if (!msg.your_turn) turnAt = null;
    else if (moved || !state.your_turn || turnAt === null) turnAt = performance.now();
    state = msg;
    clockAt = performance.now();
    done();
    if (moved) { say(""); $("hint").hidden = true; }
    if (pending && socket && socket.readyState === WebSocket.OPEN) resend(msg);
    board.innerHTML = msg.svg;
    $("status").textContent = msg.status;
    // "Your turn" said once: by the badge while connected (the status, when it says the same, hides)
    $("status").classList.toggle("said-by-badge", msg.status === $("turn").textContent);
    const mine = (msg.you || []).length > 0;
    root.classList.toggle("spectator", !mine);
    root.classList.toggle("my-turn", !!msg.your_turn);
    $("turn").hidden = !msg.your_turn;
    $("thinking").hidden = !msg.thinking;
    seats(msg);
    tick();
    invites(msg);
    controls(msg, mine);
    // a game's module may play some moves from its own controls and list only the rest
    const listed = msg.your_turn ? hook("listed", msg) : undefined;
    moves(msg.your_turn ? listed || msg.legal || [] : []);
    hook("update", msg);
    result(msg);
    root.dispatchEvent(new CustomEvent("plunder:state", { detail: msg }));  // people.js: rematch offers
  }

  // the log comes in part: keep the entries before log_from, then the ones sent; a long
  // game's log comes as a window of its last entries, older ones on request (docs/web.md)
  function mergeLog(entries, from) {
    from = typeof from === "number" ? from : 0;
    if (from < logFirst || from > logFirst + log.length) { log = []; logFirst = from; }
    log = log.slice(0, from - logFirst).concat(entries);
    drawLog(true);
  }

  function older(entries, from) {
    if (typeof from !== "number" || from + entries.length !== logFirst) return;  // the log moved on meanwhile
    log = entries.concat(log);
    logFirst = from;
    drawLog(false);
  }

  function drawLog(toEnd) {
    const ol = $("log");
    const items = log.map((e, i) => {
      const li = document.createElement("li");
      li.value = e.n;
      li.textContent = e.text;
      if (i === log.length - 1) li.className = "last";
      return li;
    });
    $("log-earlier").hidden = logFirst === 0;
    $("log-earlier").textContent = `Earlier moves (${logFirst})`;
    ol.replaceChildren(...items);
    if (toEnd) ol.scrollTop = ol.scrollHeight;
  }

  $("log-earlier").addEventListener("click", () => send({ type: "log", before: logFirst }));

  function seats(msg) {
    const ul = $("seats");
    ul.replaceChildren(...(msg.seats || []).map((s, i) => {
      const li = document.createElement("li");
      li.className = (s.to_move ? "to-move " : "") + "kind-" + s.kind + ((msg.you || []).includes(i) ? " you" : "");
      const dot = document.createElement("span");
      dot.className = "swatch";
      dot.style.background = colours[i] || "#888";
      // each seat by its name ("Anna", "the hard AI"); an open seat, which has none, by its label
      li.append(dot, document.createTextNode(s.name.charAt(0).toUpperCase() + s.name.slice(1)));
      if (s.to_move) {
        const m = document.createElement("span");
        m.className = "moving";
        m.textContent = "to move";
        li.append(m);
      }
      if (msg.clock && s.kind !== "ai") {
        const c = document.createElement("span");
        c.className = "clock" + (msg.clock.running === i && !msg.over ? " running" : "");
        c.dataset.seat = String(i);
        c.title = `Time control: ${msg.clock.words}`;
        li.append(c);
      }
      return li;
    }));
  }

  // --- the clocks: the server's figures, counted down here between its messages ------------
  function clockText(seconds) {
    const whole = Math.max(0, Math.ceil(seconds));
    if (whole >= 86400) return `${Math.floor(whole / 86400)}d ${Math.floor((whole % 86400) / 3600)}h`;
    const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), sec = whole % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? `${h}:` : "") + `${mm}:${String(sec).padStart(2, "0")}`;
  }

  function leftNow(i) {
    const c = state.clock;
    const spent = c.running === i && !state.over ? (performance.now() - clockAt) / 1000 : 0;
    return Math.max(0, c.left[i] - spent);
  }

  function tick() {
    const c = state.clock;
    document.querySelectorAll("#seats .clock").forEach((el) => {
      const i = Number(el.dataset.seat);
      const left = leftNow(i);
      el.textContent = clockText(left);
      el.classList.toggle("low", c.running === i && left < 20 && c.kind === "live");
    });
    // your running clock in the banner too, above the board (a phone shows the seats below it)
    const running = c && c.running !== null && !state.over && (state.you || []).includes(c.running);
    $("clock-now").hidden = !running;
    if (running) {
      $("clock-now").textContent = clockText(leftNow(c.running));
      $("clock-now").classList.toggle("low", leftNow(c.running) < 20 && c.kind === "live");
    }
    // people.js keeps a "(n) " prefix (your turn in n games) in front of this page's marker
    const count = (document.title.match(/^\(\d+\) /) || [""])[0];
    const mine = c && c.running !== null && (state.you || []).includes(c.running) && !state.over;
    const marker = state.your_turn ? (mine ? `● (${clockText(leftNow(c.running))}) Your turn · ` : "● Your turn · ") : "";
    document.title = count + marker + document.title.replace(/^(\(\d+\) )?(● (\([^)]*\) )?Your turn · )?/, "");
    claims();
  }
  setInterval(() => { if (state.clock) tick(); }, 250);

  // an absent player of a live game: a countdown, then a button to claim the win
  function claims() {
    const el = $("claim");
    const list = (state.clock && !state.over && state.clock.claim) || [];
    el.hidden = !list.length;
    if (!list.length) { el.replaceChildren(); return; }
    const since = (performance.now() - clockAt) / 1000;
    const rows = list.map((c) => {
      const who = ((state.seats || [])[c.seat] || {}).name || `seat ${c.seat + 1}`;
      const wait = Math.max(0, c.in - since);
      const p = document.createElement("p");
      if (wait > 0) {
        p.textContent = `${who} left the game: you can claim the win in ${Math.ceil(wait)} s.`;
      } else {
        p.append(`${who} left the game. `, button("Claim win", () => send({ type: "claim", seat: c.seat }), "primary claim-win"));
      }
      return p;
    });
    const same = el.dataset.shown === rows.map((p) => p.textContent).join("|");
    if (!same) { el.replaceChildren(...rows); el.dataset.shown = rows.map((p) => p.textContent).join("|"); }
  }

  // an invite link goes once its seat is claimed
  function invites(msg) {
    document.querySelectorAll("#links input.copy[data-seat]").forEach((el) => {
      const seat = (msg.seats || [])[Number(el.dataset.seat)];
      if (seat && seat.kind !== "open") el.closest("p").remove();
    });
  }

  function controls(msg, mine) {
    $("controls").hidden = !mine || msg.over;
    // hints and undo are for an unrated game against the AI only (the server refuses them otherwise)
    $("hint-button").hidden = $("undo-button").hidden = !msg.can_undo;
    $("hint-button").disabled = !msg.your_turn;
    $("undo-button").disabled = !log.some((e) => (msg.you || []).includes(e.by));
    $("abort-button").hidden = !msg.can_abort;
  }

  function say(text, detail) {
    const el = $("message");
    el.textContent = text || "";
    el.title = detail || "";
    el.hidden = !text;
  }

  function hint(lines) {
    const el = $("hint");
    el.replaceChildren(...lines.map((line) => {
      const p = document.createElement("p");
      p.textContent = line;
      return p;
    }));
    el.hidden = !lines.length;
  }

  // --- the move list: every legal text as a button, and a text box for any move --------
  function moves(legal) {
    $("moves").hidden = !legal.length;
    const total = state.legal_total || legal.length;
    $("move-count").textContent = legal.length ? `(${total}${total > legal.length ? `, ${legal.length} listed` : ""})` : "";
    const filter = $("move-filter").value.trim().toLowerCase();
    const list = $("move-list");
    const shown = legal.filter((t) => !filter || t.toLowerCase().includes(filter)).slice(0, 200);
    list.replaceChildren(...shown.map((t) => button(t, () => act(t), "move")));
  }

  function button(label, onclick, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (cls) b.className = cls;
    b.addEventListener("click", onclick);
    return b;
  }

  $("move-filter").addEventListener("input", () => moves(state.your_turn ? hook("listed", state) || state.legal || [] : []));
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-text").value.trim();
    if (text) { act(text); $("move-text").value = ""; }
  });

  // --- clicks on the picture (board.js finds the action under the pointer) ----------------
  const { svgPoint, underPoint, actionAt } = window.PlunderBoard;

  board.addEventListener("click", (event) => {
    if (!state.your_turn) return;
    // the game's module sees the click first and says whether it took it
    if (hook("click", event)) return;
    const action = actionAt(event);
    if (action) act(action.dataset.action);
  });

  // --- the game's own module ------------------------------------------------------------
  // a hook that throws is reported and the page goes on: the move list still plays the game
  function hook(name, arg) {
    if (typeof plugin[name] !== "function") return undefined;
    try {
      return plugin[name](arg);
    } catch (err) {
      console.error(err);
      say("This game's own controls failed; the move list still works.", String(err));
      return undefined;
    }
  }

  // what a module may use: the page's elements, the position shown, and the page's own ways
  // to act, to lay out buttons and panels and to find what lies under the pointer
  const api = {
    root, board,
    state: () => state,
    log: () => log,
    act, say, button, svgPoint, underPoint, actionAt,
    seatName: (i) => { const s = (state.seats || [])[i]; return s ? s.name : `seat ${i + 1}`; },
    // a module's own stylesheet (an address beside it: new URL("client.css", import.meta.url))
    stylesheet: (url) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = String(url);
      document.head.append(link);
    },
    // a panel under the board, or at the top of the column beside it ("side": where the eye
    // is on a desktop, right under the board on a phone), hidden until the module shows it,
    // made once per id
    panel: (id, where) => {
      let el = $(id);
      if (!el) {
        el = document.createElement("div");
        el.className = "panel";
        el.id = id;
        el.hidden = true;
        if (where === "side") root.querySelector(".side").prepend(el);
        else root.querySelector(".play").append(el);
      }
      return el;
    },
  };

  // --- hint, undo, resign, the result ---------------------------------------------------
  $("hint-button").addEventListener("click", () => {
    if (send({ type: "hint" })) hint(["Thinking…"]);
  });
  $("undo-button").addEventListener("click", () => send({ type: "undo" }));
  $("resign-button").addEventListener("click", () => {
    if (confirm("Resign this game?")) send({ type: "resign" });
  });
  $("abort-button").addEventListener("click", () => {
    if (confirm("Abort this game? It ends without a result and is not rated.")) send({ type: "abort" });
  });
  $("result-close").addEventListener("click", () => { resultSeen = true; $("result").hidden = true; });

  window.PlunderBoard.sizeToggle($("board"), $("board-size"));

  function result(msg) {
    const over = msg.over && msg.result;
    if (!over) { resultSeen = false; $("result").hidden = true; return; }
    $("verdict").textContent = msg.result.verdict;
    $("breakdown").replaceChildren(...(msg.result.breakdown || []).map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    // what the end means to this browser: a rating change, a personal best (docs/web.md, "Ratings")
    $("yours").textContent = (msg.result.yours || []).join("; ");
    $("yours").hidden = !(msg.result.yours || []).length;
    $("result").hidden = resultSeen;
  }

  document.querySelectorAll("input.copy").forEach((el) => el.addEventListener("focus", () => el.select()));

  // the module is in place before the first position is shown and the socket opens; a module
  // that cannot be loaded leaves the page playable by its move list
  const url = root.dataset.module;
  (url ? import(url) : Promise.resolve({}))
    .then((mod) => [mod, ""], (err) => [{}, String(err)])
    .then(([mod, failed]) => {
      plugin = mod;
      hook("setup", api);
      show(state);
      connect();
      if (failed) say("This game's own controls did not load; the move list still works.", failed);
    });
})();
