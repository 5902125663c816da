// Hubs on the game page (Client.module, docs/web.md): while dots are placed, the sheet carries
// data-action-pattern with the lattice's origin and step, and a click places a dot on the
// lattice point nearest it (a ghost dot follows the pointer, green on a free point, red on a
// taken one; a click just outside the frame takes the nearest point on its edge). Once
// segments are drawn, each dot carries data-dot and two dots clicked make a segment.
//
// A tap (touch) aims instead of acting, since the points of a large sheet are a few pixels
// apart on a phone: the nearest point (or, once segments are drawn, the nearest dot) is aimed
// at, and a panel fixed at the bottom of the screen, where the thumb is, shows the sheet
// around it magnified (a tap on the magnified view aims again, precisely), arrows that move
// a point one step, and the button that acts ("Place 3,4", "Join c-k"). The server checks
// every action; nothing here knows the rules.

let api = null;
let picked = null;   // the first dot of a segment
let partner = null;  // by touch: the second dot aimed at, joined with the panel's button
let aim = null;      // by touch: the lattice point aimed at, placed with the panel's button

// a click this far outside the frame (in lattice steps, or in screen pixels where the steps
// are finer) still takes the nearest point on its edge
const EDGE_STEPS = 0.75;
const EDGE_PIXELS = 12;
// the magnified view shows this many lattice steps across (at least: a coarse sheet's dots
// are shown a fingertip apart)
const LOUPE_STEPS = 8;
const LOUPE_PX = 144;      // its height on the screen
const LOUPE_MAX_PX = 640;  // the panel's widest
// no word on the sheet is shown smaller than this (CSS pixels); one that would be is set
// larger when it fits, else left to the magnified view
const MIN_TEXT_PX = 10;
const MAX_GROW = 1.4;

export function setup(page) {
  api = page;
  api.stylesheet(new URL("client.css", import.meta.url));
  api.board.addEventListener("mousemove", ghost);
  // a finger moving over the sheet moves the ghost dot as a mouse does
  api.board.addEventListener("touchmove", (event) => {
    if (event.touches.length === 1) ghost(event.touches[0]);
  }, { passive: true });
  // the whole board and its full size set the words at different scales
  window.addEventListener("resize", readable);
  const size = document.getElementById("board-size");
  if (size) size.addEventListener("click", () => requestAnimationFrame(readable));
}

export function update(msg) {
  picked = null;
  partner = null;
  aim = null;
  api.panel("hub-pick").hidden = true;
  closeAim();
  readable();
  if (msg.your_turn && api.board.querySelector("[data-dot].action")) markDots();
}

export function click(event) {
  const sheet = api.board.querySelector("[data-action-pattern]");
  const joining = api.board.querySelector("[data-dot].action");
  // a tap aims at the nearest dot, unless it is on a button drawn under the sheet
  if (event.pointerType === "touch" && joining && !api.actionAt(event)) {
    const dot = nearestDot(api.svgPoint(joining.ownerSVGElement, event), joining.ownerSVGElement);
    if (dot) { aimDot(dot); return true; }
  }
  const dot = event.target.closest("[data-dot].action");
  if (dot) { pickDot(dot); return true; }
  if (api.actionAt(event)) return false;  // a target drawn on the sheet is the page's to act
  if (!sheet) return false;
  const pt = latticePoint(sheet, api.svgPoint(sheet.ownerSVGElement, event));
  if (!pt) {
    // a click on the picture near the sheet but off it: say so rather than do nothing
    if (nearSheet(sheet, event)) api.say("That is outside the sheet: click (or tap) on a lattice point inside the frame.");
    return nearSheet(sheet, event);
  }
  if (event.pointerType === "touch") aimAt(sheet, pt);
  else api.act(patternText(sheet, pt));
  return true;
}

// the lattice point nearest a point of the picture (p, in its units), from the sheet's
// origin and step: inside the frame the nearest one, just outside it (EDGE_STEPS) the nearest
// on the edge, else null
function latticePoint(sheet, p) {
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

// the dots drawn on the sheet: [{label, el, cx, cy}]
function dots(svg) {
  return [...svg.querySelectorAll("[data-dot]")].map((el) => {
    const c = el.querySelector("circle");
    return { label: el.dataset.dot, el, cx: Number(c.getAttribute("cx")), cy: Number(c.getAttribute("cy")) };
  });
}

// the dot nearest a point of the picture, if it is within a few steps of it (a tap far from
// every dot aims at none)
function nearestDot(p, svg) {
  const sheet = svg.querySelector("rect.sheet");
  const step = sheet ? Number(sheet.dataset.step) : 20;
  let best = null, bestD = Infinity;
  for (const dot of dots(svg)) {
    const d = Math.hypot(dot.cx - p.x, dot.cy - p.y);
    if (d < bestD) { best = dot; bestD = d; }
  }
  return best && bestD <= Math.max(3 * step, 40) ? best.label : null;
}

// --- the aiming panel (touch) --------------------------------------------------------------
function aimPanel() {
  const panel = api.panel("hub-aim");
  panel.classList.add("aim");
  return panel;
}

function showAim(panel, children) {
  panel.replaceChildren(...children);
  panel.hidden = false;
  // the page scrolls on past the panel, so that no part of the sheet stays under it
  api.root.style.paddingBottom = `${panel.offsetHeight + 8}px`;
}

function closeAim() {
  api.panel("hub-aim").hidden = true;
  api.root.style.paddingBottom = "";
}

function title(text) {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}

function aimAt(sheet, pt) {
  aim = pt;
  drawGhost(sheet, pt);
  const d = sheet.dataset;
  const move = (dx, dy) => () => {
    const x = Math.min(Number(d.width) - 1, Math.max(0, aim.x + dx));
    const y = Math.min(Number(d.height) - 1, Math.max(0, aim.y + dy));
    aimAt(sheet, at(sheet, x, y));
  };
  const text = patternText(sheet, aim);
  const place = api.button(`Place ${aim.x},${aim.y}`, () => api.act(text), "primary place");
  place.disabled = isBad(sheet, aim);
  const arrows = document.createElement("div");
  arrows.className = "arrows";
  arrows.append(api.button("←", move(-1, 0), "nudge"), api.button("↑", move(0, 1), "nudge"),
                api.button("↓", move(0, -1), "nudge"), api.button("→", move(1, 0), "nudge"));
  const cancel = api.button("Cancel", () => { aim = null; drawGhost(sheet, null); closeAim(); }, "cancel");
  const actions = document.createElement("div");
  actions.className = "actions";
  actions.append(place, cancel);
  const view = loupe(sheet.ownerSVGElement, aim.cx, aim.cy, Number(d.step), (p) => {
    const hit = latticePoint(sheet, p);
    if (hit) aimAt(sheet, hit);
  });
  showAim(aimPanel(), [title(place.disabled ? `Point ${aim.x},${aim.y} is taken: move the aim.` : `Aiming at ${aim.x},${aim.y}.`),
                       view, arrows, actions]);
}

// a dot tapped (or tapped in the magnified view): the first is picked, the next is the one
// to join it to, the picked one again lets it go
function aimDot(label) {
  if (label === picked) { picked = null; partner = null; markDots(); closeAim(); return; }
  if (picked === null) picked = label;
  else partner = label;
  markDots();
  api.panel("hub-pick").hidden = true;  // the aiming panel says it, where the thumb is
  const svg = api.board.querySelector("svg");
  const sheet = svg.querySelector("rect.sheet");
  const shown = dots(svg).find((dot) => dot.label === (partner || picked));
  const view = loupe(svg, shown.cx, shown.cy, Number(sheet.dataset.step), (p) => {
    const hit = nearestDot(p, svg);
    if (hit) aimDot(hit);
  });
  const letGo = api.button(`Let go of ${picked}`, () => { picked = null; partner = null; markDots(); closeAim(); }, "cancel");
  const actions = document.createElement("div");
  actions.className = "actions";
  let said;
  if (partner === null) {
    said = `Dot ${picked} picked: tap the dot to join it to (ringed green ones can be).`;
    actions.append(letGo);
  } else {
    const text = segmentText(picked, partner);
    const ok = new Set(api.state().legal || []).has(text);
    const join = api.button(`Join ${picked}-${partner}`, () => api.act(text), "primary join");
    join.disabled = !ok;
    said = ok ? `Join ${picked} to ${partner}?` : `${picked} and ${partner} cannot be joined: tap another dot.`;
    actions.append(join, letGo);
  }
  showAim(aimPanel(), [title(said), view, actions]);
}

// the sheet around (cx, cy), magnified: a copy of the picture seen through a small window,
// its words at their drawn size; a tap on it is handed to choose (in the picture's units)
function loupe(svgEl, cx, cy, step, choose) {
  const svg = svgEl.cloneNode(true);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.querySelectorAll("[id]").forEach((el) => el.removeAttribute("id"));
  svg.querySelectorAll("text[data-size]").forEach((el) => {
    el.setAttribute("font-size", el.dataset.size);
    el.style.display = "";
  });
  // LOUPE_STEPS across a fine sheet; a coarse one's at least twice its drawn size
  const wide = Math.min(window.innerWidth, LOUPE_MAX_PX) - 32;
  const zoom = Math.max(2, wide / (LOUPE_STEPS * step));
  const w = wide / zoom, h = LOUPE_PX / zoom;
  svg.setAttribute("viewBox", `${cx - w / 2} ${cy - h / 2} ${w} ${h}`);
  svg.style.height = `${LOUPE_PX}px`;
  svg.setAttribute("class", "loupe");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "the sheet around the aim, magnified: tap to aim there");
  svg.addEventListener("click", (event) => {
    const p = svg.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    choose(p.matrixTransform(svg.getScreenCTM().inverse()));
  });
  return svg;
}

// a point is taken when a dot of this round is drawn on it; a point the full list of legal moves leaves out
// cannot be placed either (a capped list says nothing of the points it leaves out)
function isBad(sheet, pt) {
  const svg = sheet.ownerSVGElement;
  const d = sheet.dataset, step = Number(d.step);
  // the picture's numbers are rounded: a dot is on the point its centre is nearest
  const on = (dot) => Math.round((dot.cx - Number(d.originX)) / step) === pt.x
                   && Math.round((Number(d.originY) - dot.cy) / step) === pt.y;
  if (dots(svg).some((dot) => !dot.el.classList.contains("past") && on(dot))) return true;
  const state = api.state();
  const legal = state.legal || [];
  return !legal.includes(patternText(sheet, pt)) && legal.length >= (state.legal_total || 0);
}

function patternText(sheet, pt) {
  return sheet.dataset.actionPattern.replace("{x}", pt.x).replace("{y}", pt.y);
}

function ghost(event) {
  if (aim) return;  // while aiming by touch the ghost stays on the aimed point
  const state = api.state();
  const sheet = state.your_turn && api.board.querySelector("[data-action-pattern]");
  const pt = sheet && latticePoint(sheet, api.svgPoint(sheet.ownerSVGElement, event));
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

// --- words on the sheet at least MIN_TEXT_PX ----------------------------------------------
// the dots' labels, their segment counts and the frame's coordinates: each set a little
// larger where that is enough, else hidden (the magnified view shows them)
function readable() {
  const svg = api.board.querySelector("svg");
  const ctm = svg && svg.getScreenCTM();
  if (!ctm || !ctm.a) return;
  svg.querySelectorAll("text.label, text.tick, text.count").forEach((el) => {
    if (!el.dataset.size) el.dataset.size = el.getAttribute("font-size");
    const size = Number(el.dataset.size), need = MIN_TEXT_PX / ctm.a;
    el.setAttribute("font-size", String(Math.max(size, need)));
    el.style.display = need > size * MAX_GROW ? "none" : "";
  });
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

// the picked dot filled orange, the dots it can be joined to ringed green, the one aimed at
// by touch ringed dark
function markDots() {
  const legal = new Set(api.state().legal || []);
  api.board.querySelectorAll("[data-dot]").forEach((el) => {
    const label = el.dataset.dot;
    el.classList.toggle("picked", label === picked);
    el.classList.toggle("partner", picked !== null && label !== picked && legal.has(segmentText(picked, label)));
    el.classList.toggle("aimed", label === partner);
  });
  const panel = api.panel("hub-pick");
  panel.hidden = picked === null;
  panel.textContent = picked === null ? "" : `Dot ${picked} picked: click the dot to join it to (ringed green dots can be), or click it again to let go.`;
}
