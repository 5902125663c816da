// The Pillage board editor. The page edits a sketch (a lattice's dots and cells, which cells
// are boxes, their contents, the lines drawn before play, the legend); after every change the
// server turns it into a board file and has the game read it, and answers with the file, the
// game's own picture of it, or the game's refusal in words. Nothing here decides what a valid
// board is.
(() => {
  "use strict";
  const root = document.getElementById("editor");
  if (!root) return;
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const canvas = $("canvas"), status = $("status"), save = $("save"), play = $("play");
  const playBoard = $("play-board"), floor = $("floor");
  const hints = {
    boxes: "Click or drag over cells to add or remove boxes.",
    contents: "Click or drag over boxes to put the brush's content in them.",
    lines: "Click a line to draw it before play (click again to rub it out).",
  };
  let sketch = JSON.parse(root.dataset.sketch);
  let checked = null;        // the server's last answer, for the sketch as it was sent
  let sent = 0, timer = null, highlighted = null;

  // ---- drawing the sketch ----
  const key = (a, b) => (a < b ? a + "-" + b : b + "-" + a);
  const el = (name, attrs, parent) => {
    const node = document.createElementNS(SVG, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  };
  const tool = () => document.querySelector("input[name=tool]:checked").value;

  // a content as a box shows it: $3, Food, -5 FA (the game's picture spells modifiers out)
  function short(text) {
    const t = text.trim();
    if (!t) return "";
    if (/^[0-9]+$/.test(t)) return "$" + t;
    const m = /^([+\-x]+)\s*([0-9]+)\s+(.*)$/.exec(t);
    if (m) return m[1] + m[2] + " " + m[3].split(/\s*[/|]\s*/).map((k) => k[0].toUpperCase()).join("");
    return t[0].toUpperCase() + t.slice(1);
  }

  function draw() {
    const dots = sketch.dots, pad = 24;
    let w = 0, h = 0;
    for (const d of dots) { w = Math.max(w, d.px); h = Math.max(h, d.py); }
    const svg = el("svg", {viewBox: `${-pad} ${-pad} ${w + 2 * pad} ${h + 2 * pad}`, class: "sketch",
                           role: "img", "aria-label": "the board being drawn"});
    const drawn = new Set(sketch.drawn.map(([a, b]) => key(a, b)));
    const edges = new Map(), used = new Set();
    sketch.cells.forEach((cycle, c) => {
      const on = sketch.on[c];
      const points = cycle.map((d) => `${dots[d].px},${dots[d].py}`).join(" ");
      const poly = el("polygon", {points, class: "cell" + (on ? " on" : "") + (c === highlighted ? " faulty" : ""),
                                  "data-cell": c}, svg);
      poly.appendChild(el("title", {})).textContent = on ? `box ${c}` : `cell ${c} (not a box)`;
      if (!on) return;
      cycle.forEach((d, i) => {
        const e = cycle[(i + 1) % cycle.length];
        edges.set(key(d, e), [d, e]);
        used.add(d);
      });
    });
    sketch.cells.forEach((cycle, c) => {
      const text = sketch.on[c] ? short(sketch.contents[c] || "") : "";
      if (!text) return;
      const cx = cycle.reduce((s, d) => s + dots[d].px, 0) / cycle.length;
      const cy = cycle.reduce((s, d) => s + dots[d].py, 0) / cycle.length;
      el("text", {x: cx, y: cy + 5, class: "content", "font-size": text.length > 5 ? 11 : 14,
                  "text-anchor": "middle"}, svg).textContent = text;
    });
    for (const [k, [a, b]] of edges) {
      const g = el("g", {class: "edge" + (drawn.has(k) ? " drawn" : ""), "data-edge": k}, svg);
      el("line", {x1: dots[a].px, y1: dots[a].py, x2: dots[b].px, y2: dots[b].py, class: "hit"}, g);
      el("line", {x1: dots[a].px, y1: dots[a].py, x2: dots[b].px, y2: dots[b].py, class: "stroke"}, g);
    }
    for (const d of used) el("circle", {cx: dots[d].px, cy: dots[d].py, r: 4, class: "dot"}, svg);
    svg.dataset.tool = tool();
    canvas.replaceChildren(svg);
    $("tool-hint").textContent = hints[tool()];
  }

  // ---- editing ----
  function brush() {
    const kind = document.querySelector("input[name=content]:checked").value;
    if (kind === "doubloons") return String(Math.max(1, parseInt($("pile").value, 10) || 1));
    if (kind === "commodity") return $("commodity").value;
    if (kind === "modifier") {
      const ops = [...document.querySelectorAll("input.op:checked")].map((o) => o.value).join("") || "-";
      const kinds = [...document.querySelectorAll("#modifier-kinds input:checked")].map((k) => k.value);
      return `${ops}${Math.max(0, parseInt($("amount").value, 10) || 0)} ${kinds.join("/") || sketch.legend[0]?.[0] || "food"}`;
    }
    return "";
  }
  function showBrush() { $("brush").textContent = brush() || "(empty)"; }
  $("fill-empty").addEventListener("click", () => {
    const content = brush();
    sketch.cells.forEach((_, c) => { if (sketch.on[c] && !(sketch.contents[c] || "").trim()) sketch.contents[c] = content; });
    changed();
  });

  let painting = null;  // while the pointer is down: the value being painted
  function paint(cell) {
    if (painting === null || cell === null) return;
    if (tool() === "boxes") {
      if (sketch.on[cell] === painting) return;
      sketch.on[cell] = painting;
    } else if (tool() === "contents") {
      if (!sketch.on[cell] || sketch.contents[cell] === painting) return;
      sketch.contents[cell] = painting;
    }
    changed();
  }
  function cellAt(event) {
    const hit = document.elementFromPoint(event.clientX, event.clientY);
    const cell = hit && hit.closest("[data-cell]");
    return cell ? Number(cell.dataset.cell) : null;
  }
  canvas.addEventListener("pointerdown", (event) => {
    if (tool() === "lines") {
      const edge = event.target.closest("[data-edge]");
      if (!edge) return;
      const k = edge.dataset.edge;
      const at = sketch.drawn.findIndex(([a, b]) => key(a, b) === k);
      if (at >= 0) sketch.drawn.splice(at, 1); else sketch.drawn.push(k.split("-").map(Number));
      changed();
      return;
    }
    const cell = cellAt(event);
    if (cell === null) return;
    event.preventDefault();
    painting = tool() === "boxes" ? !sketch.on[cell] : brush();
    paint(cell);
  });
  canvas.addEventListener("pointermove", (event) => { if (painting !== null) paint(cellAt(event)); });
  for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, () => { painting = null; });
  for (const radio of document.querySelectorAll("input[name=tool]")) radio.addEventListener("change", draw);
  $("palette").addEventListener("input", () => {
    document.querySelector("input[name=tool][value=contents]").checked = true;
    showBrush();
    draw();
  });

  // ---- the legend ----
  function drawLegend() {
    const body = $("legend");
    body.replaceChildren();
    sketch.legend.forEach(([kind, value], i) => {
      const row = document.createElement("tr");
      row.innerHTML = `<td><input class="kind" size="10" aria-label="commodity ${i + 1}"></td>
        <td><input class="value" type="number" aria-label="starting value of commodity ${i + 1}"></td>
        <td><button type="button" class="remove" title="remove this commodity" aria-label="remove commodity ${i + 1}">×</button></td>`;
      row.querySelector(".kind").value = kind;
      row.querySelector(".value").value = value;
      row.querySelector(".kind").addEventListener("change", (e) => { sketch.legend[i][0] = e.target.value.trim().toLowerCase(); drawLegend(); changed(); });
      row.querySelector(".value").addEventListener("change", (e) => { sketch.legend[i][1] = parseInt(e.target.value, 10) || 0; changed(); });
      row.querySelector(".remove").addEventListener("click", () => { sketch.legend.splice(i, 1); drawLegend(); changed(); });
      body.appendChild(row);
    });
    const kinds = sketch.legend.map(([k]) => k);
    const commodity = $("commodity"), chosen = commodity.value;
    commodity.replaceChildren(...kinds.map((k) => new Option(k, k, false, k === chosen)));
    const boxes = $("modifier-kinds");
    const ticked = new Set([...boxes.querySelectorAll("input:checked")].map((k) => k.value));
    boxes.replaceChildren(...kinds.map((k, i) => {
      const label = document.createElement("label");
      label.innerHTML = `<input type="checkbox" value="">`;
      const box = label.firstChild;
      box.value = k;
      box.checked = ticked.size ? ticked.has(k) : true;
      label.append(" " + k);
      return label;
    }));
    showBrush();
  }
  $("add-kind").addEventListener("click", () => {
    const names = ["gold", "spice", "silk", "rum", "timber", "cloth", "salt", "tea"];
    const free = names.find((n) => !sketch.legend.some(([k]) => k === n)) || "cargo";
    sketch.legend.push([free, 5]);
    drawLegend();
    changed();
  });

  // ---- starting over ----
  async function load(response) {
    const answer = await response.json().catch(() => ({ok: false, error: "the server did not answer"}));
    if (!answer.ok) { showError(answer.error); return; }
    sketch = answer.sketch;
    highlighted = null;
    drawLegend();
    changed();
  }
  function lattice(filled) {
    const spec = `${$("lattice-kind").value}:${$("lattice-rows").value}x${$("lattice-cols").value}`;
    const legend = sketch.legend;
    fetch(`${root.dataset.lattice}?spec=${encodeURIComponent(spec)}&filled=${filled ? 1 : 0}`).then(async (r) => {
      await load(r);
      sketch.legend = legend;  // a new shape keeps the legend being designed
      drawLegend();
      changed();
    });
  }
  $("new-filled").addEventListener("click", () => lattice(true));
  $("new-empty").addEventListener("click", () => { document.querySelector("input[name=tool][value=boxes]").checked = true; lattice(false); });
  $("open-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    await load(await fetch(root.dataset.open, {method: "POST", body: await file.text()}));
  });

  // ---- checking with the server ----
  function showError(message) {
    status.textContent = message;
    status.className = "status error";
  }
  function changed() {
    draw();
    checked = null;
    save.classList.add("disabled");
    save.setAttribute("aria-disabled", "true");
    play.disabled = true;
    status.textContent = "Checking…";
    status.className = "status";
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  }
  async function check() {
    const mine = ++sent;
    let answer;
    try {
      const response = await fetch(`${root.dataset.check}?floor=${encodeURIComponent(floor.value.trim() || "none")}`,
                                   {method: "POST", body: JSON.stringify(sketch), headers: {"Content-Type": "application/json"}});
      answer = await response.json();
    } catch (e) {
      answer = {ok: false, error: "The server could not be reached to check the board."};
    }
    if (mine !== sent) return;  // a later change is being checked
    const was = highlighted;
    highlighted = answer.ok ? null : (answer.cell ?? null);
    if (was !== highlighted) draw();
    if (!answer.ok) {
      showError(answer.error);
      root.dataset.checked = "error";
      return;
    }
    checked = answer;
    status.textContent = "Ready to play: " + answer.summary + ".";
    status.className = "status ok";
    save.href = URL.createObjectURL(new Blob([answer.file], {type: "application/json"}));
    save.classList.remove("disabled");
    save.removeAttribute("aria-disabled");
    playBoard.value = answer.board;
    play.disabled = false;
    $("preview-svg").innerHTML = answer.svg;
    root.dataset.checked = "ok";
  }
  save.addEventListener("click", (event) => { if (!checked) event.preventDefault(); });
  floor.addEventListener("input", changed);
  $("show-preview").addEventListener("click", () => {
    const preview = $("preview");
    preview.hidden = !preview.hidden;
    $("show-preview").textContent = preview.hidden ? "Show the game's picture" : "Hide the game's picture";
  });
  $("play-form").addEventListener("submit", (event) => { if (!checked) event.preventDefault(); });

  drawLegend();
  changed();
})();
