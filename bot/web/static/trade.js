// The trade builder (B-15): what the server sends back for each change; every control sends one
// op of bot/chat/trade_builder.py, and the server answers with the whole builder again.

let send = () => {};
let shownCash = null;  // the draft's cash the fields were last filled with
let offers = [], pressOffer = () => false, offering = false;  // the ready-made offers; a fresh offer being built
export function useSender(fn) { send = fn; }  // the page's socket (table.js)

// The rules' ready-made offers ([line, token]: each a move of the player's, kept out of their moves)
// are the builder's suggestions, listed while a fresh offer is built; a tap sends that very move by
// its token (``press``: table.js's, as any move), and the builder goes, its draft left unsent.
export function useSuggestions(list, press) {
  offers = list || [];
  pressOffer = press;
  drawSuggestions();
}

function drawSuggestions() {
  const box = $("trade-suggest");
  if (!box) return;
  box.hidden = !(offering && offers.length);
  $("trade-suggestions").replaceChildren(...offers.map(([line, token], i) => {
    const button = el("button", {type: "button", className: "quiet", textContent: w("web.trade.send_this")});
    button.dataset.token = token;
    button.setAttribute("aria-describedby", `trade-suggestion-${i}`);
    button.addEventListener("click", () => {
      if (!pressOffer(token)) return;
      $("trade").hidden = true;
      document.body.dataset.trade = "closed";
    });
    return el("li", {}, el("span", {id: `trade-suggestion-${i}`, textContent: plain(line)}), button);
  }));
}
export function tradeOp(op, values) { send({type: "trade", op, values: values || []}); }

export function tradeNote(own) {
  // beside "Propose a trade" when it is not there: why no offer may be made now (the server's words)
  return own.trade_note ? [el("p", {className: "muted trade-why", textContent: plain(own.trade_note)})] : [];
}

export function showTrade(m) {
  const box = $("trade");
  if (!box) return;
  const c = m.controls;
  if (!c) shownCash = null;  // a builder opened next fills its fields afresh
  if (m.gone) {  // the offer was answered before its receipt could be shown: the moves say how
    box.hidden = true;
    offering = false;
    document.body.dataset.trade = "closed";
    return;
  }
  box.hidden = false;
  $("trade-text").textContent = plain(m.text);
  // under the summary: what its net value is (while an offer is built), or why no other offer may be made now
  const note = m.why || (c && m.draft && m.draft.target >= 0 ? w("web.trade.net_help") : "");
  let line = $("trade-note");
  if (!line) { line = el("p", {id: "trade-note", className: "muted"}); $("trade-text").after(line); }
  line.textContent = note;
  line.hidden = !note;
  document.body.dataset.trade = m.closed ? "closed" : "open";
  offering = Boolean(c) && !(m.draft && m.draft.counter);
  drawSuggestions();
  for (const id of ["trade-partner-row", "trade-steps"]) $(id).hidden = !c;
  box.querySelector(".sides").hidden = !c;
  box.querySelector(".cash").hidden = !c;
  if (!c) {
    $("trade-finish").replaceChildren(el("button", {textContent: w("web.close"), className: "quiet",
                                                    onclick: () => { box.hidden = true; }}));
    return;
  }
  $("trade-partner-row").hidden = !c.partners.length;
  $("trade-partner").replaceChildren(...c.partners.map(([label, seat, on]) =>
    el("option", {value: String(seat), textContent: label, selected: on})));
  $("trade-partner").onchange = () => tradeOp("p" + $("trade-partner").value);
  for (const [id, items, op] of [["trade-mine", c.mine, "m"], ["trade-theirs", c.theirs, "y"]]) {
    $(id).replaceChildren(...items.map(([label, sq, on]) => {
      const tick = el("input", {type: "checkbox", checked: on, value: String(sq)});
      tick.dataset.square = String(sq);
      tick.addEventListener("change", () => tradeOp(op + sq));
      return el("label", {}, tick, " " + label);
    }));
  }
  // the fields show the draft's cash; amounts typed and not set yet stay while the draft's cash is unchanged
  const cash = m.draft ? m.draft.cash : 0;
  if (cash !== shownCash) {
    $("trade-you").value = String(Math.max(cash, 0));
    $("trade-them").value = String(Math.max(-cash, 0));
    shownCash = cash;
  }
  const typed = () => [$("trade-you").value || "0", $("trade-them").value || "0"];
  $("trade-cash").onclick = () => tradeOp("xm", typed());
  $("trade-steps").replaceChildren(...[...c.cash, ...c.cards].map(([label, op]) =>
    el("button", {textContent: plain(label), className: "quiet", onclick: () => tradeOp(op)})));
  // "Send offer" carries the amounts typed in the fields, set before the offer goes (not lost when
  // "Set cash" was not pressed first)
  $("trade-finish").replaceChildren(...c.finish.map(([label, op]) => {
    const button = el("button", {textContent: plain(label), onclick: () => tradeOp(op, op === "s" ? typed() : [])});
    button.dataset.op = op;
    return button;
  }));
}
