// The trade builder (B-15): what the server sends back for each change; every control sends one
// op of bot/chat/trade_builder.py, and the server answers with the whole builder again.

let send = () => {};
export function useSender(fn) { send = fn; }  // the page's socket (table.js)
export function tradeOp(op, values) { send({type: "trade", op, values: values || []}); }

export function showTrade(m) {
  const box = $("trade");
  if (!box) return;
  if (m.gone) {  // the offer was answered before its receipt could be shown: the moves say how
    box.hidden = true;
    document.body.dataset.trade = "closed";
    return;
  }
  box.hidden = false;
  $("trade-text").textContent = plain(m.text);
  document.body.dataset.trade = m.closed ? "closed" : "open";
  const c = m.controls;
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
  const cash = m.draft ? m.draft.cash : 0;
  $("trade-you").value = String(Math.max(cash, 0));
  $("trade-them").value = String(Math.max(-cash, 0));
  $("trade-cash").onclick = () => tradeOp("xm", [$("trade-you").value || "0", $("trade-them").value || "0"]);
  $("trade-steps").replaceChildren(...[...c.cash, ...c.cards].map(([label, op]) =>
    el("button", {textContent: plain(label), className: "quiet", onclick: () => tradeOp(op)})));
  $("trade-finish").replaceChildren(...c.finish.map(([label, op]) => {
    const button = el("button", {textContent: plain(label), onclick: () => tradeOp(op)});
    button.dataset.op = op;
    return button;
  }));
}
