// The puzzle page: a click or tap on a move of the picture (board.js finds it), a move list
// button or a typed move is sent to the server, which judges it from the puzzle's proven
// values and answers with the verdict, the replies played, the new picture, and, once the
// attempt is over, the solution and the rating's change. Nothing here knows the solution.
"use strict";
(function () {
  const root = document.getElementById("puzzle");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const data = JSON.parse($("puzzle-data").textContent);
  let waiting = false;
  const said = [];           // the verdicts and replies of this attempt so far

  function say(text) {
    $("message").textContent = text || "";
    $("message").hidden = !text;
  }

  function paragraphs(el, lines) {
    el.replaceChildren(...lines.filter(Boolean).map((line) => {
      const p = document.createElement("p");
      p.textContent = line;
      return p;
    }));
  }

  function moves(legal) {
    $("moves").hidden = !legal.length;
    $("move-count").textContent = legal.length ? `(${legal.length})` : "";
    $("move-list").replaceChildren(...legal.map((t) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.textContent = t;
      b.addEventListener("click", () => send(t));
      return b;
    }));
  }

  async function send(text) {
    if (waiting || root.classList.contains("done")) return;
    waiting = true;
    root.classList.add("waiting");
    say("");
    try {
      const answer = await fetch(data.post, {
        method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
        body: JSON.stringify({ attempt: data.attempt, at: data.at, move: text }),
      });
      let body = {};
      try { body = await answer.json(); } catch (e) { body = { error: `The server answered ${answer.status}.` }; }
      if (!answer.ok || body.error) say(body.error || `The server answered ${answer.status}.`);
      else show(body);
    } catch (err) {
      say("Not connected to the server: that move was not sent; try again.");
    } finally {
      waiting = false;
      root.classList.remove("waiting");
    }
  }

  function show(answer) {
    data.attempt = answer.attempt;
    data.at = answer.at;
    board.innerHTML = answer.svg;
    const verdict = $("verdict");
    const replies = answer.replies.length ? `The reply: ${answer.replies.join(", ")}.` : "";
    // each step's verdict under the ones before: the line found so far reads in order
    said.push(answer.words, replies);
    paragraphs(verdict, said);
    verdict.classList.toggle("wrong", !answer.right);
    verdict.hidden = false;
    const key = answer.solution ? answer.solution[answer.at - 1] : null;
    $("prompt").textContent = answer.prompt || (answer.status === "solved" ? "Solved!"
      : `Not solved: the move to find, ${key ? key.action : ""}, is drawn in orange; the whole line is listed.`);
    moves(answer.legal);
    if (answer.status === "on") return;
    root.classList.add("done");
    root.classList.remove("my-turn");
    root.classList.add(answer.status);
    $("rating").textContent = answer.score;
    $("streak").textContent = answer.streak;
    $("rating-change").textContent = answer.rating;
    $("rating-change").hidden = false;
    $("rated").hidden = true;
    $("again").hidden = false;
    $("solution-line").replaceChildren(...answer.solution.map((s) => {
      const li = document.createElement("li");
      li.value = s.n;
      li.textContent = `${s.action} (${s.by})`;
      if (s.by !== "the reply") li.className = "by-you";
      return li;
    }));
    $("theme").textContent = answer.theme ? `Theme: ${answer.theme}.` : "";
    $("theme").hidden = !answer.theme;
    $("solution").hidden = false;
  }

  board.addEventListener("click", (event) => {
    if (root.classList.contains("done")) return;
    const action = window.PlunderBoard.actionAt(event);
    if (action) send(action.dataset.action);
  });
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-text").value.trim();
    if (text) { send(text); $("move-text").value = ""; }
  });
  // a puzzle is a small board looked at closely: on a phone its full size (words 10 px and up)
  // unless the player chose the whole board
  window.PlunderBoard.sizeToggle(board, $("board-size"), true);
  moves(data.legal);
})();
