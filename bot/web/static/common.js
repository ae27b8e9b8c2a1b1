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
