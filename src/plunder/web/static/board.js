// What a page showing a game's picture shares (the game page, game.js, and the puzzle page,
// puzzle.js): the picture is the server's SVG, its elements carry their action texts
// (data-action); this finds the action under a click or tap, and offers a phone the choice
// between the whole board and the board at its full size (scrolling sideways).
"use strict";
window.PlunderBoard = (function () {
  function svgPoint(svg, event) {
    const p = svg.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }

  function underPoint(event, selector) {
    return document.elementsFromPoint(event.clientX, event.clientY).find((el) => el.matches && el.matches(selector));
  }

  // a ship or a label drawn over a target does not hide it: what lies under the pointer counts
  function actionAt(event) {
    return event.target.closest("[data-action]") || underPoint(event, "[data-action]");
  }

  // on a small screen: the whole board, or its full size scrolling sideways (the choice is kept
  // for every page; before one is made, a page's own default: the puzzle page's is the full
  // size, where its words read at 10 px and up); the button says what a press gives
  function sizeToggle(board, button, fullByDefault) {
    function set(full) {
      board.classList.toggle("full", full);
      button.setAttribute("aria-pressed", String(full));
      button.textContent = full ? "Whole board" : "Full size";
      try { localStorage.setItem("plunder.boardFull", full ? "1" : ""); } catch (e) { /* storage off: not kept */ }
    }
    let kept = Boolean(fullByDefault);
    try {
      const chosen = localStorage.getItem("plunder.boardFull");
      if (chosen !== null) kept = chosen === "1";
    } catch (e) { /* storage off: the page's default */ }
    set(kept);
    button.addEventListener("click", () => set(!board.classList.contains("full")));
  }

  return { svgPoint, underPoint, actionAt, sizeToggle };
})();
