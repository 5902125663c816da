// Crossroads on the game page (Client.module, docs/web.md): trading as a panel beside the
// board (below it on a phone), the only place offers are made (the picture and the move list
// list none: they are tens, each a city pair, a route and a split). The server
// sends each legal move's fields beside its text (legal_fields: an offer's cities, route,
// fees, split and the seats owning them), so the panel builds its choices from fields: your
// city, then the partner's, then the route, then the split; a click on a city of the board
// picks it too. Answering an offer: accept, reject, or demand a fee. The server checks
// every action; nothing here knows the rules.

let api = null;
let tradeOpen = false;
let choice = { mine: null, theirs: null, route: null };

export function setup(page) {
  api = page;
}

export function update() {
  trade();
}

// the move list lists the building moves only: every trading move (offers, pass, answers:
// the moves with fields) is played from the panel, so a trading turn shows no raw list
export function listed(msg) {
  const fields = msg.legal_fields || [];
  return (msg.legal || []).filter((text, i) => !fields[i]);
}

// clicking a city while an offer is being made picks it: one's own, then a partner's
export function click(event) {
  if (!tradeOpen || api.actionAt(event)) return false;
  const rect = api.underPoint(event, "rect.cell");
  if (!rect) return false;
  const cell = rect.dataset.cell;
  const offers = legalMoves().filter((m) => m.kind === "offer");
  if (offers.some((o) => o.from === cell)) choice = { mine: cell, theirs: null, route: null };
  else if (offers.some((o) => o.from === choice.mine && o.to === cell)) { choice.theirs = cell; choice.route = null; }
  else return false;
  trade();
  return true;
}

// the legal moves listed for this player, each its fields with its text (none: not its turn)
function legalMoves() {
  const state = api.state();
  if (!state.your_turn) return [];
  const fields = state.legal_fields || [];
  return (state.legal || []).map((text, i) => ({ ...(fields[i] || {}), text }));
}

function withSeat(cell, seat) {
  return `${cell} (${api.seatName(seat)})`;
}

function trade() {
  // beside the board on a desktop, right under it on a phone: where the eye is
  const panel = api.panel("trade", "side");
  const legal = legalMoves();
  const offers = legal.filter((m) => m.kind === "offer").map((o) => ({ ...o, via: o.route.join(",") }));
  const answering = legal.some((m) => m.kind === "accept");
  tradeOpen = offers.length > 0;
  const pass = legal.find((m) => m.kind === "pass");
  if (!offers.length && !answering && !pass) { panel.hidden = true; markCells(); return; }
  panel.hidden = false;
  panel.replaceChildren();
  if (answering) {
    answer(panel, legal);
    return;
  }
  const h = document.createElement("h3");
  h.textContent = offers.length ? "Trade: make an offer or pass" : "Trade: no offer is open to you; pass";
  panel.append(h);
  if (!offers.length) {
    panel.append(api.button("Pass", () => api.act(pass.text), "pass"));
    markCells();
    return;
  }
  // a choice the position no longer offers (a city that traded meanwhile, a route gone) is dropped
  if (!offers.some((o) => o.from === choice.mine)) choice = { mine: null, theirs: null, route: null };
  if (!offers.some((o) => o.from === choice.mine && o.to === choice.theirs)) { choice.theirs = null; choice.route = null; }
  if (!offers.some((o) => o.from === choice.mine && o.to === choice.theirs && o.via === choice.route)) choice.route = null;
  const mineCities = [...new Set(offers.map((o) => o.from))];
  if (mineCities.length === 1) choice.mine = mineCities[0];
  panel.append(row("Your city", mineCities.map((c) => [c, c]), choice.mine, (v) => { choice = { mine: v, theirs: null, route: null }; trade(); }));
  const forMine = offers.filter((o) => o.from === choice.mine);
  if (choice.mine) {
    const theirs = [...new Map(forMine.map((o) => [o.to, o.partner])).entries()];
    if (theirs.length === 1) choice.theirs = theirs[0][0];
    panel.append(row("With", theirs.map(([c, seat]) => [c, withSeat(c, seat)]), choice.theirs, (v) => { choice.theirs = v; choice.route = null; trade(); }));
  }
  const forPair = forMine.filter((o) => o.to === choice.theirs);
  if (choice.theirs) {
    const routes = [...new Map(forPair.map((o) => [o.via, o])).values()];
    if (routes.length === 1) choice.route = routes[0].via;
    if (routes.length > 1 || routes[0].via) {
      const words = (o) => o.via ? `through ${o.route.map((c, i) => withSeat(c, o.route_seats[i])).join(", ")}` : "direct";
      panel.append(row("Route", routes.map((o) => [o.via, words(o)]), choice.route, (v) => { choice.route = v; trade(); }));
    }
  }
  if (choice.theirs && choice.route !== null) {
    const p = document.createElement("div");
    p.className = "splits";
    const label = document.createElement("span");
    label.textContent = "Split the 3 new gold:";
    p.append(label);
    for (const o of forPair.filter((x) => x.via === choice.route)) {
      const parts = [`you ${o.mine}`, `${api.seatName(o.partner)} ${o.theirs}`].concat(o.route.map((c, i) => `${c} ${o.fees[i]}`));
      p.append(api.button(parts.join(" · "), () => api.act(o.text), "offer"));
    }
    panel.append(p);
  }
  if (pass) panel.append(api.button("Pass", () => api.act(pass.text), "pass"));
  markCells();
}

function answer(panel, legal) {
  const h = document.createElement("h3");
  h.textContent = "An offer names you";
  const told = document.createElement("p");
  const log = api.log();
  told.textContent = log.length ? log[log.length - 1].text : "";
  panel.append(h, told);
  const p = document.createElement("div");
  p.className = "answers";
  for (const [kind, words] of [["accept", "Accept"], ["reject", "Reject"]]) {
    const move = legal.find((m) => m.kind === kind);
    if (move) p.append(api.button(words, () => api.act(move.text), kind));
  }
  const demands = legal.filter((m) => m.kind === "demand");
  if (demands.length) {
    const sel = document.createElement("select");
    sel.id = "demand-fee";
    sel.setAttribute("aria-label", "the fee to demand");
    for (const d of demands) {
      const o = document.createElement("option");
      o.value = d.text;
      o.textContent = `${d.fee} gold`;
      sel.append(o);
    }
    p.append(api.button("Demand a fee of", () => api.act(sel.value), "demand"), sel);
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
    const b = api.button(words, () => onpick(value), value === current ? "chosen" : "");
    b.dataset.value = value;
    div.append(b);
  }
  return div;
}

// outline the cities the offer being made names
function markCells() {
  api.board.querySelectorAll("rect.cell").forEach((el) => {
    const cell = el.dataset.cell;
    el.classList.toggle("mine", tradeOpen && cell === choice.mine);
    el.classList.toggle("theirs", tradeOpen && cell === choice.theirs);
  });
}
