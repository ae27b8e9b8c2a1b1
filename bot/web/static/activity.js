// The Discord Activity (issue 49): the table page inside Discord's client, in a channel. Discord's
// Embedded App SDK (vendored, /static/vendor) speaks to the client: the handshake, ready(), then an
// OAuth code from authorize() (scope identify) that our server exchanges (/api/discord/token); the
// server also asks Discord which channel this Activity instance runs in, so nothing the page says
// about who or where is trusted. Then authenticate() with the token it gives back, and the
// channel's table: before its game, a small panel here (open a table, sit down, add an AI seat,
// start: /api/discord/table, the lobby's own rules), read again every few seconds while it waits;
// once the game runs, the table page itself (table.js, over its WebSocket), a member without a seat
// watching it. The language is the member's own Discord language.
import {DiscordSDK} from "/static/vendor/discord-embedded-app-sdk-2.5.0.mjs";

const POLL_MS = 2000;  // how often a waiting lobby is read again (others sit down, or start it from the chat)
// the language: one chosen on the page (its ?lang=), else the member's own Discord language
const CHOSEN = new URLSearchParams(location.search).get("lang");
let sdk = null, signed = null, ui = null, timer = null, shown = "";

export async function enter(page) {
  // page: {status(text), play(table, session, watchKey)}: table.js, which shows the table once it runs
  ui = page;
  neutralLinks();
  try {
    sdk = new DiscordSDK(CFG.client_id, {disableConsoleLogOverride: true});
  } catch (error) {  // not inside Discord: Discord's client puts frame_id and instance_id in the address
    return refused(w("web.dc.outside"));
  }
  ui.status(w("web.dc.connecting"));
  await sdk.ready();
  ui.status(w("web.dc.signing_in"));
  let code;
  try {
    ({code} = await sdk.commands.authorize({client_id: CFG.client_id, response_type: "code", state: "",
                                            prompt: "none", scope: ["identify"]}));
  } catch (error) {  // the member closed Discord's question, or Discord refused
    return refused(w("web.dc.declined"));
  }
  const answer = await call("POST", "/api/discord/token", {code, instance_id: sdk.instanceId});
  if (!answer.ok) return refused(answer.error);
  await sdk.commands.authenticate({access_token: answer.access_token});
  signed = {session: answer.session, token: answer.access_token};
  CFG.lang = answer.lang;
  CFG.words = answer.words;
  fillWords();
  document.documentElement.lang = CFG.lang;
  for (const link of $("langs").children) link.className = link.textContent === LANG_NAMES[CFG.lang] ? "on" : "";
  show(answer.state);
}

function refused(text) {
  ui.status("");
  showError(text || w("web.err.dc_unavailable"));
  clearTimeout(showError.timer);  // it stays: there is nothing else on the page
  document.body.dataset.status = "refused";
}

function neutralLinks() {
  // a link to the web lobby would leave the Activity: it opens this channel's table again instead
  for (const link of document.querySelectorAll('a[href="/"]')) link.href = location.pathname + location.search;
}

async function call(method, path, body) {
  const init = {method, headers: {"Content-Type": "application/json"}};
  if (body) init.body = JSON.stringify(body);
  const lang = signed ? CFG.lang : CHOSEN;  // before the sign-in, the server picks the member's
  const sep = path.includes("?") ? "&" : "?";
  const response = await fetch(lang ? `${path}${sep}lang=${encodeURIComponent(lang)}` : path, init).catch(() => null);
  if (!response) return {ok: false, error: w("web.err.dc_unavailable")};
  const data = await response.json().catch(() => ({}));
  return {...data, ok: response.ok};
}

function panel() {
  let box = $("activity");
  if (!box) {
    box = el("section", {id: "activity", className: "card"},
             el("h2", {id: "activity-title"}), el("p", {id: "activity-text", className: "muted"}),
             el("ol", {id: "activity-seats", className: "seats"}), el("div", {id: "activity-buttons", className: "buttons"}));
    $("main").prepend(box);
  }
  return box;
}

function button(label, onClick, op) {
  const b = el("button", {type: "button", textContent: label});
  b.dataset.op = op;
  b.addEventListener("click", async () => {
    for (const other of document.querySelectorAll("#activity-buttons button")) other.disabled = true;
    await onClick();
    for (const other of document.querySelectorAll("#activity-buttons button")) other.disabled = false;
  });
  return b;
}

async function act(op, game) {
  const answer = await call("POST", "/api/discord/table", {session: signed.session, access_token: signed.token,
                                                          instance_id: sdk.instanceId, op, game});
  if (!answer.ok) return showError(answer.error);
  show(answer.state);
}

async function poll() {
  const query = new URLSearchParams({s: signed.session, instance: sdk.instanceId});
  const answer = await call("GET", `/api/discord/state?${query}`);
  if (answer.ok) show(answer.state);
  else { showError(answer.error); timer = setTimeout(poll, POLL_MS * 2); }
}

function show(state) {
  clearTimeout(timer);
  if (state.table && state.status !== "lobby") {  // a game: the table page takes over
    const box = $("activity");
    if (box) box.remove();
    document.body.dataset.activity = state.seated ? "playing" : "watching";
    ui.play(state.table, signed.session, state.seated ? null : state.watch);
    return;
  }
  timer = setTimeout(poll, POLL_MS);  // a lobby fills, or a table opens, from the chat too
  const now = JSON.stringify(state);
  if (now === shown) return;  // nothing changed: the buttons stay where the finger is
  shown = now;
  ui.status("");
  panel();
  const buttons = [];
  if (!state.table) {
    document.body.dataset.activity = "empty";
    $("activity-title").textContent = w("web.title");
    $("activity-text").textContent = w("web.dc.no_table");
    $("activity-seats").replaceChildren();
    for (const game of state.games) buttons.push(button(w("web.game." + game), () => act("open", game), `open:${game}`));
  } else {
    document.body.dataset.activity = state.seated ? "seated" : "lobby";
    const game = w("web.game." + state.game);
    $("activity-title").textContent = game;
    $("activity-text").textContent = w("web.dc.lobby", {game}) +
      (state.seated && !state.runs ? " " + w("web.dc.wait_host") : "") + (!state.seated && state.full ? " " + w("web.dc.full") : "");
    $("activity-seats").replaceChildren(...state.seats.map(name => el("li", {textContent: name})));
    if (!state.seated && !state.full) buttons.push(button(w("ch.btn.join"), () => act("join"), "join"));
    if (state.seated && state.runs) {
      if (!state.full) buttons.push(button(w("ch.btn.add_ai"), () => act("ai"), "ai"));
      buttons.push(button(w("ch.btn.start"), () => act("start"), "start"));
    }
    if (state.seated) buttons.push(button(w("ch.btn.leave"), () => act("leave"), "leave"));
  }
  $("activity-buttons").replaceChildren(...buttons);
}
