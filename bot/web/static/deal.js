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
  const sets = el("div", {className: "sets"}, ...p.groups.map(g => {
    const colour = g.colour ? atlas.colours[g.colour] : null;
    const label = (colour ? colour.name : w("web.deal.no_colour")) + (colour ? ` ${g.cards.length}/${colour.size}` : "")
      + (g.hotel ? ` · ${w("web.deal.hotel")}` : g.house ? ` · ${w("web.deal.house")}` : "");
    return el("div", {className: "set" + (g.complete ? " complete" : "")},
              el("span", {className: "label", textContent: label}),
              ...g.cards.map(id => mini(atlas, id, g.colour, subjects.has("c" + id), chosen.has(id))));
  }));
  if (p.bank.length) box.append(chips);
  if (p.groups.length) box.append(sets);
  return box;
}

export function drawDeal(root, atlas, m, subjects) {
  const view = m.view;
  const chosen = new Set();
  for (const d of view.pending || []) for (const id of d.selected || []) chosen.add(id);
  for (const d of (m.own && m.own.adds.pending) || []) for (const id of d.selected || []) chosen.add(id);
  const piles = el("div", {className: "piles"},
    el("div", {className: "pile-box"}, el("span", {textContent: w("web.deal.draw", {count: view.draw_count})})),
    el("div", {className: "pile-box"},
       ...(view.discard_top !== null && view.discard_top !== undefined ? [cardTile(atlas, view.discard_top, false, "div")] : []),
       el("span", {textContent: w("web.deal.discard", {count: view.discard_count})})));
  root.replaceChildren(piles, ...(view.players || []).map(p => area(atlas, m, p, subjects, chosen)));
}

export function cardSheet(atlas, id) {
  const card = atlas.cards[id];
  const lines = [w("web.card." + card.kind) + ` · ${card.value}M`];
  if (card.colours.length) lines.push(card.colours.map(k => atlas.colours[k].name).join(" / "));
  if (card.text) lines.push(card.text);
  return {title: card.name, lines, subjects: ["c" + id]};
}

export function dealPlayers() { return []; }  // each player's facts are in their area of the table
