// Filters the list of errors as the reader types; without JavaScript the list stays whole.
(function () {
  "use strict";
  var wrap = document.getElementById("search-box");
  var box = document.getElementById("search");
  var list = document.getElementById("records");
  var count = document.getElementById("count");
  if (!wrap || !box || !list) { return; }
  var items = Array.prototype.slice.call(list.getElementsByTagName("li"));
  var texts = items.map(function (li) { return li.textContent.toLowerCase(); });
  function filter() {
    var terms = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    for (var i = 0; i < items.length; i++) {
      var ok = terms.every(function (t) { return texts[i].indexOf(t) !== -1; });
      items[i].hidden = !ok;
      if (ok) { shown++; }
    }
    if (count) { count.textContent = shown + " of " + items.length + " shown"; }
  }
  wrap.hidden = false;
  box.addEventListener("input", filter);
  filter();
}());
