// 地产大亨's board drawn from the table's view: 40 squares on an 11 × 11 grid (GO at the bottom
// right, as printed), each with its group's band, its owner, houses or a hotel, a mortgage, and the
// tokens on it; dice and the bank in the middle. A token walks square by square to where it moved.
// A square with moves for the player is outlined; a tap on any square opens its sheet (table.js).

const STEP_MS = 110;
let walking = {};  // seat -> timer of a token still walking

export function place(i) {
  if (i <= 10) return {row: 11, col: 11 - i, side: "b"};
  if (i <= 20) return {row: 11 - (i - 10), col: 1, side: "l"};
  if (i <= 30) return {row: 1, col: 1 + (i - 20), side: "t"};
  return {row: 1 + (i - 30), col: 11, side: "r"};
}

function squareCell(atlas, i) {
  const sq = atlas.squares[i], at = place(i);
  const cell = el("div", {className: `sq side-${at.side} k-${sq.kind}` + (i % 10 === 0 ? " corner" : "")});
  cell.style.gridRow = String(at.row);
  cell.style.gridColumn = String(at.col);
  cell.dataset.square = String(i);
  const group = sq.group && atlas.groups[sq.group];
  const band = el("i", {className: "band"});
  if (group && sq.kind === "street") band.style.setProperty("--band", group.colour);
  cell.append(band, el("span", {className: "nm", textContent: sq.cell || sq.name}));
  if (sq.price) cell.append(el("span", {className: "pr", textContent: money(atlas, sq.price)}));
  cell.append(el("span", {className: "houses"}), el("span", {className: "tokens"}));
  return cell;
}

export function money(atlas, amount) {
  return atlas.money.replace("{}", Number(amount).toLocaleString("en-US"));
}

function build(root, atlas) {
  root.replaceChildren();
  for (let i = 0; i < 40; i++) root.append(squareCell(atlas, i));
  root.append(el("div", {className: "centre", id: "centre"}));
  root.dataset.ruleset = atlas.ruleset;
  walking = {};
}

function tokenOf(atlas, seat) {
  const token = el("i", {className: "token"});
  token.style.background = atlas.players[seat % atlas.players.length];
  token.dataset.seat = String(seat);
  return token;
}

function putToken(root, atlas, seat, square) {
  let token = root.querySelector(`.token[data-seat="${seat}"]`);
  if (!token) token = tokenOf(atlas, seat);
  root.querySelector(`.sq[data-square="${square}"] .tokens`).append(token);
}

function walk(root, atlas, seat, from, to) {
  clearTimeout(walking[seat]);
  const steps = (to - from + 40) % 40;
  if (from === undefined || steps === 0 || steps > 12) {  // a first sight, or a jump (to jail, by a card)
    putToken(root, atlas, seat, to);
    return;
  }
  let at = from;
  const next = () => {
    at = (at + 1) % 40;
    putToken(root, atlas, seat, at);
    if (at !== to) walking[seat] = setTimeout(next, STEP_MS);
  };
  walking[seat] = setTimeout(next, STEP_MS);
}

export function drawBoard(root, atlas, m, shown, subjects) {
  if (root.dataset.ruleset !== atlas.ruleset || !root.querySelector(".sq")) build(root, atlas);
  const view = m.view, bySquare = {};
  for (const s of view.squares || []) bySquare[s.index] = s;
  for (let i = 0; i < 40; i++) {
    const cell = root.querySelector(`.sq[data-square="${i}"]`);
    const s = bySquare[i];
    const owned = s && s.owner >= 0;
    let owner = cell.querySelector(".owner");
    if (owned) {
      if (!owner) { owner = el("i", {className: "owner"}); cell.append(owner); }
      owner.style.background = atlas.players[s.owner % atlas.players.length];
    } else if (owner) owner.remove();
    cell.classList.toggle("mortgaged", Boolean(s && s.mortgaged));
    const houses = cell.querySelector(".houses");
    const n = s ? s.houses : 0;
    houses.replaceChildren(...(n === 5 ? [el("i", {className: "hotel"})] : Array.from({length: n}, () => el("i", {className: "house"}))));
    houses.dataset.count = String(n);
    const group = atlas.squares[i].group;
    cell.classList.toggle("can", subjects.has("s" + i) || (group !== null && subjects.has("g" + group)));
  }
  for (const p of view.players || []) {
    if (p.bankrupt) {  // off the board, and a walk still under way must not put the token back
      clearTimeout(walking[p.seat]);
      const gone = root.querySelector(`.token[data-seat="${p.seat}"]`);
      if (gone) gone.remove();
      continue;
    }
    walk(root, atlas, p.seat, shown[p.seat], p.position);
    shown[p.seat] = p.position;
  }
  centre(root.querySelector("#centre"), atlas, m);
}

function centre(box, atlas, m) {
  const view = m.view, parts = [];
  if (view.last_dice && view.last_dice.length === 2) {
    parts.push(el("div", {className: "dice"}, ...view.last_dice.map(d => el("span", {className: "die", textContent: String(d)}))));
  }
  if (view.auction) {
    const a = view.auction, sq = a.square >= 0 ? atlas.squares[a.square] : null;
    const bidder = m.seats[a.high_bidder];
    const bid = a.high_bid ? w("web.board.bid", {amount: money(atlas, a.high_bid), name: bidder ? bidder.name : "?"})
                           : w("web.board.no_bid");
    const what = sq ? sq.name : w(a.kind === "hotel" ? "web.board.a_hotel" : "web.board.a_house");
    parts.push(el("p", {className: "big", textContent: w("web.board.auction", {square: what})}),
               el("p", {textContent: bid}));
  }
  if (view.parking_pot !== null && view.parking_pot !== undefined) {
    parts.push(el("p", {className: "facts", textContent: w("web.board.pot", {amount: money(atlas, view.parking_pot)})}));
  }
  parts.push(el("p", {className: "facts", textContent: w("web.board.bank", {houses: view.bank_houses, hotels: view.bank_hotels})}));
  parts.push(el("p", {className: "facts", textContent: w("web.board.tap")}));
  box.classList.toggle("auction", Boolean(view.auction));
  box.replaceChildren(...parts);
}

export function squareSheet(atlas, m, i) {
  // what a tapped square is: its name, price, rents and costs, and who holds it now
  const sq = atlas.squares[i], lines = [];
  const s = (m.view.squares || []).find(x => x.index === i);
  lines.push(...(sq.deed || []));  // the printed deed, worded by the server (words/board_text.deed_lines)
  if (s && s.owner >= 0) {
    lines.push(w("web.sq.owner", {name: m.seats[s.owner] ? m.seats[s.owner].name : "?"}));
    if (s.houses) lines.push(s.houses === 5 ? w("web.sq.has_hotel") : w("web.sq.houses", {count: s.houses}));
    if (s.mortgaged) lines.push(w("web.sq.mortgaged"));
  }
  const group = sq.group && atlas.groups[sq.group];
  return {title: sq.name + (group && sq.kind === "street" ? ` · ${group.name}` : ""), lines,
          subjects: ["s" + i].concat(sq.group ? ["g" + sq.group] : [])};
}

export function boardPlayers(atlas, m) {
  // one line per player: cash, deeds, worth, jail
  return (m.view.players || []).map(p => ({
    seat: p.seat, out: p.bankrupt,
    facts: [money(atlas, p.cash), w("web.board.deeds", {count: p.properties.length}),
            w("web.worth", {amount: money(atlas, (m.worth || {})[p.seat] || 0)})]
      .concat(p.in_jail ? [w("web.board.in_jail")] : []).concat(p.bankrupt ? [w("web.board.bankrupt")] : []),
  }));
}
