// Profiteer on the game page (Client.module, docs/web.md): the picture's →A/→B tabs under the
// resources are small on a phone, so the switches the server lists are also offered as buttons
// big enough for a finger (at least 44 px), each naming the card and the side. The texts are
// the server's legal moves; nothing here knows the rules.

let api = null;

export function setup(page) {
  api = page;
  api.stylesheet(new URL("client.css", import.meta.url));
}

export function update(msg) {
  const panel = api.panel("profiteer-switches");
  panel.classList.add("switches");
  const switches = msg.your_turn ? (msg.legal || []).filter((t) => t.startsWith("switch ")) : [];
  panel.hidden = !switches.length;
  if (!switches.length) { panel.replaceChildren(); return; }
  const title = document.createElement("h3");
  title.textContent = "Switch a resource for a side's face-up card";
  // "switch A K": the resource K goes to side A, whose face-up card comes to the resources
  const buttons = switches.map((t) => {
    const [, side, rank] = t.split(" ");
    return api.button(`${rank} → ${side}`, () => api.act(t), "switch");
  });
  const row = document.createElement("div");
  row.className = "pick";
  row.append(...buttons);
  panel.replaceChildren(title, row);
}
