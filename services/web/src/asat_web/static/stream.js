// AsAt: ask a question and show the research stages as they arrive.
// Posts to /stream on this origin and reads the text/event-stream reply with fetch (no other
// host is contacted). The decision arrives as HTML rendered by the server.
(function () {
  "use strict";

  var form = document.getElementById("ask");
  var transcript = document.getElementById("transcript");
  var template = document.getElementById("turn-template");
  var rail = document.getElementById("rail");
  var railEmpty = document.getElementById("rail-empty");
  if (!form || !transcript || !template) { return; }
  var mode = form.getAttribute("data-mode") || "research";
  var nextSource = 1;
  var busy = false;

  function field(name) { return form.elements.namedItem(name); }

  // The session's CSRF token: every POST to this site carries it (the server refuses one without).
  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  function period() {
    var checked = form.querySelector("input[name=period]:checked");
    var chosen = checked ? checked.value : "question";
    if (chosen === "question") { return { text: "period from the question" }; }
    if (chosen === "as_known_on") {
      var known = field("as_known_on").value;
      return known ? { as_known_on: known, text: "as known on " + known } : { error: "Pick the as-known-on date, or choose another period." };
    }
    var byDay = chosen === "as_of";
    if (byDay) {
      var day = field("as_of").value;
      return day ? { as_of: day, text: "as at " + day } : { error: "Pick the as-at date, or choose an income year." };
    }
    var year = parseInt(field("income_year").value, 10);
    if (!(year >= 1900 && year <= 2100)) { return { error: "Type an income year such as 2015." }; }
    return { income_year: year, text: "income year " + year };
  }

  function parseEvents(state, chunk, onEvent) {
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

  function showResult(turn, payload) {
    var result = turn.querySelector(".turn-result");
    result.innerHTML = payload.html;
    result.setAttribute("aria-busy", "false");
    turn.querySelectorAll(".stage[data-state=pending]").forEach(function (li) {
      li.setAttribute("data-state", "skipped");
      li.querySelector("[data-slot=summary]").textContent = "not reached";
    });
    if (rail && payload.rail) {
      rail.insertAdjacentHTML("beforeend", payload.rail);
      if (railEmpty && rail.children.length) { railEmpty.hidden = true; }
    }
    if (typeof payload.next_source === "number") { nextSource = payload.next_source; }
  }

  function onEvent(turn, name, data) {
    if (name === "stage") {
      var li = turn.querySelector('.stage[data-stage="' + data.stage + '"]');
      if (!li) { return; }
      li.setAttribute("data-state", "done");
      li.querySelector("[data-slot=summary]").textContent = data.summary;
      if (typeof data.ms === "number") { li.querySelector("[data-slot=ms]").textContent = data.ms.toFixed(0) + " ms"; }
    } else if (name === "result" || name === "error") {
      turn.setAttribute("data-finished", name);
      showResult(turn, data);
    }
  }

  function errorHtml(message) {
    var div = document.createElement("div");
    div.className = "outcome outcome-error";
    div.setAttribute("role", "alert");
    div.textContent = message;
    return div.outerHTML;
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (busy) { return; }
    var question = field("question").value.trim();
    var when = period();
    var problem = form.querySelector(".problem");
    if (problem) { problem.remove(); }
    if (!question || when.error) {
      var p = document.createElement("p");
      p.className = "problem";
      p.setAttribute("role", "alert");
      p.textContent = !question ? "Type a question." : when.error;
      form.appendChild(p);
      return;
    }
    var turn = template.content.firstElementChild.cloneNode(true);
    turn.querySelector("[data-slot=question]").textContent = question;
    turn.querySelector("[data-slot=period]").textContent = "(" + when.text + ")";
    transcript.appendChild(turn);
    var body = { question: question, mode: mode, first_source: nextSource };
    if (when.as_known_on) { body.as_known_on = when.as_known_on; }
    else if (when.as_of) { body.as_of = when.as_of; }
    else if (when.income_year) { body.income_year = when.income_year; }
    var client = field("client_id");
    if (client && client.value) { body.client_id = Number(client.value); }
    busy = true;
    form.setAttribute("aria-busy", "true");
    if (mode === "chat") { field("question").value = ""; }
    var state = { buffer: "" };
    fetch("/stream", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", "x-csrf-token": csrfToken() },
      body: JSON.stringify(body)
    }).then(function (reply) {
      if (!reply.ok) {
        return reply.json().then(function (e) { showResult(turn, { html: errorHtml(e.message || "The request was refused.") }); });
      }
      var reader = reply.body.getReader();
      var decoder = new TextDecoder();
      function pump() {
        return reader.read().then(function (step) {
          if (step.done) {
            parseEvents(state, decoder.decode() + "\n\n", function (n, d) { onEvent(turn, n, d); });
            return;
          }
          parseEvents(state, decoder.decode(step.value, { stream: true }), function (n, d) { onEvent(turn, n, d); });
          return pump();
        });
      }
      return pump();
    }).catch(function (err) {
      showResult(turn, { html: errorHtml("The web service could not be reached: " + err.message) });
    }).finally(function () {
      busy = false;
      form.removeAttribute("aria-busy");
      if (!turn.hasAttribute("data-finished")) { turn.setAttribute("data-finished", "error"); }
      var result = turn.querySelector(".turn-result");
      if (result) { result.setAttribute("tabindex", "-1"); result.focus({ preventScroll: false }); }
    });
  });

  // Typing a year or picking a day selects that kind of period.
  [["income_year", "income_year"], ["as_of", "as_of"], ["as_known_on", "as_known_on"]].forEach(function (pair) {
    var input = field(pair[0]);
    var radio = form.querySelector('input[name=period][value="' + pair[1] + '"]');
    if (input && radio) { input.addEventListener("input", function () { radio.checked = true; }); }
  });

  // What period the question would be answered for, shown live as it is typed (GET /period,
  // debounced). Without this script the form still works: research reads the period the same way.
  var readOut = form.querySelector("[data-slot=period-read]");
  var readTimer = null;
  var readSeq = 0;
  function showRead(text, state) {
    if (!readOut) { return; }
    readOut.textContent = text;
    readOut.setAttribute("data-state", state);
  }
  function readPeriod() {
    if (!readOut) { return; }
    var when = period();
    if (when.error) { showRead(when.error, "problem"); return; }
    if (when.as_known_on) { showRead("as known on " + when.as_known_on + ": the law as it then stood that day", "ok"); return; }
    var query = new URLSearchParams({ question: field("question").value });
    if (when.as_of) { query.set("as_of", when.as_of); }
    else if (when.income_year) { query.set("income_year", String(when.income_year)); }
    var seq = ++readSeq;
    fetch("/period?" + query.toString(), { headers: { accept: "application/json" } }).then(function (reply) {
      return reply.json().then(function (data) {
        if (seq !== readSeq) { return; }
        if (!reply.ok) { showRead(data.message || "The period could not be read.", "problem"); return; }
        showRead(data.text, data.preview && data.preview.conflict ? "conflict" : "ok");
      });
    }).catch(function () {
      if (seq === readSeq) { showRead("", "unknown"); }
    });
  }
  function readSoon() {
    if (readTimer) { clearTimeout(readTimer); }
    readTimer = setTimeout(readPeriod, 250);
  }
  field("question").addEventListener("input", readSoon);
  form.querySelectorAll("input[name=period], input[name=income_year], input[name=as_of], input[name=as_known_on]").forEach(function (input) {
    input.addEventListener("input", readSoon);
    input.addEventListener("change", readSoon);
  });
  readPeriod();

  // A period conflict offers one click for each period: ask again from the form, with that period.
  transcript.addEventListener("submit", function (event) {
    var choice = event.target;
    if (!choice.classList || !choice.classList.contains("reask")) { return; }
    event.preventDefault();
    if (busy) { return; }
    var chosen = choice.elements.namedItem("period").value;
    field("question").value = choice.elements.namedItem("question").value;
    var radio = form.querySelector('input[name=period][value="' + chosen + '"]');
    if (radio) { radio.checked = true; }
    var value = choice.elements.namedItem(chosen);
    if (value && field(chosen)) { field(chosen).value = value.value; }
    readPeriod();
    form.requestSubmit();
  });

  // Ctrl/Cmd+Enter sends from the question box.
  field("question").addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { form.requestSubmit(); }
  });
})();
