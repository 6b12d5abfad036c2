// A unit's form (templates/unit.html.j2) works without this file: saving it shows the
// problems beside their fields. With it, each change is checked as you make it, nothing
// saved: the form goes as JSON to /api/scenarios/{id}/check, and the answer puts each
// problem beside its field, shows both sides' strengths, and fills in the values the rules
// work out (ratings from class and traits ...) where you left them as they were shown.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("unit-form");
  if (!form || !window.fetch) return;
  const SHOWN = "@"; // the prefix of a derived field's shown value (generator/web/forms.py)
  const top = document.getElementById("unit-problems");
  const state = document.getElementById("check-state");
  let asked = 0;
  let timer = null;

  function fields() {
    const found = {};
    for (const [name, value] of new FormData(form)) {
      if (name === "token" || name === "version" || typeof value !== "string") continue;
      if (name in found) {
        found[name] = [].concat(found[name], value);
      } else {
        // a group of boxes to tick is a list, however many are ticked
        const boxes = form.querySelectorAll(`input[type=checkbox][name="${CSS.escape(name)}"]`);
        found[name] = boxes.length > 1 ? [value] : value;
      }
    }
    return found;
  }

  function show(answer) {
    for (const p of form.querySelectorAll(".field-problem")) {
      p.hidden = true;
      p.textContent = "";
    }
    for (const bad of form.querySelectorAll("[aria-invalid]")) bad.removeAttribute("aria-invalid");
    for (const [name, messages] of Object.entries(answer.fields || {})) {
      const p = form.querySelector(`.field-problem[data-for="${CSS.escape(name)}"]`);
      if (!p) continue;
      p.textContent = messages.join("; ");
      p.hidden = false;
      const input = document.getElementById(`field-${name}`);
      (input || p.closest("fieldset") || p).setAttribute("aria-invalid", "true");
    }
    top.replaceChildren(...(answer.unplaced || []).map((line) => {
      const p = document.createElement("p");
      p.textContent = line;
      return p;
    }));
    top.hidden = !(answer.unplaced || []).length;
    for (const [name, value] of Object.entries(answer.derived || {})) {
      const input = form.elements.namedItem(name);
      const was = form.elements.namedItem(SHOWN + name);
      if (!(input instanceof HTMLInputElement) || !(was instanceof HTMLInputElement)) continue;
      if (input.value === was.value) { // left as shown: it follows the rules
        input.value = was.value = value === null ? "" : String(value);
      }
    }
    for (const s of answer.strengths || []) {
      const dd = document.querySelector(`#strengths dd[data-side="${s.side}"]`);
      if (dd) dd.textContent = String(s.strength);
    }
    if (state) state.textContent = (answer.strengths || []).length ? state.dataset.fresh : state.dataset.stale;
  }

  async function check() {
    const mine = ++asked;
    const body = { unit: { side: Number(form.dataset.side), index: Number(form.dataset.index), fields: fields() } };
    try {
      const response = await fetch(form.dataset.check, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      const answer = await response.json();
      if (mine !== asked) return; // a later change is being checked
      if (response.ok || response.status === 422) {
        show(answer);
      } else if (state) {
        state.textContent = answer.error || `The check failed (${response.status}).`;
      }
    } catch (error) {
      if (state && mine === asked) state.textContent = "Not checked: the server did not answer.";
    }
  }

  form.addEventListener("change", check);
  form.addEventListener("input", (event) => {
    if (!(event.target instanceof HTMLInputElement) || event.target.type === "checkbox") return;
    clearTimeout(timer);
    timer = setTimeout(check, 400);
  });
});
