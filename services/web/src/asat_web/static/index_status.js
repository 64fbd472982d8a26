// AsAt: the index's build on the research and chat pages (templates/_index_status.html). While the
// index is being built, asks GET /index-status on this origin every few seconds and moves the
// progress bar (the percentage, the rate and the time left); when the state changes (built, or the
// build failed) it reloads the page, which the server renders with the form usable again, or why
// not. Without this script the page says so and offers a link to check again.
(function () {
  "use strict";

  var section = document.getElementById("index-status");
  if (!section || section.getAttribute("data-index-state") !== "building") { return; }
  var bar = document.getElementById("index-progress");
  var EVERY_MS = 3000;

  function slot(name) { return section.querySelector("[data-slot=" + name + "]"); }

  function show(view) {
    if (view.state !== "building") { window.location.reload(); return; }
    bar.value = view.percent;
    bar.textContent = view.percent_text;
    var percent = slot("percent");
    // The live region speaks only when the whole percentage moves, not at every poll.
    if (percent.textContent !== view.percent_text) { percent.textContent = view.percent_text; }
    slot("rate").textContent = view.rate_text;
    slot("left").textContent = view.left_text;
    slot("phase").textContent = view.phase_text;
    window.setTimeout(poll, EVERY_MS);
  }

  function poll() {
    fetch("/index-status", { headers: { accept: "application/json" }, credentials: "same-origin" })
      .then(function (reply) {
        if (!reply.ok) { throw new Error("GET /index-status answered " + reply.status); }
        return reply.json();
      })
      .then(show)
      .catch(function () { window.setTimeout(poll, EVERY_MS * 2); });  // research restarting: ask again later
  }

  window.setTimeout(poll, EVERY_MS);
})();
