// The end of a game, first on the page: who won, the standings by worth, what next (a rematch: the
// same game, rules and seats; back to the tables), and each player's worth turn by turn as a chart
// (the series the server replays from the stored game), open on a wide screen, one tap away on a
// phone.

export function showEnd(m, atlas, money) {
  const box = $("end");
  box.hidden = false;
  $("end-title").textContent = m.result || w("web.status." + m.status);
  $("end-note").hidden = m.played;
  $("end-note").textContent = w("web.end.never_started");
  // a rematch is the web table's own (a chat's table has the chat's Rematch button)
  const again = $("rematch");
  again.hidden = !(m.web && m.status === "over");
  again.textContent = m.rematch ? w("web.end.join_rematch", {table: m.rematch}) : w("web.end.rematch");
  again.dataset.table = m.rematch ? String(m.rematch) : "";
  const rows = m.seats.map((s, i) => ({i, name: s.name, worth: (m.worth || {})[i] || 0}))
    .sort((a, b) => (m.winners.includes(b.i) - m.winners.includes(a.i)) || b.worth - a.worth);
  $("end-standings").hidden = !m.played;
  $("end-standings").replaceChildren(
    el("tr", {}, el("th", {textContent: w("web.end.player")}), el("th", {textContent: w("web.end.worth")})),
    ...rows.map(r => el("tr", {className: m.winners.includes(r.i) ? "winner" : ""},
      el("td", {textContent: r.name + (m.winners.includes(r.i) ? ` (${w("web.end.winner")})` : "")}),
      el("td", {textContent: money(r.worth)}))));
  $("end-more").hidden = !m.series;
  if (!m.series) return $("end-chart").replaceChildren();
  if (!$("end-more").dataset.set) {  // opened once, as the screen allows; then as the reader leaves it
    $("end-more").open = matchMedia("(min-width: 900px)").matches;
    $("end-more").dataset.set = "1";
  }
  const turns = Math.max(0, ...Object.values(m.series).map(v => v.length - 1));
  const legend = el("p", {className: "legend"}, ...m.seats.map((s, i) => {
    const swatch = el("i", {className: "swatch"});
    swatch.style.background = atlas.players[i % atlas.players.length];
    return el("span", {}, swatch, " " + s.name + " ");
  }));
  // the words beside the chart, not in it: an SVG's text shrinks with it on a phone
  $("end-chart").replaceChildren(el("p", {className: "muted", textContent: w("web.end.chart", {count: turns})}),
                                 chart(m, atlas), legend);
}

function chart(m, atlas) {
  const ns = "http://www.w3.org/2000/svg", W = 640, H = 280, pad = 12;
  const series = Object.entries(m.series);
  const most = Math.max(1, ...series.flatMap(([, v]) => v));
  const turns = Math.max(2, ...series.map(([, v]) => v.length));
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", w("web.end.chart", {count: turns - 1}));
  const line = (x1, y1, x2, y2) => { const l = document.createElementNS(ns, "line");
    Object.entries({x1, y1, x2, y2, stroke: "currentColor", "stroke-opacity": 0.3}).forEach(([k, v]) => l.setAttribute(k, v));
    return l; };
  svg.append(line(pad, H - pad, W - 8, H - pad), line(pad, 8, pad, H - pad));
  for (const [seat, values] of series) {
    const path = document.createElementNS(ns, "polyline");
    path.setAttribute("fill", "none");
    path.setAttribute("stroke-width", m.winners.includes(Number(seat)) ? "3.5" : "2");
    path.setAttribute("stroke", atlas.players[Number(seat) % atlas.players.length]);
    path.setAttribute("points", values.map((v, i) =>
      `${pad + i * (W - pad - 8) / (turns - 1)},${H - pad - v * (H - pad - 8) / most}`).join(" "));
    svg.append(path);
  }
  return svg;
}
