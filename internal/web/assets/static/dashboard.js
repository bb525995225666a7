// Dashboard: live games over server-sent events.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var es = new EventSource("/events/live");
  es.addEventListener("games", function (e) {
    var d = JSON.parse(e.data);
    // The server renders and escapes the cards.
    live.innerHTML = d.html;
    var p = document.getElementById("playing");
    if (p && d.playing >= 0) { p.textContent = String(d.playing); }
    live.setAttribute("data-updated", String(Date.now()));
  });
  es.addEventListener("failure", function (e) {
    live.setAttribute("data-error", JSON.parse(e.data).error);
  });
  window.addEventListener("pagehide", function () { es.close(); });
})();
