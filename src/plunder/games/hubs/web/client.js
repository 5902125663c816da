// Hubs on the game page (Client.module, docs/web.md): while dots are placed, the sheet carries
// data-action-pattern with the lattice's origin and step, and a click places a dot on the
// lattice point nearest it (a ghost dot follows the pointer, green on a free point the server
// listed); once segments are drawn, each dot carries data-dot and two dots clicked make a
// segment. The server checks every action; nothing here knows the rules.

let api = null;
let picked = null;  // the first dot of a segment

export function setup(page) {
  api = page;
  api.board.addEventListener("mousemove", ghost);
}

export function update(msg) {
  picked = null;
  api.panel("hub-pick").hidden = true;
  if (msg.your_turn && api.board.querySelector("[data-dot].action")) markDots();
}

export function click(event) {
  const dot = event.target.closest("[data-dot].action");
  if (dot) { pickDot(dot); return true; }
  if (api.actionAt(event)) return false;  // a target drawn on the sheet is the page's to act
  const sheet = event.target.closest("[data-action-pattern]") || api.underPoint(event, "[data-action-pattern]");
  if (!sheet) return false;
  const pt = latticePoint(sheet, event);
  if (pt) api.act(patternText(sheet, pt));
  return true;
}

// the lattice point nearest a click on the sheet, from the sheet's origin and step
function latticePoint(sheet, event) {
  const p = api.svgPoint(sheet.ownerSVGElement, event);
  const d = sheet.dataset;
  const step = Number(d.step);
  const x = Math.round((p.x - Number(d.originX)) / step);
  const y = Math.round((Number(d.originY) - p.y) / step);
  if (x < 0 || y < 0 || x >= Number(d.width) || y >= Number(d.height)) return null;
  return { x, y, cx: Number(d.originX) + x * step, cy: Number(d.originY) - y * step };
}

function patternText(sheet, pt) {
  return sheet.dataset.actionPattern.replace("{x}", pt.x).replace("{y}", pt.y);
}

function ghost(event) {
  const state = api.state();
  const sheet = state.your_turn && api.board.querySelector("[data-action-pattern]");
  const svg = api.board.querySelector("svg");
  let dot = svg && svg.querySelector("circle.ghost");
  const pt = sheet && latticePoint(sheet, event);
  if (!pt) { if (dot) dot.remove(); return; }
  if (!dot) {
    dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    dot.setAttribute("class", "ghost");
    dot.setAttribute("r", Math.max(4, Math.min(9, Number(sheet.dataset.step) * 0.32)));
    svg.append(dot);
  }
  dot.setAttribute("cx", pt.cx);
  dot.setAttribute("cy", pt.cy);
  const legal = state.legal || [];
  const listed = legal.includes(patternText(sheet, pt));
  // a capped list may leave a legal point out: only a full list can say a point is taken
  dot.classList.toggle("bad", !listed && legal.length >= (state.legal_total || 0));
}

// --- two dots make a segment -------------------------------------------------------------
// a segment's text names its dots in label order (a..z, then aa, ab, ...)
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
  api.act(text);
}

function markDots() {
  const legal = new Set(api.state().legal || []);
  api.board.querySelectorAll("[data-dot]").forEach((el) => {
    const label = el.dataset.dot;
    el.classList.toggle("picked", label === picked);
    el.classList.toggle("partner", picked !== null && label !== picked && legal.has(segmentText(picked, label)));
  });
  const panel = api.panel("hub-pick");
  panel.hidden = picked === null;
  panel.textContent = picked === null ? "" : `Dot ${picked} picked: click the dot to join it to (outlined dots are legal), or click it again to let go.`;
}
