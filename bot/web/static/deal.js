// 大富翁纸牌's table drawn from the table's view: the draw and discard piles, then each player's
// bank (a chip per card) and property sets (a small card each, a set outlined when complete, its
// house and hotel); the player's own hand as cards to tap. A card with moves for the player is
// outlined; a tap opens its sheet (table.js).

export function paint(atlas, id) {
  const card = atlas.cards[id];
  return card && card.colours.length ? card.colours.map(k => atlas.colours[k].colour) : [];
}

function inkOn(hex) {  // dark words on a light paint, light on a dark one
  const n = parseInt(hex.slice(1), 16), r = n >> 16, g = (n >> 8) & 255, b = n & 255;
  return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? "#111" : "#fff";
}

export function cardTile(atlas, id, can, tag = "button") {
  const card = atlas.cards[id];
  const tile = el(tag, {className: `cardtile ${card.kind}` + (can ? " can" : "")});
  tile.dataset.card = String(id);
  if (tag === "button") tile.type = "button";
  const colours = paint(atlas, id);
  const band = el("span", {className: "paint"}, ...colours.map(c => { const i = el("i"); i.style.background = c; return i; }));
  if (!colours.length) band.style.background = card.kind === "money" ? "#2e7d46" : "#6e48a0";
  tile.append(band, el("span", {className: "kind", textContent: w("web.card." + card.kind)}),
              el("span", {className: "name", textContent: card.name}),
              el("span", {className: "value", textContent: `${card.value}M`}));
  return tile;
}

function mini(atlas, id, colour, can, chosen) {
  const card = atlas.cards[id];
  const tile = el("span", {className: "mini" + (can ? " can" : "") + (chosen ? " chosen" : ""), textContent: card.name});
  const hex = colour ? atlas.colours[colour].colour : "#d8d8d8";
  tile.style.setProperty("--paint", hex);
  tile.style.setProperty("--paint-ink", inkOn(hex));
  tile.dataset.card = String(id);
  return tile;
}

function area(atlas, m, p, subjects, chosen) {
  const seat = m.seats[p.seat] || {name: "?"};
  const box = el("section", {className: "area" + (m.status === "running" && m.current === p.seat ? " now" : "")});
  box.dataset.seat = String(p.seat);
  const swatch = el("i", {className: "swatch"});
  swatch.style.background = atlas.players[p.seat % atlas.players.length];
  const facts = w("web.deal.facts", {bank: p.bank_total, sets: p.complete_sets, hand: p.hand_count});
  box.append(el("h3", {}, swatch, el("span", {textContent: seat.name}), el("span", {className: "facts", textContent: facts})));
  const chips = el("div", {className: "chips"}, ...p.bank.map(id => {
    const chip = el("span", {className: "chip" + (subjects.has("c" + id) ? " can" : "") + (chosen.has(id) ? " chosen" : ""),
                             textContent: `${atlas.cards[id].value}M`});
    chip.dataset.card = String(id);
    return chip;
  }));
  const sets = el("div", {className: "sets"}, ...p.groups.map((g, i) => {
    const colour = g.colour ? atlas.colours[g.colour] : null;
    const label = (colour ? colour.name : w("web.deal.no_colour")) + (colour ? ` ${g.cards.length}/${colour.size}` : "")
      + (g.hotel ? ` · ${w("web.deal.hotel")}` : g.house ? ` · ${w("web.deal.house")}` : "");
    const set = el("div", {className: "set" + (g.complete ? " complete" : "")},
              el("span", {className: "label", textContent: label}),
              ...g.cards.map(id => mini(atlas, id, g.colour, subjects.has("c" + id), chosen.has(id))));
    set.dataset.group = String(i);  // its index in the player's area, as a move names it
    return set;
  }));
  if (p.bank.length) box.append(chips);
  if (p.groups.length) box.append(sets);
  return box;
}

let drawn = null;  // what the table was last drawn from (drawn again once a choice on it ends)

export function drawDeal(root, atlas, m, subjects) {
  drawn = [root, atlas, m, subjects];
  const view = m.view;
  const chosen = new Set();
  for (const d of view.pending || []) for (const id of d.selected || []) chosen.add(id);
  for (const d of (m.own && m.own.adds.pending) || []) for (const id of d.selected || []) chosen.add(id);
  const piles = el("div", {className: "piles"},
    el("div", {className: "pile-box"}, el("span", {textContent: w("web.deal.draw", {count: view.draw_count})})),
    el("div", {className: "pile-box"},
       ...(view.discard_top !== null && view.discard_top !== undefined ? [cardTile(atlas, view.discard_top, false, "div")] : []),
       el("span", {textContent: w("web.deal.discard", {count: view.discard_count})})));
  // paying: the payer's own area (the cards that can pay, outlined) comes first, above the piles
  const paying = m.seat !== null && m.own && (view.pending || []).some(d => d.stage === "pay" && d.target === m.seat)
    && m.own.moves.some(x => x.about && !(me(m).hand || []).includes(Number(x.about.slice(1))));
  const areas = (view.players || []).map(p => area(atlas, m, p, subjects, chosen));
  if (paying) {
    const mine = areas.find(a => a.dataset.seat === String(m.seat));
    mine.classList.add("paying");
    mine.querySelector("h3").after(el("p", {className: "pay-hint", textContent: w("web.deal.pay_hint")}));
    root.replaceChildren(mine, piles, ...areas.filter(a => a !== mine));
  } else root.replaceChildren(piles, ...areas);
  document.body.dataset.paying = paying ? "yes" : "no";
  showPicking(root, m);
}

function me(m) {
  return ((m.own && m.own.adds.players) || []).find(p => p.seat === m.seat) || {};
}

// -- choosing by tapping the table: Sly Deal, Forced Deal, Deal Breaker, a rent card, Debt Collector --
// The moves of the card chosen in the hand are the server's (their ``picks``: what each takes, gives
// or aims at); each tap keeps the moves that name the thing tapped; the last one left is pressed.
// Nothing is made up here: every press is a move the server listed.

const TAPPED = new Set(["sly_deal", "forced_deal", "deal_breaker", "rent", "debt_collector"]);
// what each step asks the player to tap, and where that thing is for a move (a key of the table's elements)
const STEPS = [
  ["take", x => x.take !== undefined ? `c${x.take}` : null],
  ["give", x => x.give !== undefined ? `c${x.give}` : null],
  // a set: of the player aimed at (Deal Breaker), or the player's own (a rent card, for any target)
  ["set", (x, seat) => x.group !== undefined ? `g${x.target !== undefined && x.kind !== "rent" ? x.target : seat}:${x.group}` : null],
  ["seat", x => x.target !== undefined ? `p${x.target}` : null],
];
let picking = null;  // {moves, kind, chosen: [keys tapped], step, keys}
let hooks = {press: () => {}, list: () => {}};

export function usePicking(press, list) { hooks = {press, list}; }  // table.js: a move's press, a sheet of moves

export function tapGroups(moves) {
  // the moves of a sheet that may be chosen on the table (two or more of a kind), by kind; and the rest
  const byKind = {};
  for (const x of moves) if (x.picks && TAPPED.has(x.picks.kind)) (byKind[x.picks.kind] ||= []).push(x);
  const groups = Object.values(byKind).filter(g => g.length > 1);
  const tapped = new Set(groups.flat());
  return {groups, rest: moves.filter(x => !tapped.has(x))};
}

export function startPicking(moves) {
  picking = {moves, kind: moves[0].picks.kind, chosen: []};
  nextStep();
}

export function stopPicking(redraw = true) {
  const was = picking;
  picking = null;
  const bar = $("pick");
  if (bar) bar.hidden = true;
  document.body.dataset.picking = "";
  if (was && redraw && drawn) drawDeal(...drawn);  // the table's own outlines again
}

function nextStep() {
  // the first step whose things tell the moves left apart; none: one move is left (pressed) or a few
  // that differ only in what the table does not show (Double The Rent): those in a list
  const seat = lastSeat();
  if (picking.moves.length === 1) { const move = picking.moves[0]; stopPicking(); return hooks.press(move); }
  for (const [step, key] of STEPS) {
    const keys = picking.moves.map(x => key(x.picks, seat));
    if (keys.some(k => k === null) || new Set(keys).size < 2) continue;
    picking.step = step;
    picking.key = key;
    picking.keys = new Set(keys);
    return showBar();
  }
  const left = picking.moves;
  stopPicking();
  hooks.list(left);
}

let shownSeat = null;
function lastSeat() { return shownSeat; }

function showBar() {
  let bar = $("pick");
  if (!bar) {  // in the dock, above the moves: what to tap, Cancel, the list instead
    bar = el("div", {id: "pick", className: "pick asked"});
    $("turn").insertBefore(bar, $("asked"));
  }
  const words = picking.step === "set" && picking.kind === "rent" ? "web.pick.set_rent" : `web.pick.${picking.step}`;
  const cancel = el("button", {type: "button", className: "quiet", textContent: w("web.pick.cancel")});
  cancel.dataset.pick = "cancel";
  cancel.addEventListener("click", stopPicking);
  const list = el("button", {type: "button", className: "quiet", textContent: w("web.pick.list", {count: picking.moves.length})});
  list.dataset.pick = "list";
  list.addEventListener("click", () => { const left = picking.moves; stopPicking(); hooks.list(left); });
  bar.replaceChildren(el("p", {className: "pick-what", textContent: w(words, {count: picking.keys.size})}),
                      el("div", {className: "moves few"}, cancel, list));
  bar.hidden = false;
  document.body.dataset.picking = picking.step;
  mark();
}

function things(root, k) {
  // the table's elements a key stands for: a card (c), a set of a player's area (g), a player's area (p)
  if (k[0] === "c") return [...root.querySelectorAll(`.area [data-card="${k.slice(1)}"]`)];
  if (k[0] === "g") {
    const [seat, group] = k.slice(1).split(":");
    return [...root.querySelectorAll(`.area[data-seat="${seat}"] .set[data-group="${group}"]`)];
  }
  return [...root.querySelectorAll(`.area[data-seat="${k.slice(1)}"]`)];
}

function mark() {
  const root = $("deal");
  for (const e of root.querySelectorAll("[data-pick], .can, .picked")) {
    delete e.dataset.pick;
    e.classList.remove("can");
    e.style.boxShadow = "";
  }
  for (const k of picking.chosen) for (const e of things(root, k)) e.classList.add("chosen");
  for (const k of picking.keys) {
    for (const e of things(root, k)) {
      e.dataset.pick = k;
      if (e.matches(".set, .area")) {  // a set or an area: outlined itself, its cards too
        e.style.boxShadow = "0 0 0 3px var(--accent)";
        for (const card of e.querySelectorAll("[data-card]")) card.classList.add("can");
      } else e.classList.add("can");
    }
  }
}

export function pickTap(event) {
  // a tap on the table while choosing: a highlighted thing narrows the moves; anything else is ignored
  if (!picking) return false;
  const thing = event.target.closest("[data-pick]");
  if (!thing || !picking.keys.has(thing.dataset.pick)) return true;
  const k = thing.dataset.pick;
  picking.chosen.push(k);
  picking.moves = picking.moves.filter(x => picking.key(x.picks, lastSeat()) === k);
  nextStep();
  return true;
}

function showPicking(root, m) {
  // a new version of the table: the choice goes on while its moves are still the server's, else it ends
  shownSeat = m.seat;
  if (!picking) return;
  const tokens = new Set(((m.own && m.own.moves) || []).map(x => x.token));
  if (!picking.moves.every(x => tokens.has(x.token))) return stopPicking(false);
  mark();
}

export function cardSheet(atlas, id) {
  const card = atlas.cards[id];
  const lines = [w("web.card." + card.kind) + ` · ${card.value}M`];
  if (card.colours.length) lines.push(card.colours.map(k => atlas.colours[k].name).join(" / "));
  if (card.text) lines.push(card.text);
  return {title: card.name, lines, subjects: ["c" + id]};
}

export function dealPlayers() { return []; }  // each player's facts are in their area of the table
