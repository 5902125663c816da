// The room around the tables, on every page: the header's "My games" marker and the tab
// title's "(n) " prefix when it is this browser's turn in n games, and on the lobby and My games
// pages their lists, each pushed by the server over the /live WebSocket as it changes (made
// again after a pause when it closes); and on a finished game's page the Rematch button and
// offer (the game page's state messages, passed on by game.js as "plunder:state"); the name
// form folded on a phone.
"use strict";
(function () {
  const people = document.getElementById("people");
  if (!people) return;
  const lists = { lobby: document.getElementById("lobby-list"), mine: document.getElementById("mine-list") };
  const page = lists.lobby ? "lobby" : lists.mine ? "mine" : "";
  const FIRST_PAUSE = 1000, LAST_PAUSE = 30000;   // ms before connecting again, doubled each time
  let pause = FIRST_PAUSE;

  // on a phone the name form of a guest who has not chosen a name folds away (its summary
  // opens it) rather than take a quarter of every page; a name just refused keeps it open
  // with the reason beside the field, a reason said once (the cookie that carried it is spent)
  const me = people.querySelector("details.me");
  if (me && me.open && !me.hasAttribute("data-refused") && matchMedia("(max-width: 560px)").matches) me.open = false;
  document.cookie = "plunder_name_refused=; Max-Age=0; Path=/; SameSite=Lax";

  function marker(n) {
    const count = document.getElementById("turn-count");
    count.hidden = n === 0;
    count.textContent = String(n);
    count.title = n === 1 ? "your turn in 1 game" : `your turn in ${n} games`;
    const bare = document.title.replace(/^\(\d+\) /, "");
    document.title = (n ? `(${n}) ` : "") + bare;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/live${page ? "?page=" + page : ""}`);
    ws.onopen = () => { pause = FIRST_PAUSE; people.classList.add("live"); };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      if (msg.type === "mine") marker(Number(msg.your_turn) || 0);
      // the server renders the lists as the page itself does (escaped): they replace the old
      const list = lists[msg.type];
      if (list && typeof msg.html === "string") list.innerHTML = msg.html;
    };
    ws.onclose = () => {
      people.classList.remove("live");
      setTimeout(connect, pause);
      pause = Math.min(pause * 2, LAST_PAUSE);
    };
  }
  connect();

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
