// A finished game's page (bot/web/replay.py): who won and everyone ranked (each person's name links
// their profile), the rematch when the table is the web's own, the net-worth chart (end.js), the
// achievements when there are any, and a replay to step through: the table as each moment showed it
// to the group, drawn read-only by the live page's own drawing code (board.js, deal.js: no moves, no
// hand). Frames come from /api/replay a page at a time (the page's first frame whole, the others as
// patches of the one before), fetched as the reader steps and kept.
// Steps: First, the turn before and after, a move back and on, the slider; the keys ← → (a move),
// Shift + ← → or Page Up / Page Down (a turn), Home and End. The frame shown is the page's address
// (#12), so that a moment can be shared.
import {boardPlayers, drawBoard, squareSheet} from "/static/board.js";
import {cardSheet, drawDeal} from "/static/deal.js";
import {showChart} from "/static/end.js";

const R = CFG.result, atlas = CFG.atlas;
const NOTHING = new Set();  // nothing on the table to tap for a move: the replay is read-only
const shownAt = {};  // seat -> square its token stands on (board.js walks it to the next one)
// each game as this page draws it, keyed like table.js's registry: where, and its players' cards
const GAMES = {
  board: {stage: "board", draw: m => drawBoard($("board"), atlas, m, shownAt, NOTHING), players: m => boardPlayers(atlas, m)},
  deal: {stage: "deal", draw: m => drawDeal($("deal"), atlas, m, NOTHING), players: () => []},
};
const PAGE = R.replay.page, TOTAL = R.replay.moves, TURNS = R.replay.turns;  // TURNS: [turn, first frame]
const pages = new Map();  // a page's first frame -> the promise of its frames
const loaded = new Map();  // the same, once fetched: [{n, by, log, m}]
let at = 0, current = null;

// -- the result ------------------------------------------------------------------------------------

function fitPlayers() {  // the players' colours fitted to the page's scheme (fitColours, common.js)
  atlas.given = atlas.given || atlas.players;
  atlas.players = fitColours(atlas.given);
}

function showResult() {
  $("heading").textContent = `#${R.table} ${w("web.game." + R.game)} · ${R.ruleset_name}`;
  document.body.dataset.game = R.game;
  $("end-title").textContent = plain(R.title);
  $("ranking").replaceChildren(...R.ranking.map(r => {
    const seat = R.seats[r.seat] || {};
    const li = el("li", {className: r.winner ? "winner" : ""});
    li.dataset.seat = String(r.seat);
    if (!r.name) { li.textContent = plain(r.line); return li; }
    // the place (without the trophy: no emoji on a page), the name (a person's links their
    // profile), and under them why they stand there (the line's words after the name)
    const name = seat.profile ? el("a", {href: seat.profile, className: "profile-link", textContent: r.name})
                              : el("span", {className: "who", textContent: r.name});
    li.append(el("span", {className: "place", textContent: plain(r.before)}), " ", name,
              ...(r.winner ? [" ", el("span", {className: "badge", textContent: w("web.end.winner")})] : []),
              el("span", {className: "why", textContent: plain(r.after).replace(/^[:：]\s*/, "")}));
    return li;
  }));
  $("ending-box").hidden = !R.ending.length;
  $("ending").replaceChildren(...R.ending.map(line => el("li", {textContent: plain(line)})));
  const again = $("rematch");
  again.hidden = !R.rematch.allowed;
  again.textContent = R.rematch.table ? w("web.end.join_rematch", {table: R.rematch.table}) : w("web.end.rematch");
  showChart({series: R.series, seats: R.seats, winners: R.winners}, atlas, $("end"));
  // the achievements (issue 48): [{seat, key, name, how}], filled by the server when there are any
  const earned = R.achievements || [];
  $("achievements").hidden = !earned.length;
  $("achievement-list").replaceChildren(...earned.map(a => {
    const li = el("li", {}, el("span", {className: "what", textContent: w("web.result.earned",
      {player: (R.seats[a.seat] || {}).name || "?", name: plain(a.name)})}));
    li.dataset.key = a.key;
    if (a.how) li.append(el("span", {className: "how muted", textContent: plain(a.how)}));
    return li;
  }));
}

$("rematch").addEventListener("click", async () => {
  const button = $("rematch");
  button.disabled = true;
  try {
    const response = await fetch(`/api/rematch/${R.table}`, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({k: CFG.key, name: localStorage.getItem("tycoon-name") || ""})});
    const answer = await response.json().catch(() => ({}));
    if (response.ok && answer.url) { location.href = answer.url; return; }
    showError(answer.error || w("web.replay.failed"));
  } catch {
    showError(w("web.err.offline"));
  }
  button.disabled = false;
});

// -- the replay's frames -------------------------------------------------------------------------

function patched(frame, patch) {  // the frame after: [path, value] sets, [path] removes (replay.py's diff)
  let next = structuredClone(frame);
  for (const op of patch) {
    const path = op[0];
    if (!path.length) { next = op[1]; continue; }
    let node = next;
    for (const key of path.slice(0, -1)) node = node[key];
    if (op.length === 1) delete node[path[path.length - 1]];
    else node[path[path.length - 1]] = op[1];
  }
  return next;
}

function table(frame) {  // a frame as the drawing code reads a table message
  return {game: R.game, table: R.table, view: frame.view, worth: frame.worth, status: frame.status,
          current: frame.current, turn: frame.turn, winners: frame.winners, seats: R.seats, seat: null, own: null};
}

function pageOf(start) {
  if (!pages.has(start)) {
    const query = new URLSearchParams({from: String(start), lang: CFG.lang});
    const promise = fetch(`${R.replay.api}&${query}`).then(response => {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    }).then(answer => {
      let frame = null;
      const frames = answer.frames.map(item => {
        frame = "frame" in item ? item.frame : patched(frame, item.patch);
        return {n: item.n, by: item.by, log: item.log, m: table(frame)};
      });
      loaded.set(start, frames);
      return frames;
    });
    promise.catch(() => pages.delete(start));  // tried again at the next step
    pages.set(start, promise);
  }
  return pages.get(start);
}

function frameNow(n) {  // frame n when its page is here already
  const page = loaded.get(n - n % PAGE);
  return page ? page[n % PAGE] : null;
}

// -- stepping ------------------------------------------------------------------------------------

function turnIndex(n) {  // the turn frame n is in (its index in TURNS)
  let low = 0, high = TURNS.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (TURNS[mid][1] <= n) low = mid; else high = mid - 1;
  }
  return low;
}
function turnBack() {  // this turn's start, or the start of the one before when at it already
  const i = turnIndex(at);
  return TURNS[i][1] < at ? TURNS[i][1] : i > 0 ? TURNS[i - 1][1] : 0;
}
function turnOn() {
  const i = turnIndex(at);
  return i + 1 < TURNS.length ? TURNS[i + 1][1] : TOTAL;
}

function controls() {
  for (const id of ["first", "prev", "prev-turn"]) $(id).disabled = at <= 0;
  for (const id of ["next", "next-turn", "last"]) $(id).disabled = at >= TOTAL;
  $("scrub").value = String(at);
  $("scrub").setAttribute("aria-valuetext", where(frameNow(at) || {n: at, by: null}));
}

async function go(n) {
  n = Math.max(0, Math.min(TOTAL, Math.round(Number(n) || 0)));
  at = n;
  controls();
  const start = n - n % PAGE;
  let page;
  try {
    if (!loaded.has(start)) $("replay-where").textContent = w("web.replay.loading");
    page = await pageOf(start);
  } catch {
    if (at === n) { $("replay-where").textContent = ""; showError(w("web.replay.failed")); }
    return;
  }
  if (at !== n) return;  // the reader stepped on meanwhile
  show(page[n - start]);
  // the next page (or the one before) fetched ahead, so that stepping on never waits
  if (n - start >= PAGE - 20 && start + PAGE <= TOTAL) pageOf(start + PAGE).catch(() => {});
  if (n - start < 20 && start > 0) pageOf(start - PAGE).catch(() => {});
}

function where(frame) {
  if (frame.n === 0) return w("web.replay.start", {total: TOTAL});
  const turn = frame.m ? frame.m.turn : TURNS[turnIndex(frame.n)][0];
  const by = frame.by !== null && frame.by !== undefined && R.seats[frame.by] ? ` · ${R.seats[frame.by].name}` : "";
  return w("web.replay.where", {n: frame.n, total: TOTAL, turn: turn === null ? "?" : turn}) + by;
}

function show(frame) {
  current = frame;
  const game = GAMES[R.game];
  for (const g of Object.values(GAMES)) $(g.stage).hidden = g !== game;
  if (game) {
    game.draw(frame.m);
    showPlayers(frame.m, game);
  }
  $("replay-where").textContent = where(frame);
  $("scrub").setAttribute("aria-valuetext", where(frame));
  // this move's lines first; then the moves before it, as far as the kept pages go, a few lines
  const lines = frame.log.map(line => el("li", {className: "now", textContent: plain(line)}));
  if (!lines.length) lines.push(el("li", {className: "quiet", textContent: w("web.replay.quiet")}));
  const older = [];
  for (let k = frame.n - 1; k >= 0 && older.length < 5; k--) {
    const before = frameNow(k);
    if (!before) break;
    older.push(...before.log.slice().reverse().slice(0, 5 - older.length));
  }
  $("replay-log").replaceChildren(...lines, ...older.map(line => el("li", {textContent: plain(line)})));
  document.body.dataset.frame = String(frame.n);
  if (!$("sheet").hidden) closeSheet();
  history.replaceState(null, "", `${location.pathname}${location.search}#${frame.n}`);
}

function showPlayers(m, game) {
  $("players").replaceChildren(...game.players(m).map(r => {
    const swatch = el("i", {className: "swatch"});
    swatch.style.background = atlas.players[r.seat % atlas.players.length];
    const card = el("div", {className: "player" + (m.status === "running" && m.current === r.seat ? " now" : "") + (r.out ? " out" : "")},
                    swatch, el("div", {}, el("div", {className: "who", textContent: m.seats[r.seat] ? m.seats[r.seat].name : "?"}),
                                   el("div", {className: "facts", textContent: r.facts.join(" · ")})));
    card.dataset.seat = String(r.seat);
    return card;
  }));
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(at - 1));
$("next").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(TOTAL));
$("prev-turn").addEventListener("click", () => go(turnBack()));
$("next-turn").addEventListener("click", () => go(turnOn()));
$("scrub").addEventListener("input", () => go($("scrub").value));
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (!$("sheet").hidden) { if (event.key === "Escape") closeSheet(); return; }
  if (event.target.closest && event.target.closest("input, select, textarea")) return;  // the slider steps itself
  const to = {ArrowRight: () => event.shiftKey ? turnOn() : at + 1, ArrowLeft: () => event.shiftKey ? turnBack() : at - 1,
              PageDown: turnOn, PageUp: turnBack, Home: () => 0, End: () => TOTAL}[event.key];
  if (!to) return;
  event.preventDefault();
  go(to());
});

// -- a tapped square or card: what it is (no moves here) -----------------------------------------

let opener = null;
function openSheet(sheet) {
  opener = document.activeElement;
  $("sheet-title").textContent = sheet.title;
  $("sheet-text").replaceChildren(...sheet.lines.map(line => el("p", {textContent: line})));
  $("sheet").hidden = false;
  $("sheet-close").focus();
}
function closeSheet() {
  $("sheet").hidden = true;
  if (opener && opener.focus) opener.focus();
  opener = null;
}
$("sheet-close").addEventListener("click", closeSheet);
$("sheet").addEventListener("click", (event) => { if (event.target === $("sheet")) closeSheet(); });
$("board").addEventListener("click", (event) => {
  const cell = event.target.closest(".sq");
  if (cell && current) openSheet(squareSheet(atlas, current.m, Number(cell.dataset.square)));
});
$("deal").addEventListener("click", (event) => {
  const card = event.target.closest("[data-card]");
  if (card) openSheet(cardSheet(atlas, Number(card.dataset.card)));
});

matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
  fitPlayers();
  showChart({series: R.series, seats: R.seats, winners: R.winners}, atlas, $("end"));
  for (const token of document.querySelectorAll(".token[data-seat]")) {
    token.style.background = atlas.players[Number(token.dataset.seat) % atlas.players.length];
  }
  if (current) show(current);
});

fitPlayers();
showResult();
$("scrub").max = String(TOTAL);
const asked = () => { const n = Number(location.hash.slice(1)); return location.hash.length > 1 && Number.isInteger(n) ? n : null; };
addEventListener("hashchange", () => { if (asked() !== null && asked() !== at) go(asked()); });  // a moment's link
go(asked() ?? 0);
