// The new-game form: a preset fills in its parameters, and the seat rows follow the number
// of players. The server checks every value; this only saves typing.
"use strict";
(function () {
  const form = document.getElementById("new-game");
  if (!form) return;
  const presets = JSON.parse(document.getElementById("presets").textContent);
  const preset = document.getElementById("preset");
  const playersParam = form.dataset.playersParam;
  const counts = form.dataset.seatCounts.split(",").map(Number);
  const field = (name) => form.querySelector(`[data-param="${name}"]`);

  function seatCount() {
    if (!playersParam) return counts[counts.length - 1];
    const n = parseInt(field(playersParam).value, 10);
    return counts.includes(n) ? n : counts[counts.length - 1];
  }

  function showSeats() {
    const n = seatCount();
    form.querySelectorAll(".seat").forEach((row) => {
      const on = Number(row.dataset.seat) < n;
      row.hidden = !on;
      row.querySelector("select").disabled = !on;  // a hidden seat is not sent
    });
  }

  if (preset) {
    preset.addEventListener("change", () => {
      const values = presets[preset.value];
      if (!values) return;
      for (const [name, value] of Object.entries(values)) {
        const f = field(name);
        if (f) f.value = value;
      }
      showSeats();
    });
    // editing a parameter by hand leaves the preset's name behind: the values are what count
    form.querySelectorAll("[data-param]").forEach((f) => f.addEventListener("change", () => {
      const values = presets[preset.value];
      if (values && values[f.dataset.param] !== f.value) preset.value = "";
    }));
  }
  if (playersParam) field(playersParam).addEventListener("input", showSeats);
  showSeats();
})();
