// The lobby page: open web tables (sit down or watch) and the form that opens a new one. As the
// Telegram Main Mini App (/tg) it first signs in and follows the link it was opened with
// (miniapp.js), and its tables open in the Mini App's own page (/tg/<table>).
"use strict";
const miniApp = CFG.mode === "tg" ? import("/static/miniapp.js").then(m => m.enterLobby()) : null;  // its session
// in the Mini App a table's page keeps Telegram's data in its fragment (tgWebAppData), as it came
const tablePath = (table) => miniApp ? `/tg/${table}${location.hash}` : `/t/${table}`;
const gameSelect = $("game"), rulesetSelect = $("ruleset"), aiInput = $("ai"), nameInput = $("name"),
  levelSelect = $("level");
nameInput.value = localStorage.getItem("tycoon-name") || "";
for (const game of Object.keys(CFG.games)) gameSelect.append(el("option", {value: game, textContent: w("web.game." + game)}));
function rulesets() {
  rulesetSelect.replaceChildren(...CFG.games[gameSelect.value].map(([r, name]) => el("option", {value: r, textContent: name})));
  aiInput.max = CFG.limits[gameSelect.value][1] - 1;
}
gameSelect.addEventListener("change", rulesets);
rulesets();

$("new-table").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = nameInput.value.trim();
  if (!name) return showError(w("web.err.name"));
  localStorage.setItem("tycoon-name", name);
  const session = miniApp && await miniApp;  // in a frame a cookie may not come along: the session does
  const response = await fetch("/api/tables" + (session ? `?s=${encodeURIComponent(session)}` : ""),
                               {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({name, game: gameSelect.value, ruleset: rulesetSelect.value, ai: Number(aiInput.value) || 0,
    level: levelSelect.value})});
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) return showError(answer.error || w("web.err.malformed"));
  location.href = tablePath(answer.table);
});

async function refresh() {
  const response = await fetch("/api/tables").catch(() => null);
  if (!response || !response.ok) return;
  const {tables} = await response.json();
  $("none").hidden = tables.length > 0;
  $("tables").replaceChildren(...tables.map(tb => el("li", {className: "table-item"},
    el("span", {className: "what", textContent: `#${tb.table} ${w("web.game." + tb.game)} · ${w("web.status." + tb.status)}`}),
    el("span", {className: "who", textContent: tb.seats.join(", ")}),
    el("a", {href: tablePath(tb.table), className: "button", textContent: w("web.lobby.sit")}),
    el("a", {href: tb.watch, className: "button quiet", textContent: w("web.lobby.watch")}))));
}
refresh();
setInterval(refresh, 3000);

// the doors into the chats: add the bot to a group or a server, where this site runs those bots
for (const [where, link] of Object.entries(CFG.doors || {})) {
  const door = document.getElementById("door-" + where);
  if (!door || !link) continue;
  door.href = link;
  door.hidden = false;
  $("doors").hidden = false;
}
