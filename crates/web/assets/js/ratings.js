// The leaderboard page: GET /api/ratings?variant=V, highest rating first, the variant chosen in
// the list (and kept in the address, `/ratings?variant=go`).

import { api, el } from './api.js';
import { showAccount, formatRating } from './account.js';

const $ = (selector) => document.getElementById(selector);

async function load(variant) {
  $('message').textContent = '';
  try {
    const rows = await api(`/api/ratings?variant=${encodeURIComponent(variant)}`);
    $('leaderboard').tBodies[0].replaceChildren(...rows.map((r, i) => el('tr', { 'data-player': r.name },
      el('td', {}, String(i + 1)),
      el('td', {}, el('a', { href: `/players/${encodeURIComponent(r.name)}` }, r.name)),
      el('td', { class: 'rating' }, formatRating(r)),
      el('td', {}, String(r.games)))));
    $('ratings-empty').hidden = rows.length > 0;
  } catch (error) {
    $('message').textContent = error.message;
  }
}

async function start() {
  showAccount();
  const wanted = new URLSearchParams(location.search).get('variant') || 'go';
  try {
    const { variants } = await api('/api/variants');
    $('ratings-variant').replaceChildren(...variants.map((v) => el('option', { value: v.name, selected: v.name === wanted }, v.name)));
  } catch (error) {
    $('message').textContent = error.message;
  }
  $('ratings-variant').addEventListener('change', (event) => {
    history.replaceState(null, '', `/ratings?variant=${encodeURIComponent(event.target.value)}`);
    load(event.target.value);
  });
  load(wanted);
}

start();
