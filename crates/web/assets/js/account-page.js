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

$('password-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('password-message').textContent = '';
  $('password-message').classList.remove('ok');
  try {
    await api('/api/accounts/password', { method: 'PUT', body: { password: $('password-now').value, new_password: $('password-new').value } });
    $('password-form').reset();
    $('password-message').textContent = 'Password changed: your other sessions are logged out.';
    // a success, not a refusal: not in the refusals' red
    $('password-message').classList.add('ok');
  } catch (error) {
    $('password-message').textContent = error.message;
  }
});

$('delete-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('delete-message').textContent = '';
  try {
    await api('/api/accounts', { method: 'DELETE', body: { password: $('delete-password').value } });
    location.href = '/';
  } catch (error) {
    $('delete-message').textContent = error.message;
  }
});

// logged in already: the sign-up and log-in forms give way to who is logged in and the
// account's care (its password, its deletion)
showAccount().then((name) => {
  if (!name) return;
  for (const section of document.querySelectorAll('main.account-page section')) section.hidden = section.id !== 'care';
  const intro = document.querySelector('main.account-page > p');
  intro.replaceChildren(`You are logged in as ${name}. `, el('a', { href: `/players/${encodeURIComponent(name)}` }, 'Your page'),
    ' shows your ratings and games; ', el('a', { href: '/' }, 'the lobby'), ' your games in play. Log out at the top right.');
});
