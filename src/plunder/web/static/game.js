// The game page: shows the position the server sends over the WebSocket and sends back the
// action texts the player clicks. There are no rules here: the picture's elements carry
// their actions (data-action; Hubs' sheet a data-action-pattern, its dots data-dot), the
// server checks every action and says plainly why one is refused. The move list and the
// Crossroads trade panel only arrange the legal texts the server sent.
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
  let picked = null;         // Hubs: the first dot of a segment
  let resultSeen = false;    // the result screen was closed: do not open it again

  // --- the connection -------------------------------------------------------------------
  function connect() {
    const url = new URL(root.dataset.ws, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(url);
    socket.onopen = () => { retry = 0; link("live"); };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = () => {
      link("reconnecting");
      waiting = false;
      // back off to at most 10 s; the server sends the whole position on reconnecting
      setTimeout(connect, Math.min(10000, 500 * 2 ** retry++));
    };
  }

  function link(how) {
    const el = $("link");
    el.className = "link " + how;
    el.textContent = how === "live" ? "● live" : "○ reconnecting…";
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      say("Not connected to the server; trying again…");
      return false;
    }
    socket.send(JSON.stringify(message));
    return true;
  }

  function act(text) {
    if (waiting || !state.your_turn) return;
    if (send({ type: "act", action: text, ply: state.ply })) {
      waiting = true;
      root.classList.add("waiting");
      say("");
    }
  }

  function receive(msg) {
    switch (msg.type) {
      case "state": show(msg); break;
      case "log": older(msg.log || [], msg.from); break;
      case "error": done(); say(msg.message, msg.detail); break;
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
    state = msg;
    done();
    if (moved) { say(""); $("hint").hidden = true; }
    picked = null;
    board.innerHTML = msg.svg;
    $("status").textContent = msg.status;
    const mine = (msg.you || []).length > 0;
    root.classList.toggle("spectator", !mine);
    root.classList.toggle("my-turn", !!msg.your_turn);
    $("turn").hidden = !msg.your_turn;
    $("thinking").hidden = !msg.thinking;
    document.title = (msg.your_turn ? "● Your turn · " : "") + document.title.replace(/^● Your turn · /, "");
    seats(msg);
    controls(msg, mine);
    moves(msg.your_turn ? msg.legal || [] : []);
    trade(msg.your_turn ? msg.legal || [] : []);
    hubs(msg);
    result(msg);
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
      const who = s.kind === "ai" ? `AI (${s.level})` : s.kind === "open" ? "open seat" : s.name;
      li.append(dot, document.createTextNode(s.label && s.label !== who ? `${s.label}: ${who}` : who));
      if (s.to_move) {
        const m = document.createElement("span");
        m.className = "moving";
        m.textContent = "to move";
        li.append(m);
      }
      return li;
    }));
  }

  function controls(msg, mine) {
    $("controls").hidden = !mine || msg.over;
    // hints and undo are for a game against the AI only (the server refuses them otherwise)
    $("hint-button").hidden = $("undo-button").hidden = !msg.can_undo;
    $("hint-button").disabled = !msg.your_turn;
    $("undo-button").disabled = !log.some((e) => (msg.you || []).includes(e.by));
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

  $("move-filter").addEventListener("input", () => moves(state.your_turn ? state.legal || [] : []));
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-text").value.trim();
    if (text) { act(text); $("move-text").value = ""; }
  });

  // --- clicks on the picture ------------------------------------------------------------
  function svgPoint(svg, event) {
    const p = svg.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }

  // Hubs: the lattice point nearest a click on the sheet, from the sheet's origin and step
  function latticePoint(sheet, event) {
    const svg = sheet.ownerSVGElement;
    const p = svgPoint(svg, event);
    const step = Number(sheet.dataset.step);
    const x = Math.round((p.x - Number(sheet.dataset.originX)) / step);
    const y = Math.round((Number(sheet.dataset.originY) - p.y) / step);
    if (x < 0 || y < 0 || x >= Number(sheet.dataset.width) || y >= Number(sheet.dataset.height)) return null;
    return { x, y, cx: Number(sheet.dataset.originX) + x * step, cy: Number(sheet.dataset.originY) - y * step };
  }

  function patternText(sheet, pt) {
    return sheet.dataset.actionPattern.replace("{x}", pt.x).replace("{y}", pt.y);
  }

  board.addEventListener("click", (event) => {
    if (!state.your_turn) return;
    const target = event.target;
    const dot = target.closest("[data-dot].action");
    if (dot) { pickDot(dot); return; }
    // a ship or a label drawn over a target does not hide it: what lies under the pointer counts
    const action = target.closest("[data-action]") || underPoint(event, "[data-action]");
    if (action) { act(action.dataset.action); return; }
    const sheet = target.closest("[data-action-pattern]") || underPoint(event, "[data-action-pattern]");
    if (sheet) {
      const pt = latticePoint(sheet, event);
      if (pt) act(patternText(sheet, pt));
      return;
    }
    if (tradeOpen) pickCity(event);
  });

  function underPoint(event, selector) {
    return document.elementsFromPoint(event.clientX, event.clientY).find((el) => el.matches && el.matches(selector));
  }

  // a ghost dot follows the pointer over Hubs' sheet: green on a free point the server listed
  board.addEventListener("mousemove", (event) => {
    const sheet = state.your_turn && board.querySelector("[data-action-pattern]");
    const svg = board.querySelector("svg");
    let ghost = svg && svg.querySelector("circle.ghost");
    if (!sheet) { if (ghost) ghost.remove(); return; }
    const pt = latticePoint(sheet, event);
    if (!pt) { if (ghost) ghost.remove(); return; }
    if (!ghost) {
      ghost = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      ghost.setAttribute("class", "ghost");
      ghost.setAttribute("r", Math.max(4, Math.min(9, Number(sheet.dataset.step) * 0.32)));
      svg.append(ghost);
    }
    ghost.setAttribute("cx", pt.cx);
    ghost.setAttribute("cy", pt.cy);
    const legal = state.legal || [];
    const listed = legal.includes(patternText(sheet, pt));
    // a capped list may leave a legal point out: only a full list can say a point is taken
    ghost.classList.toggle("bad", !listed && legal.length >= (state.legal_total || 0));
  });

  // --- Hubs: two dots make a segment ----------------------------------------------------
  function labelIndex(label) {
    return label.length === 1 ? label.charCodeAt(0) - 97 : 26 + 26 * (label.charCodeAt(0) - 97) + label.charCodeAt(1) - 97;
  }

  function segmentText(a, b) {
    return labelIndex(a) < labelIndex(b) ? `seg ${a}-${b}` : `seg ${b}-${a}`;
  }

  function pickDot(el) {
    const label = el.dataset.dot;
    if (picked === label) { picked = null; markDots(); return; }
    if (picked === null) { picked = label; markDots(); return; }
    const text = segmentText(picked, label);
    picked = null;
    markDots();
    act(text);
  }

  function markDots() {
    const legal = new Set(state.legal || []);
    board.querySelectorAll("[data-dot]").forEach((el) => {
      const label = el.dataset.dot;
      el.classList.toggle("picked", label === picked);
      el.classList.toggle("partner", picked !== null && label !== picked && legal.has(segmentText(picked, label)));
    });
    const panel = $("hub-pick");
    panel.hidden = picked === null;
    panel.textContent = picked === null ? "" : `Dot ${picked} picked: click the dot to join it to (outlined dots are legal), or click it again to let go.`;
  }

  function hubs(msg) {
    $("hub-pick").hidden = true;
    if (msg.your_turn && board.querySelector("[data-dot].action")) markDots();
  }

  // --- Crossroads: trading as a panel ---------------------------------------------------
  // An offer's text: offer A3-F1 [via C2=1,D5=0] gold 2/1
  const OFFER = /^offer ([a-j]\d+)-([a-j]\d+)(?: via (\S+))? gold (\d+)\/(\d+)$/i;
  let tradeOpen = false;
  let choice = { mine: null, theirs: null, route: null };

  function parseOffer(text) {
    const m = OFFER.exec(text);
    if (!m) return null;
    const relays = m[3] ? m[3].split(",").map((r) => r.split("=")) : [];
    return { text, mine: m[1].toUpperCase(), theirs: m[2].toUpperCase(), route: relays.map((r) => r[0].toUpperCase()).join(","),
             relays, give: Number(m[4]), get: Number(m[5]) };
  }

  // who owns the city on a cell, read off the picture (the house drawn in the cell)
  function ownerOf(cell) {
    const rect = board.querySelector(`rect.cell[data-cell="${cell}"]`);
    if (!rect) return "";
    const box = rect.getBoundingClientRect();
    const hit = document.elementsFromPoint(box.left + box.width / 2, box.top + box.height * 0.7)
      .find((el) => el.matches && el.matches(".city"));
    return hit ? hit.dataset.owner : "";
  }

  function seatName(owner) {
    const i = Number((owner || "").slice(1)) - 1;
    const s = (state.seats || [])[i];
    return s ? s.name : owner;
  }

  function trade(legal) {
    const panel = $("trade");
    const offers = legal.map(parseOffer).filter(Boolean);
    const answering = legal.includes("accept");
    tradeOpen = offers.length > 0;
    if (!offers.length && !answering) { panel.hidden = true; markCells(); return; }
    panel.hidden = false;
    panel.replaceChildren();
    if (answering) {
      answer(panel, legal);
      return;
    }
    const h = document.createElement("h3");
    h.textContent = "Trade: make an offer or pass";
    panel.append(h);
    if (!offers.some((o) => o.mine === choice.mine)) choice = { mine: null, theirs: null, route: null };
    const mineCities = [...new Set(offers.map((o) => o.mine))];
    if (mineCities.length === 1) choice.mine = mineCities[0];
    panel.append(row("Your city", mineCities.map((c) => [c, c]), choice.mine, (v) => { choice = { mine: v, theirs: null, route: null }; trade(legal); }));
    const forMine = offers.filter((o) => o.mine === choice.mine);
    if (choice.mine) {
      const theirs = [...new Set(forMine.map((o) => o.theirs))];
      if (theirs.length === 1) choice.theirs = theirs[0];
      panel.append(row("With", theirs.map((c) => [c, `${c} (${seatName(ownerOf(c))})`]), choice.theirs, (v) => { choice.theirs = v; choice.route = null; trade(legal); }));
    }
    const forPair = forMine.filter((o) => o.theirs === choice.theirs);
    if (choice.theirs) {
      const routes = [...new Set(forPair.map((o) => o.route))];
      if (routes.length === 1) choice.route = routes[0];
      if (routes.length > 1 || routes[0]) {
        panel.append(row("Route", routes.map((r) => [r, r ? `through ${r.split(",").map((c) => `${c} (${seatName(ownerOf(c))})`).join(", ")}` : "direct"]),
          choice.route, (v) => { choice.route = v; trade(legal); }));
      }
    }
    if (choice.theirs && choice.route !== null) {
      const splits = forPair.filter((o) => o.route === choice.route);
      const p = document.createElement("div");
      p.className = "splits";
      const label = document.createElement("span");
      label.textContent = "Split the 3 new gold:";
      p.append(label);
      for (const o of splits) {
        const parts = [`you ${o.give}`, `${seatName(ownerOf(o.theirs))} ${o.get}`]
          .concat(o.relays.map(([cell, fee]) => `${cell} ${fee}`));
        p.append(button(parts.join(" · "), () => act(o.text), "offer"));
      }
      panel.append(p);
    }
    if (legal.includes("pass")) panel.append(button("Pass", () => act("pass"), "pass"));
    markCells();
  }

  function answer(panel, legal) {
    const h = document.createElement("h3");
    h.textContent = "An offer names you";
    const told = document.createElement("p");
    const last = log.length ? log[log.length - 1].text : "";
    told.textContent = last;
    panel.append(h, told);
    const p = document.createElement("div");
    p.className = "answers";
    p.append(button("Accept", () => act("accept"), "accept"), button("Reject", () => act("reject"), "reject"));
    const demands = legal.filter((t) => /^demand \d+$/.test(t));
    if (demands.length) {
      const sel = document.createElement("select");
      sel.id = "demand-fee";
      sel.setAttribute("aria-label", "the fee to demand");
      for (const t of demands) {
        const o = document.createElement("option");
        o.value = t;
        o.textContent = `${t.split(" ")[1]} gold`;
        sel.append(o);
      }
      p.append(button("Demand a fee of", () => act(sel.value), "demand"), sel);
    }
    panel.append(p);
  }

  function row(label, options, current, onpick) {
    const div = document.createElement("div");
    div.className = "pick";
    const span = document.createElement("span");
    span.textContent = label + ":";
    div.append(span);
    for (const [value, words] of options) {
      const b = button(words, () => onpick(value), value === current ? "chosen" : "");
      b.dataset.value = value;
      div.append(b);
    }
    return div;
  }

  // outline the cities the offer being made names
  function markCells() {
    board.querySelectorAll("rect.cell").forEach((el) => {
      const cell = el.dataset.cell;
      el.classList.toggle("mine", tradeOpen && cell === choice.mine);
      el.classList.toggle("theirs", tradeOpen && cell === choice.theirs);
    });
  }

  // clicking a city while an offer is being made picks it: one's own, then a partner's
  function pickCity(event) {
    const rect = underPoint(event, "rect.cell");
    if (!rect) return;
    const cell = rect.dataset.cell;
    const offers = (state.legal || []).map(parseOffer).filter(Boolean);
    if (offers.some((o) => o.mine === cell)) choice = { mine: cell, theirs: null, route: null };
    else if (offers.some((o) => o.mine === choice.mine && o.theirs === cell)) { choice.theirs = cell; choice.route = null; }
    else return;
    trade(state.legal || []);
  }

  // --- hint, undo, resign, the result ---------------------------------------------------
  $("hint-button").addEventListener("click", () => {
    if (send({ type: "hint" })) hint(["Thinking…"]);
  });
  $("undo-button").addEventListener("click", () => send({ type: "undo" }));
  $("resign-button").addEventListener("click", () => {
    if (confirm("Resign this game?")) send({ type: "resign" });
  });
  $("result-close").addEventListener("click", () => { resultSeen = true; $("result").hidden = true; });

  function result(msg) {
    const over = msg.over && msg.result;
    if (!over) { resultSeen = false; $("result").hidden = true; return; }
    $("verdict").textContent = msg.result.verdict;
    $("breakdown").replaceChildren(...(msg.result.breakdown || []).map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    $("result").hidden = resultSeen;
  }

  document.querySelectorAll("input.copy").forEach((el) => el.addEventListener("focus", () => el.select()));

  show(state);
  connect();
})();
