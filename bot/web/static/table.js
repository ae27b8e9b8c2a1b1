// A table page: the lobby until the game starts (room.js), then the live table, drawn here from the
// views the server sends (board.js, deal.js), with the clock (clock.js) and the end screen (end.js).
// Everything comes over the table's WebSocket; a move sends the button's token, exactly as a chat
// button would; the discard pile and the trade builder are asked of the server by the page.
// Phone first: the turn line and the moves live in the dock (#turn), which a phone keeps at the
// bottom of the screen, so every answer is in the first screen; a lost connection says so there.
import {boardPlayers, drawBoard, money as boardMoney, squareSheet} from "/static/board.js";
import {showClock} from "/static/clock.js";
import {cardSheet, cardTile, drawDeal, pickTap, startPicking, stopPicking, tapGroups, usePicking} from "/static/deal.js";
import {showEnd} from "/static/end.js";
import {initData, prepareMiniApp, useSession} from "/static/miniapp.js";
import {lobbyButtons, showLobby} from "/static/room.js";
import {shareButtons} from "/static/share.js";
import {showSignals} from "/static/signals.js";
import {showTrade, tradeNote, tradeOp, useSender, useSuggestions} from "/static/trade.js";

const RETRY_MS = 2000;  // a lost connection is tried again this often, for as long as the page is open
const MOST_IN_DOCK = 4;  // more moves than this, and those that answer nothing fold behind "More moves"
let socket = null, session = null, atlas = null, last = null, gone = false;
const shownAt = {};  // seat -> square its token stands on (board.js walks it to the next one)
// each game as this page draws it, keyed like the server's registry of games: where it is drawn,
// its players' cards, and the words of the player's own section; nothing below asks which game
// (``note``: what the turn line adds; ``promote``: the ranks of the loose moves as the page orders them)
const GAMES = {
  board: {stage: "board", draw: (m, things) => drawBoard($("board"), atlas, m, shownAt, things),
          players: m => boardPlayers(atlas, m), mine: "web.mine.moves", tap: "web.mine.tap_square",
          note: () => "", promote: (m, move) => move.rank},
  deal: {stage: "deal", draw: (m, things) => drawDeal($("deal"), atlas, m, things),
         players: () => [], mine: "web.mine.hand", tap: "web.mine.tap_card",
         note: m => m.status === "running" && m.view.phase === "play" && Number.isInteger(m.view.plays_left)
           ? w("web.clock.plays_left", {count: m.view.plays_left}) : "",
         // no play left: End turn (the Deal's only loose move kept apart, rank 2) is what is left to do
         promote: (m, move) => move.rank === 2 && m.view.plays_left === 0 && m.current === m.seat ? 0 : move.rank},
};
const nameInput = $("name");
const tg = window.Telegram && window.Telegram.WebApp;
nameInput.value = localStorage.getItem("tycoon-name") || "";
if (CFG.mode === "watch") for (const id of ["mine", "trade", "pile"]) $(id).remove();  // no hand, no offers

function send(message) {
  // a press while the connection is down is refused where the reader sees it, never dropped
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  offline(true);
  showError(w("web.err.offline"));
  return false;
}
useSender(send);
const nameOf = () => nameInput.value.trim() || localStorage.getItem("tycoon-name") || "";
lobbyButtons(send, nameOf);
$("join").addEventListener("click", () => {
  const name = nameInput.value.trim();
  if (!name) return showError(w("web.err.name"));
  localStorage.setItem("tycoon-name", name);
  send({type: "lobby", op: "join", name});
});
$("sheet-close").addEventListener("click", closeSheet);
$("sheet").addEventListener("click", (event) => { if (event.target === $("sheet")) closeSheet(); });
if ($("pile-close")) $("pile-close").addEventListener("click", () => { $("pile").hidden = true; });
$("rematch").addEventListener("click", () => send({type: "rematch", name: nameOf()}));
$("bid-send").addEventListener("click", () => {
  const amount = Number($("bid-amount").value);
  if (!$("bid-amount").value || !Number.isInteger(amount) || amount < 0) return showError($("bid-amount").placeholder);
  if (send({type: "amount", amount})) $("bid-send").disabled = true;
});
$("bid-amount").addEventListener("keydown", (event) => { if (event.key === "Enter") $("bid-send").click(); });
// on a phone the dock is fixed at the bottom: the page leaves room under its last card for it
new ResizeObserver(() => document.documentElement.style.setProperty("--dock-h", `${$("turn").offsetHeight}px`))
  .observe($("turn"));

// the players' colours fitted to the page's scheme (fitColours, common.js), again when it changes
function fitPlayers() {
  atlas.given = atlas.given || atlas.players;
  atlas.players = fitColours(atlas.given);
  for (const token of document.querySelectorAll(".token[data-seat]")) {
    token.style.background = atlas.players[Number(token.dataset.seat) % atlas.players.length];
  }
}
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
  if (!atlas) return;
  fitPlayers();
  if (last) showTable({...last, log: [], log_append: true});  // drawn again, the log as it is
});

function offline(on) {
  $("offline").hidden = !on;
  $("turn").classList.toggle("offline", on);
  document.body.dataset.online = on ? "no" : "yes";
}

function status(text) { $("status").textContent = text || ""; }
function money(amount) { return atlas ? boardMoney(atlas, amount) : String(amount); }

// -- moves: buttons for what is about nothing one can tap, a sheet for a card or a square --------

function press(move) {
  if (tg && tg.HapticFeedback) tg.HapticFeedback.impactOccurred("light");
  closeSheet();
  const sent = send({type: "press", token: move.token});
  if (sent) for (const b of document.querySelectorAll(".moves button")) b.disabled = true;
  return sent;
}

function moveButton(move, rank = move.rank) {
  const button = el("button", {textContent: plain(move.label), className: `rank-${rank}`, type: "button"});
  button.dataset.token = move.token;
  button.addEventListener("click", () => press(move));
  return button;
}

function subjects(m) {
  const out = new Set(((m.own && m.own.moves) || []).filter(x => x.about).map(x => x.about));
  // the rules list a move once for cards alike (two "Pass Go"): every such card in the hand offers it
  const me = m.own && (m.own.adds.players || []).find(p => p.seat === m.seat);
  for (const id of (me && me.hand) || []) if (twin(m, id)) out.add("c" + id);
  return out;
}

function twin(m, id) {
  // a card of the hand alike to ``id`` (same name) whose moves the rules listed
  const me = m.own && (m.own.adds.players || []).find(p => p.seat === m.seat);
  const moves = new Set(((m.own && m.own.moves) || []).map(x => x.about));
  return ((me && me.hand) || []).find(other => other !== id && moves.has("c" + other)
                                      && atlas.cards[other].name === atlas.cards[id].name);
}

function openSheet(sheet) {
  let moves = ((last.own && last.own.moves) || []).filter(x => sheet.subjects.includes(x.about));
  const id = sheet.subjects[0].startsWith("c") ? Number(sheet.subjects[0].slice(1)) : null;
  if (!moves.length && id !== null && twin(last, id) !== undefined) {
    moves = last.own.moves.filter(x => x.about === "c" + twin(last, id));
  }
  $("sheet-title").textContent = sheet.title;
  $("sheet-text").replaceChildren(...sheet.lines.map(line => el("p", {textContent: line})));
  // moves that name things on the table (Sly Deal's card to take…): chosen there by tapping, or from a list
  const {groups, rest} = tapGroups(moves);
  $("sheet-moves").replaceChildren(...groups.map(g => {
    const start = el("button", {type: "button", className: "rank-0 pick-start", textContent: w("web.pick.start", {count: g.length})});
    start.addEventListener("click", () => { closeSheet(); startPicking(g); });
    return start;
  }), ...rest.map(x => moveButton(x)), ...groups.map(g => el("details", {className: "pick-list"},
    el("summary", {textContent: w("web.pick.or_list", {count: g.length})}), ...g.map(x => moveButton(x)))));
  $("sheet-moves").classList.toggle("few", groups.length + rest.length <= 3);
  $("sheet").hidden = false;
  $("sheet").dataset.subject = sheet.subjects[0];
}
function listSheet(moves) {  // the moves a choice on the table left, as buttons
  $("sheet-title").textContent = w("web.pick.which");
  $("sheet-text").replaceChildren();
  $("sheet-moves").replaceChildren(...moves.map(x => moveButton(x)));
  $("sheet-moves").classList.toggle("few", moves.length <= 3);
  $("sheet").hidden = false;
  $("sheet").dataset.subject = moves[0].about;
}
usePicking(press, listSheet);
function closeSheet() { $("sheet").hidden = true; }

$("board").addEventListener("click", (event) => {
  const cell = event.target.closest(".sq");
  if (cell && atlas && last) openSheet(squareSheet(atlas, last, Number(cell.dataset.square)));
});
for (const id of ["deal", "hand"]) {
  $(id) && $(id).addEventListener("click", (event) => {
    if (id === "deal" && pickTap(event)) return;  // a tap that chooses on the table (deal.js)
    const card = event.target.closest("[data-card]");
    if (card && atlas && last) { stopPicking(); openSheet(cardSheet(atlas, Number(card.dataset.card))); }
  });
}

function showDock(m) {
  // the turn line, what the player is asked, and their moves not about a card or a square
  const own = m.own, game = GAMES[m.game];
  $("turn").hidden = m.status !== "running" && m.status !== "paused";
  $("turn-note").textContent = game.note(m);
  if (!own) {
    $("asked").replaceChildren();
    $("moves").replaceChildren();
    $("bid-row").hidden = true;
    return [];
  }
  $("asked").replaceChildren(...(own.news || []).map(line => el("p", {className: "news", textContent: plain(line)})),
                             ...own.asked.map(line => el("p", {textContent: plain(line)})));
  const loose = own.moves.filter(x => !x.about).map(x => ({...x, shown: game.promote(m, x)}))
    .sort((a, b) => a.shown - b.shown);
  // the answers to what is asked stay in view; other moves fold behind "More moves" once they would
  // make the dock tall (the rules' ready-made trade offers are not here: the trade builder lists them)
  const aside = loose.filter(x => !x.answers && x.shown !== 0);
  const fold = aside.length > 0 && loose.length > MOST_IN_DOCK;
  const buttons = loose.map(x => {
    const button = moveButton(x, x.shown);
    if (fold && aside.includes(x)) button.classList.add("folded");
    return button;
  });
  if (fold) {
    const more = el("button", {textContent: w("web.mine.more", {count: aside.length}), className: "rank-2 more", type: "button"});
    more.addEventListener("click", () => $("moves").classList.toggle("unfolded"));
    buttons.push(more);
  }
  $("moves").classList.remove("unfolded");
  if (own.ai_keeps) {
    const back = el("button", {textContent: w("web.mine.seat_back"), className: "rank-0", type: "button"});
    back.dataset.token = own.back;
    back.addEventListener("click", () => send({type: "back"}));
    buttons.unshift(back);
  }
  $("moves").replaceChildren(...buttons);
  $("moves").classList.toggle("few", buttons.length <= 2);
  showBid(own.amount);
  return loose;
}

function showBid(amount) {
  // an amount of one's own (the board's bid): a field beside the offered steps
  const row = $("bid-row"), field = $("bid-amount");
  if (!amount) { row.hidden = true; return; }
  // a fresh auction, or a bid overtaken: the field offers the least bid the rules take now
  if (row.hidden || (amount.least !== null && Number(field.value) < amount.least)) {
    field.value = amount.least === null ? "" : String(amount.least);
  }
  row.hidden = false;
  $("bid-send").disabled = false;
  field.min = amount.least === null ? "0" : String(amount.least);
  if (amount.most !== null) field.max = String(amount.most); else field.removeAttribute("max");
  field.placeholder = w("web.bid.range", {least: money(amount.least || 0), most: amount.most === null ? "?" : money(amount.most)});
  field.setAttribute("aria-label", w("web.bid.own"));
}

function showMine(m, loose) {
  const box = $("mine"), own = m.own;
  if (!box) return;
  const offers = (own && own.offers) || [];
  useSuggestions(offers, token => press({token}));
  box.hidden = !own;
  if (!own) return;
  $("mine-title").textContent = w(GAMES[m.game].mine);
  // a sent offer's receipt goes once the offer is no longer open (the news line says how it ended)
  const offered = ((m.view && m.view.trades) || []).some(x => x.proposer === m.seat);
  if (document.body.dataset.trade === "closed" && !offered && $("trade")) $("trade").hidden = true;
  const me = (own.adds.players || []).find(p => p.seat === m.seat);
  // a game that ended leaves nothing to do: the section goes, unless it shows a last hand
  if (m.status !== "running" && !own.moves.length && !(me && me.hand && me.hand.length)) { box.hidden = true; return; }
  const tapped = subjects(m);
  $("hand").replaceChildren(...((me && me.hand) || []).map(id => cardTile(atlas, id, tapped.has("c" + id))));
  const onThings = own.moves.length - loose.length;
  $("tap-hint").hidden = !onThings;
  $("tap-hint").textContent = w(GAMES[m.game].tap, {count: onThings});
  $("extras").replaceChildren(...own.extras.map(x => {
    // "Propose a trade" counts the builder's suggestions (the rules' ready-made offers)
    const label = x.op === "trade" && offers.length
      ? w("web.trade.propose_count", {label: plain(x.label), count: offers.length}) : plain(x.label);
    const button = el("button", {textContent: label, className: "rank-1", type: "button"});
    button.dataset.extra = x.op;
    button.addEventListener("click", () => {
      if (x.op === "pile") send({type: "pile"});
      else tradeOp(x.op === "trade" ? "n" : "k" + x.op.split(":")[1]);
    });
    return button;
  }), ...tradeNote(own));
  telegramMain(loose, own);
}

function telegramMain(loose, own) {
  // inside Telegram, the one expected answer also rides the app's main button
  if (!tg || !tg.MainButton) return;
  const main = loose.filter(x => x.rank === 0 && x.answers);
  tg.MainButton.offClick(telegramMain.handler || (() => {}));
  if (main.length === 1 && !own.ai_keeps) {
    telegramMain.handler = () => press(main[0]);
    tg.MainButton.setText(plain(main[0].label));
    tg.MainButton.onClick(telegramMain.handler);
    tg.MainButton.show();
  } else tg.MainButton.hide();
}

function showPlayers(m) {
  const rows = GAMES[m.game].players(m);
  $("players").replaceChildren(...rows.map(r => {
    const swatch = el("i", {className: "swatch"});
    swatch.style.background = atlas.players[r.seat % atlas.players.length];
    const who = m.seats[r.seat] ? m.seats[r.seat].name : "?";
    const card = el("div", {className: "player" + (m.status === "running" && m.current === r.seat ? " now" : "") + (r.out ? " out" : "")},
                    swatch, el("div", {}, el("div", {className: "who", textContent: who + (r.seat === m.seat ? ` (${w("web.you")})` : "")}),
                                   el("div", {className: "facts", textContent: r.facts.join(" · ")})));
    card.dataset.seat = String(r.seat);
    return card;
  }));
}

function showTable(m) {
  const ended = m.status === "over" || m.status === "cancelled";
  const before = last;
  showSignals(m);
  last = m;
  $("lobby").hidden = true;
  $("heading").textContent = `#${m.table} ${w("web.game." + m.game)} · ${atlas.ruleset_name}`;
  document.body.dataset.game = m.game;
  document.body.dataset.played = m.played ? "yes" : "no";
  // the whole log when the page opens; then each update adds its lines (newest first)
  const lines = m.log.slice().reverse().map(line => el("li", {textContent: plain(line)}));
  if (m.log_append) $("log").prepend(...lines); else $("log").replaceChildren(...lines);
  $("log-card").hidden = !$("log").children.length;
  if (ended) showEnd(m, atlas, money); else $("end").hidden = true;
  if (ended && (!before || (before.status !== "over" && before.status !== "cancelled"))) window.scrollTo(0, 0);
  $("stage").hidden = !m.played;
  if (!m.played) {  // a table ended before its game began: its end is all there is to show
    for (const id of ["turn", "mine"]) if ($(id)) $(id).hidden = true;
    status(w("web.status." + m.status));
    return;
  }
  const things = subjects(m);
  for (const game of Object.values(GAMES)) $(game.stage).hidden = game !== GAMES[m.game];
  GAMES[m.game].draw(m, things);
  showPlayers(m);
  $("picture-link").href = m.picture;
  shareButtons($("table-share"), ended ? [] : [["web.share.play", m.web && m.seat !== null ? `/t/${m.table}` : null],
                                               ["web.share.watch", m.watch_path]]);
  showClock(m);
  showMine(m, showDock(m));
  let line = w("web.status." + m.status);
  if (CFG.mode === "watch") line += " · " + w("web.table.watching");
  else if (m.seat === null) line += " · " + w("web.table.not_seated");
  else if (m.own && !m.own.moves.length && m.status === "running" && !m.own.ai_keeps) line += " · " + w("web.table.waiting");
  status(line);
  if (!$("sheet").hidden && $("sheet").dataset.subject) closeSheet();  // its moves are out of date
}

function showPile(m) {
  $("pile").hidden = false;
  $("pile-cards").replaceChildren(...(m.cards.length ? m.cards.map(id => cardTile(atlas, id, false, "div"))
                                                      : [el("p", {className: "muted", textContent: m.text})]));
}

function connect() {
  const query = new URLSearchParams({lang: CFG.lang});
  if (CFG.mode === "watch") query.set("watch", CFG.key);
  if (session) query.set("s", session);
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/${CFG.table}?${query}`);
  socket.addEventListener("open", () => offline(false));
  socket.addEventListener("message", (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "error") {
      showError(m.message);
      for (const b of document.querySelectorAll(".moves button")) b.disabled = false;
      return;
    }
    if (m.type === "missing") { gone = true; status(""); showError(m.message); document.body.dataset.status = "missing"; return; }
    // the Discord Activity (activity.js) reloads: it finds the channel's new lobby and signs in again
    if (m.type === "rematch") { if (CFG.discord) location.reload(); else location.href = `/t/${m.table}`; return; }
    if (m.type === "atlas") { atlas = m; fitPlayers(); return; }
    if (m.type === "trade") return showTrade(m);
    if (m.type === "pile") return showPile(m);
    document.body.dataset.version = m.version === undefined ? "" : String(m.version);
    document.body.dataset.status = m.status;
    if (m.own) m.own.moves = m.own.moves.map(([label, token, about, rank, answers, picks]) =>
      ({label, token, about, rank, answers: Boolean(answers), picks}));
    if (m.type === "lobby") {
      $("lobby").hidden = false;
      for (const id of ["turn", "stage", "mine", "log-card", "end"]) if ($(id)) $(id).hidden = true;
      showLobby(m, send, nameOf);
      status(w("web.status." + m.status));
    } else showTable(m);
  });
  socket.addEventListener("close", () => {
    if (gone) return;
    status(w("web.table.reconnecting"));
    offline(true);
    setTimeout(connect, RETRY_MS);
  });
}

async function telegramSignIn() {
  // Telegram's initData (miniapp.js), checked by the server with the bot's token
  status(w("web.tg.signing_in"));
  const response = await fetch("/api/tg/auth", {method: "POST", headers: {"Content-Type": "application/json"},
                                               body: JSON.stringify({init_data: initData()})});
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) { status(""); showError(answer.error || w("web.err.init_data")); document.body.dataset.status = "refused"; return; }
  session = answer.session;
  useSession(session);  // "Invite friends" asks in this player's name
  connect();
}

function discordSignIn() {
  // the Discord Activity (activity.js): Discord's SDK signs in, then the channel's table is this page's
  CFG.discord = true;
  import("/static/activity.js").then(activity => activity.enter({status, play(table, signed, key) {
    CFG.table = table;
    session = signed;
    if (key) { CFG.mode = "watch"; CFG.key = key; }  // a member without a seat watches the channel's game
    connect();
  }}));
}

status(w("web.table.connecting"));
prepareMiniApp();  // inside Telegram: its colours, its full height, full screen on a phone (miniapp.js)
if (CFG.mode === "tg") telegramSignIn(); else if (CFG.mode === "dc") discordSignIn(); else connect();
