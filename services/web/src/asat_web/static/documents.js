/* AsAt Documents: drop files on the upload box; click a field's "Show line" to highlight where it was read
   and mark (outline, scroll to) the page picture it is on.
   Without JavaScript the file input works as it is and each "Show line" is a link to its line (:target). */
(function () {
  "use strict";

  const zone = document.getElementById("drop-zone");
  const input = document.getElementById("files");
  const chosen = document.getElementById("chosen");

  function showChosen(files) {
    if (!chosen) return;
    const names = Array.from(files).map(function (f) { return f.name; });
    chosen.textContent = names.length ? names.length + (names.length === 1 ? " file: " : " files: ") + names.join(", ") : "";
  }

  if (zone && input) {
    ["dragenter", "dragover"].forEach(function (type) {
      zone.addEventListener(type, function (event) {
        event.preventDefault();
        zone.classList.add("dragging");
      });
    });
    zone.addEventListener("dragleave", function () { zone.classList.remove("dragging"); });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      zone.classList.remove("dragging");
      const files = event.dataTransfer && event.dataTransfer.files;
      if (files && files.length) {
        input.files = files;
        showChosen(input.files);
      }
    });
    input.addEventListener("change", function () { showChosen(input.files); });
  }

  function markPage(line, label) {
    document.querySelectorAll(".page.marked").forEach(function (other) {
      other.classList.remove("marked");
      other.removeAttribute("aria-current");
      const read = other.querySelector(".page-read");
      if (read) read.textContent = "";
    });
    const page = document.getElementById("page-" + line.dataset.page);
    if (!page) return false;
    page.classList.add("marked");
    page.setAttribute("aria-current", "true");
    const read = page.querySelector(".page-read");
    const text = line.querySelector(".line-text");
    if (read && text) read.textContent = (label ? label + " was read" : "Read") + " here: \u201c" + text.textContent + "\u201d";
    const box = page.getBoundingClientRect();
    if (box.bottom < 0 || box.top > window.innerHeight) page.scrollIntoView({ block: "start" });
    return true;
  }

  function fieldLabel(link) {
    const row = link.closest("tr");
    const heading = row && row.querySelector("th");
    if (heading) return heading.textContent.trim();
    const item = link.closest("li");
    return item ? "Line item" : "";
  }

  function highlight(id, label) {
    const line = document.getElementById(id);
    if (!line) return false;
    document.querySelectorAll(".source-line.highlighted").forEach(function (other) {
      other.classList.remove("highlighted");
      other.removeAttribute("aria-current");
    });
    document.querySelectorAll("a.source-link[aria-current]").forEach(function (link) {
      link.removeAttribute("aria-current");
    });
    line.classList.add("highlighted");
    line.setAttribute("aria-current", "true");
    if (!markPage(line, label)) line.scrollIntoView({ block: "nearest" });
    return true;
  }

  document.querySelectorAll("a.source-link").forEach(function (link) {
    link.addEventListener("click", function (event) {
      if (highlight(link.dataset.line, fieldLabel(link))) {
        event.preventDefault();
        link.setAttribute("aria-current", "true"); // the field whose line is shown (aria-pressed is for buttons)
      }
    });
  });
})();
