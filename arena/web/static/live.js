// Live tournament pages: poll the small live.json while the tournament runs; when a result
// comes in, fetch the page again and swap its results in place (no reload, no scroll jump).
(function () {
  "use strict";
  var card = document.getElementById("progress-card");
  if (!card || !card.dataset.live) { return; }
  var url = card.dataset.live;
  var done = card.dataset.done;
  var status = card.dataset.status;
  var unit = document.getElementById("progress-text").textContent.indexOf("tables") >= 0 ? "tables" : "matches";
  var periodMs = 2000;

  function show(p) {
    document.getElementById("progress-bar").value = p.percent;
    document.getElementById("progress-text").textContent =
      "round " + p.rounds + " of " + p.planned + "; " + p.done + " of " + p.scheduled +
      " scheduled " + unit + " played";
    var badge = document.getElementById("status");
    badge.textContent = p.status;
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
        show(p);
        var changed = String(p.done) !== done || p.status !== status;
        done = String(p.done);
        status = p.status;
        var next = changed ? refreshBody() : Promise.resolve();
        return next.then(function () {
          card.dataset.done = done;
          card.dataset.status = status;
          if (p.live) { window.setTimeout(poll, periodMs); }
        });
      })
      .catch(function () { window.setTimeout(poll, periodMs * 3); });
  }
  window.setTimeout(poll, periodMs);
})();
