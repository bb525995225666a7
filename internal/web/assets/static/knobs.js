// Knobs editor: inline validation and reset to defaults. The server
// validates again on save.
(function () {
  "use strict";
  var form = document.getElementById("knobs-form");
  if (!form) { return; }
  function check(el) {
    if (el.type !== "number") { return true; }
    var msg = "";
    var v = el.value.trim();
    var min = parseFloat(el.min), max = parseFloat(el.max);
    if (v === "" || isNaN(Number(v))) {
      msg = "Enter a number.";
    } else if (el.getAttribute("data-type") === "int" && !/^-?\d+$/.test(v)) {
      msg = "Enter a whole number.";
    } else if (Number(v) < min || Number(v) > max) {
      msg = "Must be between " + el.min + " and " + el.max + ".";
    }
    var err = document.getElementById("e-" + el.name);
    if (err) { err.textContent = msg; }
    el.setAttribute("aria-invalid", msg ? "true" : "false");
    el.closest(".knob").classList.toggle("invalid", !!msg);
    return !msg;
  }
  function checkName() {
    var el = document.getElementById("set");
    var ok = /^[A-Za-z0-9_-]{1,40}$/.test(el.value.trim());
    el.setAttribute("aria-invalid", ok ? "false" : "true");
    return ok;
  }
  form.addEventListener("input", function (e) { if (e.target.id === "set") { checkName(); } else { check(e.target); } });
  form.addEventListener("submit", function (e) {
    var ok = checkName();
    form.querySelectorAll("input[type=number]").forEach(function (el) { ok = check(el) && ok; });
    if (!ok) {
      e.preventDefault();
      var bad = form.querySelector("[aria-invalid=true]");
      if (bad) { bad.focus(); }
    }
  });
  document.getElementById("reset").addEventListener("click", function () {
    form.querySelectorAll("[data-default]").forEach(function (el) {
      var d = el.getAttribute("data-default");
      if (el.type === "checkbox") { el.checked = d === "true"; } else { el.value = d; }
      check(el);
    });
  });
})();
