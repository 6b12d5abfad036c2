// A running batch's page (templates/batch.html.j2): follow its progress without reloading;
// reload once it has ended, to show its downloads or its error. Without JavaScript the
// page refreshes itself (a <noscript> refresh) instead.
(function () {
  "use strict";
  var box = document.getElementById("batch");
  if (!box || box.dataset.state !== "running") return;
  var bar = document.getElementById("batch-bar");
  var done = document.getElementById("batch-done");
  var wait = 1000;

  function poll() {
    fetch(box.dataset.status, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (answer) { return answer.json(); })
      .then(function (status) {
        if (status.state !== "running") { window.location.reload(); return; }
        bar.max = status.total;
        bar.value = status.done;
        bar.textContent = status.done + " of " + status.total;
        done.textContent = status.done;
        wait = 1000;
        window.setTimeout(poll, wait);
      })
      .catch(function () {
        wait = Math.min(wait * 2, 10000);  // the server busy or restarting: try again later
        window.setTimeout(poll, wait);
      });
  }
  window.setTimeout(poll, wait);
})();
