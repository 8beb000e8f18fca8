// The replay viewer of /games/{id}: fetches the frames of one seat (or all) and draws a step.
// Vanilla JavaScript, no build step; every name shown is set with textContent (never as HTML).
(() => {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const slider = $("slider");
  const seatChoice = $("seat");
  const playButton = $("play");
  const speedChoice = $("speed");
  const MS_PER_MOVE = 1000; // at 1x: slow enough to read the move line
  let data = null;
  let step = 0;
  let timer = null;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function player(seat) {
    const name = data.players[seat] === undefined ? "" : ` · ${data.players[seat]}`;
    const role = data.roles && data.roles[seat] && data.players.length > 2 ? ` (${data.roles[seat]})` : "";
    return `seat ${seat}${name}${role}`;
  }

  // --- cards -------------------------------------------------------------------------------
  function facts(face) {
    const parts = [face.kind];
    if (face.kind === "gear") parts.push(face.colour);
    if (face.cost !== undefined) parts.push(`cost ${face.cost}`);
    if (face.income !== undefined) parts.push(`income ${face.income}`);
    if (face.points !== undefined) parts.push(`${face.points} points`);
    if (face.range) parts.push(`range ${face.range}`);
    if (face.goods) parts.push(face.goods);
    return parts.join(" · ");
  }

  function card(key, opts = {}) {
    const face = data.cards[key] || { name: key, kind: "card", colour: "unknown", text: "" };
    const colour = String(face.colour || face.kind).replace(/\s+/g, "-");
    const looks = `${opts.small ? " small" : ""}${opts.flipped ? " flipped" : ""}${opts.fresh ? " fresh" : ""}`;
    const node = el("div", `gcard c-${colour}${looks}`);
    node.dataset.card = key;
    const notation = face.notation ? `\n(${face.notation})` : "";
    node.title = `${face.name}\n${facts(face)}\n${face.text}${notation}${opts.flipped ? "\n(flipped face down)" : ""}`;
    const head = el("div", "gcard-head");
    head.append(el("span", "gcard-name", face.name));
    if (face.cost !== undefined) head.append(el("span", "gcard-cost", face.cost));
    else if (face.income !== undefined) head.append(el("span", "gcard-income", `+${face.income}`));
    else if (face.points !== undefined) head.append(el("span", "gcard-cost", face.points));
    node.append(head, el("div", "gcard-kind", facts(face)));
    if (!opts.small) node.append(el("div", "gcard-text", face.text));
    else {
      // Board and discard cards: the effect clamped to two lines; a click or Enter shows it all
      // (a tooltip alone is out of reach on a touch screen).
      node.append(el("div", "gcard-text compact", face.text));
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.setAttribute("aria-expanded", "false");
    }
    return node;
  }

  function hidden(count, what = "cards") {
    const box = el("div", "hidden-cards");
    for (let i = 0; i < Math.min(count, 8); i += 1) box.append(el("div", "gcard back small", "?"));
    box.append(el("span", "muted", `${count} hidden ${count === 1 ? what.replace(/s$/, "") : what}`));
    return box;
  }

  function row(label, nodes, cls = "") {
    const box = el("div", `row ${cls}`);
    box.append(el("span", "row-label", label));
    const cards = el("div", "row-cards");
    if (nodes.length === 0) cards.append(el("span", "muted", "–"));
    cards.append(...nodes);
    box.append(cards);
    return box;
  }

  // --- Caper and Caper: Europe ----------------------------------------------------------------
  function stacksOf(view, side, loc) {
    if (data.game === "caper") return view.board[side][loc].map((s) => s.map(([k, f]) => [k, f]));
    const stacks = [];
    for (const [key, thief] of view.crews[side][loc]) {
      if (data.cards[key] && data.cards[key].kind === "thief") stacks.push([[key, false]]);
      else if (stacks[thief]) stacks[thief].push([key, false]);
    }
    return stacks;
  }

  function crew(view, side, loc, prev) {
    // Cards that were not there (or not flipped) one step earlier are marked: the last move.
    const box = el("div", `crew side-${side}`);
    box.append(el("div", "crew-label", player(side)));
    const stacks = stacksOf(view, side, loc);
    const before = prev ? stacksOf(prev, side, loc) : null;
    if (stacks.length === 0) box.append(el("div", "muted empty", "no thieves"));
    stacks.forEach((stack, i) => {
      const pile = el("div", "stack");
      stack.forEach(([key, flipped], j) => {
        const was = before && before[i] ? before[i][j] : undefined;
        const fresh = before !== null && (was === undefined || was[1] !== flipped);
        pile.append(card(key, { small: true, flipped, fresh }));
      });
      box.append(pile);
    });
    return box;
  }

  const GOODS = [["diamond", "◆"], ["painting", "▣"], ["antique", "▲"]];

  function goods(counts) {
    const box = el("span", "goods");
    counts.forEach((n, i) => {
      for (let k = 0; k < n; k += 1) {
        const token = el("span", `token good-${GOODS[i][0]}`, GOODS[i][1]);
        token.title = GOODS[i][0];
        box.append(token);
      }
    });
    if (counts.every((n) => n === 0)) box.append(el("span", "muted", "no goods"));
    return box;
  }

  function track(value) {
    // Positive markers point toward seat 0 (R-rules of the marker track): seat 0 on the left.
    const box = el("div", "track");
    box.title = `marker ${value > 0 ? "+" : ""}${value}: positive toward seat 0`;
    box.append(el("span", "track-end", "seat 0"));
    for (let cell = 4; cell >= -4; cell -= 1) {
      const node = el("span", `cell${cell === 0 ? " zero" : ""}${cell === value ? " marker" : ""}`);
      node.textContent = cell === value ? "●" : "";
      box.append(node);
    }
    box.append(el("span", "track-end", "seat 1"), el("span", "track-value", `${value > 0 ? "+" : ""}${value}`));
    return box;
  }

  function place(view, loc, prev) {
    const column = el("div", "location");
    column.append(card(view.locations[loc]));
    if (data.game === "caper-europe") {
      column.append(track(view.markers[loc]), goods(view.goods[loc]));
    }
    column.append(crew(view, 0, loc, prev), crew(view, 1, loc, prev));
    return column;
  }

  function handOf(view, seat) {
    if (view.hands) return view.hands[seat];
    if (seat === view.seat) return view.hand;
    if (seat === 1 - view.seat && view.opponent_hand) return view.opponent_hand;
    return null;
  }

  function handSize(view, seat) {
    if (view.hand_sizes && view.hand_sizes.length) return view.hand_sizes[seat];
    return view.opponent_hand_size;
  }

  function caperSeat(view, seat) {
    const panel = el("div", `seat-panel side-${seat}`);
    panel.append(el("h3", "", player(seat)));
    if (seat < 2) {
      const money = [`${view.coins[seat]} coins`];
      if (view.laundered) money.push(`${view.laundered[seat]} laundered`);
      if (view.hq_coins) money.push(`hideout ${view.hq_coins[seat]} coins`);
      const line = el("p", "money", money.join(" · "));
      if (view.hq_goods) line.append(" · hideout ", goods(view.hq_goods[seat]));
      panel.append(line);
    }
    const hand = handOf(view, seat);
    panel.append(row("hand", hand ? hand.map((k) => card(k)) : [hidden(handSize(view, seat))]));
    if (seat < 2) panel.append(row("discards", view.discards[seat].map((k) => card(k, { small: true })), "discards"));
    return panel;
  }

  function caperInfo(view) {
    const bits = [`round ${view.round} (${view.round_kind})`, `supply ${view.supply} coins`];
    bits.push(`thief deck ${view.thief_deck_size}`, `gear deck ${view.gear_deck_size}`);
    return bits.join(" · ");
  }

  function drawCaper(view, prev) {
    const board = el("div", "locations");
    for (let loc = 0; loc < view.locations.length; loc += 1) board.append(place(view, loc, prev));
    const seats = [];
    const count = view.hands ? view.hands.length : (view.hand_sizes && view.hand_sizes.length) || 2;
    for (let seat = 0; seat < count; seat += 1) seats.push(caperSeat(view, seat));
    return { info: caperInfo(view), board: [board], seats };
  }

  // --- Age of Thieves: a readable summary ------------------------------------------------------
  function aotThieves(view) {
    const table = el("table", "thieves");
    const head = el("tr");
    for (const title of ["seat", "thief", "space", "VP", "hand", "state", "AP blue + red"]) head.append(el("th", "", title));
    table.append(head);
    view.thieves.forEach((t, seat) => {
      const tr = el("tr");
      const name = data.cards[t.thief] ? data.cards[t.thief].name : t.thief;
      const state = [t.in_dungeon ? "in the dungeon" : "", t.hidden ? "hidden" : "", t.arrested ? "arrested" : "",
        t.escaped && t.escaped[0] ? "escaped" : ""].filter(Boolean).join(", ") || "free";
      const legend = data.board || { districts: {}, spaces: {} };
      const space = t.space || t.exit;
      const district = legend.districts[legend.spaces[space]];
      const where = space ? `${space}${district ? ` · ${district}` : ""}` : "–";
      for (const cell of [player(seat), name, where, t.sheet ? t.sheet.vp : "", t.hand_size, state,
        `${t.blue_ap ?? 0} + ${t.red_ap ?? 0}`]) tr.append(el("td", "", cell));
      tr.firstChild.prepend(el("span", `swatch seat-${seat}`)); // the colour of his piece on the city
      table.append(tr);
    });
    return table;
  }

  // --- Age of Thieves: the pieces on the city the page drew (aot_svg.py) ---------------------------
  const SVG = "http://www.w3.org/2000/svg";
  const SIZES = { thief: [26, 31], guard: [19, 21], captain: [24, 26], jewel: [15, 15], tile: [17, 17], fire: [40, 40], smoke: [46, 46] };

  function svg(tag, attrs = {}) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
    return node;
  }

  function makePiece(p) {
    // A piece keeps its element (and id) from step to step: a new transform slides it (CSS).
    const [w, h] = SIZES[p.kind] || [16, 16];
    const node = svg("g", { id: `piece-${p.id}` });
    node.append(svg("use", { href: `#sym-${p.kind}`, x: -w / 2, y: -h / 2, width: w, height: h, fill: "currentColor" }));
    node.append(svg("text", { y: p.kind === "thief" ? 10 : 4 }), svg("title"));
    return node;
  }

  function drawCity(frame) {
    const city = $("city");
    if (!city || !frame.board) return;
    const shown = new Set();
    for (const [id, kind, space, x, y, label, cls, title] of frame.board.pieces) {
      const p = { id, kind, space, x, y, label, cls, title }; // aot_pieces.PACKED's order
      let node = document.getElementById(`piece-${p.id}`);
      if (!node) {
        node = makePiece(p);
        node.style.transform = `translate(${p.x}px, ${p.y}px)`;
        (p.kind === "fire" || p.kind === "smoke" ? $("overlays") : $("pieces")).append(node);
      }
      shown.add(node.id);
      node.setAttribute("class", `piece k-${p.kind} ${p.cls}`);
      node.dataset.space = p.space;
      node.dataset.kind = p.kind;
      node.style.transform = `translate(${p.x}px, ${p.y}px)`;
      node.querySelector("text").textContent = p.label;
      const plain = p.kind === "tile" ? `a face-down city tile on ${p.space}` : `${p.kind} on ${p.space}`;
      node.querySelector("title").textContent = p.title || plain;
    }
    for (const node of [...city.querySelectorAll(".piece")]) if (!shown.has(node.id)) node.remove();
    const trail = $("trail");
    trail.setAttribute("points", frame.board.trail.map(([x, y]) => `${x},${y}`).join(" "));
    trail.setAttribute("class", frame.mover === null ? "" : `seat-${frame.mover}`);
    $("moves").replaceChildren(...frame.board.moved.map(([x1, y1, x2, y2]) => svg("line", { x1, y1, x2, y2, "marker-end": "url(#arrow)" })));
  }

  function followMover(frame) {
    // Zoomed in (a phone), the city scrolls sideways so that the thief who moved stays in view.
    const box = $("city-box");
    if (!box || !box.classList.contains("zoomed") || frame.mover === null) return;
    const p = frame.board && frame.board.pieces.find(([id]) => id === `thief-${frame.mover}`);
    if (!p) return;
    const scale = box.scrollWidth / $("city").viewBox.baseVal.width;
    const x = p[3] * scale;
    if (x < box.scrollLeft + 40 || x > box.scrollLeft + box.clientWidth - 40) {
      box.scrollLeft = Math.max(0, x - box.clientWidth / 2);
    }
  }

  function drawAgeOfThieves(view) {
    const info = [`round ${view.round}`, view.status, `guard initiative ${view.guard_initiative}`,
      `action deck ${view.action_deck}`, `events left: calm ${view.calm_events_left}, alarm ${view.alarm_events_left}`];
    const board = [aotThieves(view)];
    if (view.event) board.push(row("event", [card(view.event)]));
    if (view.over) board.push(el("p", "notice", view.reason));
    const seats = view.thieves.map((t, seat) => {
      const panel = el("div", "seat-panel");
      panel.append(el("h3", "", player(seat)));
      const hand = view.hands ? view.hands[seat] : seat === view.seat ? view.hand : null;
      panel.append(row("hand", hand ? hand.map((k) => card(k)) : [hidden(t.hand_size)]));
      const plan = (view.hands ? t.plan : seat === view.seat ? view.plan : t.plan) || [];
      if (plan.length) panel.append(row("plan", plan.map((p) => (p.card === "?" ? hidden(1) : card(p.card, { small: true })))));
      return panel;
    });
    return { info: info.join(" · "), board, seats };
  }

  function breakdown() {
    // Where each seat's points came from, as the stored result says.
    const parts = (data.result && data.result.breakdown) || [];
    const table = el("table", "breakdown");
    table.id = "breakdown";
    const head = el("tr");
    head.append(el("th", "", "points from"));
    parts.forEach((_, seat) => head.append(el("th", "num", player(seat))));
    table.append(head);
    const names = [...new Set(parts.flatMap((part) => Object.keys(part)))];
    for (const name of names) {
      const tr = el("tr");
      tr.append(el("td", "", name.replace(/_/g, " ")));
      for (const part of parts) tr.append(el("td", "num", part[name] ?? ""));
      table.append(tr);
    }
    return table;
  }

  // --- one step ------------------------------------------------------------------------------
  function moveText(frame) {
    if (frame.action === null) return "The deal.";
    return `Move ${frame.step}: ${player(frame.mover)} played “${frame.words ?? frame.action}”.`;
  }

  function show(n) {
    if (!data) return;
    step = Math.max(0, Math.min(n, data.frames.length - 1));
    const frame = data.frames[step];
    slider.value = String(step);
    $("step-label").textContent = `Move ${step} / ${data.moves}`;
    const last = step === data.frames.length - 1;
    let next = frame.to_move === null ? "" : ` Next: ${player(frame.to_move)}.`;
    if (last && data.termination !== "normal") next = ` The game ended here: ${data.termination}.`;
    $("move-text").textContent = moveText(frame) + next;
    const prev = step > 0 ? data.frames[step - 1].view : null;
    const drawn = data.game === "age-of-thieves" ? drawAgeOfThieves(frame.view) : drawCaper(frame.view, prev);
    if (data.game === "age-of-thieves") {
      drawCity(frame);
      followMover(frame);
    }
    const board = $("board");
    board.replaceChildren(el("p", "info", drawn.info), ...drawn.board);
    if (frame.scores) {
      const line = el("p", "scores");
      line.id = "frame-scores";
      line.textContent = `Final score: ${frame.scores.map((s, seat) => `${player(seat)} ${s}`).join(", ")}`;
      board.append(line, breakdown());
    }
    $("seats").replaceChildren(...drawn.seats);
    $("text").textContent = frame.text;
    // The address names the step and seat shown, so a link opens the same view.
    history.replaceState(null, "", `#seat=${seatChoice.value}&step=${step}`);
    $("text-link").href = `${root.dataset.text}?step=${step}&seat=${encodeURIComponent(seatChoice.value)}`;
  }

  // --- autoplay: one step a tick, stopping at the last one -------------------------------------
  function atEnd() {
    return !data || step >= data.frames.length - 1;
  }

  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.textContent = "Play";
    playButton.setAttribute("aria-pressed", "false");
    root.dataset.playing = "false";
  }

  function tick() {
    show(step + 1);
    if (atEnd()) pause();
  }

  function play() {
    if (!data) return;
    if (atEnd()) show(0); // Play at the end starts again from the deal
    if (timer !== null) clearInterval(timer);
    timer = setInterval(tick, MS_PER_MOVE / Number(speedChoice.value));
    playButton.textContent = "Pause";
    playButton.setAttribute("aria-pressed", "true");
    root.dataset.playing = "true";
  }

  function togglePlay() {
    if (timer === null) play();
    else pause();
  }

  function fromAddress() {
    const wanted = new URLSearchParams(location.hash.slice(1));
    const seat = wanted.get("seat");
    if (seat && [...seatChoice.options].some((o) => o.value === seat)) seatChoice.value = seat;
    const at = Number(wanted.get("step"));
    if (Number.isInteger(at) && at > 0) step = at;
  }

  async function load(seat) {
    const response = await fetch(`${root.dataset.frames}?seat=${encodeURIComponent(seat)}`);
    const body = await response.json();
    if (!response.ok) {
      $("move-text").textContent = body.error || `the replay could not be loaded (${response.status})`;
      return;
    }
    data = body;
    slider.max = String(data.frames.length - 1);
    root.dataset.viewer = String(data.viewer);
    show(step);
    root.dataset.ready = "true";
  }

  function toggleCard(event) {
    const node = event.target.closest(".gcard.small");
    if (!node) return false;
    node.setAttribute("aria-expanded", String(node.classList.toggle("open")));
    return true;
  }

  root.addEventListener("click", toggleCard);
  root.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && toggleCard(event)) event.preventDefault();
  });
  const zoom = $("city-zoom");
  if (zoom) {
    zoom.addEventListener("click", () => {
      const on = $("city-box").classList.toggle("zoomed"); // twice as wide, scrolled in its box
      zoom.setAttribute("aria-pressed", String(on));
      zoom.textContent = on ? "Fit the city" : "Zoom the city";
      if (data) followMover(data.frames[step]);
    });
  }
  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(step - 1));
  $("forward").addEventListener("click", () => show(step + 1));
  $("last").addEventListener("click", () => show(data ? data.frames.length - 1 : 0));
  slider.addEventListener("input", () => show(Number(slider.value)));
  playButton.addEventListener("click", togglePlay);
  speedChoice.addEventListener("change", () => {
    if (timer !== null) play(); // the new speed at once
  });
  seatChoice.addEventListener("change", () => {
    pause();
    root.dataset.ready = "false";
    load(seatChoice.value);
  });
  document.addEventListener("keydown", (event) => {
    // Space plays or pauses, unless a control (or a card) has the focus and uses it itself.
    const own = event.target.closest && event.target.closest("button, select, input, a, summary, [role=button]");
    if (event.key === " " && !event.defaultPrevented && !own) {
      event.preventDefault();
      togglePlay();
      return;
    }
    if (event.target === slider || event.target === seatChoice) return; // they handle arrows
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
  fromAddress();
  load(seatChoice.value);
})();
