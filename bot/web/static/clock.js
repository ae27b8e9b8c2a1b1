// The clocks a page shows: whom the table waits for and how long they have (each deadline counted
// down on the reader's own clock, set by the server's time when the update came), the match clock,
// and for the player a warning before the AI would answer for them.

const WARN_SECONDS = 20;
let timer = null, state = null;

function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  if (!state) return;
  const now = Date.now() / 1000 + state.offset;
  const due = state.due === null ? null : state.due - now;
  const clock = $("countdown");
  clock.textContent = due === null ? "" : mmss(due);
  clock.hidden = due === null;  // no empty pill when nobody's clock runs (an AI's move, the end)
  clock.dataset.left = due === null ? "" : String(Math.max(0, Math.round(due)));
  clock.classList.toggle("low", due !== null && due < WARN_SECONDS);
  const warn = $("warning");
  warn.hidden = !(state.mine && due !== null && due < WARN_SECONDS);
  if (!warn.hidden) warn.textContent = w("web.clock.warning", {left: mmss(due)});
  $("match").textContent = state.match === null ? "" : w("web.clock.match", {left: mmss(state.match - now)});
}

export function showClock(m) {
  // the first deadline of a person the table waits for; the reader's own first when they are asked
  const waiting = m.asks.filter(a => !a.ai);
  const mine = waiting.filter(a => a.seat === m.seat);
  const shown = (mine.length ? mine : waiting).filter(a => a.due !== null).sort((a, b) => a.due - b.due)[0];
  const names = [...new Set(waiting.map(a => a.seat))].map(s => m.seats[s] ? m.seats[s].name : "?");
  let text = "";
  if (m.status !== "running") text = w("web.status." + m.status);
  else if (mine.length) text = w("web.clock.you");
  else if (names.length) text = w("web.clock.waiting", {names: names.join(w("web.list_sep"))});
  else text = w("web.clock.ai");
  $("turn").hidden = false;
  $("turn-text").textContent = text;
  state = {offset: m.now - Date.now() / 1000, due: m.status === "running" && shown ? shown.due : null,
           match: m.status === "running" ? m.match_ends : null, mine: mine.length > 0};
  tick();
  if (!timer) timer = setInterval(tick, 250);
}
