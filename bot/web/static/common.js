// Shared by every page: the words of the page's language, the language links, small helpers.
"use strict";
const CFG = window.TYCOON;
function w(key, params) {
  let text = CFG.words[key] || key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
}
function $(id) { return document.getElementById(id); }
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const child of children) node.append(child);
  return node;
}
function fillWords(root) {
  for (const node of (root || document).querySelectorAll("[data-t]")) node.textContent = w(node.dataset.t);
}
function showError(text) {
  const box = $("error");
  box.textContent = text || "";
  clearTimeout(showError.timer);
  if (text) showError.timer = setTimeout(() => { box.textContent = ""; }, 6000);
}
const LANG_NAMES = {"zh-Hans": "简体", "zh-Hant": "繁體", "en": "EN"};
function langLinks() {
  const nav = $("langs");
  for (const lang of CFG.langs) {
    const url = new URL(location.href);
    url.searchParams.set("lang", lang);
    nav.append(el("a", {href: url.pathname + url.search + url.hash, textContent: LANG_NAMES[lang] || lang,
                        className: lang === CFG.lang ? "on" : ""}));
  }
}
fillWords();
langLinks();
// No emoji on a page: the fonts a system has may draw them as boxes; a label keeps its words.
const PICTOGRAPHS = /[\p{Extended_Pictographic}\u{2B1C}\u{2705}][\u{FE0F}\u{200D}]*\s*/gu;
function plain(text) { return String(text || "").replace(PICTOGRAPHS, "").trim(); }

// WCAG's contrast of two colours written "#rrggbb": 1 (the same) to 21 (black on white).
function luminance(hex) {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map(v => {
    v /= 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => p - q);
  return (y + 0.05) / (x + 0.05);
}
function mixHex(a, b, share) {  // ``a`` with ``share`` (0 to 1) of ``b``
  const n = parseInt(a.slice(1), 16), m = parseInt(b.slice(1), 16);
  const part = (shift) => Math.round(((n >> shift) & 255) * (1 - share) + ((m >> shift) & 255) * share);
  return "#" + [16, 8, 0].map(s => part(s).toString(16).padStart(2, "0")).join("");
}
// The players' colours as this page draws them (tokens, owners' marks, swatches, the chart's lines):
// on a dark page (the scheme, or a dark Telegram theme) a colour under 3:1 against the board's felt
// or the cards (WCAG's non-text contrast: the near-black player on the dark felt) is lightened,
// towards the page's ink, until it stands out; a light page draws the pictures' colours as they are
// (a mark there has a ring of the ink and a white border: table.css).
function fitColours(colours) {
  const style = getComputedStyle(document.documentElement);
  const hex = (name) => style.getPropertyValue(name).trim();
  const grounds = ["--felt", "--card"].map(hex).filter(c => /^#[0-9a-f]{6}$/i.test(c));
  const ink = /^#[0-9a-f]{6}$/i.test(hex("--ink")) ? hex("--ink") : "#ffffff";
  if (!grounds.length || grounds.some(c => luminance(c) > 0.2)) return colours.slice();
  return colours.map(colour => fitColour(colour, grounds, ink));
}
// ``colour`` mixed towards ``ink`` a twentieth at a time until it stands out 3:1 from each of ``grounds``
// (on a light ground, with a dark ink, it darkens; on a dark one it lightens)
function fitColour(colour, grounds, ink) {
  let fitted = colour;
  for (let step = 1; step <= 20 && grounds.some(c => contrast(fitted, c) < 3); step++) {
    fitted = mixHex(colour, ink, step / 20);
  }
  return fitted;
}
function rgbHex(css) {  // a computed colour, "rgb(r, g, b)", as "#rrggbb"
  const parts = String(css).match(/\d+(\.\d+)?/g) || ["0", "0", "0"];
  return "#" + parts.slice(0, 3).map(n => Math.round(Number(n)).toString(16).padStart(2, "0")).join("");
}
