// The sign-up and log-in page: two forms on POST /api/accounts and POST /api/sessions; the
// server sets the session cookie, and the page goes back to the lobby.

import { api, el } from './api.js';
import { showAccount } from './account.js';

const $ = (selector) => document.getElementById(selector);

async function logIn(name, password) {
  await api('/api/sessions', { method: 'POST', body: { name, password } });
  location.href = '/';
}

$('signup-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('signup-message').textContent = '';
  const name = $('signup-name').value.trim();
  const password = $('signup-password').value;
  try {
    await api('/api/accounts', { method: 'POST', body: { name, password } });
    await logIn(name, password);
  } catch (error) {
    $('signup-message').textContent = error.message;
  }
});

$('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('login-message').textContent = '';
  try {
    await logIn($('login-name').value.trim(), $('login-password').value);
  } catch (error) {
    $('login-message').textContent = error.message;
  }
});

// logged in already: the forms give way to who is logged in
showAccount().then((name) => {
  if (!name) return;
  for (const section of document.querySelectorAll('main.account-page section')) section.hidden = true;
  const intro = document.querySelector('main.account-page > p');
  intro.replaceChildren(`You are logged in as ${name}. `, el('a', { href: `/players/${encodeURIComponent(name)}` }, 'Your page'),
    ' shows your ratings and games; ', el('a', { href: '/' }, 'the lobby'), ' your games in play. Log out at the top right.');
});
