// The replay page: step through a game's positions (buttons, slider, keyboard, move list).
// Each position's picture is asked of the server (it replays the record through the rules);
// the browser only shows what it is sent.
(() => {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const config = JSON.parse(root.dataset.config);
  if (!config.download) {
    // an upload is not stored: its record, which the page carries, is downloaded from the page
    const blob = new Blob([root.dataset.record], {type: "application/json"});
    document.getElementById("download").href = URL.createObjectURL(blob);
  }
  const board = document.getElementById("board");
  const told = document.getElementById("told");
  const slider = document.getElementById("step");
  const at = document.getElementById("at");
  const error = document.getElementById("replay-error");
  const buttons = {first: "first", prev: "prev", next: "next", last: "last"};
  for (const id in buttons) buttons[id] = document.getElementById(id);
  const items = new Map();
  for (const li of document.querySelectorAll("#moves li")) items.set(Number(li.dataset.n), li);
  const frames = new Map();   // position -> {svg, told}; the most recent few kept
  const KEEP = 80;
  let wanted = config.start;

  async function fetchFrame(n) {
    if (frames.has(n)) return frames.get(n);
    let res = await fetch(config.frames + n);
    if (res.status === 410 && config.kind === "upload") {
      // this server no longer holds the uploaded record: send it again
      res = await fetch(config.frames + n, {method: "POST", body: root.dataset.record,
                                            headers: {"Content-Type": "application/json"}});
    }
    const body = await res.json().catch(() => ({error: "the server sent no picture"}));
    if (!res.ok) throw new Error(body.error || body.detail || res.statusText);
    frames.set(n, body);
    if (frames.size > KEEP) frames.delete(frames.keys().next().value);
    return body;
  }

  function mark(n) {
    slider.value = n;
    at.textContent = n;
    root.dispatchEvent(new CustomEvent("position", {detail: n}));  // the coach follows (coach.js)
    buttons.first.disabled = buttons.prev.disabled = n <= 0;
    buttons.next.disabled = buttons.last.disabled = n >= config.last;
    for (const li of document.querySelectorAll("#moves li.current")) li.classList.remove("current");
    const li = items.get(n);
    if (li) {
      li.classList.add("current");
      const list = li.parentElement;
      if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = li.offsetTop - list.clientHeight / 2;
      }
    }
  }

  async function show(n) {
    n = Math.max(0, Math.min(config.last, n));
    wanted = n;
    mark(n);
    try {
      const frame = await fetchFrame(n);
      if (wanted !== n) return;  // a later step overtook this one
      board.innerHTML = frame.svg;
      told.textContent = frame.told;
      error.hidden = true;
      root.dataset.shown = String(n);
      history.replaceState(null, "", "#" + n);
      if (n < config.last) fetchFrame(n + 1).catch(() => {});
    } catch (e) {
      error.textContent = "That position cannot be shown: " + e.message;
      error.hidden = false;
    }
  }

  buttons.first.addEventListener("click", () => show(0));
  buttons.prev.addEventListener("click", () => show(wanted - 1));
  buttons.next.addEventListener("click", () => show(wanted + 1));
  buttons.last.addEventListener("click", () => show(config.last));
  slider.addEventListener("input", () => show(Number(slider.value)));
  for (const [n, li] of items) {
    li.querySelector("a").addEventListener("click", (event) => { event.preventDefault(); show(n); });
  }
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target.tagName;
    if (event.target === slider || tag === "TEXTAREA" || (tag === "INPUT" && event.target.type !== "range")) return;
    const step = {ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10}[event.key];
    if (step !== undefined) show(wanted + step);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(config.last);
    else return;
    event.preventDefault();
  });

  const fromHash = /^#(\d+)$/.exec(location.hash);
  if (fromHash && Number(fromHash[1]) !== config.start) show(Number(fromHash[1]));
  else { mark(config.start); root.dataset.shown = String(config.start); }
})();
