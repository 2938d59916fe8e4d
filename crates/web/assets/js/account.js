// The account in the site header, on every page: "Log in / Sign up", or the name (a link to the
// player page) with its ratings per variant and "Log out". The session is an HttpOnly cookie
// the pages cannot read: the server says whose it is (GET /api/sessions).

import { api, el } from './api.js';

/** The logged-in account's name, or null (a guest). */
export async function currentAccount() {
  try {
    return (await api('/api/sessions')).name;
  } catch {
    return null;
  }
}

/** A rating as players read it: `1662 ±290`. */
export function formatRating(r) {
  return `${Math.round(r.rating)} ±${Math.round(r.deviation)}`;
}

const ratings = new Map(); // name -> the promise of its ratings per variant

/** A player's rating in a variant, rounded (`1662`), or '' when it has none (or a guest): each
 * name is asked once per page. */
export async function ratingOf(name, variant) {
  if (!name) return '';
  if (!ratings.has(name)) {
    ratings.set(name, api(`/api/players/${encodeURIComponent(name)}`).then((p) => p.ratings).catch(() => ({})));
  }
  const r = (await ratings.get(name))[variant];
  return r ? String(Math.round(r.rating)) : '';
}

/** Forgets the ratings asked so far: the next `ratingOf` asks the server again (after a rated
 * game's result has moved them). */
export function forgetRatings() {
  ratings.clear();
}

/** Fills the header's `#account` and resolves to the account's name (null for a guest). */
export async function showAccount() {
  const box = document.getElementById('account');
  const name = await currentAccount();
  if (!box) return name;
  if (!name) {
    box.replaceChildren(el('a', { href: '/account', id: 'login-link' }, 'Log in / Sign up'));
    return null;
  }
  let ratings = {};
  try {
    ratings = (await api(`/api/players/${encodeURIComponent(name)}`)).ratings || {};
  } catch {
    // the name alone still says who is logged in
  }
  const shown = Object.entries(ratings).map(([variant, r]) => `${variant} ${Math.round(r.rating)}`).join(', ');
  const logOut = el('button', { type: 'button', id: 'logout', class: 'linkish' }, 'Log out');
  logOut.addEventListener('click', async () => {
    try {
      await api('/api/sessions', { method: 'DELETE' });
    } finally {
      location.reload();
    }
  });
  box.replaceChildren(
    el('a', { href: `/players/${encodeURIComponent(name)}`, id: 'account-name' }, name),
    shown ? el('span', { class: 'ratings', id: 'account-ratings' }, ` (${shown})`) : '',
    ' ', logOut);
  return name;
}
