// A player's page: GET /api/players/{name}, the ratings per variant and the recent games (each a
// link to its game page).

import { api, el, describeSpec } from './api.js';
import { showAccount, formatRating } from './account.js';

const $ = (selector) => document.getElementById(selector);
const name = decodeURIComponent(location.pathname.split('/')[2] || '');

/** A game of the list in words, dated by its last activity:
 * `2026-12-06 · Go 9×9, positional superko · ann – bee · B+R (rated)`. */
function gameLine(game) {
  const who = ['black', 'white'].map((side) => game.accounts[side] || (game.players[side].kind === 'ai' ? `AI level ${game.players[side].level}` : 'guest')).join(' – ');
  const state = game.status === 'finished' ? game.result || 'finished' : game.status;
  const day = new Date(game.updated_ms).toISOString().slice(0, 10);
  return el('li', { class: 'game', 'data-game': game.id },
    el('time', { datetime: day }, day), ' · ',
    el('a', { href: `/game/${encodeURIComponent(game.id)}` }, describeSpec(game.spec)),
    ` · ${who} · ${state}${game.rated ? ' (rated)' : ''}`);
}

let next = null; // where the next page of games starts (`before`), or null on the last one

/** Adds a page of games to the list (the first page replaces "No public game yet."). */
function showGames(player, first) {
  const lines = player.recent.map(gameLine);
  if (first) $('recent').replaceChildren(...(lines.length ? lines : [el('li', { class: 'empty' }, 'No public game yet.')]));
  else $('recent').append(...lines);
  next = player.next;
  $('older').hidden = next === null || next === undefined;
}

async function start() {
  showAccount();
  try {
    const player = await api(`/api/players/${encodeURIComponent(name)}`);
    document.title = `${player.name} · variago`;
    $('player-name').textContent = player.name;
    const ratings = Object.entries(player.ratings);
    $('player-ratings').tBodies[0].replaceChildren(...ratings.map(([variant, r]) => el('tr', { 'data-variant': variant },
      el('td', {}, el('a', { href: `/ratings?variant=${encodeURIComponent(variant)}` }, variant)),
      el('td', { class: 'rating' }, formatRating(r)),
      el('td', {}, String(r.games)))));
    $('no-ratings').hidden = ratings.length > 0;
    // no table of empty headers
    $('player-ratings').hidden = ratings.length === 0;
    showGames(player, true);
  } catch (error) {
    $('player-name').textContent = error.status === 404 ? 'No such player' : 'Player';
    $('message').textContent = error.message;
    // nothing to show under the headings
    for (const section of document.querySelectorAll('main.player-page section')) section.hidden = true;
  }
}

$('older').addEventListener('click', async () => {
  try {
    showGames(await api(`/api/players/${encodeURIComponent(name)}?before=${next}`), false);
  } catch (error) {
    $('message').textContent = error.message;
  }
});

start();
