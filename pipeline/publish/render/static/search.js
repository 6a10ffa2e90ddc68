// Finds the records a pasted error line or log comes from, as `errdoc explain` does:
// the same anchors, keys, patterns, boundaries, locations and order (pipeline/publish/explain.py;
// its rows and constants come in static/search-index.js). Without JavaScript the form still
// leads to the indexes.
(function () {
  "use strict";
  var data = window.errdocIndex;
  var box = document.getElementById("q");
  var list = document.getElementById("hits");
  var count = document.getElementById("count");
  if (!data || !box || !list) { return; }
  var C = data.constants;
  var F = {};
  data.fields.forEach(function (name, i) { F[name] = i; });
  var byWord = new Map();
  var unanchored = [];
  data.rows.forEach(function (row) {
    var anchor = row[F.anchor];
    if (!anchor) { unanchored.push(row); return; }
    var pool = byWord.get(anchor);
    if (!pool) { pool = []; byWord.set(anchor, pool); }
    pool.push(row);
  });
  var LEFT = new Set(C.leftEdge.split(""));
  var RIGHT = new Set(C.rightEdge.split(""));
  var compiledCache = new Map();

  function compiled(source) {  // a pattern that is not a regex here never matches, as in explain
    if (!compiledCache.has(source)) {
      var re = null;
      try { re = new RegExp(source, "g"); } catch (e) { re = null; }
      compiledCache.set(source, re);
    }
    return compiledCache.get(source);
  }

  function first(source, text) {
    var re = compiled(source);
    var out = [];
    if (!re) { return out; }
    re.lastIndex = 0;
    var m;
    while (out.length < C.firstMatches && (m = re.exec(text)) !== null) {
      out.push([m.index, m.index + m[0].length]);
      if (m[0].length === 0) { re.lastIndex++; }
    }
    return out;
  }

  function isBlank(ch) { return ch === " " || ch === "\t"; }

  function bounded(text, start, end, pattern) {
    var i = start - 1;
    while (i >= 0 && isBlank(text[i])) { i--; }
    var j = end;
    while (j < text.length && isBlank(text[j])) { j++; }
    var left = pattern.startsWith(C.placeholder) || i < 0 || LEFT.has(text[i]);
    var right = pattern.endsWith(C.placeholder) || j >= text.length || RIGHT.has(text[j]);
    return (left ? 1 : 0) + (right ? 1 : 0);
  }

  function searched(pattern) {  // each value may print as nothing (explain.searched)
    C.mayBeEmpty.forEach(function (pair) { pattern = pattern.split(pair[0]).join(pair[1]); });
    return pattern;
  }

  function score(row, text) {  // [score, exact, the exact match's first best span or null]
    var pattern = row[F.pattern];
    var tries = [[searched(pattern), true], [row[F.loose], false]];
    for (var t = 0; t < tries.length; t++) {
      var source = tries[t][0], exact = tries[t][1];
      if (!exact && source === pattern) { break; }
      var best = -1, span = null;
      first(source, text).forEach(function (m) {
        var b = bounded(text, m[0], m[1], pattern);
        if (b > best) { best = b; span = m; }
      });
      if (best >= 0) {
        return [row[F.literal] + C.boundaryBonus * best - (exact ? 0 : C.loosePenalty), exact,
                exact ? span : null];
      }
    }
    var head = row[F.head];
    if (head) {  // the first line alone, as written: scored by its own text
      var top = -1;
      first(searched(head), text).forEach(function (m) {
        top = Math.max(top, bounded(text, m[0], m[1], head));
      });
      if (top >= 0) { return [row[F.headLiteral] + C.boundaryBonus * top, true, null]; }
    }
    return null;
  }

  function byRank(a, b) {
    return (b.score - a.score) || cmp(a.row[F.repo], b.row[F.repo]) ||
      cmp(a.row[F.filePath], b.row[F.filePath]) || cmp(a.row[F.id], b.row[F.id]);
  }

  // A record whose message fills a placeholder of a better match, whole, scores one above
  // that template (explain._slot_fillers).
  function slotFillers(found, text) {
    var holes = new RegExp(C.placeholders);
    var templates = found.filter(function (h) {
      return h.span && holes.test(h.row[F.pattern]);
    }).sort(byRank).slice(0, C.slotTemplates);
    var raised = new Map();
    templates.forEach(function (template) {
      var start = template.span[0], end = template.span[1];
      var slots = template.row[F.pattern].split(new RegExp(C.placeholders, "g"));
      var sub = text.slice(start, end);
      found.forEach(function (h) {
        if (!h.span || h === template || h.score > template.score) { return; }
        if (!(start <= h.span[0] && h.span[1] <= end)) { return; }
        var filler = "(?:" + searched(h.row[F.pattern]) + ")";
        for (var i = 1; i < slots.length; i++) {
          var whole = slots[0];
          for (var j = 1; j < slots.length; j++) {
            whole += (j === i ? filler : C.placeholder) + slots[j];
          }
          var re = null;
          try { re = new RegExp("^(?:" + searched(whole) + ")$"); } catch (e) { re = null; }
          if (re && re.test(sub)) {
            var id = h.row[F.id];
            raised.set(id, Math.max(raised.get(id) || 0, template.score + 1));
            break;
          }
        }
      });
    });
    found.forEach(function (h) {
      if (raised.has(h.row[F.id])) { h.score = raised.get(h.row[F.id]); }
    });
    return found;
  }

  function locations(text) {
    var re = new RegExp(C.location, "g");
    var out = [];
    var m;
    while ((m = re.exec(text)) !== null) {
      var path = m[1].replace(/\\/g, "/");
      while (path.startsWith("./")) { path = path.slice(2); }
      out.push([path, parseInt(m[2], 10)]);
    }
    return out;
  }

  function locationBonus(row, places) {
    var best = 0;
    var f = row[F.filePath];
    places.forEach(function (p) {
      var path = p[0];
      if (!(path === f || path.endsWith("/" + f) || f.endsWith("/" + path))) { return; }
      var off = Math.abs(p[1] - row[F.lineNumber]);
      var near = off <= C.lineNear ? C.lineBonus : off <= C.window ? Math.floor(C.lineBonus / 2) : 0;
      best = Math.max(best, C.fileBonus + near);
    });
    return best;
  }

  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  function search(raw, limit) {
    var text = raw.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
    var words = new Set(text.match(new RegExp(C.word, "g")) || []);
    var pools = [];
    words.forEach(function (w) { var p = byWord.get(w); if (p) { pools.push(p); } });
    pools.push(unanchored);
    var places = locations(text);
    var seen = new Set();
    var found = [];
    pools.forEach(function (pool) {
      pool.forEach(function (row) {
        var id = row[F.id];
        if (seen.has(id) || text.indexOf(row[F.key]) < 0) { return; }
        seen.add(id);
        var hit = score(row, text);
        if (hit) {
          found.push({row: row, score: hit[0] + locationBonus(row, places), exact: hit[1],
                      span: hit[2]});
        }
      });
    });
    slotFillers(found, text).sort(byRank);
    return found.slice(0, limit);
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }  // untrusted text: never innerHTML
    return node;
  }

  var root = document.body.getAttribute("data-root") || "";
  var LIMIT = 20;

  function show(hits, took) {
    if (hits.length && window.errdocFirstResult === undefined) {
      window.errdocFirstResult = performance.now();  // since navigation started (the bench)
    }
    list.textContent = "";
    hits.forEach(function (h) {
      var row = h.row;
      var li = el("li", "hit");
      li.setAttribute("data-id", row[F.id]);
      var a = el("a", null, row[F.errorMessage]);
      a.href = root + row[F.page];
      li.appendChild(a);
      var where = row[F.repo] + " · " + row[F.filePath] + ":" + row[F.lineNumber];
      if (row[F.enclosingItem]) { where += " in " + row[F.enclosingItem]; }
      where += " · score " + h.score + (h.exact ? "" : " (values left out)");
      li.appendChild(el("div", "where", where));
      list.appendChild(li);
    });
    if (count) {
      count.textContent = box.value.trim() === "" ? data.rows.length + " records indexed" :
        hits.length === 0 ? "No record matches this text." :
        hits.length + (hits.length === LIMIT ? "+" : "") + " matching records, best first (" +
        took.toFixed(1) + " ms)";
    }
  }

  function run() {
    var t0 = performance.now();
    var hits = box.value.trim() === "" ? [] : search(box.value, LIMIT);
    show(hits, performance.now() - t0);
    var url = new URL(window.location.href);
    if (box.value && box.value.length <= 4000) { url.searchParams.set("q", box.value); }
    else { url.searchParams.delete("q"); }
    window.history.replaceState(null, "", url.toString());
  }

  var timer = null;
  box.addEventListener("input", function () {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(run, box.value.length > 2000 ? 120 : 0);
  });
  var q = new URLSearchParams(window.location.search).get("q");
  if (q) { box.value = q; }
  // for tests and the bench: the page's own search, answering record ids
  window.errdocSearchIds = function (text, limit) {
    return search(text, limit).map(function (h) { return h.row[F.id]; });
  };
  run();
}());
