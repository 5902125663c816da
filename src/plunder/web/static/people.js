// The room around the tables, on every page: the header's "My games" marker and the tab
// title's "(n) " prefix when it is this browser's turn in n games (a look at /mine.json every
// few seconds while the page is visible), and on a finished game's page the Rematch button
// and offer (the game page's state messages, passed on by game.js as "plunder:state").
"use strict";
(function () {
  const people = document.getElementById("people");
  if (!people) return;
  const every = 1000 * (Number(people.dataset.poll) || 15);
  const title = document.title.replace(/^\(\d+\) /, "");

  async function look() {
    if (document.visibilityState !== "visible") return;
    try {
      const answer = await fetch("/mine.json", { credentials: "same-origin", cache: "no-store" });
      if (!answer.ok) return;
      const data = await answer.json();
      const n = Number(data.your_turn) || 0;
      const count = document.getElementById("turn-count");
      count.hidden = n === 0;
      count.textContent = String(n);
      count.title = n === 1 ? "your turn in 1 game" : `your turn in ${n} games`;
      const bare = document.title.replace(/^\(\d+\) /, "");
      document.title = (n ? `(${n}) ` : "") + bare;
    } catch (e) { /* offline for a moment: the next look tries again */ }
  }
  look();
  setInterval(look, every);
  document.addEventListener("visibilitychange", look);

  // --- rematch on a finished game's page ----------------------------------------------------
  const game = document.getElementById("game");
  const box = document.getElementById("rematch");
  if (!game || !box) return;
  let offered = null;   // the rematch as last seen: redirect when it becomes ready while here

  function form(label, cls) {
    const f = document.createElement("form");
    f.method = "post";
    f.action = box.dataset.post;
    const b = document.createElement("button");
    b.type = "submit";
    b.className = cls;
    b.textContent = label;
    f.append(b);
    return f;
  }

  function draw(target, msg) {
    const r = msg.rematch;
    const parts = [];
    if (!r) parts.push(form("Rematch", "primary rematch-button"));
    else if (r.you_waiting) {
      const p = document.createElement("span");
      p.textContent = "Your opponent offers a rematch.";
      parts.push(p, form("Accept rematch", "primary accept-rematch"));
    } else if (!r.ready) {
      const p = document.createElement("span");
      p.className = "rematch-waiting";
      p.textContent = `Rematch: waiting for ${r.waiting} player${r.waiting === 1 ? "" : "s"} to accept…`;
      parts.push(p);
    } else {
      const a = document.createElement("a");
      a.className = "button";
      a.href = r.path;
      a.textContent = "Go to the rematch";
      parts.push(a);
    }
    target.replaceChildren(...parts);
    target.hidden = false;
  }

  game.addEventListener("plunder:state", (event) => {
    const msg = event.detail;
    const mine = (msg.you || []).length > 0;
    if (!msg.over || !mine) { box.hidden = true; return; }
    const r = msg.rematch;
    if (r && r.ready && offered && !offered.ready) { location.assign(r.path); return; }
    offered = r || { ready: false };
    draw(box, msg);
    const inCard = document.getElementById("rematch-result");
    if (inCard) draw(inCard, msg);
  });
})();
