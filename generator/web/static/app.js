// Quartermaster's web app works without this file; with it, the print options show their
// pages as soon as one is changed.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const options = document.getElementById("print-options");
  if (options) {
    options.addEventListener("change", () => options.requestSubmit());
  }
});
