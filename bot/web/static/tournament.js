// A tournament's page for a screen at the venue: standings and the round's tables, refreshed.
"use strict";
async function refresh() {
  const query = new URLSearchParams({k: CFG.key, lang: CFG.lang});
  const response = await fetch(`/api/tournament/${CFG.tournament}?${query}`).catch(() => null);
  if (!response) return;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) return showError(data.error || "");
  $("heading").textContent = data.name;
  $("status").textContent = w("web.tour.round", {round: data.round, rounds: data.rounds}) + " · " + w("web.status." + data.status);
  $("rows").replaceChildren(...data.rows.map(r => el("tr", {},
    el("td", {textContent: r.place}), el("td", {textContent: r.name}),
    el("td", {textContent: r.score}), el("td", {textContent: r.value.toLocaleString()}))));
  $("round-title").textContent = w("web.tour.tables", {round: data.round});
  $("tables").replaceChildren(...data.tables.map(tb => el("li", {className: "table-item"},
    el("span", {className: "what", textContent: `${tb.table_no} · ${w("web.status." + tb.status)}`}),
    el("span", {className: "who", textContent: tb.names.join(", ")}),
    ...(tb.watch ? [el("a", {href: tb.watch, className: "button quiet", textContent: w("web.lobby.watch")})] : []))));
  document.body.dataset.status = data.status;
}
refresh();
setInterval(refresh, 5000);
