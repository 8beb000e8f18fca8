// A card whose table is wider than the screen says so above it, in view while it scrolls.
(function () {
  "use strict";
  function markWideCards() {
    document.querySelectorAll("section.card").forEach(function (card) {
      var wide = card.scrollWidth > card.clientWidth + 1;
      card.classList.toggle("scrolls", wide);
      if (wide && !card.querySelector(":scope > .scroll-cue")) {
        var cue = document.createElement("p");
        cue.className = "scroll-cue";
        cue.textContent = "Wider than the screen: scroll sideways for more \u2192";
        card.prepend(cue);
      }
    });
  }
  window.markWideCards = markWideCards;  // live.js calls it after swapping results in
  markWideCards();
  window.addEventListener("load", markWideCards);
  window.addEventListener("resize", markWideCards);
})();

// A "Copy" button copies the text of the element its data-copy names (a new bot's token).
document.querySelectorAll("button[data-copy]").forEach((button) => {
  button.addEventListener("click", () => {
    const source = document.getElementById(button.dataset.copy);
    if (source && navigator.clipboard) {
      navigator.clipboard.writeText(source.textContent.trim()).then(() => {
        button.textContent = "Copied";
      });
    }
  });
});
