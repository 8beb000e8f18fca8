// Live pages (a tournament, an SPRT test): poll the small JSON the card's data-live names while
// the event runs; when its count (data-done) or state changes, fetch the page again and swap
// its #live-body and the card's facts in place (no reload, no scroll jump).
(function () {
  "use strict";
  var card = document.getElementById("progress-card");
  if (!card || !card.dataset.live) { return; }
  var url = card.dataset.live;
  var done = card.dataset.done;
  var status = card.dataset.status;
  var text = document.getElementById("progress-text");
  var unit = text && text.textContent.indexOf("tables") >= 0 ? "tables" : "matches";
  var periodMs = 2000;

  function show(p) {
    var bar = document.getElementById("progress-bar");
    if (bar) {  // a tournament's: rounds and matches
      bar.value = p.percent;
      text.textContent =
        "round " + p.rounds + " of " + p.planned + "; " + p.done + " of " + p.scheduled +
        " scheduled " + unit + " played";
    }
    var badge = document.getElementById("status");
    badge.textContent = p.label || p.status;  // an SPRT's label says which hypothesis won
    badge.className = "status status-" + p.status;
  }

  function refreshBody() {
    return fetch(window.location.href, { headers: { "Accept": "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var body = fresh.getElementById("live-body");
        var facts = fresh.querySelector("#progress-card .facts");
        if (body) { document.getElementById("live-body").replaceWith(body); }
        if (facts) { card.querySelector(".facts").replaceWith(facts); }
        if (window.markWideCards) { window.markWideCards(); }
      });
  }

  function poll() {
    fetch(url, { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (p) {
        var changed = String(p.done) !== done || p.status !== status;
        done = String(p.done);
        status = p.status;
        var next = changed ? refreshBody() : Promise.resolve();
        return next.then(function () {
          show(p);  // after the body: a page saying "finished" shows the final standings
          card.dataset.done = done;
          card.dataset.status = status;
          if (p.live) { window.setTimeout(poll, periodMs); }
        });
      })
      .catch(function () { window.setTimeout(poll, periodMs * 3); });
  }
  window.setTimeout(poll, periodMs);
})();
