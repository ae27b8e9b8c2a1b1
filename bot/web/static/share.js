// Share buttons for a table's links (the player link, the spectator link with its key), built from
// the server's public address (TYCOON_WEB_URL) when one is configured, else from this page's own:
// a phone's share sheet (the Web Share API) where the browser has one, else a copy to the clipboard,
// else the link shown selected, to copy by hand. Inside Telegram's Mini App the table's link goes
// out as a Telegram message instead ("Invite friends", miniapp.js).

let invite = null;  // inside Telegram: what "Invite friends" does (miniapp.js); null in a browser
export function useInvite(send) { invite = send; }

export function shareUrl(path) { return (CFG.base || location.origin) + path; }

export function shareButtons(box, links) {
  // links: [word key, path] pairs; a pair without a path gives no button
  if (!box) return;
  const shown = links.filter(([, path]) => path);
  if (box.dataset.links === JSON.stringify(shown)) return;  // unchanged: keep the note under them
  box.dataset.links = JSON.stringify(shown);
  box.replaceChildren(...shown.map(([key, path]) => {
    if (invite && key === "web.share.play") {  // the player link, as a Telegram message
      const button = el("button", {type: "button", className: "quiet invite", textContent: w("web.tg.invite")});
      button.addEventListener("click", () => invite(box.querySelector(".share-note")));
      return button;
    }
    const url = shareUrl(path);
    const button = el("button", {type: "button", className: "quiet", textContent: w(key)});
    button.dataset.url = url;
    button.addEventListener("click", () => share(box, url));
    return button;
  }), el("p", {className: "muted share-note", role: "status"}));
}

async function share(box, url) {
  const note = box.querySelector(".share-note");
  if (navigator.share) {
    try {
      await navigator.share({title: document.title, url});
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return;  // the reader closed the share sheet
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    note.textContent = w("web.share.copied");
  } catch {
    const field = el("input", {value: url, readOnly: true, className: "share-url"});
    note.replaceChildren(field);
    field.select();
  }
}
