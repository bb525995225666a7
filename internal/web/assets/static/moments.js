// Game report: the expected winrate at the critical moments, computed in
// the background on the server and shown as it progresses (server-sent
// events carry the section rendered by the server).
(function () {
  "use strict";
  var box = document.getElementById("moments");
  if (!box || box.getAttribute("data-live") !== "true" || !window.EventSource) { return; }
  var es = new EventSource("/api/game/" + encodeURIComponent(box.getAttribute("data-game")) + "/moments/events");
  var state = "running";
  function stop() {
    if (es) { es.close(); es = null; }
    box.removeAttribute("aria-busy");
  }
  es.addEventListener("moments", function (e) {
    var d = JSON.parse(e.data);
    state = d.state;
    // The server renders and escapes the section.
    box.innerHTML = d.html;
    box.setAttribute("data-state", d.state);
    if (d.state !== "running") { stop(); }
  });
  es.addEventListener("failure", function (e) {
    box.setAttribute("data-error", JSON.parse(e.data).error);
    stop();
  });
  es.onerror = function () {
    // The stream ends after the last update; while running, the browser
    // reconnects by itself.
    if (state !== "running") { stop(); }
  };
  window.addEventListener("pagehide", stop);
})();
