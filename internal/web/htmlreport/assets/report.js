// Outpost game report: shows the position of a clicked move (move list,
// graph band or marker, disagreement) in the game's viewer.
(function () {
  "use strict";
  function show(game, ply) {
    var id = game.getAttribute("data-game");
    var viewer = game.querySelector(".viewer");
    var tpl = document.getElementById(id + "-p" + ply);
    if (!viewer || !tpl) { return false; }
    viewer.replaceChildren(tpl.content.cloneNode(true));
    game.querySelectorAll("nav.moves button.mv").forEach(function (b) {
      if (b.getAttribute("data-ply") === String(ply)) { b.setAttribute("aria-current", "true"); } else { b.removeAttribute("aria-current"); }
    });
    var band = game.querySelector('.eval-graph .band[data-ply="' + ply + '"]');
    var cursor = game.querySelector(".eval-graph .cursor");
    if (band && cursor) {
      var x = parseFloat(band.getAttribute("x")) + parseFloat(band.getAttribute("width")) / 2;
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
    }
    game.setAttribute("data-ply", String(ply));
    return true;
  }
  var current = null;
  document.addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest("[data-ply]") : null;
    if (!t) { return; }
    var game = t.closest("section.game");
    if (!game) { return; }
    current = game;
    show(game, parseInt(t.getAttribute("data-ply"), 10));
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") { return; }
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    var game = (e.target.closest && e.target.closest("section.game")) || current || document.querySelector("section.game");
    if (!game) { return; }
    var ply = parseInt(game.getAttribute("data-ply") || "0", 10) + (e.key === "ArrowRight" ? 1 : -1);
    if (ply < 0) { return; }
    if (show(game, ply)) {
      current = game;
      e.preventDefault();
      var btn = game.querySelector('nav.moves button.mv[data-ply="' + ply + '"]');
      if (btn && document.activeElement && document.activeElement.classList.contains("mv")) { btn.focus(); }
    }
  });
})();
