// A game's page (templates/game.html.j2) works without this file: each log is a form,
// saved whole with its button. With it, a tap saves at once: crossing a box in a row crosses
// the boxes before it (and clearing one clears those after it), as on paper; the log goes
// as JSON to PATCH /api/games/{id}/ships/{ship} with the version it was shown at, so a
// change made elsewhere in between is refused rather than lost, and the page then shows
// the log as stored. Every few seconds the page asks for the game and brings in what the
// other players (or the GM) changed.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const main = document.getElementById("game");
  if (!main || !window.fetch) return;
  const api = `/api/games/${main.dataset.game}`;
  const headers = { "Content-Type": "application/json", "X-Game-Token": main.dataset.token };
  const said = document.getElementById("game-said");
  const busy = new Set();

  function marksOf(form) {
    const marks = {};
    for (const input of form.querySelectorAll("input[name]")) {
      if (input.name === "token" || input.name === "version") continue;
      marks[input.name] = input.type === "checkbox" ? input.checked : input.value;
    }
    return marks;
  }

  function show(form, ship) {
    form.dataset.version = ship.version;
    form.querySelector("input[name=version]").value = ship.version;
    for (const input of form.querySelectorAll("input[name]")) {
      if (input.name === "token" || input.name === "version") continue;
      const value = ship.marks[input.name];
      if (input.type === "checkbox") input.checked = value === true;
      else if (document.activeElement !== input) input.value = typeof value === "string" ? value : "";
    }
    for (const row of form.querySelectorAll(".track[data-track]")) {
      const track = ship.tracks[row.dataset.track];
      if (!track) continue;
      row.classList.toggle("ended", track.ended);
      row.querySelectorAll(".boxes > label.box").forEach((label, i) => {
        label.classList.toggle("reached", i < track.crossed);
      });
    }
  }

  function tell(form, text) {
    const place = form ? form.querySelector(".log-said") : said;
    place.textContent = text;
    if (!form) said.hidden = !text;
  }

  async function save(form) {
    busy.add(form);
    tell(form, "Saving…");
    try {
      const answer = await fetch(`${api}/ships/${form.dataset.ship}`, {
        method: "PATCH",
        headers,
        body: JSON.stringify({ version: Number(form.dataset.version), marks: marksOf(form) }),
      });
      const body = await answer.json();
      if (answer.ok) {
        show(form, body);
        tell(form, "Saved.");
      } else if (answer.status === 409) {
        // the stored log first, then the words that say so
        await refresh(true);
        tell(form, "Changed elsewhere meanwhile: this log now shows what is stored; tap again.");
      } else {
        tell(form, body.error || `Not saved (${answer.status}).`);
      }
    } catch (error) {
      tell(form, "Not saved: the server does not answer. Tap again, or use the Save button.");
    } finally {
      busy.delete(form);
    }
  }

  async function refresh(all) {
    let answer;
    try {
      answer = await fetch(api, { headers });
    } catch (error) {
      return;
    }
    if (!answer.ok) return;
    const game = await answer.json();
    for (const ship of game.ships) {
      const form = document.getElementById(`ship-${ship.key}`);
      if (!form || (busy.has(form) && !all)) continue;
      if (all || Number(form.dataset.version) !== ship.version) show(form, ship);
    }
  }

  for (const form of document.querySelectorAll("form.log[data-ship]")) {
    const button = form.querySelector(".log-save button");
    if (!button) continue; // the game has ended: the logs are shown, not changed
    button.hidden = true;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      save(form);
    });
    form.addEventListener("change", (event) => {
      const input = event.target;
      const boxes = input.closest(".boxes");
      if (boxes && input.type === "checkbox" && input.closest("label.box") && !input.closest("label.box").querySelector("span")) {
        // a row's boxes are crossed in order, as on paper
        const row = [...boxes.querySelectorAll("label.box:not(:has(span)) input")];
        const at = row.indexOf(input);
        row.forEach((box, i) => {
          if (input.checked && i < at) box.checked = true;
          if (!input.checked && i > at) box.checked = false;
        });
      }
      save(form);
    });
  }
  setInterval(() => refresh(false), 5000);
});
