// A table page: the lobby until the game starts, then the live table, drawn here from the views
// the server sends (board.js, deal.js), with the clock (clock.js) and the end screen (end.js).
// Everything comes over the table's WebSocket; a move sends the button's token, exactly as a chat
// button would; the discard pile and the trade builder are asked of the server by the page.
import {boardPlayers, drawBoard, money as boardMoney, squareSheet} from "/static/board.js";
import {showClock} from "/static/clock.js";
import {cardSheet, cardTile, drawDeal} from "/static/deal.js";
import {showEnd} from "/static/end.js";
import {showTrade, tradeOp, useSender} from "/static/trade.js";

let socket = null, session = null, retry = 1000, atlas = null, last = null, gone = false;
const shownAt = {};  // seat -> square its token stands on (board.js walks it to the next one)
// each game as this page draws it, keyed like the server's registry of games: where it is drawn,
// its players' cards, and the words of the player's own section; nothing below asks which game
const GAMES = {
  board: {stage: "board", draw: (m, things) => drawBoard($("board"), atlas, m, shownAt, things),
          players: m => boardPlayers(atlas, m), mine: "web.mine.moves", tap: "web.mine.tap_square"},
  deal: {stage: "deal", draw: (m, things) => drawDeal($("deal"), atlas, m, things),
         players: () => [], mine: "web.mine.hand", tap: "web.mine.tap_card"},
};
const nameInput = $("name");
const tg = window.Telegram && window.Telegram.WebApp;
nameInput.value = localStorage.getItem("tycoon-name") || "";
if (CFG.mode === "watch") for (const id of ["mine", "trade", "pile"]) $(id).remove();  // no hand, no offers

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
useSender(send);
for (const button of document.querySelectorAll("[data-op]")) {
  button.addEventListener("click", () => send({type: "lobby", op: button.dataset.op, name: nameInput.value.trim()}));
}
$("join").addEventListener("click", () => {
  const name = nameInput.value.trim();
  if (!name) return showError(w("web.err.name"));
  localStorage.setItem("tycoon-name", name);
  send({type: "lobby", op: "join", name});
});
$("sheet-close").addEventListener("click", closeSheet);
$("sheet").addEventListener("click", (event) => { if (event.target === $("sheet")) closeSheet(); });
if ($("pile-close")) $("pile-close").addEventListener("click", () => { $("pile").hidden = true; });

function status(text) { $("status").textContent = text || ""; }
function money(amount) { return atlas ? boardMoney(atlas, amount) : String(amount); }

function showLobby(m) {
  $("lobby").hidden = false;
  for (const id of ["turn", "stage", "mine", "log-card", "end"]) if ($(id)) $(id).hidden = true;
  $("heading").textContent = `#${m.table} ${w("web.game." + m.game)} · ${m.ruleset_name}`;
  $("seats").replaceChildren(...m.seats.map((s, i) => el("li", {className: i === m.seat ? "me" : "",
    textContent: s.name + (s.level ? ` (${s.level})` : s.ai ? ` (${w("web.ai")})` : "") +
      (i === m.seat ? ` (${w("web.you")})` : "")})));
  const playing = m.status === "lobby" && m.web && !m.watch;
  $("join-row").hidden = !playing || m.seat !== null;
  $("lobby-buttons").hidden = !playing;
  // the table's rule options: what is on for everyone, a switch per option for the creator
  $("options-on").textContent = m.options_on || "";
  const toggles = playing && m.creator ? m.options : [];
  $("option-buttons").replaceChildren(...toggles.map(o => {
    const button = el("button", {className: "switch" + (o.on ? " on" : ""), type: "button"},
                      el("span", {className: "knob"}), el("span", {textContent: o.label}));
    button.setAttribute("role", "switch");
    button.setAttribute("aria-checked", String(o.on));
    button.dataset.option = o.op;
    button.addEventListener("click", () => send({type: "lobby", op: o.op, name: nameInput.value.trim()}));
    return button;
  }));
  status(w("web.status." + m.status));
  $("share").textContent = m.status === "lobby" ? w("web.table.share", {url: location.origin + location.pathname}) : "";
}

// -- moves: buttons for what is about nothing one can tap, a sheet for a card or a square --------

function press(move) {
  for (const b of document.querySelectorAll(".moves button")) b.disabled = true;
  if (tg && tg.HapticFeedback) tg.HapticFeedback.impactOccurred("light");
  closeSheet();
  send({type: "press", token: move.token});
}

function moveButton(move) {
  const button = el("button", {textContent: plain(move.label), className: `rank-${move.rank}`, type: "button"});
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
  $("sheet-moves").replaceChildren(...moves.map(moveButton));
  $("sheet-moves").classList.toggle("few", moves.length <= 3);
  $("sheet").hidden = false;
  $("sheet").dataset.subject = sheet.subjects[0];
}
function closeSheet() { $("sheet").hidden = true; }

$("board").addEventListener("click", (event) => {
  const cell = event.target.closest(".sq");
  if (cell && atlas && last) openSheet(squareSheet(atlas, last, Number(cell.dataset.square)));
});
for (const id of ["deal", "hand"]) {
  $(id) && $(id).addEventListener("click", (event) => {
    const card = event.target.closest("[data-card]");
    if (card && atlas && last) openSheet(cardSheet(atlas, Number(card.dataset.card)));
  });
}

function showMine(m) {
  const box = $("mine"), own = m.own;
  if (!box) return;
  box.hidden = !own;
  if (!own) return;
  $("mine-title").textContent = w(GAMES[m.game].mine);
  $("asked").replaceChildren(...(own.news || []).map(line => el("p", {className: "news", textContent: plain(line)})),
                             ...own.asked.map(line => el("p", {textContent: plain(line)})));
  // a sent offer's receipt goes once the offer is no longer open (the news line says how it ended)
  const offered = ((m.view && m.view.trades) || []).some(x => x.proposer === m.seat);
  if (document.body.dataset.trade === "closed" && !offered && $("trade")) $("trade").hidden = true;
  const me = (own.adds.players || []).find(p => p.seat === m.seat);
  // a game that ended leaves nothing to do: the section goes, unless it shows a last hand
  if (m.status !== "running" && !own.moves.length && !(me && me.hand && me.hand.length)) { box.hidden = true; return; }
  const tapped = subjects(m);
  $("hand").replaceChildren(...((me && me.hand) || []).map(id => cardTile(atlas, id, tapped.has("c" + id))));
  const loose = own.moves.filter(x => !x.about).sort((a, b) => a.rank - b.rank);
  const onThings = own.moves.length - loose.length;
  $("tap-hint").hidden = !onThings;
  $("tap-hint").textContent = w(GAMES[m.game].tap, {count: onThings});
  const buttons = loose.map(moveButton);
  if (own.ai_keeps) {
    const back = el("button", {textContent: w("web.mine.seat_back"), className: "rank-0", type: "button"});
    back.dataset.token = own.back;
    back.addEventListener("click", () => send({type: "back"}));
    buttons.unshift(back);
  }
  $("moves").replaceChildren(...buttons);
  $("moves").classList.toggle("few", buttons.length <= 2);
  $("extras").replaceChildren(...own.extras.map(x => {
    const button = el("button", {textContent: plain(x.label), className: "rank-1", type: "button"});
    button.dataset.extra = x.op;
    button.addEventListener("click", () => {
      if (x.op === "pile") send({type: "pile"});
      else tradeOp(x.op === "trade" ? "n" : "k" + x.op.split(":")[1]);
    });
    return button;
  }));
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
  last = m;
  $("lobby").hidden = true;
  $("heading").textContent = `#${m.table} ${w("web.game." + m.game)} · ${atlas.ruleset_name}`;
  $("stage").hidden = false;
  document.body.dataset.game = m.game;
  const things = subjects(m);
  for (const game of Object.values(GAMES)) $(game.stage).hidden = game !== GAMES[m.game];
  GAMES[m.game].draw(m, things);
  showPlayers(m);
  $("picture-link").href = m.picture;
  showClock(m);
  showMine(m);
  $("log-card").hidden = false;
  // the whole log when the page opens; then each update adds its lines (newest first)
  const lines = m.log.slice().reverse().map(line => el("li", {textContent: plain(line)}));
  if (m.log_append) $("log").prepend(...lines); else $("log").replaceChildren(...lines);
  if (m.status === "over" || m.status === "cancelled") showEnd(m, atlas, money); else $("end").hidden = true;
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
  socket.addEventListener("open", () => { retry = 1000; });
  socket.addEventListener("message", (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "error") {
      showError(m.message);
      for (const b of document.querySelectorAll(".moves button")) b.disabled = false;
      return;
    }
    if (m.type === "missing") { gone = true; status(""); showError(m.message); document.body.dataset.status = "missing"; return; }
    if (m.type === "atlas") { atlas = m; return; }
    if (m.type === "trade") return showTrade(m);
    if (m.type === "pile") return showPile(m);
    document.body.dataset.version = m.version === undefined ? "" : String(m.version);
    document.body.dataset.status = m.status;
    if (m.own) m.own.moves = m.own.moves.map(([label, token, about, rank, answers]) =>
      ({label, token, about, rank, answers: Boolean(answers)}));
    if (m.type === "lobby") showLobby(m); else showTable(m);
  });
  socket.addEventListener("close", () => {
    if (gone) return;
    status(w("web.table.reconnecting"));
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  });
}

async function telegramSignIn() {
  // Telegram passes initData to a Mini App in the page's fragment (tgWebAppData), and through its
  // script when that is loaded: either will do, the server checks it with the bot's token.
  const fromScript = tg && tg.initData;
  const initData = fromScript || new URLSearchParams(location.hash.slice(1)).get("tgWebAppData") || "";
  status(w("web.tg.signing_in"));
  const response = await fetch("/api/tg/auth", {method: "POST", headers: {"Content-Type": "application/json"},
                                               body: JSON.stringify({init_data: initData})});
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) { status(""); showError(answer.error || w("web.err.init_data")); document.body.dataset.status = "refused"; return; }
  session = answer.session;
  connect();
}

function telegramTheme() {
  // inside Telegram the page wears the app's colours and fills its viewport
  if (!tg) return;
  tg.ready();
  tg.expand();
  const p = tg.themeParams || {}, root = document.documentElement.style;
  for (const [name, key] of [["--bg", "bg_color"], ["--card", "secondary_bg_color"], ["--ink", "text_color"],
                             ["--muted", "hint_color"], ["--accent", "button_color"], ["--accent-ink", "button_text_color"]]) {
    if (p[key]) root.setProperty(name, p[key]);
  }
}

status(w("web.table.connecting"));
telegramTheme();
if (CFG.mode === "tg") telegramSignIn(); else connect();
