// The web table inside Telegram, as the bot's Mini App (issue 49): its way in, full screen on a
// phone, and "Invite friends" sent as a Telegram message.
// - The way in (/tg, the Main Mini App): the page hands Telegram's signed initData to the server
//   (/api/tg/start), which checks it and answers where the link it was opened with leads (a table,
//   a new lobby, the lobby); only then does the page go there. initDataUnsafe is never read.
// - Full screen: on Telegram's phone apps (platform "ios" or "android", Bot API 8.0) the table asks
//   for the whole screen, never on a desktop, where it would hide the chat; Telegram's header and the
//   phone's notch then lie over the page, and miniapp.css keeps everything out from under them.
// - Invite friends: the server prepares a message with a button that opens the table
//   (/api/tg/share: savePreparedInlineMessage) and Telegram offers to send it (shareMessage); it
//   takes the place of the table link's share button (share.js). Outside Telegram nothing changes.
import {useInvite} from "/static/share.js";

const app = window.Telegram && window.Telegram.WebApp;  // telegram-web-app.js, on the Mini App's pages
// inside Telegram, the script carries the signed initData; in a plain browser it has none
export const tg = app && app.initData ? app : null;
const PHONES = new Set(["ios", "android"]);
const THEME = [["--bg", "bg_color"], ["--card", "secondary_bg_color"], ["--ink", "text_color"],
               ["--muted", "hint_color"], ["--accent", "button_color"], ["--accent-ink", "button_text_color"]];
let session = null;

const atLeast = (version) => Boolean(tg && typeof tg.isVersionAtLeast === "function" && tg.isVersionAtLeast(version));

// Telegram passes initData in the page's fragment (tgWebAppData), and through its script when that
// is loaded: either will do, the server checks it with the bot's token
export function initData() {
  return (app && app.initData) || new URLSearchParams(location.hash.slice(1)).get("tgWebAppData") || "";
}

// the signed session the server gave for this Telegram user (the invites are sent in their name)
export function useSession(value) { session = value; }

// Telegram's look and the whole screen: the app's colours, its full height, and on a phone full screen
export function prepareMiniApp() {
  if (!app) return;
  app.ready();
  app.expand();
  const p = app.themeParams || {}, root = document.documentElement.style;
  for (const [name, key] of THEME) if (p[key]) root.setProperty(name, p[key]);
  if (!tg) return;
  document.documentElement.dataset.tg = tg.platform || "unknown";
  if (!PHONES.has(tg.platform)) return;  // a desktop or the web client: the chat stays in sight
  // a page scrolled down is not the app swiped shut (Bot API 7.7)
  if (atLeast("7.7") && typeof tg.disableVerticalSwipes === "function") tg.disableVerticalSwipes();
  if (atLeast("8.0") && typeof tg.requestFullscreen === "function" && !tg.isFullscreen) tg.requestFullscreen();
}

// The invite: prepared by the server for this table (or, on the lobby, for the app), then offered
// by Telegram's own "send to…" sheet; an older Telegram gets its share link instead.
async function invite(note) {
  note.textContent = "";
  const response = await fetch("/api/tg/share", {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({session, table: Number.isInteger(CFG.table) ? CFG.table : null})}).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  if (!response || !response.ok || !answer.id) {
    note.textContent = answer.error || w("web.tg.share_failed");
    return;
  }
  try {
    if (atLeast("8.0") && typeof tg.shareMessage === "function") {
      tg.shareMessage(answer.id, (sent) => { note.textContent = sent ? w("web.tg.shared") : ""; });
    } else {
      tg.openTelegramLink(`https://t.me/share/url?url=${encodeURIComponent(answer.link)}`);
    }
  } catch {  // one share sheet at a time: a second tap while it is open changes nothing
    note.textContent = "";
  }
}
if (tg) useInvite(invite);

// The Main Mini App's way in (/tg, the lobby's page): signed in, then sent where the link it was
// opened with leads, in the player's language. The lobby stays put once the link was followed
// (?lobby: the way back from a table). The session, or null when Telegram's data was refused (the
// page then says so and opens nothing).
export async function enterLobby() {
  prepareMiniApp();
  if (!initData()) {  // not opened by Telegram (a browser at /tg): the web's own lobby
    location.replace("/");
    return new Promise(() => {});
  }
  const response = await fetch("/api/tg/start", {method: "POST", headers: {"Content-Type": "application/json"},
                                                  body: JSON.stringify({init_data: initData()})}).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  if (!response || !response.ok) {
    showError(answer.error || w("web.err.init_data"));
    document.body.dataset.status = "refused";
    return null;
  }
  useSession(answer.session);
  const go = new URL(answer.go, location.href);
  const here = go.pathname === location.pathname && answer.lang === CFG.lang;
  if (!here && !new URLSearchParams(location.search).has("lobby")) {
    location.replace(go.pathname + go.search + location.hash);
    return new Promise(() => {});  // the page is leaving: nothing more to do here
  }
  if (answer.note) showError(answer.note);
  if ($("name") && !$("name").value) $("name").value = answer.name || "";
  if (tg) {  // "Invite friends" to the app itself, under the form that opens a table
    const box = el("div", {className: "buttons share", id: "lobby-invite"});
    $("new-table").after(box);
    const button = el("button", {type: "button", className: "quiet", textContent: w("web.tg.invite")});
    const note = el("p", {className: "muted share-note", role: "status"});
    button.addEventListener("click", () => invite(note));
    box.replaceChildren(button, note);
  }
  document.body.dataset.status = "signed-in";
  return answer.session;
}
