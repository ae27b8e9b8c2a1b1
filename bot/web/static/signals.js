// What tells a player, away from the moves, that the game waits for them, and what just happened:
// - the tab's title ("▶ Your turn · Tycoon", "▶ Your answer · Tycoon") while the game waits for
//   them, the page's own title again once it does not;
// - a browser notification when the game comes to wait for them while the page is hidden, only
//   after they asked for it with the "Notify me" button (the browser's permission is never asked
//   for by itself), and never again once they tap "Stop notifying me";
// - a strip under the turn line with the newest log lines, those that go against the player (a
//   card taken from them, rent charged to them: the server's ``log_against``) first.

const TITLE = document.title;
const RECENT = 3;  // log lines in the strip
const OPTED = "tycoon-notify";  // localStorage: "1" once the player asked to be notified
let recent = [];  // the newest log lines, oldest first: [line, seats it goes against]
let waited = false;  // the game waited for the player at the last update
let control = null;

export function showSignals(m) {
  const own = m.own;
  const waits = Boolean(m.status === "running" && own && own.asked.length && !own.ai_keeps);
  const key = m.current === m.seat ? "web.signal.your_turn" : "web.signal.asked";
  document.title = waits ? `▶ ${w(key)} · ${TITLE}` : TITLE;
  if (waits && !waited) notify(w(key), plain(own.asked[0]));
  waited = waits;
  showRecent(m);
  showControl(Boolean(own) && m.status === "running");
}

function showRecent(m) {
  const against = m.log_against || [];
  const lines = m.log.map((line, i) => [plain(line), against[i] || []]);
  recent = (m.log_append ? recent.concat(lines) : lines).slice(-RECENT);
  const mine = (entry) => m.seat !== null && m.seat !== undefined && entry[1].includes(m.seat);
  const newest = recent.slice().reverse();
  const box = $("recent");
  if (!box) return;
  box.replaceChildren(...[...newest.filter(mine), ...newest.filter(e => !mine(e))].map(entry =>
    el("li", {className: mine(entry) ? "mine" : "", textContent: entry[0]})));
  box.setAttribute("aria-label", w("web.recent.title"));
}

// -- notifications ------------------------------------------------------------------------------

const canNotify = () => "Notification" in window && Notification.permission !== "denied";
const notifying = () => localStorage.getItem(OPTED) === "1" && "Notification" in window
  && Notification.permission === "granted";

function notify(title, body) {
  if (!document.hidden || !notifying()) return;
  try {
    new Notification(`${title} · ${TITLE}`, {body, tag: `tycoon-${CFG.table}`});
  } catch {
    // a phone's browser may allow them only through a service worker: the title says it still
  }
}

function showControl(seated) {
  // beside the player's own moves: "Notify me", or "Stop notifying me" once they asked
  const mine = $("mine");
  if (!mine) return;
  if (!control) {
    control = el("button", {type: "button", className: "quiet notify", id: "notify"});
    control.addEventListener("click", toggle);
    mine.append(control);
  }
  control.hidden = !seated || !canNotify();
  control.textContent = w(notifying() ? "web.signal.notify_stop" : "web.signal.notify");
  control.setAttribute("aria-pressed", String(notifying()));
}

async function toggle() {
  if (notifying()) {
    localStorage.removeItem(OPTED);
  } else {
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    if (answer === "granted") localStorage.setItem(OPTED, "1");
  }
  showControl(true);
}
