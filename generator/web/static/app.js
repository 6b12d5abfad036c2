// Quartermaster's web app works without this file. With it, a game night's page shows
// its packet's pages in place (they are laid out when asked: the page itself comes at
// once), and changing a print option shows the pages with it, without leaving the page.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const list = document.getElementById("page-list");
  const options = document.getElementById("print-options");
  const packet = document.getElementById("packet-link");
  const show = (query) => {
    list.setAttribute("aria-busy", "true");
    list.innerHTML = '<p class="hint">Laying out the pages…</p>';
    fetch(options.action + "?" + query + "&part=1", { credentials: "same-origin" })
      .then((answer) => answer.text().then((text) => ({ ok: answer.ok, text })))
      .then(({ ok, text }) => {
        if (ok) {
          list.innerHTML = text;
        } else {
          // a refusal comes as a page: show its message
          const page = new DOMParser().parseFromString(text, "text/html");
          const problems = page.querySelector(".problems");
          list.replaceChildren(problems || document.createTextNode("The pages could not be made."));
        }
      })
      .catch(() => { list.innerHTML = '<p class="hint">The pages could not be fetched: reload the page.</p>'; })
      .finally(() => list.removeAttribute("aria-busy"));
  };
  if (list && options && list.dataset.src) {
    show(new URLSearchParams(new FormData(options)).toString());
  }
  if (list && options) {
    options.addEventListener("change", () => {
      const query = new URLSearchParams(new FormData(options)).toString();
      if (packet) packet.href = packet.href.split("?")[0] + "?" + query;
      show(query);
    });
    options.addEventListener("submit", (event) => {
      event.preventDefault();
      show(new URLSearchParams(new FormData(options)).toString());
    });
  }
});
