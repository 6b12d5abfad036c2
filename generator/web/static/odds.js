// The odds page works without this file; with it, choosing a rule shows its inputs at once.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const choose = document.getElementById("choose-resolver");
  const rule = choose && choose.querySelector("select[name=resolver]");
  if (rule) {
    rule.addEventListener("change", () => {
      if (rule.value) choose.requestSubmit();
    });
  }
});
