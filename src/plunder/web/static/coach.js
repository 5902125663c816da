// The coach on a finished game's replay page: "Analyse" asks the server to value every move
// (plunder.web.coach), then the page polls for the values as they arrive and draws them: the
// value curve per seat (SVG, the current position marked, a band where the values are estimates;
// past two seats the mover's line strong and the others faint), each move in the move list
// marked good / inaccuracy / mistake / blunder / unclear, the better move when the player steps
// to a marked one, and a summary per player. An analysis the server keeps is shown on load.
// Every text goes in by textContent.
(() => {
  "use strict";
  const root = document.getElementById("replay");
  const box = document.getElementById("coach");
  if (!root || !box) return;
  const config = JSON.parse(root.dataset.config);
  const button = document.getElementById("analyse");
  const status = document.getElementById("coach-status");
  const curve = document.getElementById("coach-curve");
  const better = document.getElementById("coach-better");
  const summary = document.getElementById("coach-summary");
  const showBetter = document.getElementById("coach-show");
  const board = document.getElementById("board");
  const told = document.getElementById("told");
  let drawn = "played";  // which move the board shows at a marked position: "played" or "better"
  let toldAt = -1;        // the position tell() last spoke of
  const SVG = "http://www.w3.org/2000/svg";
  // each seat's curve in its colour on the board (plunder.core.svg.SEAT: eight seats)
  const COLOURS = (root.dataset.seatColours || "#888888").split(",");
  const SIGNS = {inaccuracy: "?!", mistake: "?", blunder: "??", unclear: "~"};
  const SURE_Z = 2;  // standard errors each side of an estimate (plunder.analysis.value.SURE_Z)
  const POLL_MS = 1000;
  const moves = [];          // the judged moves so far, in record order
  const byPosition = new Map();  // position n -> judged move that led to it
  let info = null;           // the last answer: units, seats, thresholds, progress
  let current = Number(document.getElementById("step").value);
  let focus = 0;             // the seat drawn strong when there are more than two

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function draw() {
    if (!info || !moves.length) return;
    const byWins = moves.every((m) => m.wins);
    const value = (m, seat) => (byWins ? m.wins[seat] : m.margins[seat]);
    const spread = (m, seat) => {  // SURE_Z standard errors of a seat's value (0 where exact)
      const errors = byWins ? m.win_errors : m.margin_errors;
      return errors ? SURE_Z * errors[seat] : 0;
    };
    const T = 10, B = 24;
    let lo = 0, hi = byWins ? 1 : 0;
    if (!byWins) {
      for (const m of moves) {
        m.margins.forEach((v, seat) => { lo = Math.min(lo, v - spread(m, seat)); hi = Math.max(hi, v + spread(m, seat)); });
      }
    }
    if (hi === lo) hi = lo + 1;
    const clamp = (v) => Math.min(hi, Math.max(lo, v));
    const x = (n) => Number(xOf(n));
    const y = (v) => T + (H - T - B) * (hi - clamp(v)) / (hi - lo);
    const out = svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", class: "coach-svg",
                            "aria-label": "the value of the game for each seat after each move"});
    out.append(svg("line", {x1: L, x2: W - R, y1: y(byWins ? 0.5 : 0), y2: y(byWins ? 0.5 : 0), class: "axis"}));
    out.append(svg("text", {x: 2, y: T + 8, class: "label"}, byWins ? "win 1" : `+${hi.toFixed(0)}`));
    out.append(svg("text", {x: 2, y: H - B, class: "label"}, byWins ? "0" : lo.toFixed(0)));
    out.append(svg("text", {x: L, y: H - 6, class: "label"}, byWins ? "win probability by move"
                                                                      : `margin in ${info.units} by move`));
    const crowded = info.seats.length > 2;
    info.seats.forEach((_, seat) => {
      const colour = COLOURS[seat % COLOURS.length];
      const faint = crowded && seat !== focus ? " faint" : "";
      if (moves.some((m) => spread(m, seat) > 0)) {  // the band: where the estimate may lie
        const upper = moves.map((m) => `${x(m.n).toFixed(1)},${y(value(m, seat) + spread(m, seat)).toFixed(1)}`);
        const lower = moves.map((m) => `${x(m.n).toFixed(1)},${y(value(m, seat) - spread(m, seat)).toFixed(1)}`);
        out.append(svg("polygon", {points: upper.concat(lower.reverse()).join(" "), fill: colour,
                                   class: `band${faint}`, "data-seat": seat}));
      }
      const points = moves.map((m) => `${x(m.n).toFixed(1)},${y(value(m, seat)).toFixed(1)}`).join(" ");
      out.append(svg("polyline", {points, fill: "none", stroke: colour,
                                  "stroke-width": 2, class: `seat-line${faint}`, "data-seat": seat}));
    });
    for (const m of moves) {
      if (m.mark === "good") continue;
      const faint = crowded && m.seat !== focus ? " faint" : "";
      out.append(svg("circle", {cx: x(m.n), cy: y(value(m, m.seat)), r: 4, class: `dot mark-${m.mark}${faint}`}));
    }
    const at = svg("line", {x1: x(current), x2: x(current), y1: T, y2: H - B, class: "current", id: "coach-at"});
    out.append(at);
    const legend = document.createElement("ul");
    legend.className = "coach-legend";
    info.seats.forEach((name, seat) => {
      const li = document.createElement("li");
      if (crowded && seat === focus) li.className = "focus";
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = COLOURS[seat % COLOURS.length];
      li.append(swatch, document.createTextNode(`${name}: ${who(seat)}`));
      legend.append(li);
    });
    if (moves.some((m) => !m.exact)) {
      const li = document.createElement("li");
      li.className = "band-key";
      li.textContent = "shaded: where an estimate may lie";
      legend.append(li);
    }
    curve.replaceChildren(out, legend);
    curve.hidden = false;
  }

  function markList(m) {
    const li = document.querySelector(`#moves li[data-n="${m.n}"]`);
    if (!li || m.mark === "good" || li.dataset.mark) return;  // marked already (an analysis asked again)
    li.classList.add(`mark-${m.mark}`);
    li.dataset.mark = m.mark;
    const badge = document.createElement("span");
    badge.className = "coach-mark";
    badge.textContent = ` ${SIGNS[m.mark]} ${m.mark}`;
    badge.title = m.mark === "unclear" ? `may lose ${m.loss_words} ${info.units}: the playouts cannot tell`
      : `loses ${m.loss_words} ${info.units}`;
    li.querySelector("a").append(badge);
  }

  function tell() {
    const m = byPosition.get(current);
    const line = document.getElementById("coach-at");
    if (line) { line.setAttribute("x1", xOf(current)); line.setAttribute("x2", xOf(current)); }
    if (toldAt !== current) {  // a step: replay.js draws the move played
      toldAt = current;
      drawn = root.dataset.drawn = "played";
      showBetter.textContent = "Show the better move on the board";
    }
    showBetter.hidden = !m || m.best === m.played;
    if (!m) { better.hidden = true; return; }
    if (info.seats.length > 2 && m.seat !== focus) { focus = m.seat; draw(); }
    if (m.mark === "good") {
      const cost = m.best !== m.played ? ` (loses ${m.loss_words} ${info.units})` : "";
      better.textContent = `Move ${m.n} by ${who(m.seat)}: a good move${cost}.`;
    } else if (m.mark === "unclear") {
      const perhaps = m.best !== m.played ? ` Perhaps better: ${m.best_words}.` : "";
      better.textContent = `Move ${m.n} by ${who(m.seat)}: unclear. The coach's playouts cannot tell whether it `
        + `is good or loses something (their estimate: ${m.loss_words} ${info.units}).${perhaps}`;
    } else {
      const chance = m.win_loss ? ` and ${m.exact ? "" : "about "}${Math.round(m.win_loss * 100)}% of the chance to win` : "";
      better.textContent = `Move ${m.n} by ${who(m.seat)}, ${m.mark === "inaccuracy" ? "an" : "a"} ${m.mark}: `
        + `it loses ${m.loss_words} ${info.units}${chance}. Played: ${m.played_words}. Better: ${m.best_words}.`;
    }
    better.className = `coach-better mark-${m.mark}`;
    better.hidden = false;
  }

  const W = 640, H = 200, L = 44, R = 10;  // the curve's size and its left and right margins
  const names = Array.from(document.querySelectorAll(".replay-meta .seat"), (e) => e.textContent);
  function who(seat) {  // the seat's player as the page's heading names them, else the seat's name
    return names[seat] || info.seats[seat];
  }

  function xOf(n) {  // the curve's x of position n
    return (L + (W - L - R) * n / Math.max(config.last, 1)).toFixed(1);
  }

  function summarise() {
    if (!info.summary) return;
    const table = document.createElement("table");
    const head = table.createTHead().insertRow();
    for (const h of ["Player", "Moves", `Average loss (${info.units})`, "Marks ?! / ? / ??", "Unclear", "Worst moves"]) {
      const th = document.createElement("th");
      th.textContent = h;
      head.append(th);
    }
    const body = table.createTBody();
    for (const s of info.summary) {
      const row = body.insertRow();
      const marks = `${s.marks.inaccuracy} / ${s.marks.mistake} / ${s.marks.blunder}`;
      for (const cell of [who(s.seat), s.decisions, s.average_loss, marks, s.marks.unclear,
                          s.worst.length ? s.worst.join(", ") : "none"]) {
        row.insertCell().textContent = String(cell);
      }
    }
    // a paragraph beside the table, not its caption: on a phone the table may scroll sideways,
    // and the note then still wraps to the page's width
    const note = document.createElement("p");
    note.className = "coach-note";
    note.textContent = `Marks by loss: inaccuracy from ${info.thresholds.inaccuracy}, mistake from `
      + `${info.thresholds.mistake}, blunder from ${info.thresholds.blunder} ${info.units}. A loss estimated by `
      + "playouts is marked only where its interval clears the threshold; else it is unclear.";
    summary.replaceChildren(table, note);
    summary.hidden = false;
  }

  function take(body) {
    info = body;
    for (const m of body.moves.slice(moves.length - body.since)) {
      moves.push(m);
      byPosition.set(m.n, m);
      markList(m);
    }
    draw();
    tell();
    if (body.status === "running") {
      status.textContent = `Analysing: ${body.done} of ${body.total} moves valued…`;
      setTimeout(poll, POLL_MS);
    } else if (body.status === "done") {
      status.textContent = `Analysed: ${body.total} moves valued.`;
      root.dataset.analysed = "yes";
      summarise();
    } else {
      status.textContent = body.error || "The analysis failed.";
      button.disabled = false;
    }
  }

  async function ask(url, options) {
    try {
      const res = await fetch(url, options);
      const body = await res.json().catch(() => ({error: "the server sent no analysis"}));
      if (res.status === 404 && options === undefined) return start();  // forgotten by the server: ask again
      if (!res.ok && res.status !== 202) {
        status.textContent = body.error || res.statusText;
        button.disabled = false;
        return;
      }
      take(body);
    } catch (e) {
      status.textContent = "The analysis could not be fetched: " + e.message;
      button.disabled = false;
    }
  }

  function poll() { ask(`${config.analysis}?since=${moves.length}`); }

  async function peek() {  // on load: the analysis the server keeps, if any; none leaves the button
    try {
      const res = await fetch(config.analysis);
      if (!res.ok) return;
      button.disabled = true;
      take(await res.json());
    } catch (e) { /* nothing kept: the button is there */ }
  }

  function start() {
    button.disabled = true;
    status.textContent = "Asking the coach…";
    moves.length = 0;
    byPosition.clear();
    // an upload is not stored: its record, which the page carries, goes with the request
    const sent = config.kind === "upload"
      ? {body: root.dataset.record, headers: {"Content-Type": "application/json"}} : {};
    ask(config.analyse, {method: "POST", ...sent});
  }

  async function swap() {  // the board at a marked move: the better move drawn, or the move played again
    const n = current;
    const url = drawn === "played" ? config.better + n : config.frames + n;
    try {
      const res = await fetch(url);
      const body = await res.json().catch(() => ({error: "the server sent no picture"}));
      if (!res.ok) throw new Error(body.error || res.statusText);
      if (current !== n) return;  // the player stepped on meanwhile
      board.innerHTML = body.svg;  // the server's own picture, as replay.js shows it
      told.textContent = drawn === "played" ? `Instead: ${body.told}` : body.told;
      drawn = drawn === "played" ? "better" : "played";
      root.dataset.drawn = drawn;
      showBetter.textContent = drawn === "better" ? "Show the move played" : "Show the better move on the board";
    } catch (e) {
      status.textContent = "That picture cannot be shown: " + e.message;
    }
  }

  button.addEventListener("click", start);
  if (config.kind !== "upload") peek();
  showBetter.addEventListener("click", swap);
  root.addEventListener("position", (event) => {
    current = event.detail;
    if (info) tell();
  });
})();
