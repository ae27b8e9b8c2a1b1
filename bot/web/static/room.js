// A table's lobby on its page: the seats, the buttons each reader may press (a visitor: Join; a
// seated player: Leave; whoever runs the lobby: AI seats, Start, Cancel, which asks again before
// it ends the table), the table's rules with what each option does (switches for its creator), the
// last game's players invited to a rematch, and the links to share.
import {shareButtons} from "/static/share.js";

const HOSTING = new Set(["ai", "ai:basic", "ai:strong", "noai", "start", "cancel"]);
let armed = null;  // the Cancel button's second press is awaited until this timer ends

export function lobbyButtons(send, nameOf) {
  for (const button of document.querySelectorAll("#lobby-buttons [data-op]")) {
    button.addEventListener("click", () => {
      if (button.dataset.op === "cancel" && !armed) return arm(button);
      disarm(button.parentElement);
      send({type: "lobby", op: button.dataset.op, name: nameOf()});
    });
  }
}

function arm(button) {
  button.classList.add("armed");
  button.textContent = w("web.lobby.confirm_cancel");
  armed = setTimeout(() => disarm(button.parentElement), 5000);
}

function disarm(box) {
  clearTimeout(armed);
  armed = null;
  const button = box.querySelector("[data-op=cancel]");
  button.classList.remove("armed");
  button.textContent = w("ch.btn.cancel");
}

export function showLobby(m, send, nameOf) {
  $("heading").textContent = `#${m.table} ${w("web.game." + m.game)} · ${m.ruleset_name}`;
  $("seats").replaceChildren(...m.seats.map((s, i) => el("li", {className: i === m.seat ? "me" : "",
    textContent: s.name + (s.level ? ` (${s.level})` : s.ai ? ` (${w("web.ai")})` : "") +
      (i === m.seat ? ` (${w("web.you")})` : "")})));
  const playing = m.status === "lobby" && m.web && !m.watch;
  $("join-row").hidden = !playing || m.seat !== null;
  $("lobby-buttons").hidden = !playing || m.seat === null;
  for (const button of document.querySelectorAll("#lobby-buttons [data-op]")) {
    button.hidden = HOSTING.has(button.dataset.op) ? !m.runs : m.seat === null;
  }
  $("invited").hidden = !m.invited.length;
  $("invited").textContent = w("web.lobby.invited", {names: m.invited.join(w("web.list_sep"))});
  // the table's rules: what is on, each option with what it does; a switch per option for the creator
  $("options-on").textContent = m.options_on || "";
  const mine = playing && m.creator;
  $("option-buttons").replaceChildren(...m.options.map(o => {
    const row = el(mine ? "button" : "div", {className: "switch" + (o.on ? " on" : "") + (mine ? "" : " readonly")},
                   el("span", {className: "knob"}),
                   el("span", {className: "what"}, el("span", {textContent: o.label}),
                      ...(o.help ? [el("small", {className: "help", textContent: o.help})] : [])));
    row.dataset.option = o.op;
    if (!mine) return row;
    row.type = "button";
    row.setAttribute("role", "switch");
    row.setAttribute("aria-checked", String(o.on));
    row.addEventListener("click", () => send({type: "lobby", op: o.op, name: nameOf()}));
    return row;
  }));
  showMatch(m, mine, send, nameOf);
  showPace(m, mine, send, nameOf);
  const open = m.status === "lobby";
  $("share").textContent = "";
  shareButtons($("lobby-share"), open ? [["web.share.play", m.web ? `/t/${m.table}` : null],
                                         ["web.share.watch", m.watch_path]] : []);
}

// The timed match (B-17, D-16): its length for everyone; the creator picks one of the choices
// (no clock, 30, 60, 90 minutes), and the valuation ends the game when it runs out.
function showMatch(m, mine, send, nameOf) {
  let box = $("match-choice");
  if (!box) {
    box = el("div", {id: "match-choice", className: "match-choice"});
    $("option-buttons").after(box);
  }
  const label = n => n ? w("web.lobby.match_minutes", {n}) : w("web.lobby.match_off");
  const head = el("span", {className: "what", textContent: w("web.lobby.match", {length: label(m.match.minutes)})});
  if (!mine) return box.replaceChildren(head);
  box.replaceChildren(head, ...m.match.choices.map(n => {
    const b = el("button", {type: "button", className: "choice" + (n === m.match.minutes ? " on" : ""),
                            textContent: label(n)});
    b.dataset.op = `m:${n}`;
    b.setAttribute("aria-pressed", String(n === m.match.minutes));
    b.addEventListener("click", () => send({type: "lobby", op: `m:${n}`, name: nameOf()}));
    return b;
  }));
}

// A slow game's pace (issue 48): its hours a move for everyone; the creator picks one of the
// choices (normal, 1, 8, 24 hours a move). A pace turns the timed match off, and a match the pace.
function showPace(m, mine, send, nameOf) {
  if (!m.pace) return;
  let box = $("pace-choice");
  if (!box) {
    box = el("div", {id: "pace-choice", className: "match-choice"});
    $("match-choice").after(box);
  }
  const label = n => n ? w("web.lobby.pace_hours", {n}) : w("web.lobby.pace_normal");
  const head = el("span", {className: "what", textContent: w("web.lobby.pace", {pace: label(m.pace.hours)})});
  if (!mine) return box.replaceChildren(head);
  box.replaceChildren(head, ...m.pace.choices.map(n => {
    const b = el("button", {type: "button", className: "choice" + (n === m.pace.hours ? " on" : ""),
                            textContent: label(n)});
    b.dataset.op = `p:${n}`;
    b.setAttribute("aria-pressed", String(n === m.pace.hours));
    b.addEventListener("click", () => send({type: "lobby", op: `p:${n}`, name: nameOf()}));
    return b;
  }));
}
