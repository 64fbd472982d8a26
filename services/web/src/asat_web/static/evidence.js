// AsAt: "Show whole section" under each cited provision version. Opening the <details> the first
// time fetches the version's whole text from this origin (GET /source/{id}/text, an HTML fragment
// rendered and escaped by the server) and shows it in place. Without this script the opened
// details link to the source page instead (so does the provision's title). Answers arrive after
// the page has loaded, so the listener is on the document (capturing: "toggle" does not bubble).
(function () {
  "use strict";

  function load(details) {
    var slot = details.querySelector(".whole-section-text");
    var href = details.getAttribute("data-text-href");
    var state = details.getAttribute("data-state");
    if (!slot || !href || state === "loading" || state === "loaded") { return; }
    details.setAttribute("data-state", "loading");
    slot.setAttribute("aria-busy", "true");
    slot.textContent = "Fetching the whole text\u2026";
    fetch(href, { headers: { accept: "text/html" } }).then(function (reply) {
      return reply.text().then(function (html) {
        slot.innerHTML = html;
        details.setAttribute("data-state", reply.ok ? "loaded" : "failed");
      });
    }).catch(function (err) {
      slot.textContent = "The whole text could not be fetched: " + err.message;
      details.setAttribute("data-state", "failed");
    }).finally(function () {
      slot.setAttribute("aria-busy", "false");
    });
  }

  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details && details.classList && details.classList.contains("whole-section") && details.open) { load(details); }
  }, true);
})();
