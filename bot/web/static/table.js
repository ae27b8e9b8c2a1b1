// A table page: the lobby until the game starts, then the live table. Everything comes over the
// table's WebSocket; a press sends the button's token, exactly as a chat button would.
"use strict";
let socket = null, session = null, retry = 1000, lastState = null;
const nameInput = $("name");
nameInput.value = localStorage.getItem("tycoon-name") || "";
if (CFG.mode === "watch") { $("private").remove(); $("trade").remove(); }  // a spectator's page: no hand, no offers

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
for (const button of document.querySelectorAll("[data-op]")) {
  button.addEventListener("click", () => send({type: "lobby", op: button.dataset.op, name: nameInput.value.trim()}));
}
$("join").addEventListener("click", () => {
  const name = nameInput.value.trim();
  if (!name) return showError(w("web.err.name"));
  localStorage.setItem("tycoon-name", name);
  send({type: "lobby", op: "join", name});
});

// on a phone the table picture is small: a tap shows it twice as wide (scroll sideways), another tap fits it
$("public-picture").addEventListener("click", () => $("picture-box").classList.toggle("zoom"));

function status(text) { $("status").textContent = text || ""; }

function showLobby(m) {
  $("lobby").hidden = false;
  for (const id of ["public", "private", "log-card"]) if ($(id)) $(id).hidden = true;
  $("heading").textContent = `#${m.table} ${w("web.game." + m.game)} · ${m.ruleset}`;
  $("seats").replaceChildren(...m.seats.map((s, i) => el("li", {className: i === m.seat ? "me" : "",
    textContent: s.name + (s.ai ? ` (${w("web.ai")})` : "") + (i === m.seat ? ` (${w("web.you")})` : "")})));
  const playing = m.status === "lobby" && m.web && !m.watch;
  $("join-row").hidden = !playing || m.seat !== null;
  $("lobby-buttons").hidden = !playing;
  // the table's rule options: what is on for everyone, a toggle per option for the creator
  $("options-on").textContent = m.options_on || "";
  const toggles = playing && m.creator ? m.options : [];
  $("option-buttons").replaceChildren(...toggles.map(o => {
    const button = el("button", {textContent: (o.on ? "✅ " : "⬜ ") + o.label, className: "quiet"});
    button.dataset.option = o.op;
    button.addEventListener("click", () => send({type: "lobby", op: o.op, name: nameInput.value.trim()}));
    return button;
  }));
  status(w("web.status." + m.status));
  $("share").textContent = m.status === "lobby" ? w("web.table.share", {url: location.origin + location.pathname}) : "";
}

function showTable(m) {
  $("lobby").hidden = true;
  $("heading").textContent = `#${m.table} ${w("web.game." + m.game)}`;
  $("public").hidden = false;
  $("public-picture").src = m.public.picture || "";
  $("public-text").textContent = m.public.text;
  $("log-card").hidden = false;
  // the whole log when the page opens; then each update adds its lines (newest first)
  const lines = m.log.slice().reverse().map(line => el("li", {textContent: line}));
  if (m.log_append) $("log").prepend(...lines); else $("log").replaceChildren(...lines);
  const own = m.private, box = $("private");
  let line = w("web.status." + m.status);
  if (m.result) line += " · " + m.result;  // the game is over: who won
  if (CFG.mode === "watch") line += " · " + w("web.table.watching");
  else if (m.seat === null) line += " · " + w("web.table.not_seated");
  if (box) {
    box.hidden = !own;
    if (own) {
      $("private-picture").hidden = !own.picture;
      $("private-picture").src = own.picture || "";
      $("private-text").textContent = own.text;
      $("buttons").replaceChildren(...own.buttons.map(b => {
        const button = el("button", {textContent: b.label, className: "act"});
        button.dataset.token = b.token;
        button.addEventListener("click", () => {
          if (b.kind === "trade") return send({type: "trade", op: b.token.split(":")[2]});  // opens the builder
          for (const other of $("buttons").querySelectorAll("button")) other.disabled = true;
          send(b.kind === "back" ? {type: "back"} : {type: "press", token: b.token});
        });
        return button;
      }));
      if (!own.buttons.length && m.status === "running") line += " · " + w("web.table.waiting");
    }
  }
  status(line);
}

// The trade builder (B-15): what the server sends back for each change; every control sends one
// op of bot/trade_builder.py, and the server answers with the whole builder again.
function tradeOp(op, values) { send({type: "trade", op, values: values || []}); }
function showTrade(m) {
  const box = $("trade");
  if (!box) return;
  box.hidden = false;
  $("trade-text").textContent = m.text;
  document.body.dataset.trade = m.closed ? "closed" : "open";
  const c = m.controls;
  for (const id of ["trade-partner-row", "trade-steps"]) $(id).hidden = !c;
  box.querySelector(".sides").hidden = !c;
  box.querySelector(".cash").hidden = !c;
  if (!c) {
    $("trade-finish").replaceChildren(el("button", {textContent: "×", className: "quiet", onclick: () => { box.hidden = true; }}));
    return;
  }
  $("trade-partner-row").hidden = !c.partners.length;
  $("trade-partner").replaceChildren(...c.partners.map(([label, seat, on]) =>
    el("option", {value: String(seat), textContent: label, selected: on})));
  $("trade-partner").onchange = () => tradeOp("p" + $("trade-partner").value);
  for (const [id, items, op] of [["trade-mine", c.mine, "m"], ["trade-theirs", c.theirs, "y"]]) {
    $(id).replaceChildren(...items.map(([label, sq, on]) => {
      const box = el("input", {type: "checkbox", checked: on, value: String(sq)});
      box.dataset.square = String(sq);
      box.addEventListener("change", () => tradeOp(op + sq));
      return el("label", {}, box, " " + label);
    }));
  }
  const cash = m.draft ? m.draft.cash : 0;
  $("trade-you").value = String(Math.max(cash, 0));
  $("trade-them").value = String(Math.max(-cash, 0));
  $("trade-cash").onclick = () => tradeOp("xm", [$("trade-you").value || "0", $("trade-them").value || "0"]);
  $("trade-steps").replaceChildren(...[...c.cash, ...c.cards].map(([label, op]) =>
    el("button", {textContent: label, className: "quiet", onclick: () => tradeOp(op)})));
  $("trade-finish").replaceChildren(...c.finish.map(([label, op]) => {
    const button = el("button", {textContent: label, onclick: () => tradeOp(op)});
    button.dataset.op = op;
    return button;
  }));
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
      for (const b of document.querySelectorAll("#buttons button")) b.disabled = false;
      return;
    }
    if (m.type === "trade") return showTrade(m);
    lastState = m;
    document.body.dataset.version = m.version === undefined ? "" : String(m.version);
    document.body.dataset.status = m.status;
    if (m.type === "lobby") showLobby(m); else showTable(m);
  });
  socket.addEventListener("close", () => {
    status(w("web.table.reconnecting"));
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  });
}

async function telegramSignIn() {
  // Telegram passes initData to a Mini App in the page's fragment (tgWebAppData), and through its
  // script when that is loaded: either will do, the server checks it with the bot's token.
  const fromScript = window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData;
  const initData = fromScript || new URLSearchParams(location.hash.slice(1)).get("tgWebAppData") || "";
  status(w("web.tg.signing_in"));
  const response = await fetch("/api/tg/auth", {method: "POST", headers: {"Content-Type": "application/json"},
                                               body: JSON.stringify({init_data: initData})});
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) { status(""); showError(answer.error || w("web.err.init_data")); document.body.dataset.status = "refused"; return; }
  session = answer.session;
  connect();
}

status(w("web.table.connecting"));
if (CFG.mode === "tg") telegramSignIn(); else connect();
