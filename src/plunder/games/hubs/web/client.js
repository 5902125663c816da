// Hubs on the game page (Client.module, docs/web.md): while dots are placed, the sheet carries
// data-action-pattern with the lattice's origin and step, and a click places a dot on the
// lattice point nearest it (a ghost dot follows the pointer, green on a free point the server
// listed; a click just outside the frame takes the nearest point on its edge). A tap (touch)
// aims instead of placing: the ghost dot and a magnified view of the sheet around it show the
// point, arrows move it one point at a time, and "Place" places it — the points of a large
// sheet are a few pixels apart on a phone. Once segments are drawn, each dot carries data-dot
// and two dots clicked (or tapped) make a segment. The server checks every action; nothing
// here knows the rules.

let api = null;
let picked = null;  // the first dot of a segment
let aim = null;     // the lattice point a tap aims at, placed with the aiming panel's button

// a click this far outside the frame (in lattice steps, or in screen pixels where the steps
// are finer) still takes the nearest point on its edge
const EDGE_STEPS = 0.75;
const EDGE_PIXELS = 12;
// the magnified view shows this many lattice steps across
const LOUPE_STEPS = 8;

export function setup(page) {
  api = page;
  api.stylesheet(new URL("client.css", import.meta.url));
  api.board.addEventListener("mousemove", ghost);
  // a finger moving over the sheet moves the ghost dot as a mouse does
  api.board.addEventListener("touchmove", (event) => {
    if (event.touches.length === 1) ghost(event.touches[0]);
  }, { passive: true });
}

export function update(msg) {
  picked = null;
  aim = null;
  api.panel("hub-pick").hidden = true;
  api.panel("hub-aim").hidden = true;
  if (msg.your_turn && api.board.querySelector("[data-dot].action")) markDots();
}

export function click(event) {
  const dot = event.target.closest("[data-dot].action");
  if (dot) { pickDot(dot); return true; }
  if (api.actionAt(event)) return false;  // a target drawn on the sheet is the page's to act
  const sheet = api.board.querySelector("[data-action-pattern]");
  if (!sheet) return false;
  const pt = latticePoint(sheet, event);
  if (!pt) {
    // a click on the picture near the sheet but off it: say so rather than do nothing
    if (nearSheet(sheet, event)) api.say("That is outside the sheet: click (or tap) on a lattice point inside the frame.");
    return nearSheet(sheet, event);
  }
  if (event.pointerType === "touch") aimAt(sheet, pt);
  else api.act(patternText(sheet, pt));
  return true;
}

// the lattice point nearest a point on the picture, from the sheet's origin and step: inside
// the frame the nearest one, just outside it (EDGE_STEPS) the nearest on the edge, else null
function latticePoint(sheet, event) {
  const p = api.svgPoint(sheet.ownerSVGElement, event);
  const d = sheet.dataset;
  const step = Number(d.step);
  const fx = (p.x - Number(d.originX)) / step, fy = (Number(d.originY) - p.y) / step;
  const x = Math.min(Number(d.width) - 1, Math.max(0, Math.round(fx)));
  const y = Math.min(Number(d.height) - 1, Math.max(0, Math.round(fy)));
  const pixels = sheet.ownerSVGElement.getScreenCTM().a * step;  // screen pixels a step
  const reach = Math.max(EDGE_STEPS, EDGE_PIXELS / pixels);
  if (Math.abs(fx - x) > reach || Math.abs(fy - y) > reach) return null;
  return at(sheet, x, y);
}

function at(sheet, x, y) {
  const d = sheet.dataset, step = Number(d.step);
  return { x, y, cx: Number(d.originX) + x * step, cy: Number(d.originY) - y * step };
}

// within a few steps of the frame: a click meant for the sheet that missed it
function nearSheet(sheet, event) {
  const p = api.svgPoint(sheet.ownerSVGElement, event);
  const d = sheet.dataset, step = Number(d.step), margin = 3 * step;
  const left = Number(d.originX), bottom = Number(d.originY);
  return p.x > left - margin && p.x < left + (Number(d.width) - 1) * step + margin
      && p.y < bottom + margin && p.y > bottom - (Number(d.height) - 1) * step - margin;
}

// --- aiming by touch -----------------------------------------------------------------------
function aimAt(sheet, pt) {
  aim = pt;
  drawGhost(sheet, pt);
  const panel = api.panel("hub-aim");
  panel.classList.add("aim");
  const d = sheet.dataset;
  const move = (dx, dy) => () => {
    const x = Math.min(Number(d.width) - 1, Math.max(0, aim.x + dx));
    const y = Math.min(Number(d.height) - 1, Math.max(0, aim.y + dy));
    aimAt(sheet, at(sheet, x, y));
  };
  const text = patternText(sheet, aim);
  const place = api.button(`Place ${text}`, () => api.act(text), "primary place");
  place.disabled = isBad(sheet, aim);
  const arrows = document.createElement("div");
  arrows.className = "arrows";
  arrows.append(api.button("←", move(-1, 0), "nudge"), api.button("↑", move(0, 1), "nudge"),
                api.button("↓", move(0, -1), "nudge"), api.button("→", move(1, 0), "nudge"));
  const title = document.createElement("p");
  title.textContent = place.disabled ? `Point ${aim.x},${aim.y} is taken: move the aim.` : `Aiming at ${aim.x},${aim.y}.`;
  panel.replaceChildren(title, loupe(sheet, aim), arrows, place,
                        api.button("Cancel", () => { aim = null; panel.hidden = true; }, "cancel"));
  panel.hidden = false;
}

// the sheet around the aimed point, magnified: a copy of the picture seen through a small window
function loupe(sheet, pt) {
  const svg = sheet.ownerSVGElement.cloneNode(true);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.querySelectorAll("[id]").forEach((el) => el.removeAttribute("id"));
  const half = (LOUPE_STEPS / 2) * Number(sheet.dataset.step);
  svg.setAttribute("viewBox", `${pt.cx - half} ${pt.cy - half * 0.5} ${2 * half} ${half}`);
  svg.setAttribute("class", "loupe");
  svg.setAttribute("aria-hidden", "true");
  return svg;
}

function isBad(sheet, pt) {
  const state = api.state();
  const legal = state.legal || [];
  // a capped list may leave a legal point out: only a full list can say a point is taken
  return !legal.includes(patternText(sheet, pt)) && legal.length >= (state.legal_total || 0);
}

function patternText(sheet, pt) {
  return sheet.dataset.actionPattern.replace("{x}", pt.x).replace("{y}", pt.y);
}

function ghost(event) {
  if (aim) return;  // while aiming by touch the ghost stays on the aimed point
  const state = api.state();
  const sheet = state.your_turn && api.board.querySelector("[data-action-pattern]");
  const pt = sheet && latticePoint(sheet, event);
  drawGhost(sheet, pt);
}

function drawGhost(sheet, pt) {
  const svg = api.board.querySelector("svg");
  let dot = svg && svg.querySelector("circle.ghost");
  if (!pt) { if (dot) dot.remove(); return; }
  if (!dot) {
    dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    dot.setAttribute("class", "ghost");
    dot.setAttribute("r", Math.max(4, Math.min(9, Number(sheet.dataset.step) * 0.32)));
    svg.append(dot);
  }
  dot.setAttribute("cx", pt.cx);
  dot.setAttribute("cy", pt.cy);
  dot.classList.toggle("bad", isBad(sheet, pt));
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
