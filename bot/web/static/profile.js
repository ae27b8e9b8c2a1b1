// A player's profile page (bot/web/profile.py): per game, their rating and rank in every chat
// together and in each chat they played in (this season, all time), their games, wins and win
// streaks; their latest games, each a link to its finished game's page; their achievements.

const P = CFG.profile;

function rating(r) {  // {rating, rank, of} or null (not rated there)
  return r ? w("web.profile.rating", {rating: r.rating.toFixed(1), rank: r.rank, of: r.of}) : w("web.profile.unrated");
}

function scope(title, record, rows) {
  // one place: its name, its ratings (a row each: [what, {rating…}]), its games and streaks
  const box = el("div", {className: "scope"}, el("h3", {textContent: title}));
  if (rows.length) box.append(el("dl", {}, ...rows.flatMap(([what, r]) => [el("dt", {textContent: what}),
                                                                           el("dd", {textContent: rating(r)})])));
  box.append(el("p", {className: "games", textContent: w("web.profile.games", {games: record.games, wins: record.wins})}),
             el("p", {className: "streak", textContent: w("web.profile.streak", {streak: record.streak, best: record.best_streak})}));
  return box;
}

function gameCard(g) {
  const card = el("section", {className: "card game-record"}, el("h2", {textContent: g.game_name}),
    scope(w("web.profile.everywhere"), g.everywhere, [[w("web.profile.all_time"), g.everywhere.rating]]),
    ...g.chats.map(c => {
      const box = scope(c.name || c.label, c, c.kind === "web" ? [] : [[w("web.profile.season"), c.season],
                                                                      [w("web.profile.all_time"), c.rating]]);
      box.dataset.kind = c.kind;
      return box;
    }));
  card.dataset.game = g.game;
  return card;
}

function when(seconds) {
  try { return new Date(seconds * 1000).toLocaleDateString(CFG.lang); } catch { return ""; }
}

$("name").textContent = P.name;
$("none").hidden = P.games.length > 0;
$("recent-card").before(...P.games.map(gameCard));
$("recent-card").hidden = !P.recent.length;
$("recent").replaceChildren(...P.recent.map(r => {
  const li = el("li", {}, el("a", {href: r.url, textContent: w("web.profile.recent_line", {table: r.table, game: r.game_name, where: r.where})}),
                el("span", {className: r.won ? "won" : "played", textContent: w(r.won ? "web.profile.won" : "web.profile.played")}),
                el("span", {className: "when", textContent: when(r.finished_at)}));
  li.dataset.table = String(r.table);
  return li;
}));
// the achievements (issue 48): [{game, key, name, how, count, first_table, first_url}] in each game's
// catalogue order, under the game's name
const earned = P.achievements || [];
$("achievements").hidden = !earned.length;
$("achievement-list").replaceChildren(...earned.flatMap((a, i) => {
  const li = el("li", {}, el("span", {className: "what", textContent: w("web.profile.achievement", {name: plain(a.name), count: a.count})}));
  li.dataset.key = a.key;
  if (a.how) li.append(el("span", {className: "how muted", textContent: plain(a.how)}));
  if (a.first_url) li.append(el("a", {href: a.first_url, textContent: w("web.profile.first", {table: a.first_table})}));
  const first = i === 0 || earned[i - 1].game !== a.game;
  return first ? [el("li", {className: "game-head"}, el("h3", {textContent: w("web.game." + a.game)})), li] : [li];
}));
