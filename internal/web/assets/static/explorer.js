// Expected-winrate explorer: parameters (validated, remembered), the
// calculation's progress over server-sent events with the ranked list
// re-sorting as results arrive, and the probability trees whose nodes
// preview their positions on the board. The trees arrive when Maia has
// built them; their winrates fill in as Stockfish's evaluations arrive
// ("…" until then) and the final trees replace them when the calculation
// ends, keeping what is expanded, focused and previewed.
(function () {
  "use strict";
  var root = document.getElementById("explorer");
  var form = document.getElementById("params");
  if (!root || !form) { return; }
  var KEY = "outpost.ewr.params";
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  var boardEl = document.getElementById("board");
  var area = document.getElementById("board-area");
  var banner = document.getElementById("preview-banner");
  var analysisBoard = boardEl.innerHTML;
  var flip = / b /.test(root.getAttribute("data-fen"));
  var result = null, es = null, previewed = null, base = null;
  // trees: the candidates' trees (live, then final); index: position key →
  // tree nodes; evals: position key → side to move's winrate, as reported.
  var trees = null, index = {}, evals = {}, openSan = null, calculating = false;
  var $ = function (id) { return document.getElementById(id); };
  function posKey(fen) { return fen.split(" ").slice(0, 4).join(" "); }
  function sideToMove(fen) { return fen.split(" ")[1]; }
  var rootKey = posKey(root.getAttribute("data-fen")), us = sideToMove(root.getAttribute("data-fen"));

  // ---- parameters ----
  var ctl = { threshold: $("p-threshold"), depth: $("p-depth"), loss: $("p-loss"), rating: $("p-rating"), opp: $("p-opp") };
  function readParams() {
    return {
      threshold: parseFloat(ctl.threshold.value), depth: parseInt(ctl.depth.value, 10),
      loss_threshold: ctl.loss.value.trim() === "" ? NaN : Number(ctl.loss.value),
      maia_rating: parseInt(ctl.rating.value, 10),
      opponent_maia_rating: ctl.opp.value === "" ? parseInt(ctl.rating.value, 10) : parseInt(ctl.opp.value, 10)
    };
  }
  function setError(name, msg) {
    var el = ctl[name], e = $("e-" + name);
    if (e) { e.textContent = msg; }
    el.setAttribute("aria-invalid", msg ? "true" : "false");
    el.closest(".ctl").classList.toggle("invalid", !!msg);
    return !msg;
  }
  function validate() {
    var p = readParams(), ok = true;
    ok = setError("threshold", [0.1, 0.01, 0.001].indexOf(p.threshold) >= 0 ? "" : "Choose 10%, 1% or 0.1%.") && ok;
    ok = setError("depth", [15, 20, 25].indexOf(p.depth) >= 0 ? "" : "Choose 15, 20 or 25.") && ok;
    ok = setError("loss", (!isNaN(p.loss_threshold) && p.loss_threshold >= -1 && p.loss_threshold <= 0) ? "" : "Enter a value from -1 to 0, e.g. -0.1.") && ok;
    ok = setError("rating", p.maia_rating >= 1100 && p.maia_rating <= 1900 ? "" : "Choose 1100 to 1900.") && ok;
    ok = setError("opp", p.opponent_maia_rating >= 1100 && p.opponent_maia_rating <= 1900 ? "" : "Choose 1100 to 1900.") && ok;
    return ok ? p : null;
  }
  function restore() {
    var s;
    try { s = JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { s = null; }
    if (!s) { return; }
    if (s.threshold) { ctl.threshold.value = String(s.threshold); }
    if (s.depth) { ctl.depth.value = String(s.depth); }
    if (s.loss !== undefined) { ctl.loss.value = String(s.loss); }
    if (s.rating) { ctl.rating.value = String(s.rating); }
    if (s.opp !== undefined) { ctl.opp.value = String(s.opp); }
    validate();
  }
  function remember() {
    if (!validate()) { return; }
    try {
      localStorage.setItem(KEY, JSON.stringify({ threshold: ctl.threshold.value, depth: ctl.depth.value, loss: ctl.loss.value, rating: ctl.rating.value, opp: ctl.opp.value }));
    } catch (e) { /* storage unavailable: not remembered */ }
  }
  form.addEventListener("input", remember);
  form.addEventListener("change", remember);
  restore();

  // ---- calculation ----
  function showError(msg) { var e = $("calc-error"); e.textContent = msg; e.hidden = !msg; }
  function pct(x) { return (x * 100).toFixed(1) + "%"; }
  function setPhase(phase, done, total, msg) {
    var order = ["filter", "maia", "stockfish", "done"], at = order.indexOf(phase);
    document.querySelectorAll("#progress .phases li").forEach(function (li) {
      var i = order.indexOf(li.getAttribute("data-phase"));
      li.className = i < at ? "done" : (i === at ? "active" : "");
      if (i === at) { li.setAttribute("aria-current", "step"); } else { li.removeAttribute("aria-current"); }
    });
    var p = phase === "done" ? 100 : (total > 0 ? Math.min(100, Math.round(100 * done / total)) : 0);
    $("bar-fill").style.width = p + "%";
    document.querySelector("#progress .bar").setAttribute("aria-valuenow", String(p));
    if (msg) { $("status-msg").textContent = msg; }
    $("progress").setAttribute("data-phase", phase);
  }
  function renderRanking(moves, final) {
    var table = $("ranking"), body = table.querySelector("tbody");
    // A move none of whose paths is evaluated yet has no expected winrate.
    var known = function (m) { return final || m.branches > 0; };
    var sorted = moves.slice().sort(function (a, b) {
      return (known(b) ? 1 : 0) - (known(a) ? 1 : 0) || b.expected_winrate - a.expected_winrate ||
        b.stockfish_winrate - a.stockfish_winrate || (a.uci < b.uci ? -1 : 1);
    });
    body.replaceChildren();
    sorted.forEach(function (m, i) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-san", m.san);
      var q = base === null || !known(m) ? "" : (m.expected_winrate >= base ? "good" : (m.expected_winrate >= base - 0.05 ? "ok" : "bad"));
      var btn = document.createElement("button");
      btn.type = "button"; btn.className = "move-btn"; btn.textContent = m.san;
      btn.setAttribute("data-san", m.san);
      if (!trees || !trees[m.san]) { btn.setAttribute("aria-disabled", "true"); btn.title = "The tree opens when Maia has built it"; }
      btn.setAttribute("aria-label", "Open the tree of " + m.san);
      var cells = [String(i + 1) + ".", btn, known(m) ? pct(m.expected_winrate) : "…", known(m) ? m.confidence_label || "" : "…",
        known(m) ? (m.tree_depth || 0).toFixed(1) + " plies" : "…", pct(m.stockfish_winrate)];
      cells.forEach(function (c, k) {
        var td = document.createElement(k === 1 ? "th" : "td");
        if (k === 1) { td.scope = "row"; }
        if (typeof c === "string") { td.textContent = c; } else { td.appendChild(c); }
        if (k === 2) { td.className = "ewr " + q; }
        if (k === 3) { td.className = "conf " + (m.confidence_label || "").toLowerCase(); }
        tr.appendChild(td);
      });
      if (m.filtered) { tr.className = "filtered"; }
      if (m.san === openSan) { tr.classList.add("open"); }
      body.appendChild(tr);
    });
    table.hidden = false;
    $("rank-note").textContent = final ? "" : "(updating…)";
  }
  // provisional lists the candidates of the Maia trees before the first
  // ranking arrives.
  function provisional(t) {
    return Object.keys(t).map(function (san) {
      var n = t[san];
      return { san: san, uci: n.uci, expected_winrate: 0, branches: 0, stockfish_winrate: n.winrate === null ? 0 : n.winrate };
    });
  }
  function summary(r) {
    var branches = 0, cov = 0;
    r.moves.forEach(function (m) { branches += m.branches; cov += m.coverage; });
    var s = $("summary");
    s.replaceChildren();
    [["Base winrate", pct(r.base_winrate)], ["Total branches analysed", String(branches)],
     ["Coverage", r.moves.length ? pct(cov / r.moves.length) + " of likely continuations (mean)" : "–"],
     ["Calculation time", r.calc_ms + " ms"], ["Results", r.cached ? "cached" : "fresh"],
     ["Tree nodes", String(r.nodes)]].forEach(function (kv) {
      var d = document.createElement("div"), dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = kv[0]; dd.textContent = kv[1]; d.appendChild(dt); d.appendChild(dd); s.appendChild(d);
    });
    (r.warnings || []).forEach(function (w) { var p = document.createElement("p"); p.className = "warning"; p.textContent = w; s.appendChild(p); });
    s.hidden = false;
  }
  function calculate(e) {
    e.preventDefault();
    var p = validate();
    if (!p) { form.querySelector("[aria-invalid=true]").focus(); return; }
    remember();
    if (es) { es.close(); es = null; }
    endPreview();
    result = null; base = null; trees = null; index = {}; evals = {}; openSan = null; calculating = true;
    root.removeAttribute("data-state"); root.removeAttribute("data-trees");
    $("tree-panel").hidden = true; $("summary").hidden = true; showError("");
    $("progress").hidden = false; setPhase("filter", 0, 0, "Starting…");
    $("calculate").disabled = true;
    var moves = (root.getAttribute("data-moves") || "").split(" ").filter(Boolean);
    fetch("/api/ewr", {
      method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, credentials: "same-origin",
      body: JSON.stringify({ start_fen: root.getAttribute("data-start-fen"), moves: moves,
        params: { threshold: p.threshold, depth: p.depth, loss_threshold: p.loss_threshold, maia_rating: p.maia_rating, opponent_maia_rating: p.opponent_maia_rating } })
    }).then(function (resp) {
      return resp.json().then(function (body) {
        if (!resp.ok) { throw new Error(body.error || resp.statusText); }
        listen(body.events);
      });
    }).catch(function (err) { showError(err.message); $("progress").hidden = true; $("calculate").disabled = false; calculating = false; });
  }
  function listen(url) {
    es = new EventSource(url);
    es.addEventListener("progress", function (ev) {
      var d = JSON.parse(ev.data);
      setPhase(d.phase, d.done, d.total, d.message);
      if (d.trees) { setTrees(d.trees, false); }
      if (d.evals) { applyEvals(d.evals); }
      if (d.ranking && d.ranking.length) { renderRanking(d.ranking, false); }
      else if (d.trees && $("ranking").hidden) { renderRanking(provisional(d.trees), false); }
    });
    es.addEventListener("result", function (ev) {
      es.close(); es = null;
      result = JSON.parse(ev.data);
      base = result.base_winrate;
      calculating = false;
      setPhase("done", 1, 1, "Done in " + result.calc_ms + " ms" + (result.cached ? " (cached)" : ""));
      setTrees(result.trees || {}, true);
      renderRanking(result.moves, true);
      summary(result);
      $("calculate").disabled = false;
      root.setAttribute("data-state", "done");
    });
    es.addEventListener("failure", function (ev) {
      es.close(); es = null; calculating = false;
      showError(JSON.parse(ev.data).error);
      $("calculate").disabled = false;
      stopped();
    });
    es.onerror = function () {
      if (es) { es.close(); es = null; calculating = false; showError("The connection to the server was lost."); $("calculate").disabled = false; stopped(); }
    };
  }
  // stopped redraws an open live tree when the calculation ended without a
  // result: its pending winrates will not come.
  function stopped() {
    if (trees && openSan !== null) { openTree(openSan, true); }
  }
  form.addEventListener("submit", calculate);

  // ---- tree ----
  var tree = $("tree");
  $("ranking").addEventListener("click", function (e) {
    var b = e.target.closest("button.move-btn");
    if (!b || b.getAttribute("aria-disabled") === "true" || !trees) { return; }
    openTree(b.getAttribute("data-san"), false);
  });
  // setTrees installs the live or final trees and redraws the open one.
  function setTrees(t, final) {
    trees = t; index = {};
    Object.keys(t).forEach(function (san) {
      (function walk(n, level) {
        var k = posKey(n.fen);
        (index[k] = index[k] || []).push({ n: n, level: level });
        (n.children || []).forEach(function (c) { walk(c, level + 1); });
      })(t[san], 1);
    });
    if (!final) {
      applyEvals(Object.keys(evals).map(function (k) { return { key: k, wr: evals[k] }; }));
    }
    root.setAttribute("data-trees", final ? "final" : "live");
    if (openSan !== null) { openTree(openSan, true); }
  }
  // applyEvals fills in the winrates of the positions Stockfish evaluated:
  // leaves and the analysing player's moves (odd levels), as the
  // calculation does.
  function applyEvals(list) {
    list.forEach(function (e) {
      evals[e.key] = e.wr;
      if (e.key === rootKey && base === null) { base = e.wr; }
      (index[e.key] || []).forEach(function (x) {
        var n = x.n;
        if (n.winrate !== null && n.winrate !== undefined) { return; }
        if ((n.children || []).length && x.level % 2 === 0) { return; }
        n.winrate = sideToMove(n.fen) === us ? e.wr : 1 - e.wr;
        if (n._li && n._li.isConnected) { refreshNode(n._li); }
      });
    });
  }
  function pending(n) { return n.winrate === null || n.winrate === undefined; }
  function winrateSpan(n) {
    var wr = document.createElement("span");
    if (pending(n)) {
      wr.className = "wr pending";
      wr.textContent = calculating ? "wr …" : "not evaluated";
      wr.title = calculating ? "Waiting for Stockfish" : "Not evaluated";
    } else {
      wr.className = "wr " + (base === null ? "" : (n.winrate >= base ? "good" : "bad"));
      wr.textContent = "wr " + pct(n.winrate);
    }
    return wr;
  }
  function nodeLabel(n, p) {
    return p.join(" ") + ", probability " + pct(n.probability) + ", path " + pct(n.cumulative_probability) +
      (pending(n) ? (calculating ? ", winrate pending" : ", not evaluated") : ", winrate " + pct(n.winrate)) +
      (n.pruned ? ", " + n.pruning_reason.replace(/_/g, " ") : "");
  }
  function refreshNode(li) {
    var old = li.querySelector(":scope > .node > .wr");
    old.replaceWith(winrateSpan(li._node));
    li.setAttribute("aria-label", nodeLabel(li._node, li._path));
  }
  function nodeItem(n, level, path) {
    var li = document.createElement("li");
    li.setAttribute("role", "treeitem");
    li.setAttribute("aria-level", String(level));
    li.setAttribute("aria-selected", "false");
    li.tabIndex = -1;
    var p = path.concat([n.san]);
    li._node = n; li._path = p; n._li = li;
    var row = document.createElement("div");
    row.className = "node";
    var tw = document.createElement("span");
    tw.className = "twisty"; tw.setAttribute("aria-hidden", "true");
    var kids = n.children || [];
    tw.textContent = kids.length ? "▸" : "•";
    var san = document.createElement("span"); san.className = "san"; san.textContent = n.san;
    var prob = document.createElement("span"); prob.className = "prob"; prob.textContent = "p " + pct(n.probability);
    var cum = document.createElement("span"); cum.className = "cum"; cum.textContent = "path " + pct(n.cumulative_probability);
    var wr = winrateSpan(n);
    [tw, san, prob, cum, wr].forEach(function (x) { row.appendChild(x); });
    if (n.pruned) { var pr = document.createElement("span"); pr.className = "pruned"; pr.textContent = n.pruning_reason.replace(/_/g, " "); row.appendChild(pr); }
    li.appendChild(row);
    li.setAttribute("aria-label", nodeLabel(n, p));
    if (kids.length) {
      li.setAttribute("aria-expanded", "false");
      var ul = document.createElement("ul");
      ul.setAttribute("role", "group");
      kids.slice().sort(function (a, b) { return b.probability - a.probability; }).forEach(function (c) { ul.appendChild(nodeItem(c, level + 1, p)); });
      li.appendChild(ul);
    }
    return li;
  }
  function setExpanded(li, on) {
    if (!li.hasAttribute("aria-expanded")) { return; }
    li.setAttribute("aria-expanded", on ? "true" : "false");
    li.querySelector(":scope > .node > .twisty").textContent = on ? "▾" : "▸";
  }
  // openTree shows a move's tree. With keep (new trees arrived for the
  // open move) what was expanded, focused and previewed stays so; a
  // previewed node that no longer exists ends the preview.
  function openTree(san, keep) {
    var n = trees && trees[san];
    var st = keep ? treeState() : null;
    if (!keep) { endPreview(); }
    openSan = san;
    tree.replaceChildren();
    $("tree-title").textContent = "Tree of " + san;
    tree.setAttribute("aria-label", "Probability tree of " + san);
    document.querySelectorAll("#ranking tbody tr").forEach(function (tr) { tr.classList.toggle("open", tr.getAttribute("data-san") === san); });
    $("tree-panel").hidden = false;
    if (!n) { tree.textContent = "No tree for this move."; if (previewed) { endPreview(); } return; }
    var li = nodeItem(n, 1, []);
    tree.appendChild(li);
    if (!st) {
      setExpanded(li, true);
      li.tabIndex = 0;
      li.focus();
      return;
    }
    var byPath = {};
    tree.querySelectorAll("[role=treeitem]").forEach(function (x) { byPath[x._path.join(" ")] = x; });
    st.expanded.forEach(function (k) { if (byPath[k]) { setExpanded(byPath[k], true); } });
    var f = byPath[st.focus] || li;
    f.tabIndex = 0;
    if (st.hadFocus) { f.focus(); }
    if (st.preview !== null) {
      var pv = byPath[st.preview];
      if (pv) {
        previewed = pv;
        pv.classList.add("previewed");
        pv.setAttribute("aria-selected", "true");
      } else {
        previewed = null;
        endPreview();
      }
    }
  }
  function treeState() {
    var st = { expanded: [], focus: "", hadFocus: tree.contains(document.activeElement), preview: previewed ? previewed._path.join(" ") : null };
    tree.querySelectorAll('[role=treeitem][aria-expanded="true"]').forEach(function (x) { st.expanded.push(x._path.join(" ")); });
    var f = tree.querySelector('[role=treeitem][tabindex="0"]');
    if (f) { st.focus = f._path.join(" "); }
    return st;
  }
  function visible() {
    var out = [];
    (function walk(ul) {
      Array.prototype.forEach.call(ul.children, function (li) {
        if (li.getAttribute("role") !== "treeitem") { return; }
        out.push(li);
        var g = li.querySelector(":scope > ul");
        if (g && li.getAttribute("aria-expanded") === "true") { walk(g); }
      });
    })(tree);
    return out;
  }
  function focusItem(li) {
    tree.querySelectorAll('[role=treeitem][tabindex="0"]').forEach(function (x) { x.tabIndex = -1; });
    li.tabIndex = 0; li.focus();
  }
  tree.addEventListener("click", function (e) {
    var li = e.target.closest("[role=treeitem]");
    if (!li) { return; }
    if (e.target.classList.contains("twisty")) {
      setExpanded(li, li.getAttribute("aria-expanded") !== "true");
      focusItem(li);
      return;
    }
    focusItem(li);
    preview(li);
  });
  tree.addEventListener("keydown", function (e) {
    var li = e.target.closest("[role=treeitem]");
    if (!li) { return; }
    var vis = visible(), i = vis.indexOf(li);
    switch (e.key) {
    case "ArrowDown": if (i + 1 < vis.length) { focusItem(vis[i + 1]); } break;
    case "ArrowUp": if (i > 0) { focusItem(vis[i - 1]); } break;
    case "Home": focusItem(vis[0]); break;
    case "End": focusItem(vis[vis.length - 1]); break;
    case "ArrowRight":
      if (li.getAttribute("aria-expanded") === "false") { setExpanded(li, true); }
      else if (li.getAttribute("aria-expanded") === "true") { focusItem(li.querySelector(":scope > ul > [role=treeitem]")); }
      break;
    case "ArrowLeft":
      if (li.getAttribute("aria-expanded") === "true") { setExpanded(li, false); }
      else { var up = li.parentElement.closest("[role=treeitem]"); if (up) { focusItem(up); } }
      break;
    case "Enter": case " ": preview(li); break;
    default: return;
    }
    e.preventDefault();
  });

  // ---- board preview ----
  function preview(li) {
    var n = li._node;
    if (previewed) { previewed.classList.remove("previewed"); previewed.setAttribute("aria-selected", "false"); }
    previewed = li;
    li.classList.add("previewed");
    li.setAttribute("aria-selected", "true");
    $("preview-label").textContent = "after " + li._path.join(" ");
    banner.hidden = false;
    area.classList.add("previewing");
    area.setAttribute("data-preview-fen", n.fen);
    var url = "/board.svg?fen=" + encodeURIComponent(n.fen) + "&last=" + encodeURIComponent(n.uci) + (flip ? "&flip=1" : "") +
      "&label=" + encodeURIComponent("Preview after " + li._path.join(" "));
    fetch(url, { credentials: "same-origin" }).then(function (r) { return r.ok ? r.text() : Promise.reject(new Error(r.statusText)); })
      .then(function (svg) {
        // The node may have been redrawn meanwhile (new trees): same path, same preview.
        if (previewed && previewed._path.join(" ") === li._path.join(" ")) { boardEl.innerHTML = svg; }
      })
      .catch(function (err) { showError("Preview failed: " + err.message); });
  }
  function endPreview() {
    if (!area.classList.contains("previewing")) { return; }
    var li = previewed;
    if (li) { li.classList.remove("previewed"); li.setAttribute("aria-selected", "false"); }
    previewed = null;
    area.classList.remove("previewing");
    area.removeAttribute("data-preview-fen");
    banner.hidden = true;
    boardEl.innerHTML = analysisBoard;
    if (li && li.isConnected) { li.focus(); }
  }
  $("return").addEventListener("click", endPreview);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") { endPreview(); } });
})();
