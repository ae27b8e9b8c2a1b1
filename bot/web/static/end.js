// The end of a game, first on the page: who won, the standings by worth, what next (a rematch: the
// same game, rules and seats; back to the tables), and each player's worth turn by turn as a chart
// (the series the server replays from the stored game), open on a wide screen, one tap away on a
// phone. Each player's line stands out 3:1 from the chart's ground in either scheme (its colour
// darkened on a light page, lightened on a dark one: fitColour, common.js) and has a dash of its
// own, so that players stay told apart whatever their colours became; the legend shows each line.

// a dash per seat: solid, dashes, dots, dash-dot… (as SVG's stroke-dasharray)
const DASHES = ["", "9 4", "2 3", "9 3 2 3", "14 3 3 3 3 3", "5 5", "2 6", "18 5"];

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
  // the finished game's own page: the result to share, the chart, the replay (replay.js)
  const replay = $("end-replay");
  if (replay) {
    replay.hidden = !m.result_path;
    if (m.result_path) replay.href = m.result_path;
  }
  const rows = m.seats.map((s, i) => ({i, name: s.name, worth: (m.worth || {})[i] || 0}))
    .sort((a, b) => (m.winners.includes(b.i) - m.winners.includes(a.i)) || b.worth - a.worth);
  $("end-standings").hidden = !m.played;
  $("end-standings").replaceChildren(
    el("tr", {}, el("th", {textContent: w("web.end.player")}), el("th", {textContent: w("web.end.worth")})),
    ...rows.map(r => el("tr", {className: m.winners.includes(r.i) ? "winner" : ""},
      el("td", {textContent: r.name + (m.winners.includes(r.i) ? ` (${w("web.end.winner")})` : "")}),
      el("td", {textContent: money(r.worth)}))));
  showChart(m, atlas, box);
}

// The chart of each player's worth turn by turn (``m.series``), under #end-more (the end screen's,
// and the finished game's page: replay.js); ``box``: the card it is drawn on (its ground).
export function showChart(m, atlas, box) {
  $("end-more").hidden = !m.series;
  if (!m.series) return $("end-chart").replaceChildren();
  if (!$("end-more").dataset.set) {  // opened once, as the screen allows; then as the reader leaves it
    $("end-more").open = matchMedia("(min-width: 900px)").matches;
    $("end-more").dataset.set = "1";
  }
  const turns = Math.max(0, ...Object.values(m.series).map(v => v.length - 1));
  const pens = linePens(m, atlas, box);
  const legend = el("p", {className: "legend"}, ...m.seats.map((s, i) => el("span", {}, key(pens(i)), " " + s.name + " ")));
  // the words beside the chart, not in it: an SVG's text shrinks with it on a phone
  $("end-chart").replaceChildren(el("p", {className: "muted", textContent: w("web.end.chart", {count: turns})}),
                                 chart(m, pens), legend);
}

const NS = "http://www.w3.org/2000/svg";

function linePens(m, atlas, box) {
  // seat -> how its line is drawn: its colour fitted to the end card's ground, its dash, its width
  const style = getComputedStyle(box), ground = rgbHex(style.backgroundColor), ink = rgbHex(style.color);
  return (seat) => ({stroke: fitColour(atlas.players[seat % atlas.players.length], [ground], ink),
                     "stroke-dasharray": DASHES[seat % DASHES.length] || "none",
                     "stroke-width": m.winners.includes(seat) ? "3.5" : "2"});
}

function drawn(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function key(pen) {  // the legend's sample of a line
  const svg = drawn("svg", {viewBox: "0 0 28 8", width: "28", height: "8", "aria-hidden": "true", class: "key"});
  svg.append(drawn("line", {x1: 0, y1: 4, x2: 28, y2: 4, ...pen}));
  return svg;
}

function chart(m, pens) {
  const ns = NS, W = 640, H = 280, pad = 12;
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
    const path = drawn("polyline", {fill: "none", ...pens(Number(seat))});
    path.dataset.seat = seat;
    path.setAttribute("points", values.map((v, i) =>
      `${pad + i * (W - pad - 8) / (turns - 1)},${H - pad - v * (H - pad - 8) / most}`).join(" "));
    svg.append(path);
  }
  return svg;
}
