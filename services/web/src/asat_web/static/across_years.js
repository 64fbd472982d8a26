// AsAt: the answer across years. Posts the question to /across-years/stream on this origin and
// reads the text/event-stream reply with fetch (no other host is contacted). Each event carries
// the whole table rendered by the server, which replaces the last; the last event is done or
// error. Without this script the page refreshes to ?full=1, rendered whole on the server.
(function () {
  "use strict";

  var section = document.getElementById("across-years");
  var region = document.getElementById("ay-table");
  if (!section || !region || section.hasAttribute("data-finished")) { return; }
  var body = JSON.parse(section.getAttribute("data-body"));

  function finish(state) {
    section.setAttribute("data-finished", state);
    region.setAttribute("aria-busy", "false");
  }

  function showError(message) {
    var div = document.createElement("div");
    div.className = "outcome outcome-error";
    div.setAttribute("role", "alert");
    div.textContent = message;
    region.replaceChildren(div);
    finish("error");
  }

  function onEvent(name, data) {
    if (typeof data.html === "string") { region.innerHTML = data.html; }
    if (name === "done" || name === "error") { finish(name); }
  }

  function parseEvents(state, chunk) {
    state.buffer += chunk;
    var parts = state.buffer.split(/\r\n\r\n|\n\n|\r\r/);
    state.buffer = parts.pop();
    parts.forEach(function (block) {
      var name = "message", data = [];
      block.split(/\r\n|\n|\r/).forEach(function (line) {
        if (line.indexOf("event:") === 0) { name = line.slice(6).trim(); }
        else if (line.indexOf("data:") === 0) { data.push(line.slice(5).replace(/^ /, "")); }
      });
      if (data.length) { onEvent(name, JSON.parse(data.join("\n"))); }
    });
  }

  var state = { buffer: "" };
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  fetch("/across-years/stream", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      "x-csrf-token": csrfMeta ? csrfMeta.getAttribute("content") : ""
    },
    body: JSON.stringify(body)
  }).then(function (reply) {
    if (!reply.ok) {
      return reply.json().then(function (e) { showError(e.message || "The request was refused."); });
    }
    var reader = reply.body.getReader();
    var decoder = new TextDecoder();
    function pump() {
      return reader.read().then(function (step) {
        if (step.done) { parseEvents(state, decoder.decode() + "\n\n"); return; }
        parseEvents(state, decoder.decode(step.value, { stream: true }));
        return pump();
      });
    }
    return pump();
  }).catch(function (err) {
    showError("The web service could not be reached: " + err.message);
  }).finally(function () {
    if (!section.hasAttribute("data-finished")) { finish("error"); }
  });
})();
